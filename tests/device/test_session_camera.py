"""The session's camera side: reads journalled from the camera, questions answered by phones,
held rolls, the recorded frames and their labels, and a restart that resumes from the camera."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pytest

from device.camera import CameraError
from device.camera_answers import AnswerRefused
from device.journal import Journal
from device.live import CameraStatus, Seen
from device.session import SessionError, StaleVersion, TableSession
from device.teacher import Teacher
from dicetable.cli import main
from engine.selfplay import random_lines
from vision.dice import DieRead
from vision.observation import Observation
from vision.sheet_observer import SheetObserver

DICY = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
PLACES = [(100.0, 100.0), (300.0, 100.0), (500.0, 100.0), (100.0, 300.0), (300.0, 300.0),
          (500.0, 300.0)]
THROWN = [(650.0, 450.0), (700.0, 520.0), (760.0, 430.0), (640.0, 560.0), (560.0, 500.0),
          (720.0, 380.0)]


def seen(values: Sequence[int | None], places: Sequence[tuple[float, float]] = PLACES,
         number: int = 1) -> Seen:
    dice = tuple(DieRead(v, x, y, 0.9, 40.0) for v, (x, y) in zip(values, places, strict=False))
    frame = np.full((600, 800, 3), 90, np.uint8)
    return Seen(Observation(dice, 800, 600), frame, b"\xff\xd8picture", float(number), number)


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def table(state: Path) -> Iterator[TableSession]:
    session = TableSession(Journal(state / "table.db"), recording=state / "recorded")
    session.start()
    session.watch_camera()
    session.new_game(DICY, base_version=session.snapshot().version)
    yield session
    session.stop()


def journal_lines(state: Path) -> list[tuple[str, dict[str, Any]]]:
    with sqlite3.connect(state / "table.db") as db:
        rows = db.execute("SELECT source, line FROM lines ORDER BY game_id, seq").fetchall()
    return [(source, json.loads(line)) for source, line in rows]


def ask(session: TableSession) -> dict[str, Any]:
    camera = session.snapshot().camera
    assert camera is not None and camera["ask"] is not None, camera
    question: dict[str, Any] = camera["ask"]
    return question


def test_a_roll_seen_is_journalled_from_the_camera_and_its_picture_kept(
        table: TableSession, state: Path) -> None:
    table.camera_seen(seen([6, 6, 5, 2, 1, 1]))
    assert journal_lines(state) == [("camera", {"roll": [6, 6, 5, 2, 1, 1]})]
    camera = table.snapshot().camera
    assert camera is not None and camera["status"] == "starting" and camera["picture"] == 1
    assert [d["value"] for d in camera["seen"]["dice"]] == [6, 6, 5, 2, 1, 1]
    assert table.camera_picture() == (1, b"\xff\xd8picture")


def test_a_reroll_asks_which_card_and_the_answer_is_journalled_from_the_camera(
        table: TableSession, state: Path) -> None:
    table.camera_seen(seen([6, 6, 5, 2, 1, 1]))
    table.camera_seen(seen([6, 6, 5, 2, 3, 4], [*PLACES[:4], *THROWN[:2]]))
    question = ask(table)
    assert question["kind"] == "freeze" and question["player"] == "Ana"
    version = table.snapshot().version
    with pytest.raises(AnswerRefused, match="does not fit"):
        table.answer(question["id"], {"card": "pair"}, base_version=version)
    with pytest.raises(StaleVersion):
        table.answer(question["id"], {"card": "odd"}, base_version=version - 1)
    table.answer(question["id"], {"card": "odd"}, base_version=version)
    assert journal_lines(state)[-1] == ("camera", {"reroll": {"freeze": "odd",
                                                              "dice": [6, 6, 5, 2, 3, 4]}})
    with pytest.raises(SessionError, match="already answered"):
        table.answer(question["id"], {"card": "odd"}, base_version=table.snapshot().version)


def test_the_same_dice_seen_again_after_frames_the_camera_could_only_note_ask_nothing(
        table: TableSession, state: Path) -> None:
    table.camera_seen(seen([6, 6, 5, 2, 1, 1]))
    bumped = np.full((600, 800, 3), 90, np.uint8)
    table.camera_seen(Seen(Observation((), 800, 600, problem="moved"), bumped, b"\xff\xd8",
                           2.0, 2))  # a black frame, glare: the sheet not where it was
    table.camera_seen(seen([3, 4, 4], THROWN[:3], number=3))  # a hand, a stray picture
    table.camera_seen(seen([6, 6, 5, 2, 1, 1], number=4))  # the table as it was left
    camera = table.snapshot().camera
    assert camera is not None and camera["ask"] is None
    assert journal_lines(state) == [("camera", {"roll": [6, 6, 5, 2, 1, 1]})]


@pytest.mark.parametrize("header", [DICY, {"game": "dalek", "players": ["Ana", "Ben"]},
                                    {"game": "17", "players": ["Ana", "Ben", "Cleo"]}])
def test_a_sheet_taken_away_from_a_finished_game_tells_no_dice_read(
        state: Path, header: dict[str, Any]) -> None:
    """A finished game's table: a Dicy sheet taken away (the camera reads its dice anywhere)
    tells nothing of dice read for a game still in play."""
    session = TableSession(Journal(state / "table.db"))
    session.start()
    try:
        session.watch_camera()
        session.new_game(header, base_version=session.snapshot().version)
        for line in random_lines(header, 2_000, Random(1)):
            session.act(line, base_version=session.snapshot().version, source="phone")
        assert session.snapshot().view["over"]
        bare = np.full((600, 800, 3), 90, np.uint8)
        session.camera_seen(Seen(Observation((), 800, 600, problem="moved", sheet="no-sheet"),
                                 bare, b"\xff\xd8", 1.0, 1))
        camera = session.snapshot().camera
        assert camera is not None and camera["note"] is None
    finally:
        session.stop()


def test_dice_lying_there_when_a_game_is_set_up_are_no_roll(state: Path) -> None:
    session = TableSession(Journal(state / "table.db"))
    session.start()
    try:
        session.watch_camera()
        session.camera_seen(seen([6, 6, 5, 2, 1, 1]))  # the last game's dice, left lying
        session.new_game(DICY, base_version=session.snapshot().version)
        session.camera_seen(seen([6, 6, 5, 2, 1, 1], number=2))  # a card laid, dice untouched
        assert journal_lines(state) == []
        session.camera_seen(seen([3, 4, 4, 1, 6, 2], THROWN, number=3))  # Ana rolls
        assert journal_lines(state) == [("camera", {"roll": [3, 4, 4, 1, 6, 2]})]
    finally:
        session.stop()


def test_a_note_goes_once_the_camera_reads_the_table_well_again(table: TableSession) -> None:
    table.camera_seen(seen([6, 6, 5, 2, 1], number=1))  # a die under a hand
    camera = table.snapshot().camera
    assert camera is not None and camera["note"]["key"] == "camera.count"
    table.camera_seen(seen([6, 6, 5, 2, 1, 1], number=2))
    camera = table.snapshot().camera
    assert camera is not None and camera["note"] is None
    table.camera_seen(seen([6, 6, 5, 2, 1], number=3))  # the hand again, then taken away
    table.camera_seen(seen([6, 6, 5, 2, 1, 1], number=4))
    camera = table.snapshot().camera
    assert camera is not None and camera["note"] is None


def test_a_roll_held_when_the_game_ends_is_dropped_and_its_note_goes(state: Path) -> None:
    session = TableSession(Journal(state / "table.db"))
    session.start()
    try:
        session.watch_camera()
        session.new_game({**DICY, "target": 10}, base_version=0)
        for line in ({"roll": [6, 6, 5, 2, 1, 1]}, {"score": {"card": "two-dice", "dice": [6, 6]}},
                     {"effect": {"player": "Ben", "card": "odd"}}, {"roll": [6, 6, 4, 3, 2, 1]},
                     {"score": {"card": "two-dice", "dice": [6, 6]}}):
            session.act(line, base_version=session.snapshot().version, source="phone")
        session.camera_seen(seen([6, 6, 4, 3, 2, 1]))
        session.camera_seen(seen([3, 3, 4, 4, 5, 5], THROWN, number=2))  # Ana rolls by habit
        camera = session.snapshot().camera
        assert camera is not None and camera["held"] is not None
        last = session.act({"effect": {"player": "Ana", "card": "odd"}},
                           base_version=session.snapshot().version, source="phone")
        assert last.view is not None and last.view["over"]  # the round ended: Ana and Ben win
        camera = session.snapshot().camera
        assert camera is not None and camera["held"] is None and camera["note"] is None
    finally:
        session.stop()


def test_a_phone_change_drops_the_question(table: TableSession) -> None:
    table.camera_seen(seen([6, 6, 5, 2, 1, 1]))
    table.camera_seen(seen([6, 6, 5, 2, 3, 4], [*PLACES[:4], *THROWN[:2]]))
    assert ask(table)["kind"] == "freeze"
    snap = table.act({"score": {"card": "two-pairs", "dice": [6, 6, 1, 1]}},
                     base_version=table.snapshot().version, source="phone")
    assert snap.camera is not None and snap.camera["ask"] is None


def test_a_die_the_camera_is_unsure_of_is_asked_and_the_answer_completes_the_roll(
        table: TableSession, state: Path) -> None:
    table.camera_seen(seen([6, None, 5, 2, 1, 1]))
    question = ask(table)
    assert question["kind"] == "values" and question["circled"] == [1]
    assert journal_lines(state) == []
    with pytest.raises(AnswerRefused, match="from 1 to 6"):
        table.answer(question["id"], {"values": [7]}, base_version=table.snapshot().version)
    table.answer(question["id"], {"values": [3]}, base_version=table.snapshot().version)
    assert journal_lines(state) == [("camera", {"roll": [6, 3, 5, 2, 1, 1]})]


def test_the_next_roll_seen_while_choices_are_owed_is_held_then_taken(
        table: TableSession, state: Path) -> None:
    table.camera_seen(seen([6, 6, 5, 2, 1, 1]))
    table.act({"score": {"card": "two-dice", "dice": [6, 6]}},
              base_version=table.snapshot().version, source="phone")
    table.camera_seen(seen([3, 3, 4, 4, 5, 5], THROWN))
    camera = table.snapshot().camera
    assert camera is not None and camera["held"]["player"] == "Ben"
    table.act({"effect": {"player": "Ben", "card": "odd"}},
              base_version=table.snapshot().version, source="phone")
    assert journal_lines(state)[-2:] == [
        ("phone", {"effect": {"player": "Ben", "card": "odd"}}),
        ("camera", {"roll": [3, 3, 4, 4, 5, 5]})]
    assert table.snapshot().view["turn"] == "Ben"  # type: ignore[index]


def test_a_camera_that_goes_out_and_back_is_shown(table: TableSession) -> None:
    table.camera_status(CameraStatus("out", CameraError("camera.why.device_busy", device=0)))
    assert table.snapshot().camera["status"] == "out"  # type: ignore[index]
    assert table.snapshot().camera["why"] == {  # type: ignore[index]
        "key": "camera.why.device_busy", "params": {"device": 0}}
    table.camera_status(CameraStatus("ok"))
    assert table.snapshot().camera["status"] == "ok"  # type: ignore[index]


def test_every_camera_news_is_a_new_snapshot_with_the_same_game_version(
        table: TableSession) -> None:
    before = table.snapshot()
    table.camera_status(CameraStatus("ok"))
    after = table.snapshot()
    assert after.version == before.version and after.live > before.live


def test_the_recorded_frames_are_labelled_with_what_finally_stood(
        table: TableSession, state: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table.camera_seen(seen([6, 6, 5, 2, 1, 1]))
    labels = json.loads((state / "recorded" / "labels.json").read_text())
    assert [d["value"] for d in labels["images"][0]["dice"]] == [6, 6, 5, 2, 1, 1]
    # The camera read a 1 that was a 4: the players undo and enter the roll by phone.
    table.act({"undo": {}}, base_version=table.snapshot().version, source="phone")
    table.act({"roll": [6, 6, 5, 2, 1, 4]}, base_version=table.snapshot().version,
              source="phone")
    image = json.loads((state / "recorded" / "labels.json").read_text())["images"][0]
    assert sorted(d["value"] for d in image["dice"]) == [1, 2, 4, 5, 6, 6]
    assert main(["eval", str(state / "recorded"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["dice_total"], result["dice_missed"]) == (6, 6)  # a blank test frame


def test_actions_played_on_after_a_kept_roll_leave_the_labels_as_they_are(
        table: TableSession, state: Path) -> None:
    # every action of a game with a kept frame wrote labels.json again, all of it (350 kB
    # once 500 frames were kept), on the session's thread: only a change of a kept roll's
    # values (an undo, a correction) changes the labels
    labels = state / "recorded" / "labels.json"
    table.camera_seen(seen([6, 6, 5, 2, 1, 1]))
    written = labels.stat()
    table.act({"skip": {}}, base_version=table.snapshot().version, source="phone")
    table.act({"roll": [3, 4, 4, 1, 6, 2]}, base_version=table.snapshot().version,
              source="phone")
    assert (labels.stat().st_ino, labels.stat().st_mtime_ns) == (written.st_ino,
                                                                  written.st_mtime_ns)
    for _ in range(3):  # back to the camera's roll, which was a 4, not a 1
        table.act({"undo": {}}, base_version=table.snapshot().version, source="phone")
    assert json.loads(labels.read_text())["images"] == []
    table.act({"roll": [6, 6, 5, 2, 1, 4]}, base_version=table.snapshot().version,
              source="phone")
    image = json.loads(labels.read_text())["images"][0]
    assert sorted(d["value"] for d in image["dice"]) == [1, 2, 4, 5, 6, 6]


def test_a_restart_resumes_from_the_camera(state: Path) -> None:
    first = TableSession(Journal(state / "table.db"))
    first.start()
    first.watch_camera()
    first.new_game(DICY, base_version=first.snapshot().version)
    first.camera_seen(seen([6, 6, 5, 2, 1, 1]))
    first.stop()
    again = TableSession(Journal(state / "table.db"))
    again.start()
    again.watch_camera()
    try:
        again.camera_seen(seen([6, 6, 5, 2, 1, 1]))  # the same dice still lie there
        assert again.snapshot().view["actions"] == 1  # type: ignore[index]
        again.camera_seen(seen([6, 6, 5, 2, 3, 4], [*PLACES[:4], *THROWN[:2]]))
        assert ask(again)["kind"] == "freeze"
    finally:
        again.stop()


def test_a_first_roll_entered_by_phone_before_the_cameras_first_read_of_the_game_is_no_reroll(
        state: Path) -> None:
    session = TableSession(Journal(state / "table.db"))
    session.start()
    try:
        session.watch_camera()
        session.camera_seen(seen([]))  # the camera watches the table before the game
        snap = session.new_game(DICY, base_version=session.snapshot().version)
        session.act({"roll": [6, 6, 5, 2, 1, 1]}, base_version=snap.version, source="phone")
        session.camera_seen(seen([6, 6, 5, 2, 1, 1], THROWN, number=2))  # the same dice
        camera = session.snapshot().camera
        assert camera is not None and camera["ask"] is None, camera["ask"]
        assert journal_lines(state) == [("phone", {"roll": [6, 6, 5, 2, 1, 1]})]
    finally:
        session.stop()



def test_a_dicy_reroll_that_lands_on_the_same_values_is_asked_about(tmp_path: Path) -> None:
    # the camera journalled the roll, then the two 1s were rerolled far across the table and
    # came up 1 and 1 again: a reroll to ask about, not "entered by phone"
    state = tmp_path / "state"
    session = TableSession(Journal(state / "table.db"))
    session.start()
    try:
        session.watch_camera()
        session.new_game(DICY, base_version=session.snapshot().version)
        session.camera_seen(seen([6, 6, 5, 2, 1, 1], number=1))
        assert journal_lines(state) == [("camera", {"roll": [6, 6, 5, 2, 1, 1]})]
        session.camera_seen(seen([6, 6, 5, 2, 1, 1], [*PLACES[:4], *THROWN[:2]], number=2))
        camera = session.snapshot().camera
        assert camera is not None and camera["ask"] is not None
        assert camera["ask"]["kind"] == "freeze"
    finally:
        session.stop()


@pytest.mark.parametrize("plays_recording", [True, False])
def test_a_recording_waits_between_games_and_plays_while_the_camera_is_taught(
        state: Path, plays_recording: bool) -> None:
    """A recording holds its picture until a game is set up, said to the phones; taught, it
    plays. A live camera's read between games tells only that no game is set up."""
    session = TableSession(Journal(state / "table.db"))
    session.start()
    try:
        session.teacher = Teacher(state, lambda profile: None, SheetObserver(None).pips)
        session.watch_camera(plays_recording=plays_recording)
        session.camera_seen(seen([6, 6, 5, 2, 1, 1]))
        note = session.snapshot().camera["note"]  # type: ignore[index]
        assert note["key"] == ("camera.waits" if plays_recording else "camera.no_game")
        assert session.recording_waits()
        session.teach("start", "dalek", base_version=session.snapshot().version)
        assert not session.recording_waits()
        session.teach("cancel", base_version=session.snapshot().version)
        assert session.recording_waits()
        session.new_game(DICY, base_version=session.snapshot().version)
        assert not session.recording_waits()
    finally:
        session.stop()
