"""The config file: sections for each part, and a clear word for what is wrong."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from device.button_config import ButtonConfig
from device.config import ConfigError, config_path, load_config, unknown_keys
from device.notice import Notice
from dicetable.child import ServedTable
from dicetable.cli import build_parser, main
from dicetable.serve_settings import ServeSettings, serve_settings
from web.wording import notice_text


def test_no_file_means_every_default() -> None:
    assert load_config(None).section("camera") == {}


@pytest.mark.parametrize(("text", "says"), [
    ("[camera\nsource = 0\n", "not a valid config file"),
    ("[camra]\nsource = 0\n", r"unknown section \[camra\]"),
    # a wrong [server] or [camera] would serve the wrong thing: only [buttons] is forgiven
    ("[sever]\nport = 80\n[buttons]\nstop = 17\n", r"unknown section \[sever\]"),
    ("camera = 3\n", "camera must be a section"),
    # near [buttons] but not it misspelt: another section
    ("[buttons_old]\nstop = 17\n", r"unknown section \[buttons_old\]"),
    ("[button_leds]\nstop = 5\n", r"unknown section \[button_leds\]"),
    ("[mutton]\nstop = 17\n", r"unknown section \[mutton\]"),
    ("button = 17\n", "button = 17 is a setting outside any section"),
])
def test_a_bad_file_is_named_with_what_is_wrong(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=says) as err:
        load_config(path)
    assert str(path) in str(err.value)


def test_a_missing_file_and_a_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="a folder"):
        load_config(tmp_path)


def test_an_unknown_setting_is_named() -> None:
    [unknown] = unknown_keys({"prot": 80, "port": 80}, ("host", "port"), "x [server]")
    assert str(unknown) == "x [server]: unknown setting “prot” (known: host, port)"


def test_the_environment_names_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DICETABLE_CONFIG", str(tmp_path / "c.toml"))
    assert config_path(None) == tmp_path / "c.toml"
    assert config_path(tmp_path / "given.toml") == tmp_path / "given.toml"


LANGUAGES = ("en", "es", "it", "pt")


@pytest.mark.parametrize(("setting", "says", "default"), [
    ('[server]\nport = "eighty"', "port = “eighty”: it must be a whole number", {"port": 8017}),
    # A number past 65535 would wrap round to another port, and the table answer there.
    ("[server]\nport = 99999", "port = 99999: it must be from 0 to 65535", {"port": 8017}),
    # none would refuse every phone's live view; 0 frames a second stopped the camera
    ("[server]\nmax_streams = 0", "max_streams = 0: it must be from 1 to 10000",
     {"max_streams": 40}),
    ('[camera]\nsource = "picamera2"\nfps = 0', "fps = 0: it must be above 0 and at most 1000",
     {"fps": None, "source": "picamera2"}),
    ("[camera]\nfps = nan", "fps = nan: it must be above 0 and at most 1000", {"fps": None}),
])
def test_a_wrong_setting_is_left_at_its_default_and_the_host_told(
        tmp_path: Path, setting: str, says: str, default: dict[str, object]) -> None:
    """A wrong [server] or [camera] setting kept the table from starting (exit 2): under
    systemd it started again every 2 s for ever, and the phones had no score pad and no
    reason; the table now serves with that setting's default, the others as written."""
    path = tmp_path / "config.toml"
    path.write_text(f'{setting}\n[buttons]\nstop = 5\n')
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert {name: getattr(settings, name) for name in default} == default
    assert settings.buttons == ButtonConfig(stop=5, shout=None)  # the other sections as written
    [notice] = settings.told
    section = setting.split("\n")[0]
    assert notice_text("en", notice) == (
        f"Some of the table's settings are wrong. In the config file {path}: in {section}, "
        f"{says}. The table uses its default for each of them until the config file is fixed and "
        "the table restarted.")
    for lang in LANGUAGES:
        told = notice_text(lang, notice)
        assert str(path) in told and f"{section}, {says.split(':')[0]}" in told, told
        assert "{" not in told, told
        assert str(path) not in notice_text(lang, notice.guest or notice)


def test_a_wrong_port_leaves_the_others_of_its_section_as_written(tmp_path: Path) -> None:
    # the default of each wrong setting alone: a table kept to 127.0.0.1 is not opened to all
    path = tmp_path / "config.toml"
    path.write_text('[server]\nhost = "127.0.0.1"\nport = 99999\nmax_streams = 0\n')
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert (settings.host, settings.port, settings.max_streams) == ("127.0.0.1", 8017, 40)
    assert "in [server], port = 99999: it must be from 0 to 65535; in [server], max_streams = 0: "\
           "it must be from 1 to 10000. The table uses" in notice_text("en", settings.told[0])


WRONG_IN = {"en": "in [{}], {}", "es": "en [{}], {}", "it": "in [{}], {}", "pt": "em [{}], {}"}
"""How a phone in each language names the section of a wrong setting."""


def test_each_wrong_setting_told_names_its_section(tmp_path: Path) -> None:
    """fps = 10 placed under [server] was told "there is no such setting (the settings are
    host, port, max_streams)", the host left to guess where it went wrong."""
    path = tmp_path / "config.toml"
    path.write_text('[server]\nfps = 10\n[camera]\nport = 9000\nsource = "nope"\nfps = 0\n')
    settings = serve_settings(build_parser().parse_args(
        ["serve", "--config", str(path), "--host", "127.0.0.1"]))
    [notice] = settings.told
    assert notice_text("en", notice) == (
        f"Some of the table's settings are wrong. In the config file {path}: in [server], fps = "
        "10: there is no such setting (the settings are host, port, max_streams); in [camera], "
        "port = 9000: there is no such setting (the settings are source, fps); in [camera], fps "
        "= 0: it must be above 0 and at most 1000. The table uses its default for each of them "
        "until the config file is fixed and the table restarted.")
    for lang, wrong_in in WRONG_IN.items():
        told = notice_text(lang, notice)
        for section, setting in (("server", "fps = 10"), ("camera", "port = 9000"),
                                 ("camera", "fps = 0")):
            assert wrong_in.format(section, setting) + ": " in told, (lang, told)


def test_wrong_settings_the_command_line_gives_are_not_told(tmp_path: Path) -> None:
    """A wrong host beside --host was told on the phones as left at its default, though the
    table listened on --host; a wrong port beside --port was not told: neither is now."""
    path = tmp_path / "config.toml"
    path.write_text("[server]\nhost = 127\nport = 99999\nmax_streams = 0\n"
                    "[camera]\nsource = true\nfps = 0\n")
    settings = serve_settings(build_parser().parse_args(
        ["serve", "--config", str(path), "--host", "127.0.0.1", "--port", "9000",
         "--max-streams", "5", "--camera", "0", "--fps", "5"]))
    assert (settings.host, settings.port, settings.max_streams, settings.source, settings.fps,
            settings.told) == ("127.0.0.1", 9000, 5, "0", 5.0, ())


@pytest.mark.parametrize(("setting", "says"), [
    ("host = 127", "[server]: “host” must be text, not 127"),
    ('hots = "127.0.0.1"', "[server]: unknown setting “hots” (known: host, port, max_streams)"),
    ('host = "127.0.0.1"\nprot = 9000', "[server]: unknown setting “prot”"),
    # waitress listened on every network
    ('host = ""', "[server]: “host” is empty: write the address out, such as “127.0.0.1” (this "
                  "machine alone) or “0.0.0.0” (every network)"),
    ('host = "  "', "[server]: “host” is empty"),
])
def test_without_host_given_a_host_in_doubt_keeps_the_table_from_starting(
        tmp_path: Path, setting: str, says: str) -> None:
    """A wrong host, or a setting [server] does not know (the host misspelt, say), was left at
    its default: the table listened on every network where the file kept it to one."""
    path = tmp_path / "config.toml"
    path.write_text(f"[server]\n{setting}\n")
    assert f"dicetable: {path} {says}" in (err := refused(tmp_path, "--config", str(path)))
    assert err.rstrip().endswith(". The table does not start while the address it listens on "
                                 "is in doubt (by default it is every network): fix the config "
                                 "file, or give --host"), err


@pytest.mark.parametrize("given", ["", "  "])
def test_an_empty_host_given_keeps_the_table_from_starting(tmp_path: Path, given: str) -> None:
    """--host "" counted as no host given: the table listened where the config file said, or
    on every network by default; it is refused as the file's empty host is (exit 78)."""
    path = tmp_path / "config.toml"
    path.write_text('[server]\nhost = "127.0.0.1"\n')
    with pytest.raises(ConfigError) as err:
        serve_settings(build_parser().parse_args(["serve", "--config", str(path), "--host",
                                                  given]))
    assert str(err.value) == (
        "--host is empty: write the address out, such as “127.0.0.1” (this machine alone) or "
        "“0.0.0.0” (every network). The table does not start while the address it listens on "
        "is in doubt (by default it is every network)")


SHIPPED = Path(__file__).parents[2] / "systemd" / "config.toml"


@pytest.mark.parametrize(("text", "says"), [
    # appended to the shipped file, it lands in [buttons]: it served on 0.0.0.0, buttons off
    (SHIPPED.read_text() + 'host = "127.0.0.1"\n', "[buttons]: “host”"),
    ('[camera]\nsource = "picamera2"\nhost = "127.0.0.1"\n', "[camera]: “host”"),
    ('[button]\nstop = 17\nhost = "127.0.0.1"\n', "[button]: “host”"),
    ('[buttons]\nstop = 17\n[Buttons]\nhost = "127.0.0.1"\n', "[Buttons]: “host”"),
    ("[buttons]\nhost = 127.0.0.1\n", "line 2: “host”"),  # a line TOML cannot read
    ("[camera]\nport = 9000\n", "[camera]: “port”"),
    ("[buttons]\nmax_streams = 5\n", "[buttons]: “max_streams”"),
])
def test_without_host_given_a_server_setting_in_another_section_keeps_the_table_from_starting(
        tmp_path: Path, text: str, says: str) -> None:
    """``host`` written under [buttons] (the shipped file's last section) or [camera] was told
    as a wrong buttons or camera setting, and the table listened on every network."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    err = refused(tmp_path, "--config", str(path))
    assert f"dicetable: {path} {says} belongs under [server], written " in err, err
    assert err.rstrip().endswith(
        "The table does not start while the address it listens on is in doubt (by default it is "
        "every network): fix the config file, or give --host" if "“host”" in says else
        "The table does not start while a [server] setting lies elsewhere (the address it "
        "listens on may be among them; by default it is every network): fix the config file, "
        "or give --host"), err


@pytest.mark.parametrize(("text", "says"), [
    ('[buttons.leds]\nhost = "127.0.0.1"\n', "[buttons.leds]: “host” belongs under [server]"),
    ("[buttons]\nstop = 17\n[ buttons . leds ]\nport = 9000\n", "[buttons . leds]: “port”"),
    ('[camera.lens]\nhost = "127.0.0.1"\n', "[camera.lens]: “host”"),
    ("[button.leds]\nmax_streams = 5\n", "[button.leds]: “max_streams”"),
    ('[buttons.leds.stop]\nhost = "127.0.0.1"\n', "[buttons.leds.stop]: “host”"),
    ('[buttons]\nleds = { host = "127.0.0.1" }\n', "[buttons]: “leds.host”"),
    ('[server.lan]\nhost = "127.0.0.1"\n', "[server]: unknown setting [server.lan] (known: "),
    # a line TOML cannot read, a dotted name or a value written { … }: it served on 0.0.0.0
    (SHIPPED.read_text() + "server.host = 127.0.0.1\n",
     f"line {len(SHIPPED.read_text().splitlines()) + 1}: “server.host”"),
    ("[buttons]\nleds.host = 127.0.0.1\n", "line 2: “leds.host”"),
    ("[buttons]\nleds . 'port' = 9000,\n", "line 2: “leds.port”"),
    ("[buttons]\nleds = { host = 127.0.0.1 }\n", "line 2: “leds.host”"),
    ("[buttons]\nleds = { stop = 5, max_streams = 5,, }\n", "line 2: “leds.max_streams”"),
    ('[buttons]\n"host" = 127.0.0.1\n', "line 2: “host”"),
    ("[buttons]\nhost: 127.0.0.1\n", "line 2: “host”"),  # (no =)
    # in another case: it turned the buttons off, and the table listened on every network
    ('[buttons]\nHOST = "127.0.0.1"\n', "[buttons]: “HOST”"),
    ("[buttons]\nHost = 127.0.0.1\n", "line 2: “Host”"),
    ('[camera]\nPort = 9000\n', "[camera]: “Port”"),
    ('[buttons]\nleds = { Host = "127.0.0.1" }\n', "[buttons]: “leds.Host”"),
])
def test_without_host_given_a_server_setting_in_a_section_within_keeps_the_table_from_starting(
        tmp_path: Path, text: str, says: str) -> None:
    """``host`` in a section within another ([buttons.leds]) was not looked at, and the table
    listened on every network; [server.lan] was told as the setting “lan”. So was a [buttons]
    line TOML cannot read that writes it dotted or within { … }, and ``HOST``."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert str(err.value).startswith(f"{path} {says}"), err.value


@pytest.mark.parametrize(("text", "host"), [
    ("[buttons]\nhost: 127.0.0.1\n", "127.0.0.1"),  # YAML's way
    ("[buttons]\nserver.host = 127.0.0.1\n", "127.0.0.1"),
    ('[buttons]\nHOST = "127.0.0.1"\n', "127.0.0.1"),
    ('[buttons]\nleds = { host = "127.0.0.1" }\n', "127.0.0.1"),
    ("[camera]\nhost = '::1'  # mine\n", "::1"),
    ("[buttons]\nhost = 127\n", "127"),
])
def test_the_line_a_misplaced_host_is_told_to_be_written_is_read_under_server(
        tmp_path: Path, text: str, host: str) -> None:
    """The message said “it goes under [server]”; moved there as written, each of these lines
    was refused again (no =, more after the value, an unknown setting “HOST”)."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    line = re.search(r"belongs under \[server\], written (.+?)\. The table", str(err.value))
    assert line is not None, err.value
    path.write_text(f"[server]\n{line[1]}\n")
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert (settings.host, settings.told) == (host, ())


def test_with_host_given_a_server_setting_it_does_not_know_is_told(tmp_path: Path) -> None:
    """The file's wrong host is not (``--host`` is used in its place, not its default)."""
    path = tmp_path / "config.toml"
    path.write_text("[server]\nhost = 127\nprot = 9000\n")
    settings = serve_settings(build_parser().parse_args(
        ["serve", "--config", str(path), "--host", "127.0.0.1"]))
    assert settings.host == "127.0.0.1"
    [notice] = settings.told
    assert notice.key == "notice.settings_off"
    assert f"In the config file {path}: in [server], prot = 9000: there is no such setting (the "\
           "settings are host, port, max_streams). The table uses" in notice_text("en", notice)


@pytest.mark.parametrize(("text", "host"), [
    # the reviewer's four files: the table listened on 0.0.0.0
    ("[server]\nhost = 127.0.0.1\n", None),
    ('[server]\nhost = "127.0.0.1"\n[camera]\nfps = 10,\n', None),
    ('[server]\nhots = "127.0.0.1"\n', None),
    ('[server]\nhost = "127.0.0.1"\n[camra]\nfps = 10\n', None),
    # what is forgiven leaves the host as written
    ('[server]\nhost = "127.0.0.1"\nport = 99999\nmax_streams = 0\n', "127.0.0.1"),
    ('[server]\nhost = "127.0.0.1"\n[camera]\nsource = true\nfps = 0\nfsp = 5\n',
     "127.0.0.1"),
    ('[server]\nhost = "127.0.0.1"\n[buttons]\nstop = 40\nshout = GPIO27\n', "127.0.0.1"),
    ('[server]\nhost = "127.0.0.1"\n[button]\nstop = 17\n', "127.0.0.1"),
])
def test_a_table_kept_to_one_address_is_never_opened_to_every_network(
        tmp_path: Path, text: str, host: str | None) -> None:
    """A file that keeps the table to 127.0.0.1, with something else in it wrong: the table
    does not start, or serves on 127.0.0.1, never on every network."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    if host is None:
        assert str(path) in refused(tmp_path, "--config", str(path))
    else:
        args = build_parser().parse_args(["serve", "--config", str(path)])
        assert serve_settings(args).host == host


def test_a_wrong_server_and_camera_serve_and_the_phones_say_why(tmp_path: Path) -> None:
    """Through `dicetable serve`: the table is up, the host's phone reads which setting of
    which file is wrong and what the table does meanwhile, a guest's that something is off."""
    path = tmp_path / "config.toml"
    folder = tmp_path / "game-nihgt"
    path.write_text(f'[server]\nprot = 9000\n[camera]\nsource = "{folder}"\nfps = 0\n')
    log = tmp_path / "serve.log"
    with ServedTable(tmp_path / "state", args=["--config", str(path)], log=log,
                     env={"GPIOZERO_PIN_FACTORY": "mock"}) as served:
        host = {lang: notices(served.url, lang, pin=served.pin) for lang in LANGUAGES}
        guest = notices(served.url, "en")
    camera_off = (f"The table's camera is off. In the config file {path}: in [camera], source = "
                  f"“{folder}”: "
                  f"there is no folder or file “{folder}”: check its name")
    settings_off = (f"In the config file {path}: in [server], prot = 9000: there is no such "
                    "setting (the settings are host, port, max_streams); in [camera], fps = 0: it "
                    "must be above 0 and at most 1000. The table uses its default for each of "
                    "them")
    assert len(host["en"]) == 2, host["en"]
    assert any(camera_off in told for told in host["en"]), host["en"]
    assert any(settings_off in told for told in host["en"]), host["en"]
    assert "La cámara de la mesa está desactivada" in " ".join(host["es"])
    assert "La fotocamera del tavolo è disattivata" in " ".join(host["it"])
    assert "A câmara da mesa está desligada" in " ".join(host["pt"])
    for lang in LANGUAGES:
        assert all(str(path) in told and "{" not in told for told in host[lang]), host[lang]
    assert len(guest) == 2 and not any(str(path) in told for told in guest), guest
    assert any("camera is off" in told for told in guest), guest
    written = log.read_text()
    assert written.count(camera_off) == 1 and written.count(settings_off) == 1, written


def refused(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """What the real ``dicetable serve`` says on stderr, given ``args``, as it refuses to start
    (exit 78, EX_CONFIG: systemd does not start it again) without creating its state folder."""
    state = tmp_path / "state"
    done = subprocess.run([sys.executable, "-m", "dicetable", "serve", "--state", str(state),
                           "--port", "0", *args], capture_output=True, text=True, timeout=20,
                          env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock", **(env or {})})
    assert done.returncode == os.EX_CONFIG and not state.exists(), done
    return done.stderr


@pytest.mark.parametrize(("text", "says"), [
    # every default would listen on every network and switch on stop and shout (GPIO 17, 27)
    ('[camera\nsource = "picamera2"\n', " line 1: [camera: this is not a valid config file"),
    ("[camera]\nfps = 5,\n", " line 2: fps = 5,: this is not a valid config file"),
    ('[server]\nhost = 127.0.0.1\n', " line 2: host = 127.0.0.1: this is not a valid config"),
    ("[buttons]\nstop = 17,\n[camera]\nfps = fast\n", " line 4: fps = fast: this is not a"),
    ("[camra]\nsource = 0\n", ": unknown section [camra] (the sections are [server], [camera], "
                               "[buttons])"),
    ("button = 17\n", ": button = 17 is a setting outside any section"),
    ("camera = 3\n", ": camera must be a section ([camera]), not a value"),
])
def test_a_config_file_that_cannot_be_read_keeps_the_table_from_starting(
        tmp_path: Path, text: str, says: str) -> None:
    """It served with every default (listening on every network, the buttons on GPIO 17 and 27
    with the power-off on), however the file kept the table to 127.0.0.1 or switched them off;
    now, as before, the table does not start and says why (under systemd, in journalctl)."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    assert f"dicetable: {path}{says}" in refused(tmp_path, "--config", str(path))


def test_a_config_file_that_is_a_folder_or_not_text_keeps_the_table_from_starting(
        tmp_path: Path) -> None:
    assert f"dicetable: {tmp_path}: this is a folder, not a config file" in refused(
        tmp_path, "--config", str(tmp_path))
    path = tmp_path / "config.toml"
    path.write_bytes(b'[server]\nhost = "127.0.0.1"\n# caf\xe9\n')  # Latin-1, not UTF-8
    assert f"dicetable: {path}: the config file cannot be read (it is not UTF-8 text)" in refused(
        tmp_path, "--config", str(path))


def test_a_config_file_the_command_line_names_that_is_not_there_is_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "cofnig.toml"
    assert main(["serve", "--state", str(tmp_path / "state"), "--config", str(missing)]) == 78
    assert f"{missing}: there is no such config file" in capsys.readouterr().err
    assert not (tmp_path / "state").exists()


def test_a_config_file_the_environment_names_that_is_not_there_keeps_the_table_from_starting(
        tmp_path: Path) -> None:
    missing = tmp_path / "cofnig.toml"
    assert f"dicetable: {missing}: there is no such config file" in refused(
        tmp_path, env={"DICETABLE_CONFIG": str(missing)})


@pytest.mark.parametrize("port", ["99999", "-5", "eighty"])
def test_serve_refuses_a_port_there_is_none_of(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], port: str) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--state", str(tmp_path / "state"), "--port", port])
    assert f"“{port}” is no port: give 0 to 65535" in capsys.readouterr().err
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("given", ["", "  "])
def test_serve_refuses_an_empty_camera(capsys: pytest.CaptureFixture[str], given: str) -> None:
    """--camera "" counted as no camera given, and a wrong [camera] source (or no config file)
    left it "": the table played the working folder as a folder camera, where the phones said
    the camera was off (a wrong source alone: the test after the next)."""
    with pytest.raises(SystemExit) as stopped:
        build_parser("serve").parse_args(["serve", "--camera", given])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.endswith(
        "dicetable serve: error: argument --camera: it is empty: name the camera, such as "
        "“picamera2”, “0” (a camera's number), “/dev/video0”, a folder of pictures or a video "
        "file; or leave --camera out for the config file's camera, or none\n")


@pytest.mark.parametrize(("setting", "source"), [
    ("source = 0", "0"),  # a camera's number, as a number or as text
    ('source = "0"', "0"),
    ('source = "/dev/video2"', "/dev/video2"),
])
def test_the_camera_is_a_number_or_a_name(tmp_path: Path, setting: str, source: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[camera]\n{setting}\n")
    args = build_parser().parse_args(["serve", "--config", str(path)])
    assert serve_settings(args).source == source


@pytest.mark.parametrize(("setting", "option", "fps"), [
    ("", [], None),  # none given: a folder's 15 a second, a video's own rate
    ("fps = 5", [], 5.0),
    ("fps = 5", ["--fps", "30"], 30.0),
])
def test_a_recordings_frame_rate_is_the_one_given_or_none(
        tmp_path: Path, setting: str, option: list[str], fps: float | None) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[camera]\n{setting}\n")
    args = build_parser().parse_args(["serve", "--config", str(path), *option])
    assert serve_settings(args).fps == fps


def test_a_camera_that_is_neither_a_number_nor_a_name_leaves_the_table_without(
        tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[camera]\nsource = true\n")
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert settings.source is None
    assert notice_text("en", settings.told[0]).startswith(
        f"The table's camera is off. In the config file {path}: in [camera], source = true: it "
        "must be text in quotes. The table runs without a camera, the dice entered on the "
        "phones, until")


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--speed", "0", "“0” is no rate: give a number above 0, at most 100"),
    ("--speed", "inf", "“inf” is no rate"),
    ("--fps", "nan", "“nan” is no rate: give a number above 0, at most 1000"),
    ("--max-streams", "0", "“0” is not a whole number from 1 to 10000"),
    ("--max-streams", "-1", "“-1” is not a whole number from 1 to 10000"),
])
def test_serve_refuses_a_rate_or_a_count_it_cannot_play_by(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str,
        says: str) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--state", str(tmp_path / "state"), option, value])
    assert says in capsys.readouterr().err
    assert not (tmp_path / "state").exists()


def test_serve_says_a_host_that_is_not_this_machine_in_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--state", str(tmp_path / "state"), "--host", "999.1.1.1",
                 "--port", "0"]) == 2
    assert capsys.readouterr().err.endswith(
        "dicetable: cannot listen on 999.1.1.1: it is no address or name of this machine\n")


def test_serve_says_a_camera_folder_mistyped_is_not_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "game-nihgt"
    assert main(["serve", "--state", str(tmp_path / "state"), "--camera", str(folder),
                 "--port", "0"]) == 2
    assert capsys.readouterr().err.endswith(
        f"dicetable: there is no folder or file “{folder}”: check its name (or give picamera2, "
        "a camera number such as 0 or a /dev/video path)\n")


def test_serve_refuses_a_video_that_is_not_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    video = tmp_path / "game-night.mp4"
    assert main(["serve", "--state", str(tmp_path / "state"), "--camera", str(video),
                 "--port", "0"]) == 2
    assert capsys.readouterr().err.endswith(f"dicetable: there is no video file {video}\n")


@pytest.mark.parametrize(("text", "says"), [
    ("[buttons]\nstop = 40", "stop = 40: there is no GPIO 40 on a Pi"),
    ("[buttons]\nstop = 17\nbuzzer = 17", "buzzer = 17: GPIO 17 is given to stop already"),
    ("[buttons]\nbounce_ms = 500", "bounce_ms = 500: it must be from 1 to 200"),
    ("[buttons]\nstop_pin = 4", "stop_pin = 4: there is no such setting"),
    # a line TOML cannot read: a group still gets its score pad
    ("[buttons]\nshout = GPIO27", "line 2, shout = GPIO27: a pin is written as a number, "
                                  "such as 27."),
    # the section's name misspelt
    ("[button]\nstop = 17", "[button]: the section is written [buttons]."),
    # each wrong setting is named, so that one restart fixes them all
    ("[buttons]\nstop = 40\nshout = GPIO27\nbounce_ms = 500\nhold_s = 5",
     "line 3, shout = GPIO27: a pin is written as a number, such as 27; stop = 40: there is no "
     "GPIO 40 on a Pi (the buttons use GPIO 2 to 27, BCM numbering); bounce_ms = 500: it must "
     "be from 1 to 200. The table runs"),
])
def test_a_wrong_buttons_section_starts_the_table_without_buttons_and_tells_the_host(
        tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"{text}\n")
    log = tmp_path / "serve.log"
    with ServedTable(tmp_path / "state", args=["--config", str(path)], log=log,
                     env={"GPIOZERO_PIN_FACTORY": "mock"}) as served:
        english, spanish = (notices(served.url, lang, pin=served.pin) for lang in ("en", "es"))
        guest = notices(served.url, "en")
    told = f"In the config file {path}: {says}"
    assert len(guest) == 1 and str(path) not in guest[0] and "buttons are off" in guest[0]
    assert len(english) == 1 and told in english[0], english
    assert english[0].endswith("until the config file is fixed and the table restarted.")
    assert spanish[0].startswith("Los botones de la mesa están desactivados. En el archivo de "
                                 f"configuración {path}: ")
    assert re.sub(r"^line \d+, ", "", says.split(":")[0]) in spanish[0]
    assert log.read_text().count(told) == 1


@pytest.mark.parametrize("header", ["[button]", "[Buttons]", '["buttons "]', "[buttns]"])
def test_a_buttons_section_misspelt_starts_the_table_without_buttons(
        tmp_path: Path, header: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[camera]\nfps = 5\n{header}\nstop = 17\n")
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert settings.buttons is None and buttons_off(settings)
    assert settings.fps == 5.0
    name = header.strip("[]").strip('"')
    for lang, says in (("en", "the section is written"), ("es", "la sección se escribe"),
                       ("it", "la sezione si scrive"), ("pt", "a secção escreve-se")):
        assert f"[{name}]: {says} [buttons]. " in notice_text(lang, buttons_off(settings))


BESIDE = {"en": "the buttons' settings all go in one section, [buttons]: move these there",
          "es": "los ajustes de los botones van todos en una sola sección, [buttons]: "
                "muévelos allí",
          "it": "le impostazioni dei pulsanti vanno tutte in una sola sezione, [buttons]: "
                "spostale lì",
          "pt": "as definições dos botões vão todas numa só secção, [buttons]: mova-as para lá"}
"""What the host reads of a misspelt [buttons] section beside another section for them."""


@pytest.mark.parametrize(("text", "named"), [
    ("[buttons]\nstop = 17\n[button]\nshout = 27\n", ["[button]"]),
    ("[button]\nshout = 27\n[buttons]\nstop = 17\n", ["[button]"]),
    # a line TOML cannot read under it: the same rule, the line told as well
    ("[buttons]\nstop = 17\n[button]\nshout = GPIO27\n", ["shout = GPIO27", "[button]"]),
    # two misspelt, and no [buttons]: neither is written as the one to keep
    ("[Buttons]\nstop = 17\n[button]\nshout = 27\n", ["[Buttons]", "[button]"]),
])
def test_a_misspelt_buttons_section_beside_another_starts_the_table_without_buttons(
        tmp_path: Path, text: str, named: list[str]) -> None:
    """[button] beside [buttons] was refused as an unknown section (the table did not start,
    and the host read that the sections are [server], [camera], [buttons]); it is a wrong
    buttons section like any other, told in one message."""
    path = tmp_path / "config.toml"
    path.write_text(f"[camera]\nfps = 5\n{text}")
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert settings.buttons is None and buttons_off(settings)
    assert settings.fps == 5.0
    for lang, says in BESIDE.items():
        told = notice_text(lang, buttons_off(settings))
        assert all(f"{name}: {says}" in told for name in named if name.startswith("[")), told
        assert all(name in told for name in named) and "written [buttons]" not in told, told


@pytest.mark.parametrize(("text", "says"), [
    ("[buttons]\nstop = 17,\n", "line 2, stop = 17,: there is more after the value: one "
                                "setting to a line"),
    ("[buttons]\nshout = GPIO27\n", "line 2, shout = GPIO27: a pin is written as a number, "
                                   "such as 27"),
    ("[buttons]\nseats = [22, 23\n", "line 2, seats = [22, 23: the list is not closed"),
    # told on the line after it, the next section's header: still the [buttons] line's
    ("[buttons]\nseats = [22, 23\n\n[camera]\nfps = 5\n",
     "line 2, seats = [22, 23: the list is not closed"),
    ("[server]\nport = 8017\n[buttons]\nstop = 17\nstop = 18\n",
     "line 5, stop = 18: stop is written twice: keep one of them"),
    ("[buttons]\nvoice = yes\n", "line 2, voice = yes: this value cannot be read"),
    # under [buttons] misspelt as under [buttons]
    ("[Buttons]\nstop = 17,\n", "line 2, stop = 17,: there is more after the value: one "
                                "setting to a line, with nothing after it but a comment that "
                                "starts with #; [Buttons]: the section is written [buttons]"),
])
def test_a_buttons_line_toml_cannot_read_starts_the_table_without_buttons(
        tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert settings.buttons is None and buttons_off(settings)
    assert settings.fps == (5.0 if "fps" in text else None)  # the other sections are read
    for lang in ("en", "es", "it", "pt"):
        told = notice_text(lang, buttons_off(settings))
        assert str(path) in told and "{" not in told and "notice." not in told, told
    assert says in notice_text("en", buttons_off(settings))


@pytest.mark.parametrize(("text", "says", "right"), [
    # a quote written in a list's text ("a\"]") closes neither the text nor the list
    ('[buttons]\nseats = [22, "a\\"]", 23\nshout = 27\n',
     'line 2, seats = [22, "a\\"]", 23: the list is not closed', "shout = 27"),
    ('[buttons]\nstop = 17\nseats = [22, "\\"[red]\\"", 23\nshout = 27\n',
     "the list is not closed", "shout = 27"),
    # a line of a text of several lines that starts with [ is no section's header
    ('[buttons]\nnote = """\n[red] is stop\n"""\nshout = GPIO27\n[camera]\nfps = 5\n',
     "line 5, shout = GPIO27: a pin is written as a number", "[red]"),
    ("[buttons]\nnote = \'\'\'\n[stop] [red]\n\'\'\'\nstop = 17,\n",
     "line 5, stop = 17,: there is more after the value", "[stop]"),
])
def test_brackets_in_a_buttons_text_do_not_confuse_the_reading_of_its_wrong_lines(
        tmp_path: Path, text: str, says: str, right: str) -> None:
    """Brackets and quotes inside the section's quoted text: only the wrong line is told,
    and the table starts without buttons (the correct line after a list left open with
    "a\"]" in it was told as wrong too; a text whose line starts with [ ended the section
    there, and the file was refused as not a valid config file)."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert settings.buttons is None and buttons_off(settings)
    assert settings.fps == (5.0 if "fps" in text else None)
    told = notice_text("en", buttons_off(settings))
    assert says in told and f"{right}:" not in told, told


@pytest.mark.parametrize(("text", "says"), [
    ("[camera]\nfps = 5,\n", "line 2: fps = 5,: this is not a valid config file: there is more "
     "after the value: one setting to a line, with nothing after it but a comment that starts "
     "with #"),
    ("[server]\nport = 80\nport = 81\n", "line 3: port = 81: this is not a valid config file: "
     "port is written twice: keep one of them"),
    ("[server]\nport\n", "line 2: port: this is not a valid config file: a setting is written "
     "as its name, = and its value, such as stop = 17"),
    ('[buttons]\nstop = 17\n[camera\nsource = "/dev/video2"\n', "line 3: [camera: this is not a "
     "valid config file: a section's name is written between [ and ], alone on its line, such "
     "as [camera]"),
])
def test_a_line_that_keeps_the_table_from_starting_is_said_in_a_hosts_words(
        tmp_path: Path, text: str, says: str) -> None:
    """The refusal ended with TOML's own words in brackets, "(Expected newline or end of
    document after a statement (at line 2, column 8))"; it now says why as the phones say it
    of a [buttons] line."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    assert refused(tmp_path, "--config", str(path)) == f"dicetable: {path} {says}\n"


@pytest.mark.parametrize(("text", "says"), [('[server]\nhost = ""\n', "is empty"),
                                           ("[camera]\nfps = 5,\n", "not a valid config file")])
def test_a_table_its_config_file_keeps_from_starting_loads_none_of_its_libraries(
        tmp_path: Path, text: str, says: str) -> None:
    """The refusal came once the camera's, the reader's and the server's libraries had loaded
    (a second of CPU here, seconds on a Pi); it now comes before them."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    loaded = ("import sys; from dicetable.cli import main; status = main(sys.argv[1:]); "
              "print(status, [name for name in ('cv2', 'numpy', 'onnxruntime', 'flask') "
              "if name in sys.modules])")
    done = subprocess.run([sys.executable, "-c", loaded, "serve", "--state",
                           str(tmp_path / "state"), "--config", str(path)],
                          capture_output=True, text=True, timeout=20, check=False)
    assert done.stdout == "78 []\n", done
    assert says in done.stderr


@pytest.mark.parametrize("text", [
    "[camera]\nfps = 5,\n[buttons]\nstop = 17\n",  # a wrong line outside [buttons]
    "[buttons]\nstop = 17,\n[camera]\nfps = fast\n",  # and one outside too
    "[buttons\nstop = 17\n",  # a header TOML cannot read is no [buttons]
    # nor does [buttons] go on past a header TOML cannot read: the sections after it were lost
    '[buttons]\nstop = 17\n[server]]\nport = 9000\nhost = "127.0.0.1"\n',
    '[buttons]\nstop = 17\n[camera\nsource = "/dev/video2"\n',
    "[buttons]\nstop = 17\n[server] x\nport = 9000\n",
])
def test_a_line_toml_cannot_read_outside_the_buttons_leaves_the_file_unread(
        tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match="this is not a valid config file") as err:
        serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert str(err.value).startswith(f"{path} line ")


@pytest.mark.parametrize(("text", "says"), [
    # a line of a list of several lines that starts with [ is no section's header
    ("[buttons]\nseats = [\n  [22, 23]\n]\nshout = GPIO27\n[camera]\nfps = 5\n",
     "line 5, shout = GPIO27: a pin is written as a number, such as 27; seats = [[22, 23]]: it "
     "must be a list of GPIO numbers"),
    # a list left open before the next section: that header ends [buttons] all the same
    ("[buttons]\nseats = [22, 23,\n[camera]\nfps = 5\n",
     "line 2, seats = [22, 23,: the list is not closed"),
    ("[buttons]\nseats = [\n  22,\n]\nseat_leds = [5,\nstop = 40\n[camera]\nfps = 5\n",
     "line 5, seat_leds = [5,: the list is not closed: it ends with ]; stop = 40: there is no "
     "GPIO 40"),
    # a section within [buttons] is told with the rest, as written
    ("[buttons]\nshout = GPIO27\n[buttons.leds]\nstop = 5\n[camera]\nfps = 5\n",
     "line 2, shout = GPIO27: a pin is written as a number, such as 27; [buttons.leds]: "
     "there is no such setting"),
])
def test_a_buttons_section_with_a_list_or_a_section_within_is_read_to_its_end(
        tmp_path: Path, text: str, says: str) -> None:
    """A list's line that starts with [ was taken for the end of [buttons] (its wrong line then
    outside it: the whole file refused), and [buttons.leds] was dropped unsaid when a line of
    [buttons] could not be read."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert settings.buttons is None and settings.fps == 5.0
    told = notice_text("en", buttons_off(settings))
    assert f"In the config file {path}: {says}" in told, told


@pytest.mark.parametrize(("text", "says"), [
    ("[buttons]\nstop = 17\n[buttons.leds]\nstop = 5\n", "[buttons.leds]: there is no such "
                                                         "setting"),
    # its line cannot be read: it was told "leds = {  }"
    ("[buttons]\nstop = 17\n[ buttons . leds ]  # the LEDs\nstop = GPIO5\n[camera]\nfps = 5\n",
     "line 4, stop = GPIO5: a pin is written as a number, such as 5; [buttons . leds]: there is "
     "no such setting"),
    # written within [buttons] as a value, it is told so
    ("[buttons]\nstop = 17\nleds = { stop = 5 }\n", "leds = { stop = 5 }: there is no such "
                                                     "setting"),
])
def test_a_section_within_the_buttons_is_told_as_written(
        tmp_path: Path, text: str, says: str) -> None:
    """[buttons.leds] was told on the phone as leds = { stop = 5 }, which the file does not
    hold (and as leds = {  } where its line could not be read)."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert settings.buttons is None
    for lang in LANGUAGES:
        assert says.split("; ")[-1].split(":")[0] + ": " in notice_text(lang, buttons_off(settings))
    assert f"In the config file {path}: {says}" in notice_text("en", buttons_off(settings))


def buttons_off(settings: ServeSettings) -> Notice:
    """The one notice ``settings`` tell: the buttons off."""
    [notice] = settings.told
    assert notice.key == "notice.buttons_off", notice
    return notice


def notices(url: str, lang: str, *, pin: str | None = None) -> list[str]:
    """The host's notices of the table at ``url``, as a phone in ``lang`` gets them (having
    entered ``pin``, when given)."""
    phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    phone.addheaders = [("Accept-Language", lang)]
    with phone.open(f"{url}/api/state", timeout=10) as answer:
        state = json.load(answer)
    if pin is not None:
        entered = urllib.request.Request(
            f"{url}/auth/pin", data=json.dumps({"pin": pin}).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": state["csrf"]})
        phone.open(entered, timeout=10).close()
        with phone.open(f"{url}/api/state", timeout=10) as answer:
            state = json.load(answer)
    told: list[str] = state["notices"]
    return told


def test_the_log_names_each_buttons_gpio_and_header_pin(tmp_path: Path) -> None:
    # a host who wired stop to the header's pin 17 reads that GPIO 17 is its pin 11
    path = tmp_path / "config.toml"
    path.write_text("[buttons]\nstop = 17\nseats = [22, 23, 24]\n")
    log = tmp_path / "serve.log"
    with ServedTable(tmp_path / "state", args=["--config", str(path)], log=log,
                     env={"GPIOZERO_PIN_FACTORY": "mock"}):
        pass
    assert "dicetable: buttons: stop on GPIO 17, header pin 11; a shout per seat on GPIO 22, "\
           "23, 24, header pins 15, 16, 18\n" in log.read_text()


@pytest.mark.parametrize(("written", "seats", "shout"), [
    ("seats = [22, 23\nstop_led = 5", "seats = [22, 23", 4),
    ("  seats = [22, 23\n  stop_led = 5", "seats = [22, 23", 4),  # indented
    ("seats = [22, 23\n# old: [21\nstop_led = 5", "seats = [22, 23", 5),  # a bracket in a comment
    ("seats = [22, 23  # ]\nstop_led = 5", "seats = [22, 23  # ]", 4),  # the list's comment
])
def test_a_list_left_open_is_named_and_the_lines_after_it_are_read_as_settings(
        tmp_path: Path, written: str, seats: str, shout: int) -> None:
    # TOML tells a list left open on the line after it: each following line was named for it
    path = tmp_path / "config.toml"
    path.write_text(f"[buttons]\n{written}\nshout = GPIO27\nstop = 40\n")
    settings = serve_settings(build_parser().parse_args(["serve", "--config", str(path)]))
    assert settings.buttons is None and buttons_off(settings)
    told = notice_text("en", buttons_off(settings))
    assert f"line 2, {seats}: the list is not closed: it ends with ]; line {shout}, shout = "\
           "GPIO27: a pin is written as a number, such as 27; stop = 40: there is no GPIO 40 on a "\
           "Pi" in told, told
    assert "stop_led" not in told and "# old" not in told


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    # Windows Notepad writes one at the start: it was refused "Invalid statement (line 1, …)"
    path = tmp_path / "config.toml"
    path.write_text("[camera]\nfps = 5\n", encoding="utf-8-sig")
    assert load_config(path).section("camera") == {"fps": 5}
