"""The demo's phone: a scripted player that does what the camera cannot.

It follows a planned record (:mod:`device.demo_plan`) through the table session, exactly as a
phone does: it starts the game, enters the scores, skips and effect choices, answers the
camera's questions (which card was frozen, a die's value), and fixes a misread by correcting
the action, each after a short pause. The dice are the camera's: the player enters a roll
only when the camera has not brought it within ``patience_s``. It never touches a game that
is not the plan's (one a person set up on the table). It starts the plan's game on a free
table or after an earlier demo game that is over, and with ``loop`` again each time it ends.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

from device.session import SessionError, Snapshot, StaleVersion, TableSession
from engine import IllegalAction

CAMERA_LINES = ("roll", "reroll")


class ScriptedPlayer:
    """Plays ``record`` (a header and its actions) on ``session`` in a thread of its own."""

    def __init__(self, session: TableSession, record: list[dict[str, Any]], *,
                 delay_s: float = 0.8, patience_s: float = 8.0, loop: bool = False) -> None:
        self.session = session
        self.header, self.plan = record[0], record[1:]
        self.delay_s, self.patience_s, self.loop = delay_s, patience_s, loop
        self.games = 0
        """How many games of the plan it started."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._waiting_since: tuple[int, float] | None = None  # (live, when) of a camera wait

    def start(self) -> None:
        """Start playing."""
        self._thread = threading.Thread(target=self._play, name="scripted-player", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop playing (within a pause)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)

    def _play(self) -> None:
        with self.session.subscribe() as updates:
            while not self._stop.is_set():
                updates.get(timeout=0.25)
                try:
                    self._move(self.session.snapshot())
                except (StaleVersion, IllegalAction, SessionError):
                    continue  # the table changed meanwhile: look again

    def _pause(self) -> bool:
        """Wait like a person; False when stopping."""
        return not self._stop.wait(self.delay_s)

    def _move(self, snap: Snapshot) -> None:
        """One move, if one is due."""
        if snap.view is None:  # a free table: start the plan's game, unless it was abandoned
            if self.games == 0 and self._pause():
                self._new_game(snap)
            return
        if snap.header != self.header or snap.game_id is None:
            return  # not the plan's game: a person is playing
        if snap.view["over"]:
            if (self.loop or self.games == 0) and self._pause():
                self._new_game(snap)  # the demo again (at start, or looping)
            return
        standing = self.session.record(snap.game_id)[1:]
        wrong = next((i for i, line in enumerate(standing)
                      if i >= len(self.plan) or not same_line(line, self.plan[i])), None)
        if wrong is not None:
            if wrong >= len(self.plan) or not self._pause():
                return
            self.session.correct(wrong, self.plan[wrong], base_version=snap.version)
            return
        following = self.plan[len(standing)] if len(standing) < len(self.plan) else None
        if following is None:
            return
        question = (snap.camera or {}).get("ask")
        if question is not None:
            self._answer(question, following, snap)
        elif next(iter(following)) not in CAMERA_LINES:
            if self._pause():
                self.session.act(following, base_version=snap.version, source="phone")
        elif self._waited_too_long(snap) and (snap.camera or {}).get("held") is None:
            self.session.act(following, base_version=snap.version, source="phone")

    def _new_game(self, snap: Snapshot) -> None:
        self.session.new_game(self.header, base_version=snap.version)
        self.games += 1

    def _waited_too_long(self, snap: Snapshot) -> bool:
        """Whether the camera has not brought the expected dice within ``patience_s`` of
        the game's last change."""
        now = time.monotonic()
        if self._waiting_since is None or self._waiting_since[0] != snap.version:
            self._waiting_since = (snap.version, now)
        return now - self._waiting_since[1] >= self.patience_s

    def _answer(self, question: dict[str, Any], following: dict[str, Any], snap: Snapshot) -> None:
        """Answer the camera as the plan says; a question the plan cannot answer is dropped
        (and the line entered by hand later)."""
        if not self._pause():
            return
        kind, line = question["kind"], dict(following)
        reply: dict[str, Any] = {"ignore": True}
        if kind == "freeze" and "reroll" in line and line["reroll"]["freeze"] in question["cards"]:
            reply = {"card": line["reroll"]["freeze"]}
        elif kind == "values" and next(iter(line)) in CAMERA_LINES:
            missing = _missing_values(question, line)
            reply = {"values": missing} if missing is not None else reply
        elif kind == "nudge" and next(iter(line)) in CAMERA_LINES:
            reply = {"rolled": True}
        elif kind in ("whose", "freeze") and "roll" in line and question.get("next_player"):
            reply = {"next_roll": True}
        self.session.answer(question["id"], reply, base_version=snap.version)


def _missing_values(question: dict[str, Any], line: dict[str, Any]) -> list[int] | None:
    """The planned values of the circled dice: the planned dice less those read surely."""
    planned = Counter(line["roll"] if "roll" in line else line["reroll"]["dice"])
    sure = Counter(v for v in question["dice"] if v is not None)
    if sure - planned:
        return None
    missing = list((planned - sure).elements())
    return missing if len(missing) == len(question["circled"]) else None


def same_line(a: object, b: object) -> bool:
    """Whether two record lines are the same action: dice lists are multisets.

    >>> same_line({"roll": [3, 1, 2]}, {"roll": [1, 2, 3]})
    True
    >>> same_line({"skip": {}}, {"score": {"card": "pair", "dice": [1, 1]}})
    False
    """
    return _canonical(a) == _canonical(b)


def _canonical(value: object) -> object:
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted(value, key=repr) if all(isinstance(v, int) for v in value) else value
    return value

