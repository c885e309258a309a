"""The table session: one owner, versions, the journal, restarts and live updates."""

from __future__ import annotations

import os
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from device.backup import restore
from device.journal import Journal
from device.session import SessionError, Snapshot, StaleVersion, TableSession
from engine import IllegalAction

DALEK = {"game": "dalek", "players": ["Ana", "Ben"]}
ROLL = {"roll": ["H4", "H4", "H2", "D3", "D3", "D3", "D2", "H2", "H2", "DOC"]}
WIN_TURN = [{"roll": ["H4"] * 4 + ["D3"] * 6}, {"keep": ["H4"] * 4 + ["D3"] * 6}]


def play(session: TableSession, lines: list[dict[str, Any]]) -> Snapshot:
    snap = session.snapshot()
    for line in lines:
        snap = session.act(line, base_version=snap.version, source="phone")
    return snap


def test_a_game_is_set_up_played_and_every_line_journalled(session: TableSession,
                                                          journal_path: Path) -> None:
    snap = session.new_game(DALEK, base_version=0)
    assert snap.view is not None and snap.view["turn"] == "Ana"
    snap = play(session, [ROLL, {"keep": ["H4", "H4", "D3", "D3"]}, {"undo": {}},
                          {"keep": ["H4", "D3", "D3"]}])
    assert snap.view is not None and snap.view["table"]["kept"] == ["H4", "D3", "D3"]
    with sqlite3.connect(journal_path) as db:
        rows = db.execute("SELECT seq, line, source FROM lines ORDER BY seq").fetchall()
    assert [r[0] for r in rows] == [1, 2, 3, 4]
    assert '"undo"' in rows[2][1] and all(r[2] == "phone" for r in rows)


def test_a_stale_change_is_refused_with_the_current_state_and_applied_once(
        session: TableSession) -> None:
    base = session.new_game(DALEK, base_version=0).version
    outcomes: list[str] = []

    def tap() -> None:
        try:
            session.act(ROLL, base_version=base, source="phone")
            outcomes.append("applied")
        except StaleVersion as stale:
            assert stale.current.version == base + 1
            outcomes.append("stale")

    phones = [threading.Thread(target=tap) for _ in range(5)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    assert sorted(outcomes) == ["applied"] + ["stale"] * 4
    assert session.snapshot().view is not None
    assert session.snapshot().view["actions"] == 1  # type: ignore[index]


def test_an_illegal_action_changes_nothing(session: TableSession, journal_path: Path) -> None:
    snap = session.new_game(DALEK, base_version=0)
    with pytest.raises(IllegalAction, match="it is Ana's turn to roll 10 dice, not to keep"):
        session.act({"keep": ["H4"]}, base_version=snap.version, source="phone")
    assert session.snapshot() == snap
    assert Journal(journal_path).latest_game().lines == ()  # type: ignore[union-attr]


def test_the_session_refuses_what_makes_no_sense(session: TableSession) -> None:
    with pytest.raises(SessionError, match="no game is being played"):
        session.act(ROLL, base_version=0, source="phone")
    with pytest.raises(SessionError, match="there is no game to abandon"):
        session.abandon(base_version=0)
    snap = session.new_game(DALEK, base_version=0)
    with pytest.raises(SessionError, match="finish or abandon it first"):
        session.new_game(DALEK, base_version=snap.version)
    free = session.abandon(base_version=snap.version)
    with pytest.raises(IllegalAction, match="for 2 to 8 players"):
        session.new_game({"game": "dalek", "players": ["Solo"]}, base_version=free.version)


def test_a_new_game_abandons_the_one_in_progress_only_if_it_is_taken(
        session: TableSession) -> None:
    session.new_game(DALEK, base_version=0)
    playing = play(session, [ROLL])
    with pytest.raises(IllegalAction, match="for 2 to 8 players"):
        session.new_game({"game": "dalek", "players": ["Solo"]}, base_version=playing.version,
                         abandon_current=True)
    assert session.snapshot() == playing and session.journal.history("abandoned") == []
    taken = session.new_game({"game": "17", "players": ["Ana", "Ben"]},
                             base_version=playing.version, abandon_current=True)
    assert taken.header == {"game": "17", "players": ["Ana", "Ben"]}
    [abandoned] = session.journal.history("abandoned")
    assert abandoned["id"] == playing.game_id


def test_a_correction_replays_the_rest_or_changes_nothing(session: TableSession) -> None:
    session.new_game(DALEK, base_version=0)
    snap = play(session, [ROLL, {"keep": ["H2", "D3"]}, {"stop": {}}])
    assert snap.view is not None and snap.view["scores"]["Ana"] == 2
    fixed = session.correct(1, {"keep": ["H4", "H2", "D3", "D3"]}, base_version=snap.version)
    assert fixed.view is not None and fixed.view["scores"]["Ana"] == 6
    assert fixed.view["actions"] == 3
    with pytest.raises(IllegalAction, match=r"action 2 .* is refused"):
        session.correct(0, {"roll": ["H4"] * 10}, base_version=fixed.version)
    assert session.snapshot() == fixed


def test_a_restart_resumes_the_game_exactly(journal_path: Path) -> None:
    first = TableSession(Journal(journal_path))
    first.start()
    first.new_game(DALEK, base_version=0)
    snap = play(first, [ROLL, {"keep": ["H4", "D3"]}, {"stop": {}}, ROLL])
    first.correct(1, {"keep": ["H4", "H4", "D3", "D3"]}, base_version=snap.version)
    before = first.snapshot()
    first.stop()

    again = TableSession(Journal(journal_path))
    again.start()
    try:
        assert replace(again.snapshot(), live=0, run="") == replace(before, live=0, run="")
        assert again.snapshot().run != before.run  # phones that saw the first take it
        assert again.record(before.game_id or 0)[1:] == [
            ROLL, {"keep": ["H4", "H4", "D3", "D3"]}, {"stop": {}}, ROLL]
    finally:
        again.stop()


def test_a_restart_is_another_run_whatever_its_clock(journal_path: Path) -> None:
    first = TableSession(Journal(journal_path))
    first.start()
    for press in range(3000):  # button news is not journalled: thousands a second
        seen = first.tell_buttons({"pressed": press})
    first.stop()

    again = TableSession(Journal(journal_path))  # the phones take its states by their run
    again.start()
    try:
        assert again.snapshot().run != seen.run and again.snapshot().live < seen.live
    finally:
        again.stop()


def test_finished_games_go_to_the_history_with_each_players_wins(session: TableSession) -> None:
    session.new_game({**DALEK, "target": 20}, base_version=0)
    lose = [{"roll": ["H4"] * 10}, {"keep": ["H4"]}, {"stop": {}}]
    snap = play(session, [*WIN_TURN, *lose])
    assert snap.view is not None and snap.view["over"] and snap.view["winners"] == ["Ana"]
    assert session.player_wins() == {"Ana": 1}
    [finished] = session.history()
    assert finished["winners"] == ["Ana"] and finished["players"] == ["Ana", "Ben"]
    with pytest.raises(SessionError, match="the game is over"):  # its result stays
        session.abandon(base_version=snap.version)
    assert session.snapshot() == snap and session.history() == [finished]
    # An undo after the end reopens the game; a rematch needs it finished or abandoned.
    reopened = session.act({"undo": {}}, base_version=snap.version, source="phone")
    assert session.history() == [] and session.player_wins() == {}
    again = play(session, lose[-1:])
    rematch = session.new_game({**DALEK, "target": 20}, base_version=again.version)
    assert rematch.game_id != reopened.game_id
    assert session.player_wins() == {"Ana": 1}


def test_hints_can_be_switched_off_for_the_table(session: TableSession) -> None:
    session.new_game(DALEK, base_version=0)
    snap = play(session, [ROLL, {"keep": ["H4", "D3"]}])
    assert snap.hints is not None and "roll_expected" in snap.hints
    off = session.set_hints(False, base_version=snap.version)
    assert off.hints is None and not off.hints_on
    assert off.view == snap.view


def test_every_stream_gets_each_new_state(session: TableSession) -> None:
    with session.subscribe() as updates:
        assert updates.get(timeout=0.1) == session.snapshot()
        assert updates.get(timeout=0.05) is None
        snap = session.new_game(DALEK, base_version=0)
        assert updates.get(timeout=1) == snap


def test_every_connection_uses_wal_and_full_synchronous(journal_path: Path) -> None:
    journal = Journal(journal_path)
    db = journal._connection()
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_the_pin_and_secret_survive_a_restart(journal_path: Path) -> None:
    pin, secret = Journal(journal_path).pin(), Journal(journal_path).secret()
    assert len(pin) == 6 and pin.isdigit()
    assert Journal(journal_path).pin() == pin and Journal(journal_path).secret() == secret


def test_a_journal_that_no_longer_replays_goes_on_from_its_last_good_line(
        journal_path: Path) -> None:
    journal = Journal(journal_path)
    game_id, _ = journal.start_game(DALEK)
    journal.append(game_id, [ROLL, {"keep": ["H4", "D3"]}], source="phone")
    # A line the rules refuse (as after an update that changed a rule) and one after it.
    journal.append(game_id, [{"keep": ["H4"]}, {"stop": {}}], source="phone")
    table = TableSession(Journal(journal_path))
    table.start()
    try:
        snap = table.snapshot()
        assert snap.view is not None and snap.view["actions"] == 2
        assert snap.game_id != game_id
        assert table.notice is not None and table.notice.key == "notice.game_goes_on"
        assert table.notice.params["move"] == 3
        assert str(table.notice.params["reason"]).startswith("it is Ana's turn")
        # The table plays on, and the whole old game stays in the journal.
        table.act({"stop": {}}, base_version=snap.version, source="phone")
        old = Journal(journal_path).game(game_id)
        assert old is not None and old.status == "abandoned" and len(old.lines) == 4
    finally:
        table.stop()


def test_the_move_that_no_longer_replays_is_counted_as_the_game_counts_moves(
        journal_path: Path) -> None:
    journal = Journal(journal_path)
    game_id, _ = journal.start_game(DALEK)
    # roll, keep, undo, keep again: two moves stand; the line after them no longer replays
    journal.append(game_id, [ROLL, {"keep": ["H4", "D3"]}, {"undo": {}},
                             {"keep": ["H4", "D3"]}, {"keep": ["H4"]}], source="phone")
    table = TableSession(Journal(journal_path))
    table.start()
    try:
        assert table.notice is not None and table.notice.params["move"] == 3  # not line 5
    finally:
        table.stop()


def test_a_journal_line_damaged_on_disk_is_where_the_game_goes_on_from(
        journal_path: Path) -> None:
    journal = Journal(journal_path)
    game_id, _ = journal.start_game(DALEK)
    journal.append(game_id, [ROLL, {"keep": ["H4", "D3"]}, {"stop": {}}], source="phone")
    with sqlite3.connect(journal_path) as db:  # the card garbled the keep's text
        db.execute("UPDATE lines SET line = '{\"keep\": [\"H4' WHERE game_id = ? AND seq = "
                   "(SELECT MIN(seq) + 1 FROM lines WHERE game_id = ?)", (game_id, game_id))
    table = TableSession(Journal(journal_path))
    table.start()
    try:
        snap = table.snapshot()
        assert snap.view is not None and snap.view["actions"] == 1  # the roll stands
        assert table.notice is not None and table.notice.key == "notice.game_goes_on"
        assert table.notice.params["move"] == 2
        assert str(table.notice.params["reason"]).startswith("the text cannot be read at column")
        table.act({"keep": ["H4", "D3"]}, base_version=snap.version, source="phone")
        assert [g["id"] for g in Journal(journal_path).history("abandoned")] == [game_id]
    finally:
        table.stop()


def test_a_game_whose_header_is_damaged_on_disk_frees_the_table(journal_path: Path) -> None:
    journal = Journal(journal_path)
    game_id, _ = journal.start_game(DALEK)
    with sqlite3.connect(journal_path) as db:
        db.execute("UPDATE games SET header = '{\"game\": \"da' WHERE id = ?", (game_id,))
    table = TableSession(Journal(journal_path))
    table.start()
    try:
        assert table.snapshot().view is None
        assert table.notice is not None and table.notice.key == "notice.game_not_resumed"
        assert Journal(journal_path).history("abandoned") == []  # nothing to take up
        assert table.new_game(DALEK, base_version=table.snapshot().version).view is not None
    finally:
        table.stop()


def test_games_kept_with_names_a_later_version_refuses_go_on_and_stay_readable(
        journal_path: Path) -> None:
    # names an earlier version accepted (a tab, a reordering mark): its games are not shut out
    old = {"game": "dalek", "players": ["Jen\u202ena", "Pe\tter"]}
    journal = Journal(journal_path)
    before, _ = journal.start_game(old)
    journal.append(before, [ROLL, {"keep": ["H4"]}, {"stop": {}}], source="phone")
    playing, _ = journal.start_game(old, abandoning=before)
    journal.append(playing, [ROLL], source="phone")
    table = TableSession(Journal(journal_path))
    table.start()
    try:
        assert table.notice is None
        assert table.snapshot().game_id == playing
        assert table.snapshot().view["players"] == old["players"]  # type: ignore[index]
        assert len(table.game(before).actions) == 3  # the abandoned game, as it was
        with pytest.raises(IllegalAction, match="control characters"):
            table.new_game(old, base_version=table.snapshot().version, abandon_current=True)
    finally:
        table.stop()


def test_the_journal_and_a_restored_one_are_for_their_owners_eyes_only(tmp_path: Path) -> None:
    # they hold the PIN and the secret that signs the phones' cookies
    journal = Journal(tmp_path / "state" / "table.db")
    journal.start_game(DALEK)
    restored = tmp_path / "elsewhere" / "table.db"
    restore(journal.path, restored)
    Journal(restored).start_game(DALEK)
    files = [p for folder in (journal.path.parent, restored.parent) for p in folder.iterdir()]
    assert len(files) >= 6  # each journal, its log, its index and its count of commits
    assert {str(p): oct(p.stat().st_mode & 0o077) for p in files} == {
        str(p): "0o0" for p in files}


def test_a_journal_whose_header_no_longer_replays_frees_the_table(journal_path: Path) -> None:
    journal = Journal(journal_path)
    journal.start_game({"game": "dalek", "players": ["Ana"]})
    table = TableSession(Journal(journal_path))
    table.start()
    try:
        assert table.snapshot().view is None
        assert table.notice is not None and table.notice.key == "notice.game_not_resumed"
        assert "players" in str(table.notice.params["reason"])
        assert table.new_game(DALEK, base_version=table.snapshot().version).view is not None
    finally:
        table.stop()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes files another user then owns")
def test_files_root_makes_in_the_tables_folder_stay_the_tables_users(tmp_path: Path) -> None:
    # `sudo dicetable pin --new` or `sudo dicetable restore` on the service's state folder:
    # a count of commits owned by root would no longer be kept by the table, and a lost log
    # would go unnoticed
    folder = tmp_path / "state"
    folder.mkdir()
    os.chown(folder, 65534, 65534)
    journal = Journal(folder / "table.db")
    journal.start_game(DALEK)
    journal.close()
    made = {p.name: (p.stat().st_uid, p.stat().st_gid) for p in folder.iterdir()}
    assert {"table.db", "table.db-commits"} <= set(made)
    assert set(made.values()) == {(65534, 65534)}
