"""A game in progress: its header, the actions that stand, and the state they lead to.

:class:`Game` is immutable: every change returns a new one. Undo and corrections replay the
actions that stand from the header, so they use the same code as crash recovery.

>>> game = Game.start({"game": "dalek", "players": ["Jenna", "Peter"]})
>>> game = game.play_json({"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]})
>>> game.view()["turn"]
'Jenna'
>>> len(game.undo().actions)
0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.checks import as_empty
from engine.errors import Action, IllegalAction, Key, Many, Shown
from engine.names import NameRules, header_players
from engine.rules import JSONDict, Rules, rules_for
from engine.standing import NOTHING_TO_UNDO, Standing

VIEW_VERSION = 1
"""Version of the public view's JSON form (docs/state-view.md); bumped on any change."""

NO_SET_UP = "a game starts with its set-up: the game to play and its players"
"""The refusal of a header without its game or its players (a new game's, set up on a phone;
a record's first line: dicetable replay says then how a header is written)."""

REFUSED_LATER = "action {number} ({action}) is refused: {reason}"
"""The refusal of a replay (undo, correction) that names the action it cannot replay."""


@dataclass(frozen=True)
class Game:
    """One game: ``header`` (as JSON), the standing ``actions`` and the resulting ``state``."""

    rules: Rules[Any, Any]
    header: Mapping[str, Any]
    actions: tuple[Any, ...]
    state: Any

    @classmethod
    def start(cls, header: Mapping[str, Any], *,
              names: NameRules = NameRules.TABLE) -> Game:
        """A new game from a record header; IllegalAction if the header is wrong. ``names``:
        the rules its players' names are held to (a new game at this table's by default; see
        :class:`NameRules`)."""
        if not isinstance(header, Mapping):
            raise IllegalAction("a game starts with its header in curly brackets, not {value}",
                                value=Shown(header))
        if "game" not in header or "players" not in header:
            raise IllegalAction(NO_SET_UP)
        rules = rules_for(header["game"])
        players = header_players(header["players"], rules, names)
        unknown = Many(Shown(k) for k in sorted(set(header) - {"game", "players"} - rules.options))
        if unknown:
            raise IllegalAction("{game} does not take {unknown} in its header (it takes "
                                "{expected})", game=rules.title, unknown=unknown,
                                expected=Many(Key(k) for k in sorted(rules.options)))
        options = {k: v for k, v in header.items() if k not in ("game", "players")}
        state = rules.setup(players, options)
        return cls(rules, dict(header), (), state)

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.rules.is_over(self.state)

    def play(self, action: Any) -> Game:
        """This game after one more action; IllegalAction (and no change) if it is refused."""
        return Game(self.rules, self.header, (*self.actions, action),
                    self.rules.apply(self.state, action))

    def parse(self, line: Mapping[str, Any]) -> Any:
        """The action object of a one-key record object such as ``{"stop": {}}``."""
        kind, value = _single_key(line)
        return self.rules.parse_action(kind, value)

    def play_json(self, line: Mapping[str, Any]) -> Game:
        """Apply one record line (an action, or ``{"undo": {}}``)."""
        return self.play_lines((line,))

    def play_lines(self, lines: Iterable[Mapping[str, Any]]) -> Game:
        """Apply record lines in turn, as :meth:`play_json` one by one would, in a time
        that grows with their count (each :meth:`play` copies the actions before it, and each
        :meth:`undo` replays them all: a long record would take the square of its length);
        IllegalAction at the first refused."""
        standing = Standing(self.rules, self.actions, self.state,
                            start=lambda: self.rules.setup(*self._setup_args()))
        for line in lines:
            kind, value = _single_key(line)
            if kind == "undo":
                as_empty(value, "undo")
                standing.undo()
            else:
                standing.play(self.rules.parse_action(kind, value))
        return Game(self.rules, self.header, tuple(standing.actions), standing.state)

    def undo(self) -> Game:
        """This game without its last standing action (replayed from the header)."""
        if not self.actions:
            raise IllegalAction(NOTHING_TO_UNDO)
        return self.replayed(self.actions[:-1])

    def correct(self, index: int, action: Any) -> Game:
        """Replace standing action ``index`` (0-based) and replay the rest after it.

        IllegalAction names the first action that the change makes illegal.
        """
        return self.revised({index: action})

    def revised(self, changes: Mapping[int, Any], drop_from: int | None = None) -> Game:
        """Replace several standing actions (``{index: action}``, 0-based), drop those from
        ``drop_from`` on, and replay: a correction with the later actions it makes illegal
        fixed in turn, or dropped.

        IllegalAction names the first action that is still refused.
        """
        end = len(self.actions) if drop_from is None else drop_from
        if not 0 <= end <= len(self.actions):
            raise IllegalAction("there is no action {number}; {count} stand",
                                number=end + 1, count=len(self.actions))
        for index in changes:
            if not 0 <= index < end:
                raise IllegalAction("there is no action {number}; {count} stand",
                                    number=index + 1, count=end)
        return self.replayed([changes.get(i, a) for i, a in enumerate(self.actions[:end])])

    def replayed(self, actions: Sequence[Any]) -> Game:
        """The game from this header after ``actions``; IllegalAction names the one refused
        as the table may see it (a hidden card's id, and a reason that could name it, left
        out)."""
        game = Game(self.rules, self.header, (), self.rules.setup(*self._setup_args()))
        for number, action in enumerate(actions, start=1):
            try:
                game = game.play(action)
            except IllegalAction as err:
                public = self.rules.public_actions(actions[:number])[-1]
                reason = err if public == self.rules.action_to_json(action) else IllegalAction(
                    "the reason would give away a card that is still face down")
                raise IllegalAction(REFUSED_LATER,
                                    number=number, action=Action(self.rules.name, public),
                                    reason=reason) from err
        return game

    def record(self) -> list[JSONDict]:
        """The game record: the header, then the standing actions, as JSON objects."""
        return [dict(self.header), *(self.rules.action_to_json(a) for a in self.actions)]

    def public_record(self) -> list[JSONDict]:
        """The record as a player at the table may see it: what is hidden is left out (a
        face-down card's identity until the call)."""
        return [dict(self.header), *self.rules.public_actions(self.actions)]

    def view(self) -> JSONDict:
        """The public view (versioned JSON; see docs/state-view.md)."""
        return {"version": VIEW_VERSION, "actions": len(self.actions),
                **self.rules.public_view(self.state)}

    def hints(self) -> JSONDict:
        """The engine's hints for the situation on the table."""
        return self.rules.hints(self.state)

    def describe(self) -> str:
        """A readable text of the state for a terminal."""
        return self.rules.describe(self.state)

    def _setup_args(self) -> tuple[tuple[str, ...], dict[str, Any]]:
        players = tuple(self.header["players"])
        options = {k: v for k, v in self.header.items() if k not in ("game", "players")}
        return players, options


def _single_key(line: Mapping[str, Any]) -> tuple[str, object]:
    if not isinstance(line, Mapping) or len(line) != 1:
        raise IllegalAction("an action is one move at a time, not {line}", line=Shown(line))
    ((kind, value),) = line.items()
    return str(kind), value
