"""``dicetable backup`` while the table serves and plays, ``dicetable restore`` refused while
serving, and a restored table that serves the game where it was."""

from __future__ import annotations

import os
import platform
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from device.backup import SCRATCH_MARK, games_in
from device.journal import Journal
from device.recovery import open_table
from dicetable.child import ServedTable
from dicetable.cli import main
from tests.device.small_card import fill, mounted_card
from web.client import Phone

DALEK = {"game": "dalek", "players": ["Ana", "Ben"]}
TURN = [{"roll": ["H4"] * 9 + ["D3"]}, {"keep": ["D3"]}, {"stop": {}}]


class Done:
    def __init__(self, returncode: int, out: pytest.CaptureResult[str]) -> None:
        self.returncode, self.stdout, self.stderr = returncode, out.out, out.err


@pytest.fixture
def dicetable(capsys: pytest.CaptureFixture[str]) -> object:
    """``dicetable ARGS…`` run here: its exit status and what it printed."""
    def run(*args: str) -> Done:
        status = main(list(args))
        return Done(status, capsys.readouterr())
    return run


def play(phone: Phone, lines: list[dict[str, object]]) -> int:
    status, body = phone.get("/api/state")
    version = body["state"]["version"]
    for line in lines:
        status, body = phone.post("/api/action", {"line": line, "base_version": version})
        assert status == 200, body
        version = body["state"]["version"]
    return int(version)


def test_a_backup_taken_while_playing_restores_the_game(tmp_path: Path, dicetable: Any) -> None:
    state, copy = tmp_path / "state", tmp_path / "games.db"
    with ServedTable(state) as table:
        phone = Phone(table.url, pin=table.pin)
        status, _ = phone.post("/api/game", {"header": DALEK, "base_version": 0})
        assert status == 200
        play(phone, TURN)
        playing = threading.Thread(target=play, args=(phone, TURN * 3))
        playing.start()  # the table goes on while the backup is taken
        done = dicetable("backup", "--state", str(state), str(copy))
        playing.join()
        assert done.returncode == 0, done.stderr
        assert done.stdout == f"Backed up 1 game to {copy}\n"
        assert sorted(p.name for p in tmp_path.glob("games.db*")) == ["games.db"]  # one file
        assert copy.stat().st_mode & 0o077 == 0  # it holds the PIN: its owner's alone
        refused = dicetable("restore", "--state", str(state), str(copy))
        assert refused.returncode == 2
        assert "the table is serving" in refused.stderr and "stop it first" in refused.stderr
        phone.close()
    restored = tmp_path / "restored"
    done = dicetable("restore", "--state", str(restored), str(copy))
    assert done.returncode == 0 and done.stdout == f"Restored 1 game from {copy}\n"
    with ServedTable(restored) as table:
        _, body = Phone(table.url).get("/api/state")
        view = body["state"]["view"]
        assert view["game"] == "dalek" and view["actions"] >= len(TURN)
        assert table.pin == ServedTable(state).pin  # the PIN came along


def test_a_table_started_while_a_restore_runs_is_refused_until_it_is_done(
        tmp_path: Path, dicetable: Any) -> None:
    state, older = tmp_path / "state", tmp_path / "older.db"
    Journal(older).start_game(DALEK)
    journal = Journal(state / "table.db")
    for _ in range(3):
        journal.start_game(DALEK)
    journal.close()
    with closing(sqlite3.connect(state / "table.db", isolation_level=None)) as writing:
        writing.execute("BEGIN IMMEDIATE")  # the restore waits to copy in: it is under way
        restored: list[Done] = []
        restoring = threading.Thread(target=lambda: restored.append(dicetable(
            "restore", "--state", str(state), str(older))))
        restoring.start()
        while not list(state.glob("table-before-restore-*.db")) and restoring.is_alive():
            restoring.join(0.05)  # until the journal it replaces is kept
        started = subprocess.run(  # as systemd restarts a table that crashed
            [sys.executable, "-m", "dicetable", "serve", "--state", str(state), "--port", "0"],
            capture_output=True, text=True, check=False, timeout=30,
            cwd=Path(__file__).parents[2])  # it opened the journal being replaced, and served
        writing.execute("ROLLBACK")
    restoring.join()
    assert (started.returncode, started.stderr) == (2, (
        f"dicetable: another dicetable serves {state}, or restores a backup into it\n"))
    assert restored[0].returncode == 0, restored[0].stderr
    assert games_in(state / "table.db") == 1
    done = dicetable("restore", "--state", str(state), str(older))  # the lock was let go
    assert done.returncode == 0, done.stderr


def test_restore_keeps_the_journal_it_replaces(tmp_path: Path, dicetable: Any) -> None:
    state = tmp_path / "state"
    Journal(state / "table.db").start_game(DALEK)
    assert dicetable("backup", "--state", str(state), str(tmp_path / "one.db")).returncode == 0
    done = dicetable("restore", "--state", str(state), str(tmp_path / "one.db"))
    assert done.returncode == 0
    kept = sorted(state.glob("table-before-restore-*.db"))
    assert len(kept) == 1 and f"kept in {kept[0]}" in done.stdout
    assert sorted(state.glob("table-before-restore-*")) == kept  # no log or index beside it


def test_an_older_backup_restored_opens_as_a_sound_table(tmp_path: Path, dicetable: Any) -> None:
    state = tmp_path / "state"
    opened = open_table(state / "table.db")
    opened.journal.start_game(DALEK)
    assert dicetable("backup", "--state", str(state), str(tmp_path / "older.db")).returncode == 0
    for _ in range(3):  # played on after the backup
        opened.journal.start_game(DALEK)
    opened.journal.close()
    assert dicetable("restore", "--state", str(state), str(tmp_path / "older.db")).returncode == 0
    reopened = open_table(state / "table.db")  # as serve opens it
    assert reopened.notices == [] and reopened.kept is None
    assert reopened.journal.latest_game() is not None
    reopened.journal.close()


def test_restores_in_the_same_second_keep_each_journal_they_replace(
        tmp_path: Path, dicetable: Any) -> None:
    state = tmp_path / "state"
    first = Journal(state / "table.db")
    first.abandon(first.start_game(DALEK)[0])
    first.start_game(DALEK)
    Journal(tmp_path / "other.db").start_game(DALEK)
    for _ in range(2):  # the second at once, as a script would: the first kept must stay
        done = dicetable("restore", "--state", str(state), str(tmp_path / "other.db"))
        assert done.returncode == 0
    kept = sorted(state.glob("table-before-restore-*.db"))
    assert sorted(games_in(path) for path in kept) == [1, 2]


def test_a_file_that_is_no_backup_is_refused_and_nothing_changes(tmp_path: Path,
                                                                 dicetable: Any) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: dice, cards\n")
    done = dicetable("restore", "--state", str(tmp_path / "state"), str(notes))
    assert done.returncode == 2
    assert done.stderr == f"dicetable: {notes} is no dicetable journal (not an SQLite file)\n"
    assert not (tmp_path / "state").exists()
    missing = dicetable("backup", "--state", str(tmp_path / "none"), str(tmp_path / "b.db"))
    assert missing.returncode == 2 and "there is no journal" in missing.stderr


def test_a_backup_into_a_folder_that_is_not_there_says_so(tmp_path: Path, dicetable: Any) -> None:
    Journal(tmp_path / "state" / "table.db").close()
    target = tmp_path / "no-such-folder" / "b.db"
    done = dicetable("backup", "--state", str(tmp_path / "state"), str(target))
    assert done.returncode == 2
    assert done.stderr == f"dicetable: cannot write {target}: No such file or directory\n"
    assert not target.parent.exists()


def test_a_backup_named_by_a_link_is_written_where_it_points(tmp_path: Path,
                                                             dicetable: Any) -> None:
    state, stick = tmp_path / "state", tmp_path / "usb"
    Journal(state / "table.db").start_game(DALEK)
    stick.mkdir()
    link = tmp_path / "backup.db"
    link.symlink_to(stick / "games.db")
    assert dicetable("backup", "--state", str(state), str(link)).returncode == 0
    assert link.is_symlink() and games_in(stick / "games.db") == 1


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="a read-only card is mounted for the test, which needs root and unshare")
@pytest.mark.parametrize("stopped", ["closed", "cut"])
def test_a_card_gone_read_only_is_still_backed_up_with_its_last_changes(
        tmp_path: Path, stopped: str) -> None:
    state = tmp_path / "state"
    writer = subprocess.run([sys.executable, "-c", WRITE, str(state / "table.db"), stopped],
                            check=False)
    assert writer.returncode == 0
    # closed: the journal alone; cut (a power cut): the game is still in the write-ahead log
    assert (state / "table.db-wal").exists() == (stopped == "cut")
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" '
         '&& exec "$2" -m dicetable backup --state "$1" "$3"', "sh", str(state), sys.executable,
         str(tmp_path / "rescued.db")],
        capture_output=True, text=True, check=False, cwd=Path(__file__).parents[2])
    assert (done.returncode, done.stdout) == (0, f"Backed up 1 game to {tmp_path / 'rescued.db'}\n")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="a small card is mounted for the test, which needs root and unshare")
@pytest.mark.parametrize("stopped", ["closed", "cut"])
def test_a_full_card_is_still_backed_up_to_another_disk(tmp_path: Path, stopped: str) -> None:
    state = tmp_path / "state"
    state.mkdir()
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", 'mount -t tmpfs -o size=2m tmpfs "$1" '
         '&& "$2" -c "$4" "$1/table.db" "$5" '
         '&& { dd if=/dev/zero of="$1/filler" bs=64k 2>/dev/null; true; } '
         '&& exec "$2" -m dicetable backup --state "$1" "$3"', "sh", str(state), sys.executable,
         str(tmp_path / "rescued.db"), WRITE, stopped],
        capture_output=True, text=True, check=False, cwd=Path(__file__).parents[2])
    assert (done.returncode, done.stdout, done.stderr) == (
        0, f"Backed up 1 game to {tmp_path / 'rescued.db'}\n", "")


WRITE = """
import os, sys
from contextlib import closing
from pathlib import Path
from device.journal import Journal
journal = Journal(Path(sys.argv[1]))
journal.start_game({"game": "dalek", "players": ["Ana", "Ben"]})
if sys.argv[2] == "cut":
    os._exit(0)  # the write-ahead log is not merged into the file
journal.close()
"""


def test_a_damaged_backup_is_refused_in_words_and_the_table_kept(tmp_path: Path,
                                                                 dicetable: Any) -> None:
    state, damaged = tmp_path / "state", tmp_path / "damaged.db"
    Journal(state / "table.db").start_game(DALEK)
    journal = Journal(damaged)
    for _ in range(40):
        journal.start_game(DALEK)
    journal.close()
    data = bytearray(damaged.read_bytes())
    data[3 * 4096:3 * 4096 + 300] = b"Z" * 300  # a page the card garbled
    damaged.write_bytes(bytes(data))
    done = dicetable("restore", "--state", str(state), str(damaged))
    assert (done.returncode, done.stderr) == (2, (
        f"dicetable: {damaged} is damaged or cut short: its games cannot be read whole; take "
        "an older backup\n"))
    assert games_in(state / "table.db") == 1


@pytest.mark.parametrize("kept", [100, 4096, 3 * 4096, 0.5])
def test_a_backup_cut_short_is_told_so_and_the_table_kept(tmp_path: Path, dicetable: Any,
                                                          kept: float) -> None:
    state, played, cut = tmp_path / "state", tmp_path / "played", tmp_path / "cut.db"
    Journal(state / "table.db").start_game(DALEK)
    journal = Journal(played / "table.db")
    for _ in range(40):
        journal.start_game(DALEK)
    journal.close()
    assert dicetable("backup", "--state", str(played), str(cut)).returncode == 0
    data = cut.read_bytes()
    cut.write_bytes(data[:int(kept * len(data)) if kept < 1 else int(kept)])  # a copy cut short
    done = dicetable("restore", "--state", str(state), str(cut))
    assert (done.returncode, done.stderr) == (2, (  # it said "(not an SQLite file)"
        f"dicetable: {cut} is damaged or cut short: its games cannot be read whole; take an "
        "older backup\n"))
    assert games_in(state / "table.db") == 1
    assert not list(state.glob("table-before-restore-*"))


def test_a_folder_named_as_the_backup_to_restore_is_said(tmp_path: Path, dicetable: Any) -> None:
    done = dicetable("restore", "--state", str(tmp_path / "state"), str(tmp_path))
    assert (done.returncode, done.stderr) == (
        2, f"dicetable: {tmp_path} is a folder; name the backup file\n")


@pytest.mark.parametrize("name", ["table.db", "table.db-wal", "table.db-commits"])
def test_a_backup_named_as_the_journals_own_file_is_refused_and_the_table_plays_on(
        tmp_path: Path, dicetable: Any, name: str) -> None:
    state = tmp_path / "state"
    with ServedTable(state) as table:
        phone = Phone(table.url, pin=table.pin)
        phone.post("/api/game", {"header": DALEK, "base_version": 0})
        play(phone, TURN)
        done = dicetable("backup", "--state", str(state), str(state / name))
        assert (done.returncode, done.stderr) == (2, (
            f"dicetable: {state / name} is one of the table's own files; name another file "
            "for the backup\n"))
        play(phone, TURN)  # the write-ahead log overwritten by a backup refused every move
        phone.close()
    with ServedTable(state) as table:
        _, body = Phone(table.url).get("/api/state")
        assert body["state"]["view"]["actions"] == 2 * len(TURN)


def test_the_journal_named_as_the_backup_to_restore_is_refused_at_once(tmp_path: Path) -> None:
    state = tmp_path / "state"
    journal = Journal(state / "table.db")
    journal.start_game(DALEK)
    journal.close()
    done = subprocess.run(  # it copied the journal onto itself and waited for ever
        [sys.executable, "-m", "dicetable", "restore", "--state", str(state),
         str(state / "table.db")], capture_output=True, text=True, check=False, timeout=30,
        cwd=Path(__file__).parents[2])
    assert (done.returncode, done.stderr) == (2, (
        f"dicetable: {state / 'table.db'} is the table's own journal, not a backup; name a "
        "file written by dicetable backup\n"))
    assert sorted(p.name for p in state.iterdir()) == ["table.db", "table.db-commits"]
    assert games_in(state / "table.db") == 1


def test_a_restore_onto_a_full_card_says_so_and_leaves_the_journal(tmp_path: Path,
                                                                 dicetable: Any) -> None:
    journal = Journal(tmp_path / "other.db")
    for _ in range(3):
        journal.start_game(DALEK)
    journal.close()
    with mounted_card(tmp_path / "card") as card:
        state = card / "state"
        played = Journal(state / "table.db")
        played.start_game(DALEK)
        played.close()
        before = (state / "table.db").read_bytes()
        fill(card)
        done = dicetable("restore", "--state", str(state), str(tmp_path / "other.db"))
        assert (done.returncode, done.stderr) == (2, (  # it said "cannot write
            f"dicetable: nothing was restored: {state} is full, and the journal it would "
            "replace is kept beside it first; make room there, then restore again\n"))
        assert (state / "table.db").read_bytes() == before
        assert not list(state.glob("table-before-restore-*"))  # nor the part of one written


NEW_COLUMN = "ALTER TABLE games ADD COLUMN seat_map TEXT"
RENAMED_TABLE = "ALTER TABLE lines RENAME TO moves"


def newer_journal(path: Path, change: str = NEW_COLUMN) -> None:
    """Make ``path`` a journal as a later dicetable might leave it: a layout of its own,
    ``change`` made to this one's."""
    journal = Journal(path)
    journal.start_game(DALEK)
    journal.close()
    with closing(sqlite3.connect(path)) as db:
        db.execute(change)
        db.execute("PRAGMA user_version = 99")
        db.commit()


@pytest.mark.parametrize("change", [NEW_COLUMN, RENAMED_TABLE])
def test_a_backup_of_a_newer_dicetable_is_refused_and_the_journal_kept(
        tmp_path: Path, dicetable: Any, change: str) -> None:
    state, future = tmp_path / "state", tmp_path / "future.db"
    journal = Journal(state / "table.db")
    journal.start_game(DALEK)
    journal.close()
    before = (state / "table.db").read_bytes()
    newer_journal(future, change)  # a renamed table was told "no dicetable journal"
    done = dicetable("restore", "--state", str(state), str(future))
    assert (done.returncode, done.stderr) == (2, (  # it was restored, and served
        f"dicetable: {future} was made by a newer dicetable (its journal's version 99; this "
        "one reads up to 1): update dicetable (git pull, then systemd/install again), then "
        "restore it\n"))
    assert (state / "table.db").read_bytes() == before
    assert not list(state.glob("table-before-restore-*"))


A_GAP = ("INSERT INTO lines (game_id, seq, line, source, at) VALUES"
         " (1, 2, '{\"stop\": {}}', 'phone', '2026-12-07T16:00:00.000+00:00')")
"""A game's line 2 without its line 1: damage to a journal of this layout."""


@pytest.mark.parametrize("change", [NEW_COLUMN, A_GAP])
def test_a_journal_of_a_newer_dicetable_is_not_served_nor_changed(tmp_path: Path,
                                                                  change: str) -> None:
    state = tmp_path / "state"
    newer_journal(state / "table.db", change)  # one found damaged was salvaged into this layout
    before = (state / "table.db").read_bytes()
    done = subprocess.run(  # it served it, writing this version's tables into it
        [sys.executable, "-m", "dicetable", "serve", "--state", str(state), "--port", "0"],
        capture_output=True, text=True, check=False, timeout=30,
        cwd=Path(__file__).parents[2])
    assert done.returncode == 2
    assert done.stderr.endswith(
        f"dicetable: cannot open the table's journal: {state / 'table.db'} was written by a "
        "newer dicetable (its journal's version 99; this one reads up to 1): update dicetable "
        "(git pull, then systemd/install again) to open it\n")
    assert (state / "table.db").read_bytes() == before
    assert not list(state.glob("damaged-*"))


KILLED_AT = """
import os, signal, sys
from pathlib import Path
from device.backup import restore
left = int(sys.argv[1])
def kill_at(event, args):
    global left
    if event in ("os.remove", "os.rename", "sqlite3.connect"):  # before each of these
        left -= 1
        if left == 0:
            os.kill(os.getpid(), signal.SIGKILL)  # a power cut
sys.addaudithook(kill_at)
restore(Path(sys.argv[2]), Path(sys.argv[3]))  # as dicetable restore does, less its imports
"""


def test_a_restore_cut_at_any_step_leaves_a_table_that_starts_without_a_false_loss(
        tmp_path: Path) -> None:
    played, older = tmp_path / "played", tmp_path / "older.db"
    opened = open_table(played / "table.db")  # as serve makes it: a PIN, its commits counted
    opened.journal.start_game(DALEK)
    assert main(["backup", "--state", str(played), str(older)]) == 0
    for _ in range(3):  # played on after the backup: more commits than it holds
        opened.journal.start_game(DALEK)
    opened.journal.close()
    cuts = 0
    while True:
        cuts += 1
        state = tmp_path / f"cut-{cuts}"
        shutil.copytree(played, state)
        done = subprocess.run(
            [sys.executable, "-c", KILLED_AT, str(cuts), str(older), str(state / "table.db")],
            capture_output=True, text=True, check=False, timeout=30,
            cwd=Path(__file__).parents[2])
        reopened = open_table(state / "table.db")  # as the table's next start opens it
        games = games_in(state / "table.db")
        reopened.journal.close()
        # the old count of commits beside the backup's journal read as 3 changes lost
        assert (reopened.notices, reopened.kept) == ([], None), f"cut before step {cuts}"
        assert games in (1, 4)  # the journal it replaced, or the backup: nothing between
        if done.returncode != -9:
            break
    assert (done.returncode, games) == (0, 1), done.stderr
    assert cuts > 3  # each step was cut: keeping the journal, its count, the copy


def three_games_and_an_older_one(tmp_path: Path) -> tuple[Path, Path]:
    """A table's state folder whose journal holds three games, and an older journal of one
    game beside it to restore."""
    state, older = tmp_path / "state", tmp_path / "older.db"
    opened = open_table(state / "table.db")
    for _ in range(3):
        opened.journal.start_game(DALEK)
    opened.journal.close()
    Journal(older).start_game(DALEK)
    return state, older


def killed_restore(script: str, arg: str, state: Path, older: Path) -> None:
    """``dicetable restore`` of ``older`` into ``state`` run as ``python -c script arg …``,
    which kills it on the way (SIGKILL, a power cut)."""
    killed = subprocess.run(
        [sys.executable, "-c", script, arg, "restore", "--state", str(state), str(older)],
        capture_output=True, text=True, check=False, timeout=30, cwd=Path(__file__).parents[2])
    assert killed.returncode == -signal.SIGKILL, killed.stderr


CUT_WHILE_KEEPING = """
import os, signal, sys
from dicetable.cli import main
def cut(event, args):
    if event == sys.argv[1] and str(args[0]).endswith(".partial"):  # the copy of the journal
        os.kill(os.getpid(), signal.SIGKILL)  # a power cut
sys.addaudithook(cut)
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("cut_at", ["sqlite3.connect", "os.rename"])  # copy begun; copy whole
@pytest.mark.parametrize("then", ["restore", "serve"])
def test_a_restore_cut_while_keeping_the_journal_leaves_no_second_copy_once_it_goes_on(
        tmp_path: Path, dicetable: Any, cut_at: str, then: str) -> None:
    state, older = three_games_and_an_older_one(tmp_path)
    killed_restore(CUT_WHILE_KEEPING, cut_at, state, older)
    (partial,) = state.glob("table-before-restore-*.db.partial")  # as the host finds it
    assert partial.stat().st_mode & 0o777 == 0o600  # (it holds the PIN)
    if then == "restore":
        while int(time.time()) == int(partial.stat().st_mtime):
            time.sleep(0.05)  # a second later: within it, the next would take up its name
        done = dicetable("restore", "--state", str(state), str(older))
        assert done.returncode == 0, done.stderr
        (kept,) = state.glob("table-before-restore-*")  # the copy cut short stayed beside it
        assert games_in(kept) == 3 and games_in(state / "table.db") == 1
    else:
        with ServedTable(state):  # the next start
            pass
        assert not list(state.glob("table-before-restore-*"))
        assert games_in(state / "table.db") == 3


def test_a_restore_from_a_copy_a_cut_restore_left_keeps_that_copy(tmp_path: Path,
                                                                  dicetable: Any) -> None:
    state = tmp_path / "state"
    opened = open_table(state / "table.db")
    for _ in range(2):
        opened.journal.start_game(DALEK)
    leftover = state / "table-before-restore-20261207-100000.db.partial"  # as the README names it
    assert dicetable("backup", "--state", str(state), str(leftover)).returncode == 0
    opened.journal.start_game(DALEK)
    opened.journal.close()
    done = dicetable("restore", "--state", str(state), str(leftover))
    assert done.returncode == 0, done.stderr  # it was deleted: "unable to open database file"
    assert games_in(state / "table.db") == 2 and games_in(leftover) == 2


IN_SCRATCH = """
import os, resource, signal, sys
from dicetable.cli import main
# a journal with no room to grow (less than 1 MiB under the file size limit) is read through a
# scratch copy, as on a full card
resource.setrlimit(resource.RLIMIT_FSIZE, (512 * 1024, 512 * 1024))
def stop(event, args):
    if event == "sqlite3.connect" and "dicetable-backup-" in str(args[0]):  # read from the copy
        os.kill(os.getpid(), getattr(signal, sys.argv[1]))
sys.addaudithook(stop)
sys.exit(main(sys.argv[2:]))
"""
"""``dicetable ARGS…`` that reads the journal through a scratch copy, and there gets ``SIGNAL``
(``python -c IN_SCRATCH SIGNAL ARGS…``): SIGKILL, a kill; SIGSTOP, a backup still running."""


def scratch_left(state: Path) -> list[Path]:
    """The scratch folders of backups in ``state``, as the host finds them."""
    return sorted(state.glob("dicetable-backup-*"))


@pytest.mark.parametrize("then", ["serve", "restore", "backup"])
def test_a_restore_killed_reading_through_a_scratch_copy_leaves_it_only_until_the_next_start(
        tmp_path: Path, dicetable: Any, then: str) -> None:
    """A restore killed while it kept the journal of a full card (read through a copy) left the
    copy, the PIN in it, in the state folder for good; the next start, backup or restore
    removes it."""
    state, older = three_games_and_an_older_one(tmp_path)
    killed_restore(IN_SCRATCH, "SIGKILL", state, older)
    (left,) = scratch_left(state)
    assert games_in(left / "table.db") == 3  # a copy of the journal, the PIN in it
    if then == "serve":
        with ServedTable(state):
            pass
    elif then == "restore":
        assert dicetable("restore", "--state", str(state), str(older)).returncode == 0
    else:
        assert dicetable("backup", "--state", str(state), str(state / "copy.db")).returncode == 0
    assert scratch_left(state) == []


def test_a_running_backups_scratch_copy_and_a_hosts_folder_named_alike_are_left_alone(
        tmp_path: Path, dicetable: Any) -> None:
    state, older = three_games_and_an_older_one(tmp_path)
    hosts = state / "dicetable-backup-monday"  # the host's own folder of backups
    hosts.mkdir()
    (hosts / "table.db").write_bytes((state / "table.db").read_bytes())
    running = subprocess.Popen(
        [sys.executable, "-c", IN_SCRATCH, "SIGSTOP", "backup", "--state", str(state),
         str(state / "copy.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=Path(__file__).parents[2])
    try:
        deadline = time.monotonic() + 20
        while Path(f"/proc/{running.pid}/stat").read_text().split(") ")[1][0] != "T":
            assert time.monotonic() < deadline and running.poll() is None, "never in scratch"
            time.sleep(0.02)
        (reading,) = [folder for folder in scratch_left(state) if folder != hosts]
        with ServedTable(state):  # a start, a restore and a backup meanwhile
            pass
        assert dicetable("restore", "--state", str(state), str(older)).returncode == 0
        assert dicetable("backup", "--state", str(state), str(tmp_path / "b.db")).returncode == 0
        assert scratch_left(state) == sorted([hosts, reading])
    finally:
        running.send_signal(signal.SIGCONT)
        out, err = running.communicate(timeout=30)
    assert (running.returncode, out) == (0, f"Backed up 3 games to {state / 'copy.db'}\n"), err
    assert scratch_left(state) == [hosts] and games_in(hosts / "table.db") == 3


WITHOUT_FLOCK = """
import ctypes, errno, os, platform, resource, sys
from dicetable.cli import main
# flock(2) refused by the kernel, as a network file system without locks refuses it (NFS with
# local_lock=none: ENOLCK; some others: EOPNOTSUPP): a seccomp filter on this process
FLOCK = {"x86_64": 73, "aarch64": 32}[platform.machine()]
class Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                ("k", ctypes.c_uint)]
class Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]
code = (Filter * 4)(Filter(0x20, 0, 0, 0),  # load the system call's number
                    Filter(0x15, 0, 1, FLOCK),  # flock?
                    Filter(0x06, 0, 0, 0x00050000 | getattr(errno, sys.argv[1])),  # refused
                    Filter(0x06, 0, 0, 0x7FFF0000))  # any other: allowed
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
assert libc.prctl(22, 2, ctypes.byref(Program(4, code)), 0, 0) == 0  # a seccomp filter
# a journal with no room to grow is read through a scratch copy, as on a full card
resource.setrlimit(resource.RLIMIT_FSIZE, (512 * 1024, 512 * 1024))
sys.exit(main(sys.argv[2:]))
"""
"""``dicetable ARGS…`` where flock(2) fails with ``ERRNO`` (``python -c WITHOUT_FLOCK ERRNO
ARGS…``), reading the journal through a scratch copy."""


@pytest.mark.skipif(platform.machine() not in ("x86_64", "aarch64"),
                    reason="flock's system call number is known here for x86_64 and aarch64")
@pytest.mark.parametrize("refused", ["ENOLCK", "EOPNOTSUPP"])
def test_a_backup_where_the_file_system_has_no_locks_is_taken(
        tmp_path: Path, refused: str) -> None:
    """flock refused by a file system without locks (some network ones) failed the backup of a
    full card's journal, where it worked before the scratch folder was locked: the backup goes
    on without the lock, and a scratch folder that may be a running backup's is left alone."""
    state = tmp_path / "state"
    opened = open_table(state / "table.db")
    for _ in range(3):
        opened.journal.start_game(DALEK)
    opened.journal.close()
    left = state / "dicetable-backup-left"  # a killed backup's, or a running one's: unknown
    beside = tmp_path / "dicetable-backup-left"  # one in the backup's folder, which it looks at
    for folder in (left, beside):
        folder.mkdir()
        (folder / SCRATCH_MARK).touch()
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_FLOCK, refused, "backup", "--state", str(state),
         str(tmp_path / "b.db")], capture_output=True, text=True, check=False, timeout=30,
        cwd=Path(__file__).parents[2])
    assert (done.returncode, done.stdout) == (0, f"Backed up 3 games to {tmp_path / 'b.db'}\n"), \
        done.stderr
    assert games_in(tmp_path / "b.db") == 3
    assert scratch_left(state) == [left] and scratch_left(tmp_path) == [beside]
    # left unsaid, such folders piled up: each is logged as left, in one line
    assert done.stderr == (f"dicetable: {beside}, a copy of the journal a backup or restore made, "
                           "is left there: this file system has no locks, so whether a backup "
                           "still reads it cannot be told; remove it once no backup or restore "
                           "runs\n"), done.stderr
