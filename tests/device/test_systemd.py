"""The systemd unit that runs dicetable on the Pi is valid and restarts the table."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).parents[2] / "systemd" / "dicetable.service"


def test_the_unit_restarts_the_table_and_keeps_its_state() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    service = unit["Service"]
    assert service["Restart"] == "always"
    assert service["StateDirectory"] == "dicetable"
    assert "DICETABLE_STATE=/var/lib/dicetable" in service["Environment"]
    assert service["ExecStart"].split()[1:3] == ["serve", "--port"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package systemd)")
def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    installed = tmp_path / "dicetable.service"
    script = Path(sys.executable).with_name("dicetable")
    installed.write_text(UNIT.read_text().replace("/opt/dicetable/.venv/bin/dicetable",
                                                  str(script)))
    done = subprocess.run(["systemd-analyze", "verify", str(installed)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "dicetable.service" not in done.stderr, done.stderr
