"""``dicetable pin``: one state folder for every command; a folder without a table is said so,
never filled with a new one; ``--new`` changes the PIN, ``--link`` prints the host's link."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.journal import Journal
from device.serving import ServingLock
from device.state_dir import journal_path
from dicetable.child import ServedTable, free_port, start_serving
from dicetable.cli import main
from web.client import Phone

ROOT = Path(__file__).parents[2]
SCRIPT = Path(sys.executable).with_name("dicetable")


def test_a_folder_without_a_table_is_said_so_and_left_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pin", "--state", str(tmp_path)]) == 2
    assert "there is no table in" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_pin_prints_the_pin_of_the_served_table_and_new_changes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ServedTable(tmp_path / "state") as table:
        phone = Phone(table.url, pin=table.pin)
        assert main(["pin", "--state", str(table.state)]) == 0
        assert capsys.readouterr().out.strip() == table.pin
        assert main(["pin", "--link", "--state", str(table.state)]) == 0
        link = capsys.readouterr().out.strip()
        assert link.startswith(f"{table.url}/auth/join?token=")

        assert main(["pin", "--new", "--state", str(table.state)]) == 0
        new = capsys.readouterr().out.strip()
        assert new == table.pin and len(new) == 6
        # The running table takes the new PIN at once, and the old grant is revoked.
        assert phone.get("/api/state")[1]["auth"] is False
        assert main(["pin", "--link", "--state", str(table.state)]) == 0
        assert capsys.readouterr().out.strip() != link
        phone.enter_pin(new)
        assert phone.get("/api/state")[1]["auth"] is True


def _link_of_a_table_left_by_an_earlier_version(state: Path, capsys: pytest.CaptureFixture[str],
                                               *, serving: bool) -> str:
    """What ``pin --link`` says (on stderr) of a table whose journal an earlier version of
    dicetable made, which did not keep where it listens; ``serving``: that version serves it
    now (it holds the folder, as a serve does)."""
    Journal(journal_path(state)).close()
    with ServingLock(state) if serving else contextlib.nullcontext():
        assert main(["pin", "--link", "--state", str(state)]) == 2
    said = capsys.readouterr()
    assert said.out == ""  # no link: any port guessed may not be the table's
    return said.err


def test_the_link_of_a_table_starting_or_served_by_an_earlier_version_says_to_wait_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a serve holds the folder from its start, and says where it listens only once its
    # camera, buttons and app started: a table starting was told to restart
    said = _link_of_a_table_left_by_an_earlier_version(tmp_path, capsys, serving=True)
    assert "is starting, or was started by an earlier version of dicetable" in said
    assert "wait a moment and ask again; if it still says so, restart it once (sudo " \
           "systemctl restart dicetable" in said


def test_the_link_of_a_table_not_served_since_an_update_says_to_serve_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = _link_of_a_table_left_by_an_earlier_version(tmp_path, capsys, serving=False)
    assert "has not been served by this version of dicetable yet" in said
    assert "`dicetable serve` (or sudo systemctl start dicetable)" in said
    assert not (tmp_path / "serving.lock").exists()  # no lock file made by asking


def test_serve_and_pin_use_the_same_default_folder(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "xdg")}
    env.pop("DICETABLE_STATE", None)
    port = free_port()
    serve = start_serving([str(SCRIPT), "serve", "--host", "127.0.0.1", "--port", str(port)],
                          env=env)
    try:
        done = subprocess.run([str(SCRIPT), "pin"], env=env, capture_output=True, text=True,
                              check=True)
    finally:
        serve.terminate()
        serve.wait(timeout=10)
    journal = Journal.existing(tmp_path / "xdg" / "dicetable" / "table.db")
    assert done.stdout.strip() == journal.pin()


def test_make_run_serves_from_the_default_folder(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    env.pop("DICETABLE_STATE", None)
    env.pop("XDG_STATE_HOME", None)
    done = subprocess.run(["make", "-n", "-C", str(ROOT), "run"], capture_output=True,
                          text=True, check=True, env=env)
    serve = [line for line in done.stdout.splitlines() if "dicetable serve" in line]
    default = tmp_path / ".local" / "state" / "dicetable"
    assert serve and all(f"--state {default} " in line for line in serve)
    pin = subprocess.run([str(SCRIPT), "pin", "--link"], env=env, capture_output=True,
                         text=True)
    assert f"there is no table in {default}" in pin.stderr
