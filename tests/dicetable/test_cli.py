"""The ``dicetable`` command line: replay, pin and help."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dicetable.bench import SUITES
from dicetable.cli import build_parser, main
from tests.dicetable.terminal import started_from_a_terminal

ROOT = Path(__file__).parents[2]
RECORDS = ROOT / "tests" / "engine" / "records"
JENNA = RECORDS / "dalek-jenna-peter.jsonl"


def test_replay_prints_the_state_readably(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(JENNA)]) == 0
    out = capsys.readouterr().out
    assert "Jenna 17" in out and "Peter 15" in out


def test_replay_reads_a_record_saved_with_a_byte_order_mark(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "saved-by-notepad.jsonl"
    saved.write_bytes(b"\xef\xbb\xbf" + JENNA.read_bytes())
    assert main(["replay", str(saved)]) == 0
    assert "Jenna 17" in capsys.readouterr().out


def test_replay_json_prints_the_public_view(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(JENNA)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["scores"] == {"Jenna": 17, "Peter": 15} and view["version"] == 1


def test_replay_prints_names_as_the_record_writes_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a name of 26 letters and one with spaces around it: RULES.md asks only for unique names
    record = tmp_path / "written-elsewhere.jsonl"
    record.write_text('{"game": "dalek", "players": ["Maria Fernanda de Oliveira", " Ben "]}\n'
                      '{"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D2", "D2", "DOC"]}\n'
                      '{"keep": ["H4", "D2", "D2"]}\n{"stop": {}}\n', encoding="utf-8")
    assert main(["replay", str(record)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Dalek Dice, round 1,  Ben  to roll (target 60)",
        "  Maria Fernanda de Oliveira 4    Ben  0"]
    assert main(["replay", "--json", str(record)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["scores"] == {"Maria Fernanda de Oliveira": 4, " Ben ": 0}
    assert view["turn"] == " Ben "


def test_a_bad_line_exits_2_with_its_number_and_prints_no_state(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    lines = JENNA.read_text().splitlines()
    bad.write_text("\n".join([*lines[:3], '{"keep": ["H4"]}', *lines[3:]]) + "\n")
    assert main(["replay", "--json", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (f"{bad}: line 4: it is Jenna's turn to stop or roll 3 dice, "
                                    "not to keep")


@pytest.mark.parametrize(("content", "why"), [
    (None, "no such file"),
    (b"\xff\xfe\x00", "line 1: this line is not UTF-8 text; save the record as UTF-8"),
    ('{"game": "dalek", "players": ["Zo\u00eb", "Ben"]}\n'.encode("latin-1"),
     "line 1: this line is not UTF-8 text; save the record as UTF-8"),
    (b"", "line 1: the record is empty"),
    (b'{"game": "dalek", "players": ["Ana", "Ben"]}\n{\'roll\': 1}\n',
     'line 2: the text cannot be read at column 2; each line of a record is one JSON object, '
     'its keys and text in double quotes: first its header, such as {"game": "dalek", '
     '"players": ["Ana", "Ben"]}, then one action a line, such as {"undo": {}} (RULES.md gives '
     'the format)'),
    (b"{game: dalek}\n",
     'line 1: the text cannot be read at column 2; each line of a record is one JSON object, '
     'its keys and text in double quotes: first its header, such as {"game": "dalek", '
     '"players": ["Ana", "Ben"]}, then one action a line, such as {"undo": {}} (RULES.md gives '
     'the format)'),
])
def test_unreadable_records_get_a_clear_message(tmp_path: Path, content: bytes | None, why: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.jsonl"
    if content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    assert why in capsys.readouterr().err


CUT_OFF = ("the record breaks off in this line (its end is missing: cut off as it was written, "
           "by a power cut, or a bracket left out): the lines before it are whole; complete this "
           "line, or delete it to replay them")


@pytest.mark.parametrize(("tail", "line"), [
    (b'{"stop": {', 4),  # the last line, written in part
    (b'{"stop": {}}\n{"ro', 5),
    (b'{"stop": {}}\n\x00\x00\x00\x00', 5),  # the room the file took, never written
    (b'{"stop": {}}\x00\x00\x00\x00\n\x00\x00', 4),
    (b'{"stop": {}}  # Zo\xc3', 4),  # within the two bytes of an \u00eb
    (b'{"ro\xc3\x00\x00', 4),  # and the room after it never written
])
def test_a_record_cut_off_by_a_power_cut_is_told_so_by_the_line_it_breaks_off_in(
        tmp_path: Path, tail: bytes, line: int, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.jsonl"
    path.write_bytes(b"\n".join(JENNA.read_bytes().splitlines()[:3]) + b"\n" + tail)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: line {line}: {CUT_OFF}\n"


@pytest.mark.parametrize("content", [
    b'{"game": "dalek", "players": ["Ana", "Ben"]}\n{"stop": {\n{"undo": {}}\n',  # not last
    b'{"game": "dalek", "players": ["Ana", "Ben"]}\n{"stop": }',  # whole, but not JSON
])
def test_a_line_not_json_that_a_power_cut_did_not_cut_is_told_unreadable(
        tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.jsonl"
    path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    assert "line 2: the text cannot be read at column" in capsys.readouterr().err


HOW_A_HEADER_IS_WRITTEN = ('a record starts with its header: its game ("dalek", "dicy", "17") '
                           'and its players, such as {"game": "dalek", "players": ["Ana", '
                           '"Ben"]} (RULES.md gives the format)')


@pytest.mark.parametrize(("header", "why"), [
    ('{"roll": ["H4"]}', "a game starts with its set-up: the game to play and its players"),
    ('{"game": "dalek"}', "a game starts with its set-up: the game to play and its players"),
    ('{"game": "Dalek Dice", "players": ["Ana", "Ben"]}',
     'the game "Dalek Dice" is written "dalek" in a record'),
    ('{"game": 17, "players": ["Ana", "Ben"]}', 'the game 17 is written "17" in a record'),
    ('{"game": 17.0, "players": ["Ana", "Ben"]}', 'the game 17.0 is written "17" in a record'),
    ('{"game": -17, "players": ["Ana", "Ben"]}', "this table plays no game -17"),
    ('{"game": "1", "players": ["Ana", "Ben"]}', 'this table plays no game "1"'),
    ('{"game": "dal", "players": ["Ana", "Ben"]}',
     'this table plays no game "dal" (did you mean "dalek"?)'),
    ('{"game": "dicey", "players": ["Ana", "Ben"]}',
     'this table plays no game "dicey" (did you mean "dicy"?)'),
    ('{"game": "chess", "players": ["Ana", "Ben"]}', 'this table plays no game "chess"'),
])
def test_a_bad_header_is_told_as_to_a_player_then_how_a_record_writes_it(
        tmp_path: Path, header: str, why: str, capsys: pytest.CaptureFixture[str]) -> None:
    # the engine words a header's refusal for a player setting up a game on a phone (no
    # record syntax, no game ids); whoever wrote the record is told besides how to write it,
    # and a game it does not play by what was read: "this table does not play that game; it
    # plays Dalek Dice, Dicy Cards, 17" of "Dalek Dice" read as if Dalek Dice were not played
    path = tmp_path / "record.jsonl"
    path.write_text(header + "\n")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: line 1: {why}; {HOW_A_HEADER_IS_WRITTEN}\n"


def test_replay_json_of_several_records_prints_a_line_for_each_in_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n")
    assert main(["replay", "--json", str(JENNA), str(bad), str(JENNA)]) == 2
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [None if view is None else view["scores"] for view in out] == [
        {"Jenna": 17, "Peter": 15}, None, {"Jenna": 17, "Peter": 15}]


def test_the_console_script_explains_its_commands() -> None:
    script = Path(sys.executable).with_name("dicetable")
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=True)
    for command in ("replay", "pin", "bench"):
        assert command in done.stdout


def test_every_option_of_every_command_says_what_it_is_and_its_default() -> None:
    commands = next(action for action in build_parser()._actions
                    if isinstance(action, argparse._SubParsersAction))
    unexplained = []
    for name, command in commands.choices.items():
        for option in command._actions:
            if isinstance(option, argparse._HelpAction):
                continue
            words = option.help or ""
            has_default = option.default is not None \
                and not isinstance(option, argparse._StoreTrueAction)
            if not words or (has_default and "default" not in words):
                unexplained.append(f"{name} {'/'.join(option.option_strings) or option.dest}")
    assert unexplained == []


def test_one_bad_record_among_several_still_prints_the_good_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "dalek", "players": ["Ana", "Ben"]}\n{"stop": {}}\n')
    assert main(["replay", str(bad), str(JENNA)]) == 2
    captured = capsys.readouterr()
    assert f"== {JENNA}" in captured.out and "Jenna 17" in captured.out
    assert f"== {bad}" not in captured.out
    assert captured.err.startswith(f"{bad}: line 2: Ana has not rolled yet")


def hostile(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("make", "why"), [
    (lambda d: hostile(d, "digits.jsonl", '{"game": "dalek", "players": ["A", "B"], "target": '
                       + "9" * 4301 + "}\n"), "line 1: this line holds a number too long"),
    (lambda d: hostile(d, "surrogate.jsonl", '{"game": "dalek", "players": ["\\ud800", "B"]}\n'),
     "line 1: this line holds text that is not valid Unicode"),
    (lambda d: Path("/dev/zero"), "line 1: longer than 1,048,576 characters"),
])
def test_hostile_records_exit_2_with_a_message_not_a_traceback(
        tmp_path: Path, make: Callable[[Path], Path], why: str) -> None:
    script = Path(sys.executable).with_name("dicetable")
    done = subprocess.run([str(script), "replay", str(make(tmp_path)), str(JENNA)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert why in done.stderr and "Traceback" not in done.stderr
    assert "Jenna 17" in done.stdout


def test_replay_of_a_dash_reads_the_record_from_standard_input() -> None:
    # as other command-line tools do: "-" was looked for as a file ("-: no such file")
    bad = '{"game": "dalek", "players": ["Ana", "Ben"]}\n{"stop": {}}\n'
    for given, out, err in [
            (JENNA.read_text(encoding="utf-8"), "== standard input\nDalek Dice, round 2", ""),
            (bad, "== " + str(JENNA), "standard input: line 2: Ana has not rolled yet")]:
        done = subprocess.run([sys.executable, "-m", "dicetable", "replay", "-", str(JENNA)],
                              input=given, cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == (2 if err else 0)
        assert out in done.stdout and err in done.stderr


def test_replay_into_a_pipe_closed_early_ends_quietly(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("dicetable")
    records = [str(JENNA)] * 2000
    done = subprocess.run(f"{script} replay --json {' '.join(records)} | head -n 1",
                          shell=True, capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout)["scores"] == {"Jenna": 17, "Peter": 15}
    assert done.stderr == ""


def test_ctrl_c_stops_a_command_with_a_word_not_a_traceback(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("dicetable")
    # Ctrl-C as a terminal's foreground job takes it (a job started in the background, as
    # this test may be, ignores it, and so would the command).
    demo = started_from_a_terminal([str(script), "demo", "--state", str(tmp_path)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (tmp_path / "demo" / "00000.jpg").exists():  # it is rendering the frames
        assert demo.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    demo.send_signal(signal.SIGINT)
    _, errors = demo.communicate(timeout=30)
    assert demo.returncode == 130
    assert errors == "dicetable: stopped\n"


def test_a_command_started_with_ctrl_c_ignored_is_not_stopped_by_it(tmp_path: Path) -> None:
    # `dicetable demo &` in a script: the shell starts it with Ctrl-C ignored, so that Ctrl-C
    # at the terminal stops the script, not the job it left running; the command took Ctrl-C
    # back and stopped (130)
    demo = started_from_a_terminal(
        [sys.executable, "-m", "dicetable", "demo", "--state", str(tmp_path)],
        ctrl_c_ignored=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (tmp_path / "demo" / "00000.jpg").exists():  # it is rendering the frames
        assert demo.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    demo.send_signal(signal.SIGINT)
    time.sleep(1.0)
    assert demo.poll() is None  # still rendering
    demo.send_signal(signal.SIGTERM)  # (a stop it does take)
    _, errors = demo.communicate(timeout=30)
    assert demo.returncode == 143
    assert errors == "dicetable: stopped\n"


@pytest.mark.parametrize("work", [
    # eval, teach or calibrate stopped by Ctrl-C while a slow step winds down: every Ctrl-C
    # after the first was let be, and the host had to kill it
    "        time.sleep(60)\n",
    # serve stopped while its table loads, in an early stop within the command line's, which
    # was put back once the stop was raised: a second Ctrl-C came out of it as a traceback
    "        with early_stop() as loading:\n"
    "            while loading.signum is None:\n"
    "                time.sleep(0.01)\n"
    "            loading.now()\n",
])
def test_a_second_ctrl_c_ends_a_command_slow_to_stop(tmp_path: Path, work: str) -> None:
    command = tmp_path / "slow_to_stop.py"
    command.write_text(
        "import time\n"
        "from dicetable.stop_signals import early_stop\n"
        "with early_stop() as stop:\n"
        "    stop.now()\n"
        "    try:\n"
        "        print('working', flush=True)\n"
        f"{work}"
        "    except KeyboardInterrupt:\n"
        "        print('stopping', flush=True)\n"
        "        time.sleep(60)  # a slow stop\n", encoding="utf-8")
    slow = started_from_a_terminal([sys.executable, str(command)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert slow.stdout is not None
    assert slow.stdout.readline() == "working\n"
    slow.send_signal(signal.SIGINT)
    assert slow.stdout.readline() == "stopping\n"
    slow.send_signal(signal.SIGINT)
    _, errors = slow.communicate(timeout=10)
    assert slow.returncode == -signal.SIGINT  # ended by it
    assert errors == ""


def test_the_kiosk_started_as_root_says_whom_to_run_it_as(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert main(["kiosk", "--browser", "no-such-browser"]) == 2
    said = capsys.readouterr().err
    assert "desktop session as its user, not as root" in said and "cannot start" not in said


def test_every_bench_suite_can_be_loaded() -> None:
    for module in SUITES.values():
        assert callable(importlib.import_module(module).suite), module


def test_a_table_this_user_cannot_open_is_said_with_whom_to_run_it_as(open_folder: Path) -> None:
    from device.recovery import open_table

    state = open_folder / "state"
    open_table(state / "table.db").journal.close()
    command = [sys.executable, "-m", "dicetable", "pin", "--state", str(state)]
    if os.geteuid() == 0:  # root opens anything: run it as nobody, as another user would
        if shutil.which("setpriv") is None:
            pytest.skip("running as root, and setpriv (util-linux) is not here to run as another")
        command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]
        give_to_the_tables_user(state)
    state.chmod(0o700 if os.geteuid() == 0 else 0o000)
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False,
                              cwd=Path(__file__).parents[2])
    finally:
        state.chmod(0o755)
    root = os.geteuid() == 0
    me = "nobody" if root else pwd.getpwuid(os.geteuid()).pw_name
    refused = (" is not open to this user: " + (
        f"run dicetable as {TABLES_USER}, who owns it (sudo -u {TABLES_USER} dicetable …), or "
        if root else "") + f"give it to this user (sudo chown -R {me} {state})\n")
    # its journal, which cannot be looked at: the folder is never given away (the Pi's
    # /var/lib/dicetable, the service's: it would break the service)
    within = (f" is not open to this user: run dicetable as {TABLES_USER}, who owns its folder "
              f"{state} (sudo -u {TABLES_USER} dicetable …)\n" if root else
              f" is not open to this user: its folder {state} is this user's: open it to this "
              f"user (chmod u+rwx {state})\n")
    assert done.returncode == 1
    # the folder, or its journal where the folders above it are open to all
    assert done.stderr in (f"dicetable: {state}{refused}",
                           f"dicetable: {state / 'table.db'}{within}")


@pytest.mark.parametrize("command", [["pin"], ["backup", "b.db"], ["restore", "b.db"], ["demo"],
                                     ["serve", "--port", "0"]])
def test_a_state_folder_that_is_a_file_is_said_by_every_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("a shopping list")
    assert main([*command, "--state", str(afile)]) == 2
    assert capsys.readouterr().err == (
        f"dicetable: {afile} is a file, not a folder to keep a table in\n")
    assert afile.read_text() == "a shopping list"


def test_an_option_a_command_does_not_have_is_said_with_that_commands_usage(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["pin", "--lnk"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        "usage: dicetable pin [-h] [--state DIR] [--new | --link]",
        "dicetable pin: error: unrecognized arguments: --lnk"]


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every user may look into (tmp_path lies in a folder of this user's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="dicetable-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


TABLES_USER = "daemon"
"""Whom the table's files are given to where the tests run as root: the table's own user on
the Pi (dicetable) stands in for root, who must never be told to run it."""


def give_to_the_tables_user(state: Path) -> None:
    """Give the state folder and its files to :data:`TABLES_USER`."""
    for place in (state, *state.iterdir()):
        shutil.chown(place, TABLES_USER, TABLES_USER)


def as_another_user(command: list[str]) -> list[str]:
    """``command`` run as nobody where this is root (whom no mode stops), else as it is."""
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("running as root, and setpriv (util-linux) is not here to run as another")
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]


@pytest.mark.parametrize("command", ["restore", "serve"])
@pytest.mark.parametrize("closed", ["folder", "journal"])
def test_a_restore_or_start_by_a_user_who_cannot_open_the_table_says_whom_to_run_it_as(
        open_folder: Path, command: str, closed: str) -> None:
    from device.backup import games_in
    from device.recovery import open_table

    state, older = open_folder / "state", open_folder / "older.db"
    opened = open_table(state / "table.db")
    opened.journal.start_game({"game": "dalek", "players": ["Ana", "Ben"]})
    opened.journal.close()
    assert main(["backup", "--state", str(state), str(older)]) == 0
    older.chmod(0o644)
    words = [older] if command == "restore" else ["--port", "0"]
    run = as_another_user([sys.executable, "-m", "dicetable", command, "--state", str(state),
                           *map(str, words)])
    root = os.geteuid() == 0
    if root:
        give_to_the_tables_user(state)
    if closed == "folder":  # as the service's /var/lib/dicetable (StateDirectoryMode=0700)
        state.chmod(0o700 if root else 0o000)
    else:  # the folder open to all, its journal not (the table's user's, as SQLite makes it)
        (state / "table.db").chmod(0o600 if root else 0o000)
    try:
        done = subprocess.run(run, capture_output=True, text=True, check=False, timeout=30,
                              cwd=ROOT)
    finally:
        state.chmod(0o755)
        (state / "table.db").chmod(0o600)
    assert "Traceback" not in done.stderr  # serve gave SQLite's "unable to open database file"
    user = "nobody" if root else pwd.getpwuid(os.geteuid()).pw_name
    advice = (f"run dicetable as {TABLES_USER}, who owns it (sudo -u {TABLES_USER} dicetable …), "
              "or " if root else "") + f"give it to this user (sudo chown -R {user} {state})"
    if closed == "folder":  # its journal cannot be looked at: the folder is never given away
        within = (f"run dicetable as {TABLES_USER}, who owns its folder {state} (sudo -u "
                  f"{TABLES_USER} dicetable …)" if root else f"its folder {state} is this "
                  f"user's: open it to this user (chmod u+rwx {state})")
        assert (done.returncode, done.stderr) == (1, (
            f"dicetable: {state / 'table.db'} is not open to this user: {within}\n"))
    else:
        said = "nothing was restored" if command == "restore" else "cannot open the table's journal"
        assert (done.returncode, done.stderr) == (2, (  # restore: "could not be kept (…)"
            f"dicetable: {said}: {state} cannot be written by this user ({user}): {advice}\n"))
    assert games_in(state / "table.db") == 1
    assert not list(state.glob("table-before-restore-*"))


def test_a_backup_this_user_cannot_read_is_said_so(open_folder: Path) -> None:
    from device.journal import Journal

    state, older = open_folder / "state", open_folder / "older.db"
    Journal(older).close()
    older.chmod(0o600 if os.geteuid() == 0 else 0o000)  # copied by root from a stick, say
    done = subprocess.run(
        as_another_user([sys.executable, "-m", "dicetable", "restore", "--state", str(state),
                         str(older)]), capture_output=True, text=True, check=False, timeout=30,
        cwd=ROOT)
    user = "nobody" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
    assert (done.returncode, done.stderr) == (2, (  # it said "(not an SQLite file)"
        f"dicetable: {older} cannot be read by this user ({user}): give it to this user "
        f"(sudo chown -R {user} {older})\n"))


def backed_up_table(folder: Path) -> tuple[Path, Path]:
    """A table of one game in ``folder``/state and a backup of it every user may read."""
    from device.recovery import open_table

    state, older = folder / "state", folder / "older.db"
    opened = open_table(state / "table.db")
    opened.journal.start_game({"game": "dalek", "players": ["Ana", "Ben"]})
    opened.journal.close()
    assert main(["backup", "--state", str(state), str(older)]) == 0
    older.chmod(0o644)
    return state, older


def started(command: str, state: Path, older: Path) -> subprocess.CompletedProcess[str]:
    """``dicetable restore`` of ``older`` or ``dicetable serve`` on ``state``, as another user
    where this is root."""
    words = [str(older)] if command == "restore" else ["--port", "0"]
    return subprocess.run(
        as_another_user([sys.executable, "-m", "dicetable", command, "--state", str(state),
                         *words]), capture_output=True, text=True, check=False, timeout=30,
        cwd=ROOT)


@pytest.mark.parametrize("command", ["restore", "serve"])
def test_a_state_folder_this_user_cannot_create_is_said_to_be_created(
        open_folder: Path, command: str) -> None:
    _, older = backed_up_table(open_folder)
    state = open_folder / "not-made-yet"
    open_folder.chmod(0o555)  # as /var/lib: open to look into, not to write
    try:
        done = started(command, state, older)
    finally:
        open_folder.chmod(0o755)
    user = "nobody" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
    said = "nothing was restored" if command == "restore" else "cannot open the table's journal"
    assert (done.returncode, done.stderr) == (2, (  # it said "run dicetable as root"
        f"dicetable: {said}: {state} does not exist, and this user ({user}) cannot create it: "
        f"create the folder and give it to this user (sudo mkdir -p {state}, then sudo chown "
        f"{user} {state})\n"))
    assert not state.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make a file root's")
@pytest.mark.parametrize("command", ["restore", "serve"])
def test_a_journal_copied_in_by_root_is_said_to_be_given_to_this_user(
        open_folder: Path, command: str) -> None:
    from device.backup import games_in

    state, older = backed_up_table(open_folder)
    shutil.chown(state, "nobody", "nogroup")  # nobody's folder, its journal put there by sudo cp
    (state / "table.db").chmod(0o644)
    done = started(command, state, older)
    said = "nothing was restored" if command == "restore" else "cannot open the table's journal"
    # (it said "run dicetable as root"; restore kept the journal, then said "attempt to write
    # a readonly database")
    assert (done.returncode, done.stderr) == (2, (
        f"dicetable: {said}: {state} cannot be written by this user (nobody): give it to this "
        f"user (sudo chown -R nobody {state})\n"))
    assert games_in(state / "table.db") == 1
    assert not list(state.glob("table-before-restore-*"))


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make a folder root's")
def test_a_table_root_keeps_is_never_said_to_be_run_as_root(open_folder: Path) -> None:
    state, _ = backed_up_table(open_folder)
    state.chmod(0o700)
    done = subprocess.run(
        as_another_user([sys.executable, "-m", "dicetable", "pin", "--state", str(state)]),
        capture_output=True, text=True, check=False, timeout=30, cwd=ROOT)
    # not "run it as root, who owns it (sudo -u root…", nor "sudo chown -R nobody {state}", nor
    # to copy table.db out (its write-ahead log, the latest moves, left behind)
    assert (done.returncode, done.stderr) == (1, (
        f"dicetable: {state / 'table.db'} is not open to this user: its folder {state} is root's: "
        "back the table up, as root, into a folder this user can open (sudo dicetable backup "
        f"--state {state} FILE; a copy of table.db alone leaves out its latest moves), give the "
        "backup to this user (sudo chown nobody FILE) and restore it (dicetable restore FILE)\n"))


def run_beside_a_closed_folder(command: str, state: Path, theirs: Path,
                               name: str) -> tuple[subprocess.CompletedProcess[str], str]:
    """``dicetable COMMAND --state STATE THEIRS/NAME`` run by a user who cannot enter folder
    ``theirs`` (another user's, as /home/ana; root enters any folder: then run by nobody, of
    nobody's table); what it did, and who ran it."""
    root = os.geteuid() == 0
    if root:
        for place in (state, *state.iterdir()):
            shutil.chown(place, "nobody", "nogroup")
        shutil.chown(theirs, TABLES_USER, TABLES_USER)
    theirs.chmod(0o700 if root else 0o000)
    try:
        done = subprocess.run(
            as_another_user([sys.executable, "-m", "dicetable", command, "--state", str(state),
                             str(theirs / name)]),
            capture_output=True, text=True, check=False, timeout=30, cwd=ROOT)
    finally:
        theirs.chmod(0o755)
    return done, "nobody" if root else pwd.getpwuid(os.geteuid()).pw_name


@pytest.mark.parametrize("name", ["b.db", "kept/b.db"])
def test_a_backup_into_a_folder_this_user_cannot_enter_says_to_choose_another(
        open_folder: Path, name: str) -> None:
    from device.recovery import open_table

    state, theirs = open_folder / "state", open_folder / "theirs"
    open_table(state / "table.db").journal.close()
    (theirs / "kept").mkdir(parents=True)
    done, user = run_beside_a_closed_folder("backup", state, theirs, name)
    assert (done.returncode, done.stderr) == (2, (  # "run it as daemon, who owns it (…)"
        f"dicetable: {theirs} cannot be entered by this user ({user}): back up into a folder "
        "this user can write, such as its home folder\n"))
    assert not list(theirs.rglob("b.db*"))


@pytest.mark.parametrize("name", ["b.db", "kept/b.db"])
def test_a_restore_from_a_folder_this_user_cannot_enter_says_so(
        open_folder: Path, name: str) -> None:
    """A backup in a folder this user cannot enter (another user's home) was refused as a file
    not open to this user, to be restored as the folder's owner (or as the user who owns it,
    where the folder above its folder is closed), into whose table it would not go; as
    ``backup`` says of such a folder, it is now said that this user cannot enter it."""
    state, older = backed_up_table(open_folder)
    theirs = open_folder / "theirs"
    (theirs / "kept").mkdir(parents=True)
    older.rename(theirs / name)
    done, user = run_beside_a_closed_folder("restore", state, theirs, name)
    assert (done.returncode, done.stderr) == (2, (
        f"dicetable: {theirs} cannot be entered by this user ({user}): copy the backup into a "
        "folder this user can enter, such as its home folder, and restore it from there\n"))
    assert not list(state.glob("table-before-restore-*"))


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can make a folder another user's")
@pytest.mark.parametrize("command", [["pin"], ["backup", "b.db"], ["serve", "--port", "0"]])
def test_a_table_in_another_users_closed_folder_never_says_to_take_the_folder(
        open_folder: Path, command: list[str]) -> None:
    """A table in another user's 0700 folder (their home; the Pi's /var/lib/dicetable, the
    service's): its journal cannot be looked at, its folder can, and the advice was to take
    the folder (sudo chown -R nobody FOLDER: another's whole home, the service's state)."""
    state, _ = backed_up_table(open_folder)
    give_to_the_tables_user(state)
    state.chmod(0o700)
    words = [str(open_folder / word) if word.endswith(".db") else word for word in command[1:]]
    done = subprocess.run(
        as_another_user([sys.executable, "-m", "dicetable", command[0], "--state", str(state),
                         *words]), capture_output=True, text=True, check=False, timeout=30,
        cwd=ROOT)
    assert f"run dicetable as {TABLES_USER}, who owns its folder {state} (sudo -u {TABLES_USER} "\
           "dicetable …)\n" in done.stderr, done.stderr
    assert "chown" not in done.stderr and done.returncode != 0
