"""``dicetable serve`` as systemd runs it: READY once up, status lines, watchdog pings, STOPPING
on SIGTERM; on this machine (no GPIO) it starts without buttons and says so once."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from device.button_actions import ButtonActions
from device.journal import PIN_DIGITS, Journal
from device.notice import Notice
from device.session import TableSession
from dicetable.child import ServedTable, free_port, start_serving
from dicetable.service import POWER_OFF, PowerOff, StopSignals
from tests.dicetable.terminal import started_from_a_terminal
from tests.web.conftest import served_here
from web.app import create_app
from web.i18n import LANGUAGES, ui
from web.table import table
from web.wording import notice_text


def test_serve_tells_systemd_it_is_ready_alive_and_stopping(tmp_path: Path) -> None:
    address = str(tmp_path / "notify")
    manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    manager.bind(address)
    manager.settimeout(20)
    port = free_port()
    env = {**os.environ, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000000"}
    env.pop("WATCHDOG_PID", None)
    serve = subprocess.Popen([sys.executable, "-m", "dicetable", "serve", "--state",
                              str(tmp_path / "state"), "--host", "127.0.0.1", "--port",
                              str(port)], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        ready = manager.recv(4096).decode()
        assert ready == "READY=1\nSTATUS=serving 0 phones; no camera; no buttons"
        socket.create_connection(("127.0.0.1", port), timeout=2).close()  # it is up
        got = [manager.recv(4096).decode() for _ in range(3)]
        assert got.count("WATCHDOG=1") >= 2, got
    finally:
        serve.send_signal(signal.SIGTERM)
        _, errors = serve.communicate(timeout=20)
    messages = []
    manager.settimeout(0.5)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            messages.append(manager.recv(4096).decode())
        except TimeoutError:
            break
    manager.close()
    assert "STOPPING=1\nSTATUS=stopping" in messages
    assert serve.returncode == 0
    assert errors.count("no buttons: this machine has no GPIO") == 1, errors
    assert errors.endswith("dicetable: stopped; the game is saved\n"), errors


def test_a_second_table_on_the_same_state_is_refused(tmp_path: Path) -> None:
    first = start_serving([sys.executable, "-m", "dicetable", "serve", "--state",
                           str(tmp_path), "--host", "127.0.0.1", "--port", str(free_port())])
    try:
        # A lock file (as there was) a host could delete, taking it for one left behind.
        (tmp_path / "serving.lock").unlink(missing_ok=True)
        second = subprocess.run([sys.executable, "-m", "dicetable", "serve", "--state",
                                 str(tmp_path), "--port", "0"], capture_output=True, text=True,
                                timeout=20, check=False)
        assert second.returncode == 2
        assert f"another dicetable serves {tmp_path}" in second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=20)


def test_a_table_is_up_only_when_its_own_process_says_so(tmp_path: Path) -> None:
    # Something else answers on the port: the table cannot listen there, and must not be
    # taken for up because the port answers.
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        table = ServedTable(tmp_path / "state", port=other.getsockname()[1],
                            log=tmp_path / "serve.log")
        with pytest.raises(RuntimeError, match="exited with 2"):
            table.start()
    assert "cannot listen on 127.0.0.1" in (tmp_path / "serve.log").read_text()
    with ServedTable(tmp_path / "state") as table:  # the same state, a free port: up
        socket.create_connection(("127.0.0.1", table.port), timeout=2).close()
        assert len(table.pin) == PIN_DIGITS


def stand_in(folder: Path, said: str, status: int, *,
             until: Path | None = None) -> tuple[str]:
    """A command that stands in for ``systemctl poweroff``: it writes a line in ``asked`` in
    ``folder``, sleeps until file ``until`` is there (if given: the Pi slow to answer), then
    writes ``said`` on its standard error and exits with ``status``."""
    script = folder / "systemctl"
    wait = "" if until is None else f"while [ ! -e '{until}' ]; do sleep 0.05; done\n"
    script.write_text(f"#!/bin/sh\necho asked >> '{folder / 'asked'}'\n{wait}"
                      f"cat >&2 <<'SAID'\n{said}\nSAID\nexit {status}\n")
    script.chmod(0o755)
    return (str(script),)


INHIBITED = ('Operation inhibited by "apt" (PID 812 "unattended-upgr", user root), reason is '
             '"Upgrade in progress".\nPlease retry operation after closing inhibitors and logging '
             "out other users.\nAlternatively, ignore inhibitors and users with 'systemctl "
             "poweroff -i'.")
"""What systemctl says where a program blocks shutdown (its own check of the inhibitors)."""
UPDATING, DENIED, FAILED = ("notice.power_off.inhibited", "notice.power_off.denied",
                             "notice.power_off.failed")
"""Why the Pi did not power off, as the phones are told: a program on it asked it to stay on;
polkit said no (the table's user may not power the Pi off, or may not past a program's weak
inhibitor: logind 257 and later asks polkit then, as it asked for every inhibitor before;
systemctl says the same words for both); another reason."""


def catalog_words(key: str) -> dict[str, str]:
    """What a phone reads of the host's notice ``key`` in each language: its catalog's own
    words (none left in English, none with a value left to fill in)."""
    words = {lang: notice_text(lang, Notice(key)) for lang in LANGUAGES}
    assert all(key in ui(lang) for lang in LANGUAGES), key
    assert all(words[lang] != words["en"] for lang in LANGUAGES if lang != "en"), words
    assert not any("{" in said for said in words.values()), words
    return words


def notices_read(url: str, lang: str) -> list[str]:
    """The host's notices as a phone in ``lang`` reads them from the table at ``url``."""
    asked = urllib.request.Request(url + "/api/state", headers={"Cookie": f"lang={lang}"})
    with urllib.request.urlopen(asked, timeout=10) as answer:
        return list(json.load(answer)["notices"])


def phones_told(session: TableSession, news: dict[str, object]) -> None:
    """Wait until the buttons' latest news on the phones is ``news`` (the power-off is asked
    on a thread of its own)."""
    with session.subscribe() as updates:
        snap = session.snapshot()
        while snap.buttons != news:
            update = updates.get(20)
            assert update is not None, f"the phones were told {snap.buttons}"
            snap = update


@pytest.mark.parametrize(("said", "told"), [
    (INHIBITED, UPDATING),
    # what systemctl says as the table runs it (no terminal), by logind's answer
    ("Failed to power off system via logind: Operation denied due to active block inhibitor",
     UPDATING),  # --mode=block, logind 257 and later
    ("Failed to power off system via logind: Access denied due to active block inhibitor",
     UPDATING),
    # --mode=block-weak (or any blocking inhibitor before logind 257), or no polkit rule
    ("Failed to power off system via logind: Access denied", DENIED),
    ("Failed to power off system via logind: Interactive authentication required.", DENIED),
    ("Failed to connect to bus: No such file or directory", FAILED),
], ids=["inhibited", "block-inhibitor", "older-logind", "weak-inhibitor-or-polkit",
        "polkit-asks", "other"])
def test_a_refused_power_off_leaves_the_table_serving_and_every_phone_says_why(
        tmp_path: Path, said: str, told: str) -> None:
    """Stop held alone: the power-off is asked while the table serves; refused, the table goes
    on serving (it had stopped first, and systemd's Restart=always brought it back 2 s later
    with no word why), the host's log says what systemctl said, and every phone reads why in
    its language, once however often stop is held, until the host dismisses it."""
    session = TableSession(Journal(tmp_path / "state" / "table.db"))
    session.start()
    app = create_app({"JOURNAL": session.journal, "TABLE_SESSION": session})
    log = io.StringIO()
    power_off = PowerOff(table(app).tell, command=stand_in(tmp_path, said, 1), out=log)
    actions = ButtonActions(session, seated=False, on_shutdown=power_off)
    try:
        with served_here(app) as url:
            assert all(notices_read(url, lang) == [] for lang in LANGUAGES)
            actions.hold_stop()
            phones_told(session, {"n": 2, "kind": "shutdown_refused"})
            actions.hold_stop()  # held again: told once
            phones_told(session, {"n": 4, "kind": "shutdown_refused"})
            for lang, words in catalog_words(told).items():
                assert notices_read(url, lang) == [words]
            game = session.new_game({"game": "dalek", "players": ["Ana", "Ben"]},
                                    base_version=session.snapshot().version)
            assert game.view is not None, "the table goes on serving"
    finally:
        session.stop()
    assert f"dicetable: cannot power off: {said}; the table goes on\n" in log.getvalue()


def test_a_power_off_taken_is_left_to_systemd(tmp_path: Path) -> None:
    """Taken, the power-off tells nothing: systemd stops the table as it stops every service
    (SIGTERM, as the first test sends), and nobody is told it was refused."""
    refusals: list[Notice] = []
    log = io.StringIO()
    assert PowerOff(refusals.append, command=stand_in(tmp_path, "", 0), out=log)()
    assert refusals == [] and log.getvalue() == "dicetable: powering off\n"
    # systemd stops the service's every process, systemctl too where it has not ended yet
    stopped = ("sh", "-c", "kill -TERM $$")
    assert PowerOff(refusals.append, command=stopped, out=log)()
    assert refusals == []
    missing = PowerOff(refusals.append, command=(str(tmp_path / "no-systemctl"),), out=log)
    assert not missing()
    assert refusals == [Notice("notice.power_off.failed")]


RULE = Path(__file__).parents[2] / "systemd" / "dicetable-poweroff.rules"


def test_the_polkit_rule_grants_what_the_power_off_asks_and_no_more() -> None:
    """`systemctl poweroff` without -i asks logind to power off, past other users' sessions
    (an ssh login): the rule grants those two. A program that blocks shutdown (an upgrade, a
    firmware update) keeps the Pi on: neither the call (-i, which asks logind to skip it) nor
    the rule (power-off-ignore-inhibit, which a weak block asks even without -i) overrides it."""
    granted = set(re.findall(r'"org\.freedesktop\.login1\.([\w-]+)"', RULE.read_text()))
    assert granted == {"power-off", "power-off-multiple-sessions"}
    assert POWER_OFF[:2] == ("systemctl", "poweroff")
    assert not {"-i", "--ignore-inhibitors", "--check-inhibitors=no", "-f", "--force"} & set(
        POWER_OFF)


def test_a_second_stop_signal_lets_the_table_finish_closing(
        capsys: pytest.CaptureFixture[str]) -> None:
    # `make run` stopped by SIGTERM gets it twice (make passes its own on), and an impatient
    # host presses Ctrl-C again: the close must not be cut short before the journal is closed.
    ended: list[str] = []
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    stop_signals = StopSignals(before=lambda: ended.append("streams"))
    stop_signals.install()
    try:
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            _let_signals_in()
        try:
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGTERM)
            _let_signals_in()
        except KeyboardInterrupt:
            pytest.fail("a signal while closing interrupted the close")
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])
    assert ended == ["streams"]
    assert "dicetable: already stopping; the game is being saved" in capsys.readouterr().err


def test_a_table_started_with_ctrl_c_ignored_is_not_stopped_by_it() -> None:
    # `dicetable serve &` from a script: the terminal's Ctrl-C stops the script, not the table
    # it left running (the table took SIGINT whatever it was); SIGTERM still stops it
    ended: list[str] = []
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        StopSignals(before=lambda: ended.append("streams")).install()
        try:
            os.kill(os.getpid(), signal.SIGINT)
            _let_signals_in()
        except KeyboardInterrupt:
            pytest.fail("an ignored Ctrl-C stopped the table")
        assert ended == []
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            _let_signals_in()
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])
    assert ended == ["streams"]


def test_a_table_stopped_while_it_starts_closes_and_says_the_game_is_saved(
        tmp_path: Path) -> None:
    # The first `dicetable serve --demo` on a state renders the demo (about a minute) before
    # it serves: Ctrl-C then closes the table as it does once serving, without a traceback.
    serve = started_from_a_terminal([sys.executable, "-m", "dicetable", "serve", "--demo",
                                     "--state", str(tmp_path), "--host", "127.0.0.1", "--port",
                                     str(free_port())], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
    assert serve.stderr is not None
    said = ""
    for line in serve.stderr:
        said += line
        if "rendering the demo" in line:
            break
    serve.send_signal(signal.SIGINT)
    _, errors = serve.communicate(timeout=30)
    said += errors
    assert "rendering the demo" in said
    assert serve.returncode == 0, said
    assert "Traceback" not in said
    assert said.endswith("dicetable: stopped; the game is saved\n"), said


def _let_signals_in() -> None:
    """Python runs a signal's handler in the main thread between instructions."""
    for _ in range(50):
        time.sleep(0.01)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_table_stopped_while_its_modules_load_stops_cleanly(tmp_path: Path,
                                                              signum: int) -> None:
    # systemd stopping the table in its first seconds (its modules take 1 s to load here,
    # seconds on a Pi): SIGTERM killed it, Ctrl-C ended it with a traceback (or an ImportError
    # from a compiled module it interrupted)
    serve = started_from_a_terminal([sys.executable, "-m", "dicetable", "serve", "--state",
                                     str(tmp_path), "--host", "127.0.0.1", "--port",
                                     str(free_port())], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
    maps = Path(f"/proc/{serve.pid}/maps")
    deadline = time.monotonic() + 20
    while "numpy" not in maps.read_text() and time.monotonic() < deadline:  # loading
        time.sleep(0.005)
    serve.send_signal(signum)
    _, errors = serve.communicate(timeout=30)
    assert serve.returncode == 0, errors
    assert errors == "dicetable: stopped\n"
    assert not (tmp_path / "table.db").exists()  # stopped before the table was opened
