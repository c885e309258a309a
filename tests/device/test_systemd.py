"""The systemd unit that runs dicetable on the Pi is valid and restarts the table."""

from __future__ import annotations

import configparser
import os
import re
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


def test_the_unit_never_gives_up_on_a_table_refused_at_start() -> None:
    # A table started while a restore holds its state is refused at once (tests/dicetable/
    # test_backup.py) and started again after RestartSec, for as long as the restore runs:
    # systemd's default start limit, 5 starts in 10 s, left a unit whose starts came under 2 s
    # apart down for good, restore done or not (seen with RestartSec=100ms and 500ms).
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"  # no start limit
    assert unit["Service"]["Restart"] == "always" and float(unit["Service"]["RestartSec"]) >= 1


def test_a_table_its_config_file_refuses_is_not_started_again_and_another_refusal_is(
        tmp_path: Path) -> None:
    """A config file that keeps the table from starting restarted it every 2 s for ever (exit
    2, as every refusal), importing the camera's libraries each time (seconds on a Pi 4); it
    now exits with a status the unit does not restart, until the file is fixed."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    kept_down = {int(status) for status in unit["Service"]["RestartPreventExitStatus"].split()}
    config = tmp_path / "config.toml"
    config.write_text("[server]\nhots = \"127.0.0.1\"\n")
    state_a_file = tmp_path / "state"
    state_a_file.write_text("")
    statuses = [subprocess.run([sys.executable, "-m", "dicetable", "serve", "--port", "0",
                                *args], capture_output=True, text=True, timeout=30,
                               check=False).returncode
                for args in (["--state", str(tmp_path / "s"), "--config", str(config)],
                             ["--state", str(state_a_file), "--host", "127.0.0.1"])]
    assert statuses[0] in kept_down, statuses
    assert statuses[1] != 0 and statuses[1] not in kept_down, statuses


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


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package systemd)")
def test_the_unit_is_hardened_to_an_exposure_of_at_most_4(tmp_path: Path) -> None:
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(UNIT)],
                          capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for dicetable.service: ([\d.]+) (\w+)",
                      done.stdout)
    assert found is not None, done.stdout + done.stderr
    assert float(found[1]) <= 4.0 and found[2] == "OK"


def test_the_unit_is_a_notify_service_with_a_watchdog_and_its_devices() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    service = unit["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    assert service["SupplementaryGroups"].split() == ["video", "gpio", "audio"]
    allowed = UNIT.read_text().split("DeviceAllow=")[1:]
    assert {line.split()[0] for line in allowed} >= {
        "char-video4linux", "char-media", "char-gpiochip", "char-alsa"}


INSTALL = UNIT.parent / "install"


def tree(root: Path) -> dict[str, tuple[str, bytes]]:
    """Every file and link under ``root``: its kind and content (a link: its target)."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            found[str(path.relative_to(root))] = ("link", os.readlink(path).encode())
        elif path.is_file() and "__pycache__" not in path.parts:
            found[str(path.relative_to(root))] = ("file", path.read_bytes())
    return found


def install(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(INSTALL), "--root", str(root), "--no-pip", *options],
                          capture_output=True, text=True, check=True, timeout=120)


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None or shutil.which("systemctl") is None,
                    reason="systemd's tools are not installed (Debian package systemd)")
def test_the_installer_writes_a_working_table_into_a_root_and_a_second_run_changes_nothing(
        tmp_path: Path) -> None:
    root = tmp_path / "pi"
    root.mkdir()
    install(root)
    etc = root / "etc"
    passwd = (etc / "passwd").read_text()
    assert re.search(r"^dicetable:x:\d+:\d+:[^:]*:/var/lib/dicetable:/usr/sbin/nologin$",
                     passwd, re.M)
    groups = {line.split(":")[0]: line.split(":")[3].split(",")
              for line in (etc / "group").read_text().splitlines()}
    assert all("dicetable" in groups[g] for g in ("video", "gpio", "audio"))
    unit = (etc / "systemd/system/dicetable.service").read_text()
    assert "ExecStart=/opt/dicetable/.venv/bin/dicetable serve --port 8017" in unit
    wants = etc / "systemd/system/multi-user.target.wants/dicetable.service"
    assert os.readlink(wants) == "/etc/systemd/system/dicetable.service"
    assert "<port>8017</port>" in (etc / "avahi/services/dicetable.service").read_text()
    assert (etc / "hostname").read_text() == "dicetable\n"
    assert 'subject.user == "dicetable"' in (
        etc / "polkit-1/rules.d/50-dicetable-poweroff.rules").read_text()
    venv = root / "opt/dicetable/.venv/pyvenv.cfg"
    assert "include-system-site-packages = true" in venv.read_text()
    assert (root / "opt/dicetable/dicetable/serve.py").is_file()
    assert not (etc / "comitup.conf").exists()  # the Pi's Wi-Fi is left as it was
    config = etc / "dicetable/config.toml"
    assert 'source = "picamera2"' in config.read_text()
    config.write_text('[camera]\nsource = "0"\n')  # the owner's own
    before = tree(root)
    second = install(root)
    assert tree(root) == before
    assert "wrote" not in second.stdout and "Creating" not in second.stdout + second.stderr


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None or shutil.which("systemctl") is None,
                    reason="systemd's tools are not installed (Debian package systemd)")
def test_the_installer_says_a_held_stop_cannot_power_off_an_image_without_polkitd(
        tmp_path: Path) -> None:
    # the power-off rule is read by polkitd alone: without it systemctl poweroff is refused
    bare, with_polkit = tmp_path / "bare", tmp_path / "polkit"
    polkitd = with_polkit / "usr/lib/polkit-1/polkitd"
    polkitd.parent.mkdir(parents=True)
    polkitd.write_text("#!/bin/sh\n")
    polkitd.chmod(0o755)
    bare.mkdir()
    says = "polkitd is not installed: a held stop button cannot power the Pi off until it is " \
           "(apt install polkitd)"
    assert says in install(bare, "--no-apt").stdout
    assert "polkitd" not in install(with_polkit, "--no-apt").stdout


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None or shutil.which("systemctl") is None,
                    reason="systemd's tools are not installed (Debian package systemd)")
def test_a_checkout_run_before_installing_gets_a_venv_that_sees_the_pis_packages(
        tmp_path: Path) -> None:
    root = tmp_path / "pi"
    venv = root / "opt/dicetable/.venv"
    # `make run` in /opt/dicetable before `make install-pi`: a venv of its own
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    done = install(root)
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    assert "now sees the system's packages" in done.stdout


def comitup_settings(path: Path) -> configparser.SectionProxy:
    """/etc/comitup.conf read as comitup reads it (its keys under a [DEFAULT] it adds)."""
    settings = configparser.ConfigParser()
    settings.read_string("[DEFAULT]\n" + path.read_text())
    return settings["DEFAULT"]


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None or shutil.which("systemctl") is None,
                    reason="systemd's tools are not installed (Debian package systemd)")
def test_wifi_setup_names_the_hotspot_after_the_pi_with_a_password_once(tmp_path: Path) -> None:
    root = tmp_path / "pi"
    root.mkdir()
    first = install(root, "--no-apt", "--wifi-setup", "--hostname", "tafel")
    conf = root / "etc/comitup.conf"
    assert "wrote /etc/comitup.conf" in first.stdout
    settings = comitup_settings(conf)
    assert re.fullmatch(r"tafel-\d{4}", settings["ap_name"])
    assert re.fullmatch(r"[a-z2-9]{10}", settings["ap_password"])
    assert not set(settings["ap_password"]) & set("01ilo")  # read off a card
    assert settings.getboolean("enable_appliance_mode") is False
    assert "web_service" not in settings  # the table is not stopped while the hotspot is up
    before = tree(root)
    second = install(root, "--no-apt", "--wifi-setup", "--hostname", "tafel")
    assert tree(root) == before  # the same name and password, not new ones
    assert "wrote" not in second.stdout


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None or shutil.which("systemctl") is None,
                    reason="systemd's tools are not installed (Debian package systemd)")
def test_wifi_setup_keeps_the_owners_comitup_settings_and_replaces_the_packages_comments(
        tmp_path: Path) -> None:
    owners, packaged = tmp_path / "owners", tmp_path / "packaged"
    (owners / "etc").mkdir(parents=True)
    (owners / "etc/comitup.conf").write_text("ap_name: our-table\nap_password: letmein99\n")
    install(owners, "--no-apt", "--wifi-setup")
    assert (owners / "etc/comitup.conf").read_text() == (
        "ap_name: our-table\nap_password: letmein99\n")
    # comitup installed before, its file as the package ships it: every setting commented out
    (packaged / "etc").mkdir(parents=True)
    (packaged / "etc/comitup.conf").write_text("# ap_name: comitup-<nnn>\n# web_service: x\n")
    install(packaged, "--no-apt", "--wifi-setup")
    assert re.fullmatch(r"dicetable-\d{4}",
                        comitup_settings(packaged / "etc/comitup.conf")["ap_name"])


@pytest.mark.parametrize(("options", "says"), [
    (["--hostname", "--no-apt"], "install: --hostname needs a name"),  # not named "--no-apt"
    (["--hostname", "a/b"], 'the Pi\'s name may hold letters, digits and hyphens (at most 63), '
                            'not "a/b"'),
    (["--prefix", "relative/x"], "install: --prefix needs a path from /, not relative/x"),
])
def test_the_installer_refuses_options_it_cannot_use_before_writing_anything(
        tmp_path: Path, options: list[str], says: str) -> None:
    root = tmp_path / "pi"
    root.mkdir()
    done = subprocess.run([str(INSTALL), "--root", str(root), "--no-apt", "--no-pip", *options],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 1 and says in done.stderr
    assert list(root.iterdir()) == []


def test_the_installers_help_is_its_whole_heading_with_every_option() -> None:
    heading = []
    for line in INSTALL.read_text(encoding="utf-8").splitlines()[1:]:
        if not line.startswith("#"):
            break
        heading.append(re.sub(r"^# ?", "", line))
    done = subprocess.run([str(INSTALL), "--help"], capture_output=True, text=True, check=True,
                          timeout=60)
    assert done.stdout.splitlines() == heading
    taken = re.findall(r"^\s+(--[a-z-]+)\)", INSTALL.read_text(encoding="utf-8"), re.MULTILINE)
    assert taken and [option for option in taken if option not in done.stdout] == []


def test_every_readme_section_the_pi_files_send_a_reader_to_is_a_heading_of_it() -> None:
    # config.toml sent the owner to "The config file", a paragraph of "Commands"
    folder = UNIT.parent
    readme = (folder.parent / "README.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (.+)$", readme, re.MULTILINE))
    sent = {(path.name, name) for path in folder.iterdir() if path.is_file()
            for name in re.findall(r'README, "([^"]+)"', path.read_text(encoding="utf-8"))}
    assert {name for _, name in sent} >= {"On the Pi", "The config file"}
    assert [(file, name) for file, name in sorted(sent) if name not in headings] == []
