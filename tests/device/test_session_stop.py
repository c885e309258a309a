"""A Dalek stop while the camera waits to journal a keep, driven by the camera's reads and its
news of motion as the live loop gives them: it waits for the read of the dice set aside, and
is refused (nothing journalled) where that read does not show the keep surely or never comes;
the buttons' other presses are taken meanwhile."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from device.button_actions import ButtonActions
from device.button_config import ButtonConfig
from device.buttons import TableButtons
from device.camera_errors import CameraError
from device.journal import Journal
from device.live import CameraStatus, Seen
from device.session import SessionError, Snapshot, TableSession
from vision.observation import Observation
from vision.sheet_seen import DalekObservation, DieSeen

DALEK = {"game": "dalek", "players": ["Jenna", "Peter"]}
JENNA = ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]
KEEP = ["D3", "D3", "D3", "H2", "H2"]
Die = tuple[str | None, str]  # a face (None: not sure) and the zone it lies in
STOP_PIN, SHOUT_PIN = 17, 27
NEWS_S = 5.0
"""How long a press's news may take to come (milliseconds; a loaded machine is slow): well
under the stop's wait in the tests that press buttons while it waits."""


def seen(dice: list[Die], number: int) -> Seen:
    """A read of the Dalek sheet: each die 20 mm right of the one before, at its zone's row."""
    rows = {"to-roll": 150.0, "top": 20.0, "kept-humans": 80.0, "kept-daleks": 100.0}
    table = DalekObservation(tuple(DieSeen(face, zone, 20.0 * i, rows[zone], 0.9)
                                   for i, (face, zone) in enumerate(dice)))
    return Seen(Observation((), 800, 600, table=table), np.zeros((2, 2, 3), np.uint8), b"",
                float(number), number)


ROLLED: list[Die] = [(face, "to-roll") for face in JENNA]
SET_ASIDE: list[Die] = [("H4", "to-roll")] * 3 + [("H2", "kept-humans")] * 2 \
    + [("D3", "kept-daleks")] * 3 + [("D2", "to-roll"), ("DOC", "top")]


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def rolled(state: Path, stop_waits_s: float) -> Iterator[TableSession]:
    """Jenna's roll journalled from the camera; the game waits for her keep."""
    session = TableSession(Journal(state / "table.db"), stop_waits_s=stop_waits_s)
    session.start()
    try:
        session.watch_camera()
        session.new_game(DALEK, base_version=0)
        session.camera_seen(seen(ROLLED, 1))
        assert journal(state) == [("camera", {"roll": JENNA})]
        yield session
    finally:
        session.stop()


def journal(state: Path) -> list[tuple[str, dict[str, Any]]]:
    with sqlite3.connect(state / "table.db") as db:
        rows = db.execute("SELECT source, line FROM lines ORDER BY game_id, seq").fetchall()
    return [(source, json.loads(line)) for source, line in rows]


def stop(session: TableSession) -> None:
    session.act({"stop": {}}, base_version=session.snapshot().version, source="phone")


def test_a_stop_as_the_keep_settles_waits_for_its_read(state: Path) -> None:
    """The camera saw Jenna's hand and reads the dice she set aside only after she stopped:
    the stop waits and journals her keep (not `keep []`)."""
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_moved()
        stop_waiting_for_the_read_of_her_keep(session, state)


def stop_waiting_for_the_read_of_her_keep(session: TableSession, state: Path,
                                          waits_s: float = 0.2) -> None:
    """A stop pressed now waits (``waits_s`` at least) for the camera's read of the dice
    Jenna set aside, and journals her keep (she scores 4)."""
    stopping = threading.Thread(target=stop, args=(session,))
    stopping.start()
    time.sleep(waits_s)
    assert journal(state) == [("camera", {"roll": JENNA})], "it waits"
    session.camera_seen(seen(SET_ASIDE, 2))
    stopping.join(30)
    assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("phone", {"stop": {}})]
    assert session.snapshot().view["scores"] == {"Jenna": 4, "Peter": 0}  # type: ignore


def test_a_stop_whose_look_takes_its_time_still_waits_for_the_read_of_the_keep(
        state: Path) -> None:
    """Jenna sets dice aside and stops at once; the camera takes nearly the stop's whole wait
    to look (a folder playing pictures saved up to 2 s before the press) and sees her hand as
    it catches up: the stop then waits for the read of her keep and journals it (the look had
    used up the wait, and the stop was refused at once: 'the camera still sees movement')."""
    looked = threading.Event()

    def catching_up(timeout: float) -> bool:
        time.sleep(timeout - 0.1)
        session.camera_moved()
        looked.set()
        return True

    for session in rolled(state, stop_waits_s=2.0):
        session.camera_status(CameraStatus("ok"))
        session.look_now = catching_up
        stopping = threading.Thread(target=stop, args=(session,))
        stopping.start()
        assert looked.wait(10.0)
        time.sleep(0.3)  # her hand leaves the table
        session.camera_seen(seen(SET_ASIDE, 2))
        stopping.join(10.0)
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("phone", {"stop": {}})]


def test_a_stop_after_a_read_the_camera_could_only_note_journals_the_keep_it_shows(
        state: Path) -> None:
    """The read of the dice set aside is only noted (a die left to roll read unsure): the
    reads still hold the roll, and the stop journalled its `keep []` (Jenna scored 0). The
    kept dice that read shows, surely, are her keep."""
    unsure = [(None, "to-roll"), *SET_ASIDE[1:]]
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_moved()
        session.camera_seen(seen(unsure, 2))
        assert session.snapshot().camera["note"]["key"] == "camera.unsure"  # type: ignore
        stop(session)
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("phone", {"stop": {}})]
        assert session.snapshot().view["scores"] == {"Jenna": 4, "Peter": 0}  # type: ignore


def test_a_stop_after_the_dice_left_were_picked_up_journals_the_keep_set_aside(
        state: Path) -> None:
    """Jenna set her dice aside, picked up the dice left to roll them again, then stopped:
    the camera sees fewer dice than rolled (a note), and the stop was refused, telling her to
    lay the dice set aside that lay there, read surely."""
    kept = [d for d in SET_ASIDE if d[1] != "to-roll"]
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_moved()
        session.camera_seen(seen(kept, 2))
        assert session.snapshot().camera["note"] is not None
        stop(session)
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("phone", {"stop": {}})]


def test_a_stop_with_a_die_set_aside_read_unsure_is_refused(state: Path) -> None:
    """A die in the kept areas the camera is not sure of: the stop does not journal the keep
    without it (H2 D3 D3 D3 of H2 H2 D3 D3 D3)."""
    unsure_kept = [*SET_ASIDE[:3], (None, "kept-humans"), *SET_ASIDE[4:]]
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_seen(seen(unsure_kept, 2))
        with pytest.raises(SessionError, match="could not read the dice you set aside"):
            stop(session)
        assert journal(state) == [("camera", {"roll": JENNA})]
        session.camera_seen(seen(SET_ASIDE, 3))
        stop(session)
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("phone", {"stop": {}})]


def test_a_stop_while_the_table_never_settles_says_the_camera_sees_movement(
        state: Path) -> None:
    """Someone keeps moving at the frame's edge: the stop waits ``stop_waits_s`` and is
    refused saying the camera still sees movement, nothing journalled; the read at rest
    comes, and the stop goes."""
    for session in rolled(state, stop_waits_s=0.2):
        session.camera_moved()
        started = time.monotonic()
        with pytest.raises(SessionError, match="still sees movement over the table"):
            stop(session)
        assert time.monotonic() - started < 2.0
        assert journal(state) == [("camera", {"roll": JENNA})]
        session.camera_seen(seen(SET_ASIDE, 2))
        stop(session)
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("phone", {"stop": {}})]


def test_a_stop_while_the_camera_holds_a_rest_waits_for_its_read(state: Path) -> None:
    """Jenna's forearm rests across the sheet's edge as she stops: the camera holds that
    rest's read (3 s on a table, 1 s here), longer than the stop's own wait; the stop waits
    for it and journals her keep."""
    for session in rolled(state, stop_waits_s=0.5):
        session.camera_moved()
        session.camera_holds(1.0)
        stop_waiting_for_the_read_of_her_keep(session, state, waits_s=1.0)


def test_a_stop_on_the_read_taken_after_the_hold_journals_the_keep_it_shows(
        state: Path) -> None:
    """A cup left across the sheet's edge as Jenna sets her dice aside: the camera holds the
    rest, the phones are asked for hands off the table, and the read it takes at last, the
    cup there, is the table: the call goes, and her stop journals the keep that read shows
    (it was refused as a read that may hide dice, and every stop after it while the cup
    stood there)."""
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_moved()
        session.camera_holds(10.0)
        session.camera_reaching()
        camera = news(session, lambda snap: (snap.camera or {})["reaching"]).camera
        assert camera is not None and camera["note"] is None
        session.camera_seen(seen(SET_ASIDE, 2))
        assert (session.snapshot().camera or {})["reaching"] is False
        stop(session)
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("phone", {"stop": {}})]


def test_a_new_game_drops_the_call_for_hands_off_the_table(state: Path) -> None:
    """The phones were asked for hands off the table, and a new game is set up before the
    camera's read: the call went on through the new game until the camera went out."""
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_reaching()
        news(session, lambda snap: (snap.camera or {})["reaching"])
        session.new_game(DALEK, base_version=session.snapshot().version, abandon_current=True)
        assert (session.snapshot().camera or {})["reaching"] is False


def test_a_cup_moved_after_the_roll_was_read_leaves_the_keep_as_set_aside(
        state: Path) -> None:
    """Jenna kept H2 H2 D3 D3 D3 and rolled D3 H2 H2 D2, read with a cup across the sheet's
    edge that hides nothing; she sets the D3 aside, moves the cup (the table read again, the
    same dice), sets the D2 aside and stops: her keep is D2 D3 (the read after the cup moved
    was taken as the roll's, and the keep journalled was D2 alone; stopping before the D2,
    she was refused as if it were not her turn to stop)."""
    again: list[Die] = [(face, "to-roll") for face in ("D3", "H2", "H2", "D2")]
    kept = [die for die in SET_ASIDE if die[1] != "to-roll"]
    one = [*kept, ("D3", "kept-daleks"), *again[1:]]
    two = [*kept, ("D3", "kept-daleks"), *again[1:3], ("D2", "kept-daleks")]
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_seen(seen(SET_ASIDE, 2))
        session.camera_seen(seen(kept + again, 3))
        assert journal(state)[1:] == [("camera", {"keep": KEEP}),
                                      ("camera", {"roll": ["D3", "H2", "H2", "D2"]})]
        session.camera_seen(seen(one, 4))
        session.camera_moved()
        session.camera_seen(seen(one, 5))
        session.camera_moved()
        session.camera_seen(seen(two, 6))
        stop(session)
        assert journal(state)[3:] == [("camera", {"keep": ["D2", "D3"]}),
                                      ("phone", {"stop": {}})]


def test_a_stop_after_the_camera_went_out_with_the_table_moved_is_refused(
        state: Path) -> None:
    """Jenna sets her dice aside (the camera sees them move) and the camera goes out before
    it reads them; she stops: the stop went on with the read from before she set them aside
    and journalled `keep []` (she scored 0). It is refused, nothing journalled; the camera
    back, her stop waits for its read of her keep and scores it."""
    out = CameraStatus("out", CameraError("camera.why.stalled", seconds="5"))
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_status(CameraStatus("ok"))
        session.camera_moved()
        session.camera_status(out)
        with pytest.raises(SessionError, match="the camera went out before it read the dice"):
            stop(session)
        assert journal(state) == [("camera", {"roll": JENNA})]
        session.camera_status(CameraStatus("ok"))
        stop_waiting_for_the_read_of_her_keep(session, state)


def test_a_stop_waiting_for_a_read_as_the_camera_goes_out_is_refused(state: Path) -> None:
    """Jenna stops as her hand rests across the edge (the camera holds the rest), and the
    camera goes out meanwhile: the stop went on with the read before she set her dice aside
    and journalled `keep []`. It is refused, nothing journalled; the camera back and its read
    come, her stop scores her keep."""
    out = CameraStatus("out", CameraError("camera.why.stalled", seconds="5"))
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_status(CameraStatus("ok"))
        session.camera_moved()
        session.camera_holds(10.0)
        with pytest.raises(SessionError, match="the camera went out before it read the dice"):
            session.act({"stop": {}}, base_version=session.snapshot().version, source="phone",
                        waiting=partial(session.camera_status, out))
        assert journal(state) == [("camera", {"roll": JENNA})]
        session.camera_status(CameraStatus("ok"))
        session.camera_seen(seen(SET_ASIDE, 2))
        stop(session)
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("phone", {"stop": {}})]


def test_a_stop_while_a_held_hand_moves_on_is_refused_once_the_hold_and_its_wait_are_over(
        state: Path) -> None:
    """The camera held a rest (a hand left over the edge), then the hand moves on and keeps
    moving: the stop waits the hold and its own wait after it, no more, and is refused."""
    for session in rolled(state, stop_waits_s=0.3):
        session.camera_moved()
        session.camera_holds(0.5)
        started = time.monotonic()
        with pytest.raises(SessionError, match="still sees movement over the table"):
            stop(session)
        assert 0.7 <= time.monotonic() - started < 3.0  # the hold (0.5 s) and 0.3 s
        session.camera_holds(0.5)  # a later hold of a rest read before the stop: not waited
        session.camera_seen(seen(ROLLED, 2))
        session.camera_moved()
        started = time.monotonic()
        with pytest.raises(SessionError, match="still sees movement over the table"):
            stop(session)
        assert time.monotonic() - started < 0.8
        session.camera_holds(5.0)  # a hold the hand moved on from before the stop: over
        session.camera_moved()
        started = time.monotonic()
        with pytest.raises(SessionError, match="still sees movement over the table"):
            stop(session)
        assert time.monotonic() - started < 0.8  # (it waited 5.3 s)
        assert journal(state) == [("camera", {"roll": JENNA})]


def test_dice_set_aside_after_a_roll_entered_by_phone_are_a_keep_not_a_roll(
        state: Path) -> None:
    """The camera could only note Jenna's roll (a die unsure), so she entered it by phone; she
    then set dice aside: the dice left lying were journalled as a roll nobody made, and her
    stop was refused. They are her keep."""
    session = TableSession(Journal(state / "table.db"), stop_waits_s=30.0)
    session.start()
    try:
        session.watch_camera()
        session.new_game(DALEK, base_version=0)
        session.camera_seen(seen([], 1))  # the empty sheet
        session.camera_seen(seen([(None, "to-roll"), *ROLLED[1:]], 2))
        session.act({"roll": JENNA}, base_version=session.snapshot().version, source="phone")
        session.camera_moved()
        session.camera_seen(seen(SET_ASIDE, 3))
        stop(session)
        assert journal(state) == [("phone", {"roll": JENNA}), ("camera", {"keep": KEEP}),
                                  ("phone", {"stop": {}})]
        assert session.snapshot().view["scores"] == {"Jenna": 4, "Peter": 0}  # type: ignore
    finally:
        session.stop()


@contextmanager
def buttons(session: TableSession) -> Iterator[Callable[[int], None]]:
    """The table's stop and shout buttons on gpiozero's mock pins (a Pi 5): yields a tap."""
    factory = MockFactory(revision="d04170")
    table_buttons = TableButtons(ButtonConfig(stop=STOP_PIN, shout=SHOUT_PIN),
                                 ButtonActions(session, seated=False), factory=factory)
    table_buttons.start()

    def tap(pin: int) -> None:
        factory.pin(pin).drive_low()
        time.sleep(0.05)
        factory.pin(pin).drive_high()
        time.sleep(0.05)

    try:
        yield tap
    finally:
        table_buttons.stop()


def button_news(session: TableSession, kind: str) -> Snapshot:
    """The first snapshot showing the buttons' news of ``kind`` (fails after NEWS_S)."""
    return news(session, lambda snap: snap.buttons and snap.buttons["kind"] == kind)


def news(session: TableSession, shown: Callable[[Snapshot], object]) -> Snapshot:
    """The first snapshot the phones get that has ``shown`` (fails after NEWS_S: news the
    session takes up on its worker without waiting, or a press's)."""
    deadline = time.monotonic() + NEWS_S
    snap = session.snapshot()
    with session.subscribe() as updates:
        while not shown(snap):
            update = updates.get(max(0.0, deadline - time.monotonic()))
            assert update is not None, f"the phones were not told; they have {snap.to_json()}"
            snap = update
    return snap


def test_a_shout_while_a_stop_waits_for_the_keep_is_heard_at_once(state: Path) -> None:
    """Jenna presses stop as she sets her dice aside, and again; Peter shouts while the stop
    waits for the camera's read: the shout is heard at once (it waited behind the stop, up to
    ``stop_waits_s``: 3 s with nothing on the phones or from the Dalek). The read comes: her
    stop journals her keep, and her second stop, its turn come, is refused."""
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_moved()
        with buttons(session) as tap:
            tap(STOP_PIN)
            tap(STOP_PIN)
            tap(SHOUT_PIN)
            button_news(session, "exterminate")
            assert journal(state) == [("camera", {"roll": JENNA})], "the stop still waits"
            session.camera_seen(seen(SET_ASIDE, 2))
            refused = button_news(session, "refused")
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("button", {"stop": {}})]
        assert refused.buttons is not None and refused.buttons["button"] == "stop"
        assert refused.buttons["reason"]["template"].startswith("{name} has not rolled yet")


def test_a_stop_the_table_fails_to_take_is_logged_and_told_and_the_buttons_go_on(
        state: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The camera fails as Jenna's stop has it look at the table: the host's log has the
    traceback, the phones say the stop was not taken and the stop button's LED blinks, and
    the buttons go on (it vanished on the stop's thread: no log, no news, nothing)."""
    def failing_camera(timeout: float) -> bool:
        raise RuntimeError("the camera's driver crashed")

    for session in rolled(state, stop_waits_s=30.0):
        session.camera_status(CameraStatus("ok"))
        session.look_now = failing_camera
        with buttons(session) as tap:
            tap(STOP_PIN)
            refused = button_news(session, "refused")
            tap(SHOUT_PIN)
            button_news(session, "exterminate")
        assert refused.buttons is not None and refused.buttons["button"] == "stop"
        assert refused.buttons["reason"]["template"] == (
            "the table could not take this press; press again, or use the phone; if it "
            "happens again, tell the host")
        assert journal(state) == [("camera", {"roll": JENNA})]
        logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(logged) == 1 and logged[0].exc_info is not None
        assert "the camera's driver crashed" in caplog.text


def test_a_stop_pressed_as_the_buttons_close_is_let_go(state: Path) -> None:
    """A stop pressed while the table shuts down, its buttons closed (their thread had not
    ended yet): nothing happens (it raised on the buttons' thread and ended it)."""
    for session in rolled(state, stop_waits_s=30.0):
        actions = ButtonActions(session, seated=False)
        actions.close()
        actions.stop()
        assert session.snapshot().buttons is None
        assert journal(state) == [("camera", {"roll": JENNA})]


def test_stops_waiting_their_turn_when_the_table_shuts_down_are_let_go(state: Path) -> None:
    """Jenna presses stop three times as she sets dice aside, and the table shuts down while
    the first waits for the camera's read: the buttons close, the read comes and the first
    journals her keep; the two behind it are let go (each played in turn, refused as she had
    not rolled, or waited up to ``stop_waits_s`` with the camera stopped)."""
    for session in rolled(state, stop_waits_s=30.0):
        session.camera_moved()
        factory = MockFactory(revision="d04170")
        table_buttons = TableButtons(ButtonConfig(stop=STOP_PIN, shout=SHOUT_PIN),
                                     ButtonActions(session, seated=False), factory=factory)
        table_buttons.start()
        reading = [t for t in threading.enumerate() if t.name == "buttons"]
        closing = threading.Thread(target=table_buttons.stop)
        try:
            for pin in (STOP_PIN, STOP_PIN, STOP_PIN, SHOUT_PIN):
                factory.pin(pin).drive_low()
                time.sleep(0.05)
                factory.pin(pin).drive_high()
                time.sleep(0.05)
            shouted = button_news(session, "exterminate")  # every stop was taken before it
        finally:
            closing.start()  # waits for the first stop
            for thread in reading:
                thread.join(NEWS_S)  # the presses are read no more: the stops are let go next
            time.sleep(0.5)
            session.camera_seen(seen(SET_ASIDE, 2))
            closing.join(NEWS_S)
        assert not closing.is_alive(), "the buttons did not close"
        assert session.snapshot().buttons == shouted.buttons, "only the first stop was played"
        assert journal(state)[1:] == [("camera", {"keep": KEEP}), ("button", {"stop": {}})]
