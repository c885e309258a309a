"""Turning what the camera saw into what the rules expect now.

The session hands each settled :class:`~vision.observation.Observation` to the reads of its
game, which compare it with the one before and with the game, and come to one
:data:`Decision`:

- :class:`Apply`: a line the rules expect, to journal from the camera (a roll of six dice);
- :class:`Ask`: a question for the phones, one tap to answer (the value of a die the camera is
  not sure of, which card was frozen for a reroll, whether a die was only nudged);
- :class:`Hold`: a roll seen before the rules expect one (the next player rolled while effect
  choices were still owed): it is taken once they do;
- :class:`Note`: something to tell the table (four dice seen of six; this game's faces are not
  read by the camera yet);
- None: nothing new (a hand passed over, a long rest, dice tidied without a change).

Dicy Cards is read from its six dice. Dalek Dice and 17 are not read yet: their reads say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import Game
from engine.errors import Refusal
from vision.dice import DieRead
from vision.observation import Observation, nearest

DICY_DICE = 6
NUDGE_SIDES = 1.5  # a die that moved less than this many sides, alone, was nudged, not rolled
SAME_PLACE_SIDES = 0.5  # a die within this many sides of one with its value did not move


@dataclass(frozen=True)
class Apply:
    """Journal ``line`` from the camera."""

    line: dict[str, Any]


@dataclass(frozen=True)
class Ask:
    """A question for the phones about what the camera saw.

    ``kind``: ``values`` (the circled dice's values), ``freeze`` (the card frozen for this
    reroll, or it was the next player's roll), ``nudge`` (one die changed without a roll: was it
    rerolled?), ``whose`` (the dice changed when no reroll is possible: the next player's roll?),
    ``correct`` (the read is no legal action: ``reason`` says why). ``line`` is the action the
    answer completes; ``dice`` the values seen (None where not sure), ``circled`` the positions
    of the dice asked about, ``cards`` the cards to pick from, ``was`` the game's dice.
    """

    kind: str
    player: str | None
    line: dict[str, Any] | None = None
    dice: tuple[int | None, ...] = ()
    circled: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    next_player: str | None = None
    was: tuple[int, ...] | None = None
    reason: Refusal | None = None


@dataclass(frozen=True)
class Hold:
    """A roll by ``player`` to journal once the rules expect a roll."""

    line: dict[str, Any]
    player: str


@dataclass(frozen=True)
class Note:
    """Something for the table to know: a message key of the score pad and its values."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


Decision = Apply | Ask | Hold | Note | None


class TableReads(Protocol):
    """The camera's reads of one game, from one settled observation to the next."""

    def decide(self, seen: Observation, game: Game) -> Decision:
        """What ``seen`` means for ``game`` now (nothing is remembered: see remember)."""

    def remember(self, seen: Observation, game: Game) -> None:
        """``seen`` is now what lies on the table, and ``game`` what the game says of it."""


def reads_for(game: Game) -> TableReads:
    """The reads for ``game``'s kind."""
    if game.view()["game"] == "dicy":
        return DicyReads()
    return UnreadGame(game.view()["game"])


class UnreadGame:
    """A game whose components the camera does not read yet: it says so, and does nothing."""

    def __init__(self, game: str) -> None:
        self.game = game

    def decide(self, seen: Observation, game: Game) -> Decision:
        """Always the same note."""
        return Note("camera.not_read", {"game": self.game})

    def remember(self, seen: Observation, game: Game) -> None:
        """Nothing to remember."""


class DicyReads:
    """Dicy Cards from its six dice: a fresh roll, a reroll, a nudge, a tidy-up."""

    def __init__(self) -> None:
        self._last: Observation | None = None
        self._synced: tuple[int, ...] | None = None  # the game's dice when _last was taken

    def remember(self, seen: Observation, game: Game) -> None:
        """Compare the next read with ``seen``; the game's dice are now in step with it."""
        self._last = seen
        self._synced = _table_dice(game.view())

    def decide(self, seen: Observation, game: Game) -> Decision:
        """A roll, a reroll, a question or nothing (see the module's docstring)."""
        view = game.view()
        if view["over"]:
            return None
        moved = _moved(self._last, seen)
        if moved == [] and self._last is not None and len(self._last.dice) == len(seen.dice):
            return None  # nothing on the table changed: a hand passed over, a long rest
        if len(seen.dice) != DICY_DICE:
            return Note("camera.count", {"n": len(seen.dice), "need": DICY_DICE})
        values = seen.values()
        player = str(view["turn"])
        if values is None:
            return Ask("values", player, dice=_values(seen),
                       circled=tuple(i for i, d in enumerate(seen.dice) if d.value is None))
        expects = view["expects"]
        table = _table_dice(view)
        dice = tuple(sorted(values))
        nudged = self._nudged(moved, seen)
        if "roll" in expects:
            if self._last is None and dice == _last_dice(game):
                return None  # the previous turn's dice still lie there
            if nudged is None:
                return None  # one die pushed aside, its value unchanged
            if nudged:
                return Ask("nudge", player, {"roll": values}, _values(seen), nudged)
            return Apply({"roll": values})
        if table is None or "effect" in expects:  # a skip without rolling, or choices owed
            return None if dice == table else Hold({"roll": values}, _next_player(view))
        if dice == table:
            far = moved is not None and any(self._far(d) for d in moved)
            if self._synced != table or not far or "reroll" not in expects:
                return None  # the camera agrees with the game: entered by phone, or tidied
        elif nudged:
            return Ask("nudge", player, {"reroll": {"dice": values}}, _values(seen), nudged,
                       was=table)
        if "reroll" in expects:
            return reroll(view, values, table)
        return Ask("whose", player, {"roll": values}, _values(seen),
                   next_player=_next_player(view), was=table)

    def _nudged(self, moved: list[DieRead] | None, seen: Observation) -> tuple[int, ...] | None:
        """When only one die moved, and not far: its position if its value changed (it was
        nudged), None if not (it was pushed aside); () when the dice were rolled."""
        if self._last is None or moved is None or len(moved) != 1 \
                or len(self._last.dice) != len(seen.dice) or self._far(moved[0]):
            return ()
        match = nearest(moved[0], self._last.dice)
        assert match is not None
        if self._last.dice[match[0]].value == moved[0].value:
            return None
        return (seen.dice.index(moved[0]),)

    def _far(self, die: DieRead) -> bool:
        """``die`` lies far from every die of the last read (it was rolled, not nudged)."""
        assert self._last is not None
        match = nearest(die, self._last.dice)
        return match is None or match[1] >= NUDGE_SIDES


def reroll(view: dict[str, Any], values: list[int], was: tuple[int, ...] | None) -> Decision:
    """A reroll to ``values`` by the player to move: frozen with their one active card, or
    the question which card it was (or whether the next player rolled)."""
    player = str(view["turn"])
    cards = tuple(c for c, side in view["rows"][player].items() if side == "active")
    if len(cards) == 1:
        return Apply({"reroll": {"freeze": cards[0], "dice": values}})
    return Ask("freeze", player, {"reroll": {"dice": values}}, tuple(values), cards=cards,
               next_player=_next_player(view), was=was)


def _moved(before: Observation | None, after: Observation) -> list[DieRead] | None:
    """The dice of ``after`` that ``before`` did not have at the same place with the same
    value; None without ``before``."""
    if before is None:
        return None
    left = list(before.dice)
    moved = []
    for die in after.dice:
        match = nearest(die, tuple(left))
        if match is not None and match[1] < SAME_PLACE_SIDES \
                and left[match[0]].value == die.value:
            left.pop(match[0])
        else:
            moved.append(die)
    return moved


def _values(seen: Observation) -> tuple[int | None, ...]:
    return tuple(d.value for d in seen.dice)


def _table_dice(view: dict[str, Any]) -> tuple[int, ...] | None:
    table = view.get("table") or {}
    dice = table.get("dice")
    return tuple(sorted(dice)) if dice else None


def _last_dice(game: Game) -> tuple[int, ...] | None:
    """The dice of the most recent roll or reroll that stands, of any turn."""
    for line in reversed(game.record()[1:]):
        if "roll" in line:
            return tuple(sorted(line["roll"]))
        if "reroll" in line:
            return tuple(sorted(line["reroll"]["dice"]))
    return None


def _next_player(view: dict[str, Any]) -> str:
    players = list(view["players"])
    return str(players[(players.index(view["turn"]) + 1) % len(players)])
