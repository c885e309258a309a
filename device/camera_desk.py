"""The camera's side of the table session: what the phones are told of the camera.

Used only on the session's worker thread. It keeps the camera's state, the last read that
stood (with its picture), the question the phones are asked about it, a roll held until the
rules expect one, and a note; :meth:`CameraDesk.to_json` is the ``camera`` part of the state
every phone gets (web/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from device.camera_errors import UnreadableFrame
from device.live import CameraStatus, Seen
from device.table_reads import Ask, Hold, Note, TableReads
from engine.errors import Refusal, to_json


@dataclass(frozen=True)
class Question:
    """An :class:`Ask` with its number (answers name it) and the read it is about."""

    id: int
    ask: Ask
    seen: Seen


@dataclass(frozen=True)
class Held:
    """A :class:`Hold` and the read it came from."""

    hold: Hold
    seen: Seen


class CameraDesk:
    """What the session knows of the camera (worker thread only)."""

    def __init__(self, plays_recording: bool) -> None:
        self.plays_recording = plays_recording
        """The camera plays a recording (:attr:`device.camera.FrameSource.plays_recording`)."""
        self.status = CameraStatus("starting")
        self.seen: Seen | None = None
        self.pictures = 0
        self.question: Question | None = None
        self.held: Held | None = None
        self.note: Note | None = None
        self.reaching = False
        """The camera waits for something across the sheet's edge to leave (a hand held over
        the table) before it reads it (until the next read that stands)."""
        self.unreadable: UnreadableFrame | None = None
        """Why a picture could not be read, the first of a run of one reason (None: the last
        could, or none came)."""
        self.reads: TableReads | None = None
        self.reads_game: int | None = None
        self._questions = 0

    def ask(self, ask: Ask, seen: Seen) -> None:
        """Put ``ask`` to the phones (in place of any earlier question)."""
        self._questions += 1
        self.question = Question(self._questions, ask, seen)
        self.note = None

    def tell(self, note: Note | None) -> None:
        """Tell the table ``note`` (None: nothing); an open question is dropped."""
        self.note = note
        self.question = None

    def passed(self, note: Note | None = None) -> None:
        """A read with nothing new to tell: the last note gives way to ``note`` (what is still
        so, or nothing; a held roll's note stays)."""
        if self.held is None:
            self.note = note

    def show(self, seen: Seen) -> None:
        """``seen`` is the camera's latest read that stands."""
        self.seen = seen
        self.pictures += 1
        self.reaching = False

    def forget_game(self) -> None:
        """A new game (or none): drop its reads, question, held roll and call for hands off
        the table."""
        self.reads, self.reads_game = None, None
        self.question, self.held, self.note = None, None, None
        self.reaching = False

    def to_json(self) -> dict[str, Any]:
        """The ``camera`` part of the state (language-neutral: a refusal goes as its template
        and params, why the camera is out as its message key and values, which the score pad
        translates; a stall's why also says since when, :attr:`CameraStatus.since`; why the
        first picture of a run of one reason could not be read likewise)."""
        seen, why, since = self.seen, self.status.why, self.status.since
        unreadable = self.unreadable
        return {
            "status": self.status.state,
            "why": None if why is None else {"key": why.key, "params": why.params,
                                             **({} if since is None else {"since": since})},
            "unreadable_why": None if unreadable is None else {"key": unreadable.key,
                                                               "params": unreadable.params},
            "picture": self.pictures if seen is not None else None,
            "seen": None if seen is None else {
                "width": seen.observation.width, "height": seen.observation.height,
                "dice": [{"value": d.value, "x": round(d.x, 1), "y": round(d.y, 1),
                          "size": round(d.size, 1)} for d in seen.observation.dice],
                "marks": [{"text": m.text, "x": round(m.x, 1), "y": round(m.y, 1),
                           "size": round(m.size, 1)} for m in seen.observation.marks],
                "problem": seen.observation.problem},
            "ask": None if self.question is None else _ask_json(self.question),
            "held": None if self.held is None else {"player": self.held.hold.player,
                                                    "line": self.held.hold.line},
            "note": None if self.note is None else {"key": self.note.key,
                                                    "params": self.note.params},
            "reaching": self.reaching,
        }


def _ask_json(question: Question) -> dict[str, Any]:
    ask = question.ask
    return {"id": question.id, "kind": ask.kind, "player": ask.player, "line": ask.line,
            "dice": list(ask.dice), "circled": list(ask.circled), "cards": list(ask.cards),
            "next_player": ask.next_player, "was": None if ask.was is None else list(ask.was),
            "reason": None if ask.reason is None else refusal_json(ask.reason)}


def refusal_json(err: Refusal) -> dict[str, Any]:
    """A refusal as language-neutral JSON: its template and params (nested refusals too).

    >>> refusal_json(Refusal("it is {player}'s turn", player="Ana"))
    {'template': "it is {player}'s turn", 'params': {'player': 'Ana'}}
    """
    data: dict[str, Any] = to_json(err)
    return data
