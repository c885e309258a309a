"""The buttons on gpiozero's own mock pins (a Pi 5), timed by a fake clock: single, bounced,
simultaneous and held presses, refused presses, and presses while the session is busy."""

from __future__ import annotations

import io
import logging
import sqlite3
import sys
import threading
import time
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Button  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

from device.button_actions import ButtonActions
from device.button_config import ButtonConfig, Key
from device.buttons import Edge, EdgeKind, NoButtons, PressReader, TableButtons
from device.journal import Journal
from device.notice import Notice
from device.session import Snapshot, TableSession
from device.voice import Voice
from dicetable.service import PowerOff
from tests.device.small_card import fill
from tests.dicetable.test_service import INHIBITED, stand_in

PI5 = "d04170"
STOP, SHOUT, BUZZER, STOP_LED = 17, 27, 26, 5
SEATS = (22, 23, 24)
HOLD_S = 1.0
"""gpiozero's hold timer runs on real time: short in the tests, yet long enough that a
tap's press and release, or presses meant together, do not straddle it on a loaded machine."""
WAIT_S = 30.0
"""How long news may take to come (it comes in milliseconds; a loaded machine is slow)."""
DALEK = {"game": "dalek", "players": ["Ana", "Ben"]}
SEVENTEEN = {"game": "17", "players": ["Ana", "Ben", "Cleo"]}


class FakeClock:
    """The buttons' clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Table:
    """A running session with buttons on mock pins."""

    def __init__(self, session: TableSession, config: ButtonConfig, *,
                 voice: Voice | None = None, powers_off: bool = True,
                 power_off: Callable[[], bool] | None = None,
                 factory: MockFactory | None = None) -> None:
        self.session = session
        self.factory = factory or MockFactory(revision=PI5)
        self.clock = FakeClock()
        self.shutdowns: list[float] = []
        self.powers_off = powers_off
        """What the power-off answers: taken, or refused (a program blocks shutdown)."""
        self.actions = ButtonActions(session, seated=bool(config.seats), voice=voice,
                                     on_shutdown=(power_off or self.shut_down)
                                     if config.shutdown else None)
        self.buttons = TableButtons(config, self.actions, factory=self.factory,
                                    clock=self.clock)
        self.buttons.start()

    def shut_down(self) -> bool:
        self.shutdowns.append(self.clock())
        return self.powers_off

    def pin(self, number: int) -> Any:
        return self.factory.pin(number)

    def held(self, number: int) -> threading.Event:
        """Set once gpiozero has told the buttons that the button on pin ``number`` is held
        (its hold timer runs on real time; by then the held edge is queued)."""
        button = self.pin(number).when_changed.__self__  # the Button gpiozero made on it
        tell = button.when_held
        told = threading.Event()

        def held() -> None:
            tell()
            told.set()

        button.when_held = held
        return told

    def press(self, number: int) -> None:
        self.pin(number).drive_low()  # buttons are wired to ground, with the pull-up on

    def release(self, number: int) -> None:
        self.pin(number).drive_high()

    def tap(self, number: int, *, after: float = 0.2) -> None:
        self.press(number)
        self.clock.advance(0.08)
        self.release(number)
        self.clock.advance(after)

    def play(self, header: dict[str, Any], lines: list[dict[str, Any]]) -> Snapshot:
        snap = self.session.new_game(header, base_version=self.session.snapshot().version)
        for line in lines:
            snap = self.session.act(line, base_version=snap.version, source="phone")
        return snap

    def wait(self, done: Callable[[Snapshot], bool], timeout: float = WAIT_S) -> Snapshot:
        """The first snapshot for which ``done`` holds (fails after ``timeout`` s)."""
        snap = self.session.snapshot()
        with self.session.subscribe() as updates:
            while not done(snap):
                update = updates.get(timeout)
                assert update is not None, f"nothing changed; last state {snap.to_json()}"
                snap = update
        return snap


@pytest.fixture
def table(session: TableSession) -> Iterator[Table]:
    made = Table(session, ButtonConfig(stop=STOP, shout=SHOUT, stop_led=STOP_LED,
                                       buzzer=BUZZER, hold_s=HOLD_S))
    yield made
    made.buttons.stop()


@pytest.fixture
def seated(session: TableSession) -> Iterator[Table]:
    made = Table(session, ButtonConfig(stop=STOP, shout=None, seats=SEATS, buzzer=BUZZER,
                                       hold_s=HOLD_S))
    yield made
    made.buttons.stop()


def eventually(done: Callable[[], bool], timeout: float = WAIT_S) -> None:
    """Wait until ``done()`` holds (something outside the session: a pin, a file)."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "it did not happen"
        time.sleep(0.01)


def news(kind: str) -> Callable[[Snapshot], bool]:
    return lambda snap: bool(snap.buttons) and snap.buttons["kind"] == kind  # type: ignore[index]


def sources(journal: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(journal) as db:
        return db.execute("SELECT line, source FROM lines ORDER BY game_id, seq").fetchall()


def assert_the_stop_ended_the_turn(table: Table, before: Snapshot, journal: Path) -> None:
    """The stop was taken from the button: Ben's turn, the Dalek turn's stop journalled, no
    power-off asked."""
    last = table.wait(lambda snap: snap.version > before.version
                      and news("exterminate")(snap))
    assert last.view is not None and last.view["turn"] == "Ben"
    assert sources(journal)[-1] == ('{"stop": {}}', "button")
    assert table.shutdowns == []


KEPT = [{"roll": ["H4"] * 9 + ["D3"]}, {"keep": ["D3"]}]


def test_a_stop_press_ends_the_dalek_turn_as_a_button_action(table: Table,
                                                             journal_path: Path) -> None:
    before = table.play(DALEK, KEPT)
    table.tap(STOP)
    after = table.wait(lambda snap: snap.version > before.version)
    assert after.view is not None and after.view["turn"] == "Ben"
    assert sources(journal_path)[-1] == ('{"stop": {}}', "button")


def test_a_bounced_press_counts_once(table: Table) -> None:
    before = table.play(DALEK, KEPT)
    for _ in range(3):  # the contacts chatter for 6 ms, then stay down
        table.press(STOP)
        table.clock.advance(0.002)
        table.release(STOP)
        table.clock.advance(0.002)
    table.press(STOP)
    table.clock.advance(0.1)
    table.release(STOP)
    table.clock.advance(0.003)
    table.press(STOP)  # and chatter when let go
    table.clock.advance(0.002)
    table.release(STOP)
    table.clock.advance(0.5)
    table.tap(SHOUT)  # a later press: once its news is in, every edge before it was read
    last = table.wait(news("exterminate"))
    assert last.version == before.version + 1, "one stop, and no refused second one"
    assert last.view is not None and last.view["turn"] == "Ben"


def test_a_stop_that_chatters_when_let_go_counts_once(table: Table) -> None:
    before = table.play(DALEK, KEPT)
    table.press(STOP)
    table.clock.advance(0.1)
    table.release(STOP)
    table.clock.advance(0.012)
    table.press(STOP)  # the contacts touch again 12 ms after the release (a bounce)...
    table.clock.advance(0.018)
    table.release(STOP)  # ...and part 30 ms after it, past the bounce time
    table.clock.advance(0.5)
    table.tap(SHOUT)
    last = table.wait(news("exterminate"))
    assert last.version == before.version + 1
    assert True not in [state.state for state in table.pin(BUZZER).states], \
        "no second stop was refused"


def test_a_shout_while_stop_is_down_counts_and_so_does_the_stop(table: Table,
                                                               journal_path: Path) -> None:
    before = table.play(DALEK, KEPT)
    table.press(STOP)
    table.clock.advance(0.1)
    table.press(SHOUT)  # another player shouts while stop is pressed: no hold, no PIN
    table.clock.advance(0.1)
    table.release(SHOUT)
    table.clock.advance(0.05)
    table.release(STOP)
    table.clock.advance(0.3)
    assert_the_stop_ended_the_turn(table, before, journal_path)


def test_a_call_while_stop_is_down_is_played(seated: Table, journal_path: Path) -> None:
    before = seated.play(SEVENTEEN, [{"play": {"card": "3d", "face": "up"}}])
    seated.press(STOP)
    seated.clock.advance(0.05)
    seated.tap(SEATS[2], after=0.0)  # Cleo calls while someone leans on stop
    seated.clock.advance(0.05)
    seated.release(STOP)
    seated.clock.advance(0.3)
    seated.wait(lambda snap: snap.version > before.version)
    assert sources(journal_path)[-1] == ('{"call": ["Cleo"]}', "button")


def test_shouts_together_become_one_call_with_every_caller(seated: Table,
                                                           journal_path: Path) -> None:
    before = seated.play(SEVENTEEN, [{"play": {"card": "3d", "face": "up"}}])
    seated.press(SEATS[2])  # Cleo
    seated.clock.advance(0.1)
    seated.press(SEATS[1])  # Ben, 100 ms later: the same shout
    seated.clock.advance(0.3)
    after = seated.wait(lambda snap: snap.version > before.version)
    assert sources(journal_path)[-1] == ('{"call": ["Ben", "Cleo"]}', "button")
    assert after.view is not None and after.view["results"][-1]["caller"] == "Ben"  # after Ana


def test_shouts_further_apart_are_two(seated: Table, journal_path: Path) -> None:
    before = seated.play(SEVENTEEN, [{"play": {"card": "3d", "face": "up"}}])
    seated.tap(SEATS[2], after=0.0)  # Cleo
    seated.clock.advance(0.3)
    seated.tap(SEATS[1])  # Ben, too late: the round was called already
    seated.wait(news("refused"))
    assert sources(journal_path)[-1] == ('{"call": ["Cleo"]}', "button")
    assert seated.session.snapshot().version == before.version + 1


def test_the_player_who_just_played_is_refused_and_the_others_call(seated: Table) -> None:
    seated.play(SEVENTEEN, [{"play": {"card": "3d", "face": "up"}}])
    seated.press(SEATS[0])  # Ana played last
    seated.press(SEATS[1])
    seated.clock.advance(0.3)
    refused = seated.wait(news("refused"))
    assert refused.buttons is not None and refused.buttons["player"] == "Ana"
    assert refused.buttons["reason"]["template"] == "{name} played last and may not call 17"
    called = seated.wait(lambda snap: snap.view is not None and bool(snap.view["results"]))
    assert called.view is not None and called.view["results"][-1]["callers"] == ["Ben"]
    assert True in [state.state for state in seated.pin(BUZZER).states], "the buzzer buzzed"


def test_a_call_the_full_memory_card_cannot_keep_is_told_and_the_buttons_go_on(
        small_card: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Ben calls 17 as the card has filled up: the phones say the press was not taken, the
    buzzer buzzes and the host's log says why; once the host freed room, Cleo's call is
    played (the call raised on the buttons' thread and ended it: nothing was told, and no
    press was read again)."""
    journal = Journal(small_card / "state" / "table.db")
    session = TableSession(journal)
    session.start()
    seated = Table(session, ButtonConfig(stop=STOP, shout=None, seats=SEATS, buzzer=BUZZER,
                                         hold_s=HOLD_S))
    try:
        before = seated.play(SEVENTEEN, [{"play": {"card": "3d", "face": "up"}}])
        fill(small_card)
        seated.tap(SEATS[1])
        refused = seated.wait(news("refused"))
        assert refused.version == before.version and refused.buttons is not None
        assert refused.buttons["reason"]["template"] == (
            "the table could not take this press; press again, or use the phone; if it "
            "happens again, tell the host")
        assert True in [state.state for state in seated.pin(BUZZER).states]
        assert "is full" in caplog.text
        assert [r.levelno for r in caplog.records] == [logging.ERROR]
        (small_card / "photos.bin").unlink()
        seated.tap(SEATS[2])
        seated.wait(lambda snap: snap.version > before.version)
        assert sources(journal.path)[-1] == ('{"call": ["Cleo"]}', "button")
    finally:
        seated.buttons.stop()
        session.stop()
        journal.close()


def test_a_stop_with_no_turn_to_stop_is_refused_visibly(table: Table) -> None:
    before = table.play(DALEK, [])
    table.tap(STOP)
    refused = table.wait(news("refused"))
    assert refused.version == before.version
    assert refused.buttons is not None and refused.buttons["button"] == "stop"
    assert refused.buttons["reason"]["template"].startswith("{name} has not rolled yet")
    eventually(lambda: len(table.pin(STOP_LED).states) > 4)  # it blinks
    assert True in [state.state for state in table.pin(BUZZER).states]


def test_a_stop_after_a_game_of_17_ended_says_the_game_has_no_use_for_it(table: Table) -> None:
    over = table.play({"game": "17", "players": ["Ana", "Ben", "Cleo"], "target": 1},
                      [{"play": {"face": "down"}}, {"play": {"card": "4", "face": "up"}},
                       {"call": ["Cleo"]}, {"reveal": ["trap"]}])
    assert over.view is not None and over.view["over"]
    table.tap(STOP)  # out of habit, as the results show
    refused = table.wait(news("refused"))
    assert refused.version == over.version and refused.buttons is not None
    assert refused.buttons["reason"] == {
        "template": "the stop button ends a turn of Dalek Dice; this game has no use for it",
        "params": {}}


def test_a_shout_in_dicy_cards_is_refused(table: Table) -> None:
    table.play({"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}, [])
    table.tap(SHOUT)
    refused = table.wait(news("refused"))
    assert refused.buttons is not None
    assert refused.buttons["reason"]["template"] == "the shout button has no part in Dicy Cards"


def test_a_dalek_shout_plays_the_voice_and_tells_the_phones(session: TableSession,
                                                            tmp_path: Path) -> None:
    played = tmp_path / "played"
    player = tmp_path / "aplay"
    player.write_text(f'#!/bin/sh\necho "$@" > {played}\n')
    player.chmod(0o755)
    cards = tmp_path / "cards"
    cards.write_text(" 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n")
    table = Table(session, ButtonConfig(stop=STOP, shout=SHOUT),
                  voice=Voice(player=str(player), cards=cards))
    try:
        table.play(DALEK, [])
        table.tap(SHOUT)
        table.wait(news("exterminate"))
        eventually(lambda: played.exists() and played.read_text() != "")
        assert played.read_text().split()[-1].endswith("exterminate.wav")
    finally:
        table.buttons.stop()


def test_holding_stop_shuts_down_and_no_stop_is_played(table: Table) -> None:
    before = table.play(DALEK, KEPT)
    table.press(STOP)
    table.clock.advance(HOLD_S + 0.1)
    table.wait(news("shutdown"))
    table.release(STOP)
    table.tap(SHOUT)
    last = table.wait(news("exterminate"))
    assert len(table.shutdowns) == 1
    assert last.version == before.version, "the held stop ended no turn"


def test_a_held_stop_the_pi_refuses_to_power_off_for_is_told_and_the_buttons_go_on(
        session: TableSession, journal_path: Path) -> None:
    """The power-off refused: every LED that came on for the goodbye goes off, stop's LED
    blinks and the buzzer buzzes, the phones are told (their notices say why), and the
    table goes on: stop, tapped, ends the turn."""
    table = Table(session, ButtonConfig(stop=STOP, shout=SHOUT, stop_led=STOP_LED,
                                        buzzer=BUZZER, hold_s=HOLD_S), powers_off=False)
    try:
        before = table.play(DALEK, KEPT)
        table.press(STOP)
        table.clock.advance(HOLD_S + 0.1)
        table.wait(news("shutdown_refused"))
        table.release(STOP)
        assert len(table.shutdowns) == 1
        eventually(lambda: len(table.pin(STOP_LED).states) > 4)  # on for the goodbye, blinks
        eventually(lambda: table.pin(STOP_LED).state is False)
        eventually(lambda: True in [state.state for state in table.pin(BUZZER).states])
        table.clock.advance(0.5)
        table.tap(STOP)
        after = table.wait(lambda snap: snap.version > before.version)
        assert after.view is not None and after.view["turn"] == "Ben"
    finally:
        table.buttons.stop()


class FirstLightFailsPin(MockPin):  # type: ignore[misc]
    """Stop's LED, whose first lighting fails (a loose wire; lgpio's error)."""

    def __init__(self, factory: MockFactory, info: Any) -> None:
        super().__init__(factory, info)
        self.failing = info.name == f"GPIO{STOP_LED}"

    def _set_state(self, value: bool) -> None:
        if value and self.failing:
            self.failing = False
            raise OSError("the LED could not be lit")
        super()._set_state(value)


def test_a_held_stop_whose_goodbye_fails_is_logged_and_a_later_hold_powers_off(
        session: TableSession, caplog: pytest.LogCaptureFixture) -> None:
    table = Table(session, ButtonConfig(stop=STOP, shout=SHOUT, stop_led=STOP_LED,
                                        buzzer=BUZZER, hold_s=HOLD_S),
                  factory=MockFactory(revision=PI5, pin_class=FirstLightFailsPin))
    try:
        table.press(STOP)
        table.clock.advance(HOLD_S + 0.1)
        eventually(lambda: "failed to power the Pi off" in caplog.text)
        table.release(STOP)
        assert table.shutdowns == []
        table.clock.advance(0.5)
        table.press(STOP)
        table.clock.advance(HOLD_S + 0.1)
        table.wait(news("shutdown"))
        table.release(STOP)
        eventually(lambda: len(table.shutdowns) == 1)
    finally:
        table.buttons.stop()


def test_presses_while_the_pi_is_slow_to_answer_the_power_off_are_taken_then(
        session: TableSession, tmp_path: Path) -> None:
    """systemctl poweroff may take half a minute to answer: stop tapped meanwhile ends the
    Dalek turn then (it waited, and ended the turn once the Pi had answered), stop held again
    asks nothing more, and the power-off refused after is told as ever."""
    answer = tmp_path / "answer"  # the Pi answers once the test says so
    told: list[Notice] = []
    table = Table(session, ButtonConfig(stop=STOP, shout=SHOUT, hold_s=HOLD_S),
                  power_off=PowerOff(told.append, out=io.StringIO(),
                                     command=stand_in(tmp_path, INHIBITED, 1, until=answer)))
    try:
        before = table.play(DALEK, KEPT)
        table.press(STOP)
        table.clock.advance(HOLD_S + 0.1)
        table.wait(news("shutdown"))
        table.release(STOP)
        table.clock.advance(0.5)
        table.tap(STOP)
        after = table.wait(lambda snap: snap.version > before.version, timeout=10)
        assert after.view is not None and after.view["turn"] == "Ben"
        assert told == [], "the Pi has not answered yet"
        held = table.held(STOP)
        table.press(STOP)
        table.clock.advance(HOLD_S + 0.1)
        assert held.wait(WAIT_S), "gpiozero never told that stop was held"
        table.release(STOP)
        answer.touch()
        table.wait(news("shutdown_refused"))
        assert told == [Notice("notice.power_off.inhibited")]
        assert (tmp_path / "asked").read_text() == "asked\n"
        assert table.session.snapshot().version == after.version, "the hold was no stop"
    finally:
        answer.touch()
        table.buttons.stop()


def test_holding_stop_with_shutdown_off_is_a_stop(session: TableSession,
                                                   journal_path: Path) -> None:
    table = Table(session, ButtonConfig(stop=STOP, shout=SHOUT, hold_s=HOLD_S, shutdown=False))
    try:
        before = table.play(DALEK, KEPT)
        held = table.held(STOP)
        table.press(STOP)  # a player leans on stop past hold_s to end the turn
        table.clock.advance(HOLD_S + 0.1)
        assert held.wait(WAIT_S), "gpiozero never told that stop was held"
        table.release(STOP)
        after = table.wait(lambda snap: snap.version > before.version)
        assert after.view is not None and after.view["turn"] == "Ben"
        assert sources(journal_path)[-1] == ('{"stop": {}}', "button")
        assert table.shutdowns == []
    finally:
        table.buttons.stop()


def test_holding_stop_through_a_shout_let_go_meanwhile_shuts_down(table: Table) -> None:
    before = table.play(DALEK, KEPT)
    table.press(STOP)  # the host holds stop to power off...
    table.clock.advance(0.2)
    table.tap(SHOUT)  # ...as a player shouts
    table.wait(news("exterminate"))
    table.clock.advance(HOLD_S)  # stop held on alone after the shout was let go
    table.wait(news("shutdown"))  # (the press did nothing at all: no hold, and no stop)
    table.release(STOP)
    table.tap(SHOUT)  # a later press: once its news is in, the stop's letting go was read
    last = table.wait(lambda snap: snap.buttons is not None and snap.buttons["n"] == 3)
    assert last.buttons is not None and last.buttons["kind"] == "exterminate"
    assert len(table.shutdowns) == 1
    assert last.version == before.version, "the held stop ended no turn"


@pytest.mark.parametrize("shutdown", [True, False])
def test_stop_held_past_its_hold_with_a_shout_down_is_a_stop_either_way(
        session: TableSession, journal_path: Path, shutdown: bool) -> None:
    """Stop pressed, a shout pressed 0.7 s later; stop's hold time runs out (not alone: it
    powers nothing off) and stop is let go while the shout is down, before the PIN shows:
    two players pressed at once, so the stop ends the turn and the shout is heard, with
    shutdown on as with it off (with it on, the stop did nothing at all)."""
    table = Table(session, ButtonConfig(stop=STOP, shout=SHOUT, hold_s=HOLD_S,
                                        shutdown=shutdown))
    try:
        before = table.play(DALEK, KEPT)
        held = table.held(STOP)
        table.press(STOP)
        time.sleep(0.7)  # gpiozero's hold timers run on real time: the shout's ends 0.7 s later
        table.clock.advance(0.7)
        table.press(SHOUT)
        assert held.wait(WAIT_S), "gpiozero never told that stop was held"
        table.clock.advance(0.4)
        table.release(STOP)
        table.clock.advance(0.3)
        table.release(SHOUT)
        table.clock.advance(0.3)
        assert_the_stop_ended_the_turn(table, before, journal_path)
    finally:
        table.buttons.stop()


class Reader:
    """A :class:`PressReader` handed edges by the test at the times it says (gpiozero's
    ``when_held`` too), with stop held for 5 s to power off, on a running session."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.clock = FakeClock()
        self.shutdowns: list[float] = []
        actions = ButtonActions(session, seated=False, on_shutdown=self.shut_down)
        self.reader = PressReader(ButtonConfig(stop=STOP, shout=SHOUT, hold_s=5.0), actions,
                                  self.clock)

    def shut_down(self) -> bool:
        self.shutdowns.append(self.clock())
        return True  # the Pi powers off

    def play(self, header: dict[str, Any], lines: list[dict[str, Any]]) -> Snapshot:
        snap = self.session.new_game(header, base_version=self.session.snapshot().version)
        for line in lines:
            snap = self.session.act(line, base_version=snap.version, source="phone")
        return snap

    def edge(self, button: str, kind: EdgeKind, at: float) -> None:
        """``button`` did ``kind`` at ``at`` s after the first edge, and the worker looked at
        the clock."""
        self.clock.now = 100.0 + at
        self.reader.edge(Edge(Key(button), kind, self.clock.now))
        self.reader.due(self.clock.now)

    def at(self, at: float) -> None:
        """The worker looks at the clock ``at`` s after the first edge."""
        self.clock.now = 100.0 + at
        self.reader.due(self.clock.now)


def test_a_shout_let_go_after_stops_hold_time_powers_nothing_off(session: TableSession,
                                                                 journal_path: Path) -> None:
    """Stop's 5 s ran out while a player held a shout; the shout let go at 5.5 s, stop is let
    go at 7 s: it was never held alone for 5 s, so it is a stop (it powered off at 5.5 s)."""
    reader = Reader(session)
    before = reader.play(DALEK, KEPT)
    reader.edge("stop", "press", 0.0)
    reader.edge("shout", "press", 1.0)
    reader.edge("stop", "held", 5.0)
    reader.edge("shout", "release", 5.5)
    assert reader.shutdowns == []
    reader.at(6.9)
    reader.edge("stop", "release", 7.0)
    assert reader.shutdowns == []
    assert session.snapshot().version == before.version + 1
    assert sources(journal_path)[-1] == ('{"stop": {}}', "button")


def test_stop_held_on_alone_after_a_shout_powers_off_once_its_time_is_up(
        session: TableSession) -> None:
    """The shout let go at 5.5 s and pressed again from 8 to 8.2 s: stop held on alone from
    then powers off 5 s later, at 13.2 s, and its letting go is no stop."""
    reader = Reader(session)
    before = reader.play(DALEK, KEPT)
    reader.edge("stop", "press", 0.0)
    reader.edge("shout", "press", 1.0)
    reader.edge("stop", "held", 5.0)
    reader.edge("shout", "release", 5.5)
    reader.edge("shout", "press", 8.0)
    reader.edge("shout", "release", 8.2)
    reader.at(10.5)
    reader.at(13.1)
    assert reader.shutdowns == []
    assert reader.reader.next_due() == pytest.approx(113.2)
    reader.at(13.2)
    assert reader.shutdowns == [pytest.approx(113.2)]
    reader.edge("stop", "release", 14.0)
    assert reader.shutdowns == [pytest.approx(113.2)]
    assert session.snapshot().version == before.version, "no stop was played"


@pytest.mark.parametrize("shout_let_go", [1.0, 0.505])
def test_a_stop_let_go_within_its_bounce_after_a_shout_powers_nothing_off(
        session: TableSession, shout_let_go: float) -> None:
    """Stop pressed at 0.5 s while a shout is down and let go at 0.51 s (within its bounce,
    so its letting go is dropped), the shout let go after it or just before it: nothing is
    down, so nothing powers off 5 s later (it powered off at 6 s, or 5.505 s)."""
    reader = Reader(session)
    reader.play(DALEK, KEPT)
    edges: list[tuple[str, EdgeKind, float]] = [
        ("shout", "press", 0.0), ("stop", "press", 0.5), ("stop", "release", 0.51),
        ("shout", "release", shout_let_go)]
    for button, kind, at in sorted(edges, key=lambda edge: edge[2]):
        reader.edge(button, kind, at)
    reader.at(6.0)
    reader.at(12.0)
    assert reader.shutdowns == []
    assert reader.reader.next_due() is None


def test_holding_stop_and_a_shout_shows_the_pin_for_a_minute(table: Table) -> None:
    before = table.play(DALEK, KEPT)
    table.press(STOP)
    table.clock.advance(0.2)
    table.press(SHOUT)
    shown = table.wait(news("pin"))
    assert shown.buttons is not None and shown.buttons["pin"] == table.session.journal.pin()
    table.release(SHOUT)
    table.release(STOP)
    table.clock.advance(61)
    cleared = table.wait(lambda snap: snap.buttons is None)
    assert table.shutdowns == [] and cleared.version == before.version


def lose_the_pin(journal: Path) -> None:
    """The journal has lost its PIN (damaged)."""
    with sqlite3.connect(journal) as db:
        db.execute("DELETE FROM settings WHERE key = 'pin'")


def lose_the_settings(journal: Path) -> None:
    """The journal has lost its settings' table (damaged): reading it is an SQLite error."""
    with sqlite3.connect(journal) as db:
        db.execute("DROP TABLE settings")


@pytest.mark.parametrize("damage", [lose_the_pin, lose_the_settings])
def test_a_pin_the_journal_cannot_give_is_told_as_not_taken_and_the_buttons_go_on(
        table: Table, journal_path: Path, caplog: pytest.LogCaptureFixture,
        damage: Callable[[Path], None]) -> None:
    """Stop and a shout held to show the PIN on a damaged journal: the phones say the press
    was not taken and the host's log says why; a shout after is heard (reading the PIN
    raised on the buttons' thread and ended it: nothing was told, no press was read again)."""
    before = table.play(DALEK, KEPT)
    damage(journal_path)
    table.press(STOP)
    table.clock.advance(0.2)
    table.press(SHOUT)
    refused = table.wait(news("refused"))
    assert refused.buttons is not None and refused.buttons["reason"]["template"] == (
        "the table could not take this press; press again, or use the phone; if it "
        "happens again, tell the host")
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
    assert caplog.records[0].exc_info is not None
    table.release(SHOUT)
    table.release(STOP)
    table.clock.advance(0.3)
    table.tap(SHOUT)
    last = table.wait(news("exterminate"))
    assert last.version == before.version and table.shutdowns == []


def test_a_stop_the_table_fails_to_refuse_goes_to_the_log(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """Stop pressed as the table shuts down (its session stopped first): the stop is refused,
    and telling the phones so fails as well, on the stops' thread (where it went nowhere)."""
    table.play(DALEK, KEPT)
    table.session.stop()
    table.tap(STOP)
    eventually(lambda: bool(caplog.records), timeout=5)
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "the table session is not running" in caplog.text


def test_a_press_while_the_session_is_busy_waits_its_turn(table: Table,
                                                          journal_path: Path) -> None:
    before = table.play(DALEK, KEPT)
    writer = sqlite3.connect(journal_path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # the journal is busy: the session waits on it
    try:
        table.tap(STOP)
        table.tap(SHOUT)  # gpiozero's callback only queues it: the test goes on at once
        busy = threading.Event()
        threading.Timer(0.3, busy.set).start()
        busy.wait()
        assert table.session.snapshot().version == before.version
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    last = table.wait(news("exterminate"))
    assert last.version == before.version + 1
    assert last.view is not None and last.view["turn"] == "Ben"


def test_a_machine_without_gpio_has_no_buttons(session: TableSession) -> None:
    actions = ButtonActions(session, seated=False)
    with pytest.raises(NoButtons, match="no GPIO"):
        TableButtons(ButtonConfig(), actions)


class LgpioError(Exception):
    """lgpio's own error (``lgpio.error``), a plain Exception: what it raises for a pin it
    cannot claim."""


@pytest.fixture
def lgpio(monkeypatch: pytest.MonkeyPatch) -> None:
    """lgpio, the Pi's pin library (not installed here), as far as its error goes."""
    module = types.ModuleType("lgpio")
    module.error = LgpioError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lgpio", module)


class HeldShoutPin(MockPin):  # type: ignore[misc]
    """A Pi whose GPIO 27 another program holds (a shutdown overlay, a fan, a second table
    served from another state folder): claiming it fails as lgpio does."""

    def __init__(self, factory: MockFactory, info: Any) -> None:
        if info.name == f"GPIO{SHOUT}":
            raise LgpioError("'GPIO busy'")
        super().__init__(factory, info)


def test_a_pin_another_program_holds_leaves_the_table_without_buttons(
        session: TableSession, lgpio: None, caplog: pytest.LogCaptureFixture) -> None:
    factory = MockFactory(revision=PI5, pin_class=HeldShoutPin)
    with pytest.raises(NoButtons, match="GPIO busy"):  # the table starts without them
        TableButtons(ButtonConfig(stop=STOP, shout=SHOUT), ButtonActions(session, seated=False),
                     factory=factory)
    Button(STOP, pin_factory=factory).close()  # the stop button's pin was let go
    assert caplog.records == [], "the reason is said once, with no traceback"


class FaultyShoutPin(MockPin):  # type: ignore[misc]
    """A pin whose claiming fails by a fault of the code's own (a TypeError)."""

    def __init__(self, factory: MockFactory, info: Any) -> None:
        if info.name == f"GPIO{SHOUT}":
            raise TypeError("unsupported operand type(s) for +: 'int' and 'str'")
        super().__init__(factory, info)


def test_a_fault_opening_the_buttons_is_logged_with_its_traceback_and_the_table_goes_on(
        session: TableSession, caplog: pytest.LogCaptureFixture) -> None:
    factory = MockFactory(revision=PI5, pin_class=FaultyShoutPin)
    with pytest.raises(NoButtons):  # the table starts without them: the phones do everything
        TableButtons(ButtonConfig(stop=STOP, shout=SHOUT), ButtonActions(session, seated=False),
                     factory=factory)
    Button(STOP, pin_factory=factory).close()  # the stop button's pin was let go
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "TypeError: unsupported operand" in caplog.text
    assert "Traceback (most recent call last)" in caplog.text
    session.new_game(DALEK, base_version=session.snapshot().version)  # the table goes on


def test_the_log_line_names_header_pins_with_warnings_as_errors(session: TableSession) -> None:
    # serve run with -W error (or PYTHONWARNINGS=error) must still start and log its buttons
    buttons = TableButtons(ButtonConfig(stop=STOP, shout=None, seats=SEATS),
                           ButtonActions(session, seated=True), factory=MockFactory(revision=PI5))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            described = buttons.describe()
    finally:
        buttons.close()
    assert described == "buttons: stop on GPIO 17, header pin 11; a shout per seat on " \
                        "GPIO 22, 23, 24, header pins 15, 16, 18"
