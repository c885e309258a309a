"""The actions that stand while a record is replayed, with the states before the last few of
them kept, so that an undo takes its state back, not replays every action from the header.

>>> from engine.rules import rules_for
>>> rules = rules_for("dalek")
>>> start = lambda: rules.setup(("Ana", "Ben"), {})
>>> standing = Standing(rules, (), start(), start=start)
>>> standing.play(rules.parse_action("roll", ["H4"] * 9 + ["DOC"]))
>>> standing.undo()
>>> standing.actions, standing.state.phase
([], 'roll')
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from engine.errors import IllegalAction
from engine.rules import Rules

KEPT = 32
"""States kept, before each of the last actions: a run of more undos replays from the header
once for each KEPT of them. (Every state holds each turn's results so far, so keeping one for
every action would hold memory as the square of the game's length.)"""

NOTHING_TO_UNDO = "there is nothing to undo: no action stands yet"


class Standing:
    """The standing actions of a game and the state after them: :meth:`play` one more,
    :meth:`undo` the last one. ``state`` is the state after ``actions``; ``start`` gives the
    state before any action (called only when an undo goes back past the states kept)."""

    def __init__(self, rules: Rules[Any, Any], actions: Iterable[Any], state: Any, *,
                 start: Callable[[], Any]) -> None:
        self._rules = rules
        self._start = start
        self.actions: list[Any] = list(actions)
        self.state: Any = state
        self._before: deque[Any] = deque(maxlen=KEPT)
        """The state before each of the last actions, the last action's last."""

    def play(self, action: Any) -> None:
        """One more action; IllegalAction (and no change) if it is refused."""
        state = self._rules.apply(self.state, action)
        self._before.append(self.state)
        self.actions.append(action)
        self.state = state

    def undo(self) -> None:
        """Take back the last standing action; IllegalAction if none stands."""
        if not self.actions:
            raise IllegalAction(NOTHING_TO_UNDO)
        self.actions.pop()
        if self._before:
            self.state = self._before.pop()
            return
        state = self._start()
        for done, action in enumerate(self.actions):
            if done >= len(self.actions) - KEPT:
                self._before.append(state)
            state = self._rules.apply(state, action)
        self.state = state
