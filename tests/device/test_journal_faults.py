"""Faults of the SD card, injected under the real ``dicetable serve``: a damaged journal, a lost
or torn ``-wal`` file, a lost journal, a full disk, a read-only state folder.

Each one starts (or refuses) with a clear message in the log and on the score pad, keeps the
damaged files in ``damaged-<time>/``, keeps every acknowledged action that can be kept, and
never makes a new PIN without saying so.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from random import Random
from typing import Any

import pytest

from device.journal import Journal, JournalError, journal_error
from device.recovery import open_table
from device.reserve import RESERVE, keep_room
from device.session import TableSession
from device.state_dir import journal_path
from dicetable.child import ServedTable, free_port
from dicetable.cli import main
from engine.selfplay import random_game, random_lines
from tests.device.small_card import fill
from web.app import create_app
from web.client import Phone

HEADER = {"game": "dalek", "players": ["Ana", "Ben", "Cleo"], "target": 10_000}
LINES = random_lines(HEADER, 400, Random(12))
PAGE = 4096


def start_game(table: ServedTable) -> tuple[Phone, int]:
    """A phone with the PIN and a new game on the table; returns the phone and the version."""
    phone = Phone(table.url, pin=table.pin)
    status, body = phone.post("/api/game", {"header": HEADER, "base_version": 0})
    assert status == 200, body
    return phone, body["state"]["version"]


def post(phone: Phone, lines: list[dict[str, Any]], version: int) -> int:
    """Post ``lines`` (each must be acknowledged); returns the last version."""
    for line in lines:
        status, body = phone.post("/api/action", {"line": line, "base_version": version})
        assert status == 200, body
        version = body["state"]["version"]
    return version


def state_of(table: ServedTable) -> dict[str, Any]:
    status, body = Phone(table.url).get("/api/state")
    assert status == 200
    return dict(body)


def kept_folders(state: Path) -> list[Path]:
    return sorted(state.glob("damaged-*"))


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "serve.log"


def test_a_corrupt_page_keeps_the_damaged_file_and_what_can_be_read(
        tmp_path: Path, log: Path) -> None:
    state = tmp_path / "state"
    with ServedTable(state) as table:
        phone, version = start_game(table)
        post(phone, LINES[:200], version)
        pin = table.pin
    path = journal_path(state)
    damaged = _corrupt_last_leaf_of_lines(path)

    with ServedTable(state, log=log) as table:
        body = state_of(table)
        assert table.pin == pin  # the PIN could be read: kept
        actions = body["state"]["view"]["actions"]
        assert 0 < actions < 200  # the lines before the damaged page, and the game goes on
        phone = Phone(table.url, pin=pin)
        post(phone, LINES[actions:actions + 3], body["state"]["version"])
    (kept,) = kept_folders(state)
    assert (kept / "table.db").read_bytes() == damaged
    assert any("saved games were damaged" in n for n in body["notices"])
    text = log.read_text()
    assert f"the damaged journal files are kept in {kept}" in text
    assert "Traceback" not in text


def test_a_file_that_is_no_database_starts_a_new_table_and_says_the_pin_is_new(
        tmp_path: Path, log: Path) -> None:
    state = tmp_path / "state"
    with ServedTable(state) as table:
        start_game(table)
        pin = table.pin
    path = journal_path(state)
    path.write_bytes(b"\x00garbage" * 2000)
    for suffix in ("-wal", "-shm"):  # pages left in the log would make a whole journal again
        path.with_name(path.name + suffix).unlink(missing_ok=True)

    with ServedTable(state, log=log) as table:
        body = state_of(table)
        assert body["state"]["view"] is None
        new_pin = table.pin
    assert (kept_folders(state)[0] / "table.db").read_bytes() == b"\x00garbage" * 2000
    assert len(body["notices"]) == 2 and "new PIN" in body["notices"][1]
    assert new_pin != pin or "new PIN" in log.read_text()


def test_a_first_start_cut_short_is_a_new_table_not_a_damaged_one(tmp_path: Path) -> None:
    # the card filled (or the power went) while the first start made the journal: only part
    # of its tables were made, and no PIN; there never was a table, nor a PIN to have lost
    path = tmp_path / "state" / "table.db"
    path.parent.mkdir()
    with closing(sqlite3.connect(path)) as half:
        half.execute("PRAGMA journal_mode=WAL")
        half.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, header TEXT NOT NULL, "
                     "started_at TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'playing', "
                     "ended_at TEXT, winners TEXT)")
    opened = open_table(path)
    try:
        assert opened.notices == []
        assert opened.journal.has_pin()
        opened.journal.start_game(HEADER)
    finally:
        opened.journal.close()


def test_a_lost_wal_after_a_power_cut_is_told_and_the_pin_is_kept(
        tmp_path: Path, log: Path) -> None:
    state = tmp_path / "state"
    with ServedTable(state) as table:  # a clean stop: the first 20 actions are in table.db
        phone, version = start_game(table)
        post(phone, LINES[:20], version)
        pin = table.pin
    table = ServedTable(state).start()
    phone = Phone(table.url, pin=pin)
    post(phone, LINES[20:30], state_of(table)["state"]["version"])
    table.stop(kill=True)
    wal = journal_path(state).with_name("table.db-wal")
    wal_bytes = wal.read_bytes()
    wal.unlink()

    with ServedTable(state, log=log) as table:
        body = state_of(table)
        assert table.pin == pin
        assert body["state"]["view"]["actions"] == 20
    (kept,) = kept_folders(state)
    assert not (kept / "table.db-wal").exists() and (kept / "table.db").exists()
    assert any("lost its last 12 saved changes" in n for n in body["notices"]), body["notices"]
    assert len(wal_bytes) > 0


def test_a_torn_wal_is_told_and_kept(tmp_path: Path, log: Path) -> None:
    state = tmp_path / "state"
    table = ServedTable(state).start()
    phone, version = start_game(table)
    post(phone, LINES[:40], version)
    table.stop(kill=True)
    wal = journal_path(state).with_name("table.db-wal")
    torn = wal.read_bytes()[: wal.stat().st_size * 2 // 3]
    wal.write_bytes(torn)

    with ServedTable(state, log=log) as table:
        body = state_of(table)
        actions = body["state"]["view"]["actions"]
        assert 0 < actions < 40
        assert LINES[:actions] == _journalled(state)
    (kept,) = kept_folders(state)
    assert (kept / "table.db-wal").read_bytes() == torn
    assert any("lost its last" in n for n in body["notices"])


def test_a_lost_wal_of_a_new_table_never_makes_a_silent_new_pin(
        tmp_path: Path, log: Path) -> None:
    state = tmp_path / "state"
    table = ServedTable(state).start()
    start_game(table)
    table.stop(kill=True)
    journal_path(state).with_name("table.db-wal").unlink()

    with ServedTable(state, log=log) as table:
        body = state_of(table)
    assert any("has a new PIN" in n for n in body["notices"])
    assert "has a new PIN" in log.read_text()


def test_a_lost_journal_is_told(tmp_path: Path, log: Path) -> None:
    state = tmp_path / "state"
    with ServedTable(state) as table:
        start_game(table)
    journal_path(state).unlink()
    with ServedTable(state, log=log) as table:
        body = state_of(table)
    assert any("saved games were missing" in n for n in body["notices"])
    assert (kept_folders(state)[0] / "table.db-commits").exists()


def test_a_full_disk_refuses_the_change_clearly_and_keeps_every_acknowledged_one(
        tmp_path: Path, log: Path) -> None:
    state = tmp_path / "state"
    with ServedTable(state) as table:
        phone, version = start_game(table)
    table = ServedTable(state, log=log, file_size_limit=160_000).start()
    phone = Phone(table.url, pin=table.pin)
    version = state_of(table)["state"]["version"]
    acknowledged = 0
    for line in LINES:
        status, body = phone.post("/api/action", {"line": line, "base_version": version})
        if status != 200:
            break
        version = body["state"]["version"]
        acknowledged += 1
    assert status == 503
    assert body["error"].startswith("The table's memory card was full. The table used the room")
    # The room it kept does not lift the file size limit: tried again, it is full still.
    status, body = phone.post("/api/action", {"line": line, "base_version": version})
    assert status == 503
    assert body["error"].startswith("The table cannot save anything: its memory card is full")
    # Nothing changed: the game still stands where the last acknowledged action left it.
    assert state_of(table)["state"]["view"]["actions"] == acknowledged
    table.stop(kill=True)

    with ServedTable(state) as table:
        body = state_of(table)
    assert body["state"]["view"]["actions"] == acknowledged > 0
    assert _journalled(state) == LINES[:acknowledged]
    assert body["notices"] == []
    assert "is full" in log.read_text()


def test_a_table_on_a_card_that_filled_up_starts_and_goes_on(small_card: Path) -> None:
    state = small_card / "state"
    with ServedTable(state) as table:
        phone, version = start_game(table)
        post(phone, LINES[:3], version)
    fill(small_card)  # something else filled the card since
    with ServedTable(state) as table:
        body = state_of(table)
        assert body["notices"] == [
            "The table's memory card is full. The table is using the room it keeps for "
            "this, so the game goes on. Host: free room on the card soon."]
        assert body["state"]["view"]["actions"] == 3
        phone = Phone(table.url, pin=table.pin)
        post(phone, LINES[3:6], body["state"]["version"])
    assert _journalled(state) == LINES[:6]


def test_a_move_refused_as_the_card_fills_goes_in_when_tried_again(small_card: Path) -> None:
    state = small_card / "state"
    with ServedTable(state) as table:
        phone, version = start_game(table)
        fill(small_card)
        status, body = phone.post("/api/action", {"line": LINES[0], "base_version": version})
        assert status == 503
        assert body["error"] == ("The table's memory card was full. The table used the room "
                                 "it keeps for this: nothing was changed, try again.")
        post(phone, LINES[:2], version)
        assert any("memory card is full" in n for n in state_of(table)["notices"])
    assert _journalled(state) == LINES[:2]


def test_a_read_only_state_folder_is_a_clear_refusal_and_changes_nothing(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with ServedTable(state) as table:
        phone, version = start_game(table)
        post(phone, LINES[:5], version)
    before = {p.name: p.read_bytes() for p in state.iterdir()}
    with _read_only(state):
        done = subprocess.run(
            [sys.executable, "-m", "dicetable", "serve", "--state", str(state),
             "--host", "127.0.0.1", "--port", str(free_port())],
            capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "cannot open the table's journal" in done.stderr
    assert "cannot be written" in done.stderr and "Traceback" not in done.stderr
    # in the host's words, with what to do; not SQLite's ("unable to open database file")
    assert ("the memory card (or disk) it is on is read-only" if os.geteuid() == 0 else
            "cannot be written by this user") in done.stderr
    assert "database file" not in done.stderr
    assert {p.name: p.read_bytes() for p in state.iterdir()} == before
    with ServedTable(state) as table:
        assert state_of(table)["state"]["view"]["actions"] == 5


@pytest.mark.parametrize("stop", ["clean", "power cut"])
def test_pin_shows_the_pin_of_a_table_whose_card_cannot_be_written(
        tmp_path: Path, stop: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Stopped cleanly, the journal has no log or index beside it, and SQLite could make
    # neither there ("unable to open database file"); cut off, it has both.
    state = tmp_path / "state"
    with ServedTable(state) as table:
        start_game(table)
        pin, url = table.pin, table.url
        table.stop(kill=stop == "power cut")
    assert (state / "table.db-wal").exists() == (stop == "power cut")
    before = {p.name: p.read_bytes() for p in state.iterdir()}
    with _read_only(state):
        assert main(["pin", "--state", str(state)]) == 0
        assert capsys.readouterr().out == f"{pin}\n"
        assert main(["pin", "--link", "--state", str(state)]) == 0
        assert capsys.readouterr().out.startswith(f"{url}/auth/join?token=")
        assert main(["pin", "--new", "--state", str(state)]) == 2  # a new one: it cannot
        assert "cannot be written" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in state.iterdir()} == before


@pytest.mark.parametrize("stop", ["serving", "power cut"])
def test_pin_shows_the_pin_of_a_table_whose_card_is_full(
        small_card: Path, stop: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Opening the journal to read the PIN writes nothing: a full card does not refuse it.
    state = small_card / "state"
    with ServedTable(state) as table:
        start_game(table)
        pin = table.pin
        if stop == "power cut":
            table.stop(kill=True)
        fill(small_card)
        assert main(["pin", "--state", str(state)]) == 0
        assert capsys.readouterr() == (f"{pin}\n", "")
    assert (state / RESERVE).exists()  # the room kept for the table's moves was not let go


@pytest.mark.skipif(os.geteuid() != 0, reason="a card the kernel made read-only is a read-only "
                                              "mount, which needs root")
def test_a_card_the_kernel_made_read_only_while_playing_is_told_as_such(tmp_path: Path) -> None:
    state = tmp_path / "state"
    Journal(state / "table.db").close()
    failed = sqlite3.OperationalError("disk I/O error")  # what a write says on that card
    failed.sqlite_errorcode, failed.sqlite_errorname = 778, "SQLITE_IOERR_WRITE"
    with _read_only(state):
        told = journal_error(failed, state / "table.db")
    assert told.problem == "read_only"
    assert journal_error(failed, state / "table.db").problem == "other"  # writable: try again


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mkfs.ext4") is None,
                    reason="a card the kernel turns read-only is an ext4 image on a loop device: "
                           "root and mkfs.ext4 make one")
def test_a_card_ext4_turned_read_only_after_an_error_is_told_as_such(tmp_path: Path) -> None:
    image, card = tmp_path / "card.img", tmp_path / "card"
    image.write_bytes(bytes(16 << 20))
    subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True)
    card.mkdir()
    if subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(card)],
                      check=False).returncode != 0:
        pytest.skip("no loop device can be mounted here")
    journal = Journal(card / "table.db")
    try:
        journal.start_game({"game": "dalek", "players": ["Ana", "Ben"]})
        device = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(card)], check=True,
                                capture_output=True, text=True).stdout.strip()
        # What ext4 does on a failing card: read-only from now on ("emergency_ro"), which
        # the mount's flags do not show.
        Path(f"/sys/fs/ext4/{Path(device).name}/trigger_fs_error").write_text("test")
        with pytest.raises(JournalError) as told:
            journal.start_game({"game": "dalek", "players": ["Ana", "Ben"]})
        assert told.value.problem == "read_only"  # not "try again": it never can
    finally:
        journal.close()
        subprocess.run(["umount", str(card)], check=False)


def _journalled(state: Path) -> list[dict[str, Any]]:
    journal = Journal.existing(journal_path(state))
    try:
        stored = journal.latest_game()
        assert stored is not None
        return list(stored.lines)
    finally:
        journal.close()


def _corrupt_last_leaf_of_lines(path: Path) -> bytes:
    """Overwrite the last leaf page of the ``lines`` table with noise; returns the file."""
    with sqlite3.connect(path) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'lines'"
                             ).fetchone()
    data = bytearray(path.read_bytes())
    page = data[(root - 1) * PAGE: root * PAGE]
    assert page[0] == 0x05, "the lines table should span several pages"
    leaf = int.from_bytes(page[8:12], "big")  # the right-most child: the newest lines
    data[(leaf - 1) * PAGE: leaf * PAGE] = Random(1).randbytes(PAGE)
    path.write_bytes(bytes(data))
    return bytes(data)


@contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """``folder`` read-only for the duration: by its mode, or (for root, whom no mode stops)
    by a read-only bind mount of it, as when the kernel remounts a failing SD card."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in folder.iterdir()}
        for file in modes:
            file.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
            for file, mode in modes.items():
                file.chmod(mode)
        return
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], check=False)
    if mounted.returncode != 0:
        pytest.skip("running as root without the right to mount: no folder can be read-only")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_the_camera_filling_the_card_is_told_to_the_host_too(small_card: Path) -> None:
    # the camera journals most moves: its write that lets the kept room go is told as a phone's
    journal = Journal(small_card / "state" / "table.db")
    keep_room(journal.path.parent)
    session = TableSession(journal)
    session.start()
    try:
        snapshot = session.new_game(HEADER, base_version=0)
        fill(small_card)
        with pytest.raises(JournalError, match="let go"):
            session.act(LINES[0], base_version=snapshot.version, source="camera")
        app = create_app({"TABLE_SESSION": session, "JOURNAL": journal, "TESTING": True})
        notices = app.test_client().get("/api/state").json["notices"]  # type: ignore[index]
        assert any("memory card is full" in n for n in notices)
        session.act(LINES[0], base_version=snapshot.version, source="camera")  # room enough
    finally:
        session.stop()
        journal.close()


def test_the_card_filling_up_is_told_to_every_open_page_as_it_happens(small_card: Path) -> None:
    # the notice was added only once a page asked for the notices: the state's
    # notices_version, which every open page watches, did not move, so none of them learnt of it
    journal = Journal(small_card / "state" / "table.db")
    keep_room(journal.path.parent)
    session = TableSession(journal)
    session.start()
    try:
        snapshot = session.new_game(HEADER, base_version=0)
        app = create_app({"TABLE_SESSION": session, "JOURNAL": journal, "TESTING": True})
        fill(small_card)
        with pytest.raises(JournalError, match="let go"):
            session.act(LINES[0], base_version=snapshot.version, source="camera")
        moved = session.wait_for_change(snapshot.live, timeout=2)  # as an open page's stream
        assert moved is not None and moved.notices_version > snapshot.notices_version
        notices = app.test_client().get("/api/state").json["notices"]  # type: ignore[index]
        assert [n[:31] for n in notices] == ["The table's memory card is full"]
    finally:
        session.stop()
        journal.close()


def test_the_statistics_on_a_full_card_keep_the_room_kept_for_the_games(
        small_card: Path) -> None:
    # their summaries are not written there: they are made again at the next look instead
    journal = Journal(small_card / "state" / "table.db")
    keep_room(journal.path.parent)
    game = random_game({"game": "dalek", "players": ["Ana", "Ben"]}, Random(3))
    game_id, _ = journal.start_game(dict(game.header))
    journal.append(game_id, [game.rules.action_to_json(a) for a in game.actions],
                   source="phone", winners=game.view()["winners"])
    session = TableSession(journal)
    session.start()
    try:
        fill(small_card)
        app = create_app({"TABLE_SESSION": session, "JOURNAL": journal, "TESTING": True})
        stats = app.test_client().get("/api/stats").json
        assert stats is not None and stats["games"]["dalek"]["played"] == 1
        assert (journal.path.parent / RESERVE).is_file()
        assert app.test_client().get("/api/state").json["notices"] == []  # type: ignore[index]
    finally:
        session.stop()
        journal.close()
