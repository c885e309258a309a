"""What the table remembers: abandoned games taken up again, finished games' sheets, the
statistics and the roster of players."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from random import Random
from typing import Any

from device.journal import Journal
from device.session import TableSession
from engine.selfplay import HEADERS, random_lines
from tests.web.conftest import Phone, make_app
from tests.web.test_api import JENNA_TURN, PETER_TURN


def test_an_abandoned_game_is_taken_up_again_where_it_was(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN[:2])
    before = dalek.state()["view"]
    assert dalek.change("/api/abandon").status_code == 200
    listed = dalek.client.get("/api/abandoned").json["games"]  # type: ignore[index]
    assert [(g["id"], g["actions"], g["turn"], g["scores"]) for g in listed] == [
        (1, 2, "Jenna", {"Jenna": 0, "Peter": 0})]
    response = dalek.change("/api/resume", {"game_id": 1})
    assert response.status_code == 200, response.json
    state = response.json["state"]  # type: ignore[index]
    assert state["game_id"] == 2 and state["view"] == before
    assert dalek.client.get("/api/abandoned").json["games"] == []  # type: ignore[index]
    dalek.play(*JENNA_TURN[2:])
    assert dalek.state()["view"]["scores"]["Jenna"] == 17


def test_a_game_taken_up_again_is_not_taken_up_twice(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN[:2])
    dalek.change("/api/abandon")
    assert dalek.change("/api/resume", {"game_id": 1}).status_code == 200
    dalek.play(JENNA_TURN[2])
    dalek.change("/api/abandon")  # game 2 (game 1 taken up) is set aside in turn
    # A phone whose list of abandoned games still shows game 1 takes it up:
    again = dalek.change("/api/resume", {"game_id": 1})
    assert again.status_code == 400
    assert again.json == {"error": "game 1 was taken up again already; it goes on as a later "
                                   "game"}
    assert [g["id"] for g in dalek.client.get("/api/abandoned").json["games"]] == [2]  # type: ignore[index]
    assert dalek.change("/api/resume", {"game_id": 2}).status_code == 200


def test_a_game_is_resumed_only_when_abandoned_and_the_table_is_free(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN[:1])
    busy = dalek.change("/api/resume", {"game_id": 1})
    assert busy.status_code == 400
    assert busy.json == {"error": "a game is being played; finish or abandon it first"}
    dalek.change("/api/abandon")
    for game_id, status in ((99, 400), ("1", 400), (0, 400), (2**63, 400)):
        assert dalek.change("/api/resume", {"game_id": game_id}).status_code == status
    assert dalek.change("/api/resume", {"game_id": 2**63}).json == {
        "error": f"there is no game {2**63}"}
    assert dalek.client.get("/api/abandoned").json["games"][0]["id"] == 1  # type: ignore


def test_watchers_see_the_list_but_only_the_pin_resumes(dalek: Phone, watcher: Phone) -> None:
    dalek.play(*JENNA_TURN[:1])
    dalek.change("/api/abandon")
    assert len(watcher.client.get("/api/abandoned").json["games"]) == 1  # type: ignore[index]
    assert watcher.change("/api/resume", {"game_id": 1}).status_code == 401


def test_statistics_sum_up_the_finished_games(phone: Phone) -> None:
    for _ in range(2):
        phone.change("/api/game", {"header": {"game": "dalek", "players": ["Jenna", "Peter"],
                                              "target": 10}})
        phone.play(*JENNA_TURN, *PETER_TURN)
    phone.change("/api/game", {"header": {"game": "dalek", "players": ["Amy", "Jenna"]}})
    stats = phone.client.get("/api/stats").json
    assert stats is not None
    assert stats["games"] == {"dalek": {"played": 2, "players": {
        "Jenna": {"games": 2, "wins": 2, "best": 17, "total": 34, "average": 17.0},
        "Peter": {"games": 2, "wins": 0, "best": 0, "total": 0, "average": 0.0}}}}
    assert [(p["name"], p["games"], p["wins"]) for p in stats["players"]] == [
        ("Jenna", 2, 2), ("Peter", 2, 0)]
    assert sorted(p["colour"] for p in stats["players"]) == [0, 1]


def test_statistics_follow_a_game_taken_back_after_its_end_and_ended_again(
        phone: Phone) -> None:
    phone.change("/api/game", {"header": {"game": "dalek", "players": ["Jenna", "Peter"],
                                          "target": 10}})
    phone.play(*JENNA_TURN, *PETER_TURN)

    def jenna() -> dict[str, int]:
        stats = phone.client.get("/api/stats").json
        assert stats is not None
        return dict(stats["games"]["dalek"]["players"]["Jenna"]) if stats["games"] else {}

    assert jenna()["wins"] == 1
    phone.act({"undo": {}})  # the end taken back: the game is played again
    assert jenna() == {}
    phone.play(PETER_TURN[-1])
    assert (jenna()["games"], jenna()["wins"]) == (1, 1)


def test_a_finished_games_sheet_is_given_once_it_is_over(dalek: Phone) -> None:
    dalek.play(*JENNA_TURN)
    assert dalek.client.get("/api/games/1").status_code == 409
    assert dalek.client.get("/api/games/7").status_code == 404
    dalek.change("/api/abandon")
    dalek.change("/api/game", {"header": {"game": "dalek", "players": ["Jenna", "Peter"],
                                          "target": 10}})
    dalek.play(*JENNA_TURN, *PETER_TURN)
    dalek.change("/api/game", {"header": {"game": "dalek", "players": ["Amy", "Bo"]},
                               "colours": {"Amy": 4, "Bo": 5}})  # the table plays on
    body = dalek.client.get("/api/games/2").json
    assert body is not None and body["view"]["winners"] == ["Jenna"]
    assert body["header"]["target"] == 10
    assert body["colours"] == {"Jenna": 0, "Peter": 1}  # its players', not the table's now


def _finished_games(phone: Phone) -> dict[str, Any]:
    """Three games played to their end on the phone (Jenna wins two Dalek games, a random
    game of 17), and the statistics the set-up of the next game shows, which it returns."""
    for _ in range(2):
        phone.change("/api/game", {"header": {"game": "dalek", "players": ["Jenna", "Peter"],
                                              "target": 10}})
        phone.play(*JENNA_TURN, *PETER_TURN)
    phone.change("/api/game", {"header": HEADERS["17"]})
    assert phone.play(*random_lines(HEADERS["17"], 1000, Random(1)))["view"]["over"]
    stats: dict[str, Any] = phone.client.get("/api/stats").json  # type: ignore[assignment]
    assert stats["games"]["dalek"]["played"] == 2 and stats["games"]["17"]["played"] == 1
    phone.change("/api/game", {"header": {"game": "dalek", "players": ["Amy", "Jenna"]}})
    return stats


def _stats_after_restart(path: Path, *changes: str) -> dict[str, Any]:
    """The first statistics a phone gets from the table restarted on the journal at ``path``,
    once ``changes`` (SQL) were made to the journal while it was stopped."""
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for change in changes:
            db.execute(change)
    journal = Journal(path)
    session = TableSession(journal)
    session.start()
    try:
        stats: dict[str, Any] = make_app(session, journal).test_client().get("/api/stats").json
        return stats
    finally:
        session.stop()
        journal.close()


GARBLE_LINES = "UPDATE lines SET line = 'garbled by the test'"
"""Every game's lines made text the table refuses to replay."""


def test_the_first_statistics_after_a_restart_replay_no_finished_game(
        phone: Phone, journal: Journal) -> None:
    stats = _finished_games(phone)
    journal.close()
    assert _stats_after_restart(journal.path, GARBLE_LINES) == stats


def test_a_journal_kept_before_the_summaries_gives_the_same_statistics_and_keeps_them(
        phone: Phone, journal: Journal) -> None:
    stats = _finished_games(phone)
    journal.close()
    assert _stats_after_restart(journal.path, "DROP TABLE IF EXISTS finals") == stats
    assert _stats_after_restart(journal.path, GARBLE_LINES) == stats  # kept at the first look


def test_a_summary_missing_garbled_or_stale_is_made_again_from_the_games_lines(
        phone: Phone, journal: Journal) -> None:
    stats = _finished_games(phone)
    journal.close()
    assert _stats_after_restart(
        journal.path, "DELETE FROM finals WHERE game_id = 1",
        "UPDATE finals SET final = '{\"game\": \"dal' WHERE game_id = 2",
        "UPDATE finals SET end_seq = end_seq - 1,"  # of an earlier end
        " final = json_set(final, '$.winners', json('[\"Ana\"]')) WHERE game_id = 3") == stats
    assert _stats_after_restart(journal.path, GARBLE_LINES) == stats  # all three kept again


def test_a_journal_whose_summaries_were_kept_by_the_time_of_their_end_makes_them_again(
        phone: Phone, journal: Journal) -> None:
    stats = _finished_games(phone)
    journal.close()
    assert _stats_after_restart(
        journal.path, "DROP TABLE finals",
        "CREATE TABLE finals (game_id INTEGER PRIMARY KEY, ended_at TEXT NOT NULL,"
        " final TEXT NOT NULL)",  # as an earlier version kept them, one of them wrong
        "INSERT INTO finals SELECT id, ended_at, json_object('game', 'dalek', 'scores',"
        " json_object('Ana', 9), 'winners', json_array('Ana')) FROM games WHERE id = 1") == stats
    assert _stats_after_restart(journal.path, GARBLE_LINES) == stats  # kept again


def test_a_summary_kept_before_an_end_was_taken_back_is_not_the_games_new_end(
        phone: Phone, journal: Journal) -> None:
    _end_taken_back_and_made_again(phone, journal)


def test_an_end_taken_back_and_made_again_is_told_apart_where_the_clock_stood_still(
        tmp_path: Path) -> None:
    # a Pi with no clock of its own may journal two ends in the same millisecond, or an
    # earlier one once it finds the time: the end a summary was kept of is told by its line
    still = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)
    journal = Journal(tmp_path / "table.db", clock=lambda: still)
    session = TableSession(journal)
    session.start()
    try:
        phone = Phone(make_app(session, journal).test_client())
        assert phone.enter_pin(journal.pin()).status_code == 200
        _end_taken_back_and_made_again(phone, journal)
    finally:
        session.stop()
        journal.close()


def _end_taken_back_and_made_again(phone: Phone, journal: Journal) -> None:
    """A game's end whose summary is kept, taken back and made again with the same winner and
    another score, and the statistics after a restart: of the new end."""
    # the same winner, another score: only the end it was kept of tells it from the new one
    phone.change("/api/game", {"header": {"game": "dalek", "players": ["Jenna", "Peter"],
                                          "target": 10}})
    phone.play(*JENNA_TURN, *PETER_TURN)
    kept = phone.client.get("/api/stats").json  # the summary of this end is kept
    assert kept is not None and kept["games"]["dalek"]["players"]["Peter"]["best"] == 0
    phone.play(*[{"undo": {}}] * len(PETER_TURN))  # Peter's turn taken back, played again
    assert phone.client.get("/api/stats").json["games"] == {}  # type: ignore[index]
    phone.play({"roll": ["H2"] + ["D3"] * 9}, {"keep": ["H2", "D3"]}, {"stop": {}})
    journal.close()  # the table stopped before anyone looked again
    again = _stats_after_restart(journal.path)["games"]["dalek"]
    assert again["played"] == 1 and again["players"]["Jenna"]["wins"] == 1
    assert again["players"]["Peter"] == {"games": 1, "wins": 0, "best": 2, "total": 2,
                                         "average": 2.0}
