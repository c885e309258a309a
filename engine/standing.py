"""The actions that stand while a record is replayed, with the state kept every few actions,
so that an undo replays the few actions after the last state kept, not all from the header.

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

from collections.abc import Callable, Iterable
from typing import Any

from engine.errors import IllegalAction
from engine.rules import Rules

KEEP_EVERY = 32
"""Actions between two states kept: an undo applies fewer than this many actions again (a
state kept for every action would hold every turn's results list, as long as the game)."""

NOTHING_TO_UNDO = "there is nothing to undo: no action stands yet"


class Standing:
    """The standing actions of a game and the state after them: :meth:`play` one more,
    :meth:`undo` the last one. ``state`` is the state after ``actions``; ``start`` gives the
    state before any action (called only when an undo goes back past the actions given)."""

    def __init__(self, rules: Rules[Any, Any], actions: Iterable[Any], state: Any, *,
                 start: Callable[[], Any]) -> None:
        self._rules = rules
        self._start = start
        self.actions: list[Any] = list(actions)
        self.state: Any = state
        self._kept: list[tuple[int, Any]] = [(len(self.actions), self.state)]
        """(number of actions, the state after them), in order."""

    def play(self, action: Any) -> None:
        """One more action; IllegalAction (and no change) if it is refused."""
        self.state = self._rules.apply(self.state, action)
        self.actions.append(action)
        self._keep_if_due(len(self.actions), self.state)

    def undo(self) -> None:
        """Take back the last standing action; IllegalAction if none stands."""
        if not self.actions:
            raise IllegalAction(NOTHING_TO_UNDO)
        self.actions.pop()
        count = len(self.actions)
        while self._kept and self._kept[-1][0] > count:
            self._kept.pop()
        if not self._kept:
            self._kept.append((0, self._start()))
        done, state = self._kept[-1]
        for action in self.actions[done:]:
            state = self._rules.apply(state, action)
            done += 1
            self._keep_if_due(done, state)
        self.state = state

    def _keep_if_due(self, count: int, state: Any) -> None:
        if count - self._kept[-1][0] >= KEEP_EVERY:
            self._kept.append((count, state))
