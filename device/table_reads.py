"""Turning what the camera saw into what the rules expect now.

The session hands each settled :class:`~vision.observation.Observation` to the reads of its
game, which compare it with the one before and with the game, and come to one
:data:`Decision`:

- :class:`Apply`: a line the rules expect, to journal from the camera (a roll of six dice),
  and maybe a second one right after it (a Dalek keep, then the next roll);
- :class:`Ask`: a question for the phones, one tap to answer (the value of a die the camera is
  not sure of, which card was frozen for a reroll, whether a die was only nudged);
- :class:`Hold`: a roll seen before the rules expect one (the next player rolled while effect
  choices were still owed): it is taken once they do;
- :class:`Note`: something to tell the table (four dice seen of six; this game's faces are not
  read by the camera yet);
- None: nothing new (a hand passed over, a long rest, dice tidied without a change).

A read of the table *as found* (nothing had moved since the camera's first frame) with no
earlier read to compare it with is what lay there already, not a move: the last game's dice
or cards left lying as a game is set up, or the dice as they lay when the table restarted. It
is only remembered; the first move is the first rest after something moved.

Dicy Cards is read from its six dice and, on a calibrated table, its rows of cards: a card
seen turned to frozen when the dice change names the card of the reroll. Its dice are read
when the sheet was taken away too (still told, see still_told; a bumped camera, the sheet
still in view, is told and nothing read). Dalek Dice and 17 are read on their sheets only
(vision.table_reads): Dalek dice rolled into "to roll" are a roll, the dice moved into the
kept areas the keep (known once the rest is rolled again, the pool is empty, or the player
stops: :meth:`TableReads.pending`), counted against the first read that showed the roll: a
roll read with a hand held over kept dice (the camera reads a hand held still 10 s as the
table, :mod:`device.reach`) has the dice it hid counted as kept again; a 17 card laid at
the row's end is a play. A read the rules refuse becomes the question "correct"; a read with
a die or card the camera is not sure of is told, never guessed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import Game
from engine.errors import Refusal
from vision.dice import DieRead
from vision.observation import Observation, nearest
from vision.sheet_seen import (
    DalekObservation,
    DicyObservation,
    DieSeen,
    PlaceSeen,
    SeventeenObservation,
)

DICY_DICE = 6
SEEING = ("moved", "dark", "bright")  # a calibrated table's camera cannot see its sheet
NUDGE_SIDES = 1.5  # a die that moved less than this many sides, alone, was nudged, not rolled
KNOCKED_AT_MOST = 2  # this many dice moved, the others lying where they were: knocked, no roll
SAME_PLACE_SIDES = 0.5  # a die within this many sides of one with its value did not move
ROLLED_MM = 6.0  # a Dalek die farther than this from where one of its face lay was rolled


@dataclass(frozen=True)
class Apply:
    """Journal ``line`` from the camera (then ``then``, when given)."""

    line: dict[str, Any]
    then: dict[str, Any] | None = None


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

    def decide(self, seen: Observation, game: Game, *, as_found: bool = False) -> Decision:
        """What ``seen`` means for ``game`` now (nothing is remembered: see remember);
        ``as_found``: nothing had moved in view since the camera's first frame."""

    def remember(self, seen: Observation, game: Game) -> None:
        """``seen`` is now what lies on the table, and ``game`` what the game says of it."""

    def pending(self, game: Game) -> dict[str, Any] | None:
        """A line the table already shows but the camera waits to journal (a Dalek keep
        before the player stops), None if none."""

    def shows(self, seen: Observation, game: Game) -> dict[str, Any] | None:
        """The line waiting to be journalled (see pending) as ``seen`` shows it, remembered
        or not; None where ``seen`` shows none the camera is sure of."""


def reads_for(game: Game) -> TableReads:
    """The reads for ``game``'s kind."""
    kind = game.view()["game"]
    if kind == "dicy":
        return DicyReads()
    if kind == "dalek":
        return DalekReads()
    return SeventeenReads()


class DicyReads:
    """Dicy Cards from its six dice: a fresh roll, a reroll, a nudge, a tidy-up."""

    def __init__(self) -> None:
        self._last: Observation | None = None
        self._synced: tuple[int, ...] | None = None  # the game's dice when _last was taken

    def remember(self, seen: Observation, game: Game) -> None:
        """Compare the next read with ``seen``; the game's dice are now in step with it (when
        no die moved since the last read, they are those that were: a move entered by phone
        meanwhile is not on the table; ``seen`` remembered again once its move is journalled
        is in step with the game as it is now)."""
        if self._last is None or seen is self._last or _moved(self._last, seen) \
                or len(seen.dice) != len(self._last.dice):
            self._synced = _table_dice(game.view())
        self._last = seen

    def pending(self, game: Game) -> dict[str, Any] | None:
        """Nothing waits: every Dicy read is journalled at once."""
        return None

    def shows(self, seen: Observation, game: Game) -> dict[str, Any] | None:
        """Nothing waits."""
        return None

    def decide(self, seen: Observation, game: Game, *, as_found: bool = False) -> Decision:
        """A roll, a reroll, a question or nothing (see the module's docstring)."""
        view = game.view()
        if view["over"]:
            return None
        if (seen.problem in SEEING and not seen.sheet_taken_away) or (
                seen.table is not None and not isinstance(seen.table, DicyObservation)):
            return _sheet_note(seen, "dicy")  # (Dicy is read without a sheet, not on another's)
        if as_found and self._last is None:
            return None  # the dice lay there before the camera looked: no roll
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
        knocked = self._knocked(moved, seen)
        if "roll" in expects:
            if self._last is None and dice == _last_dice(game):
                return None  # the previous turn's dice still lie there
            if nudged is None:
                return None  # one die pushed aside, its value unchanged
            if nudged or knocked:
                return Ask("nudge", player, {"roll": values}, _values(seen), nudged or knocked)
            return Apply({"roll": values})
        if table is None or "effect" in expects:  # a skip without rolling, or choices owed
            if dice == table or nudged is None or nudged or knocked:
                return None  # the dice as the game has them, or only knocked: no roll
            return Hold({"roll": values}, _next_player(view))
        if dice == table:
            far = moved is not None and any(self._far(d) for d in moved)
            if self._synced != table or not far or "reroll" not in expects:
                return None  # the camera agrees with the game: entered by phone, or tidied
        elif nudged:
            return Ask("nudge", player, {"reroll": {"dice": values}}, _values(seen), nudged,
                       was=table)
        if "reroll" in expects:
            frozen = _frozen_since(self._last, seen, view)
            if frozen is not None:
                return Apply({"reroll": {"freeze": frozen, "dice": values}})
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

    def _knocked(self, moved: list[DieRead] | None, seen: Observation) -> tuple[int, ...]:
        """The positions of the dice that moved when most lay still, where they lay (a die or
        two knocked, not a roll: a roll moves them all); () when they were rolled."""
        if self._last is None or moved is None or len(self._last.dice) != len(seen.dice) \
                or len(moved) > KNOCKED_AT_MOST:
            return ()
        return tuple(seen.dice.index(die) for die in moved)

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


def _frozen_since(before: Observation | None, after: Observation,
                  view: dict[str, Any]) -> str | None:
    """The one card of the player to move seen turned from active to frozen between two
    reads of a calibrated table (and active in the game), else None."""
    if before is None or not isinstance(before.table, DicyObservation) \
            or not isinstance(after.table, DicyObservation):
        return None
    player = str(view["turn"])
    row = list(view["players"]).index(player) + 1
    was = {p.place: p for p in before.table.row(row)}
    turned = {p.card for p in after.table.row(row)
              if p.card is not None and p.side == "frozen" and was.get(p.place) is not None
              and was[p.place].card == p.card and was[p.place].side == "active"}
    active = {c for c, side in view["rows"][player].items() if side == "active"}
    turned &= active  # (a card the game froze already, for an effect, is no reroll's)
    return turned.pop() if len(turned) == 1 else None


def _moved(before: Observation | None, after: Observation) -> list[DieRead] | None:
    """The dice of ``after`` that ``before`` did not have at the same place with the same
    value (a die read unsure where one lay did not move: its value was answered); None
    without ``before``."""
    if before is None:
        return None
    left = list(before.dice)
    moved = []
    for die in after.dice:
        match = nearest(die, tuple(left))
        if match is not None and match[1] < SAME_PLACE_SIDES \
                and die.value in (None, left[match[0]].value):
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


class DalekReads:
    """Dalek Dice on its sheet: rolls into "to roll", keeps into the kept areas."""

    def __init__(self) -> None:
        self._last: DalekObservation | None = None
        self._at_roll: DalekObservation | None = None  # the table when the roll was journalled
        self._roll: tuple[str, int] | None = None  # whose roll, and which of the turn

    def remember(self, seen: Observation, game: Game) -> None:
        """``seen`` lies on the table now; the first read after a roll that shows it is the
        roll's (not one of the table as it lay before a roll entered by phone)."""
        if not isinstance(seen.table, DalekObservation):
            return
        view = game.view()
        roll = _which_roll(view)
        if "keep" in view["expects"] and roll != self._roll and self._shows_roll(seen.table,
                                                                                  view):
            self._at_roll, self._roll = seen.table, roll
        self._last = seen.table

    def _shows_roll(self, table: DalekObservation, view: dict[str, Any]) -> bool:
        """Whether ``table`` shows the game's last roll: its faces in "to roll", or dice
        rolled there since the last read."""
        fresh = [d.face for d in _in(table, "to-roll") if d.face is not None]
        return self._last is None or _as_rolled(fresh, view["table"]["rolled"]) \
            or _changed(_in(self._last, "to-roll"), _in(table, "to-roll"))

    def pending(self, game: Game) -> dict[str, Any] | None:
        """The keep the table shows, while the game waits for one."""
        if "keep" not in game.view()["expects"] or self._last is None:
            return None
        return self._keep(self._last)

    def shows(self, seen: Observation, game: Game) -> dict[str, Any] | None:
        """The keep ``seen`` shows, while the game waits for one; None when it shows no
        Dalek sheet, or a die in the kept areas the camera is not sure of."""
        table = seen.table
        if "keep" not in game.view()["expects"] or not isinstance(table, DalekObservation) \
                or any(d.face is None for d in _in(table, "kept-humans") + _in(table,
                                                                              "kept-daleks")):
            return None
        return self._keep(table)

    def decide(self, seen: Observation, game: Game, *, as_found: bool = False) -> Decision:
        """A roll, a keep then a roll, a keep of the last dice, or a note."""
        view = game.view()
        table = seen.table
        if view["over"]:
            return None
        if not isinstance(table, DalekObservation):
            return _sheet_note(seen, "dalek")
        if as_found and self._last is None:
            return None  # the dice lay there before the camera looked: no roll
        expects, pool = view["expects"], view["table"]["pool"]
        rolling = _changed(_in(self._last, "to-roll"), _in(table, "to-roll"))
        if not table.sure and rolling:
            return Note("camera.unsure", {"n": sum(d.face is None for d in table.dice)})
        fresh = [d.face for d in _in(table, "to-roll") if d.face is not None]
        if "keep" in expects and self._roll != _which_roll(view):  # a roll entered by phone
            if _as_rolled(fresh, view["table"]["rolled"]):
                return None  # this read is the table at that roll
            keep = self._keep(table)
            if rolling and fresh and _as_rolled(fresh + keep["keep"], view["table"]["rolled"]):
                return Apply(keep)  # its dice set aside, the others lying as they were rolled
        if "roll" in expects:
            if not rolling or not fresh:
                return None
            if len(fresh) != pool:
                return Note("camera.count", {"n": len(fresh), "need": pool})
            return Apply({"roll": fresh})
        if "keep" not in expects or self._last is None:
            return None
        rolled = len(view["table"]["rolled"] or ())
        if not fresh and _in(self._last, "to-roll"):
            keep = self._keep(table)
            if len(keep["keep"]) + _to_top(view) == rolled:
                return Apply(keep)  # every die was set aside: no dice left
            # dice picked up to be rolled again, or a hand over the kept ones: not yet
            return Note("camera.count", {"n": len(keep["keep"]) + _to_top(view), "need": rolled})
        if rolling and fresh:
            # The kept areas now, else as last remembered (a frame of the dice being picked up
            # is only noted, and not remembered)
            for kept in (table, self._last):
                keep = self._keep(kept)
                left = rolled - len(keep["keep"]) - _to_top(view)
                if len(fresh) == left:
                    return Apply(keep, {"roll": fresh})
            return Note("camera.count", {"n": len(fresh), "need": left})
        extra = _extra_on_top(self._at_roll, table, view)
        if extra:
            return Note("camera.top_extra", {"face": extra})
        return None

    def _keep(self, now: DalekObservation) -> dict[str, Any]:
        """The humans and Daleks in the kept areas now that were not there at the roll."""
        before = Counter(_faces_in(self._at_roll, "kept-humans", "kept-daleks"))
        after = Counter(_faces_in(now, "kept-humans", "kept-daleks"))
        return {"keep": sorted((after - before).elements())}


class SeventeenReads:
    """17 on its sheet: a card laid at the row's end is a play."""

    def __init__(self) -> None:
        self._last: SeventeenObservation | None = None

    def remember(self, seen: Observation, game: Game) -> None:
        if isinstance(seen.table, SeventeenObservation):
            self._last = seen.table

    def pending(self, game: Game) -> dict[str, Any] | None:
        return None

    def shows(self, seen: Observation, game: Game) -> dict[str, Any] | None:
        return None

    def decide(self, seen: Observation, game: Game, *, as_found: bool = False) -> Decision:
        """A play, a note, or nothing: a card is played where the row ends in the game, and
        where the last read saw no card or another one."""
        view = game.view()
        table = seen.table
        if view["over"]:
            return None
        if not isinstance(table, SeventeenObservation):
            return _sheet_note(seen, "17")
        if as_found and self._last is None:
            return None  # the cards lay there before the camera looked: no play
        if "play" not in view["expects"]:
            return None
        laid = len(view["row"])
        if len(table.row) <= laid or self._lay_there(table.row[laid]):
            return None
        if len(table.row) > laid + 1 or table.stray:
            return Note("camera.row", {"n": len(table.row) - laid})
        card = table.row[laid]
        if not card.sure:
            return Note("camera.unsure", {"n": 1})
        return Apply({"play": _play(card, view)})

    def _lay_there(self, card: PlaceSeen) -> bool:
        """The last read saw ``card`` in its place already (a card left from the last round
        or game, or a play taken back by phone): it was not laid now."""
        last = {} if self._last is None else {p.place: p.face for p in self._last.row}
        return card.sure and last.get(card.place) == card.face


def _play(card: PlaceSeen, view: dict[str, Any]) -> dict[str, Any]:
    """The play of a card seen: a face-down plain back without its id; a face-up number as
    the front-only card while the deck still holds one, else the double-sided one."""
    if card.side == "down":
        return {"face": "down"} if card.card is None else {"card": card.card, "face": "down"}
    assert card.card is not None
    if card.card.isdigit() and view["deck"].get(card.card, 0) - view["seen"].get(
            card.card, 0) <= 0:
        return {"card": f"{card.card}d", "face": "up"}
    return {"card": card.card, "face": "up"}


def still_told(seen: Observation, game: Game) -> Note | None:
    """What the table is still told after a read with nothing else to tell: that the sheet is
    taken away, in a Dicy game still in play (its dice are read without it, its cards not
    until it is found again)."""
    view = game.view()
    if view["game"] == "dicy" and not view["over"] and seen.sheet_taken_away:
        return Note("camera.moved_dice")
    return None


def _sheet_note(seen: Observation, game: str) -> Note:
    """What to tell when a game's sheet cannot be read: the camera moved, it sees too little
    or too much light, the sheet is too far, at a slant, not flat, a corner covered or under a
    reflection, the camera's pictures too small for any distance, or no sheet of this game
    (none, or another game's)."""
    if seen.problem in SEEING:
        return Note(f"camera.{seen.problem}")
    if seen.problem == "sheet" and seen.sheet in ("dark", "bright"):
        return Note(f"camera.{seen.sheet}")
    if seen.problem == "sheet" and seen.sheet in ("far", "small", "skewed", "covered", "glare",
                                                  "flat"):
        return Note(f"camera.{seen.sheet}", {"game": game})
    return Note("camera.no_sheet", {"game": game})


def _in(table: DalekObservation | None, zone: str) -> tuple[DieSeen, ...]:
    return () if table is None else tuple(d for d in table.dice if d.zone == zone)


def _faces_in(table: DalekObservation | None, *zones: str) -> list[str]:
    return [] if table is None else [d.face for d in table.dice
                                     if d.zone in zones and d.face is not None]


def _changed(before: tuple[DieSeen, ...], after: tuple[DieSeen, ...]) -> bool:
    """Whether dice were rolled into a zone: some die lies where no die of its face lay (dice
    only taken away were not rolled)."""
    return any(not any(b.face == a.face and (b.x - a.x) ** 2 + (b.y - a.y) ** 2 < ROLLED_MM ** 2
                       for b in before) for a in after)


def _which_roll(view: dict[str, Any]) -> tuple[str, int]:
    """Whose roll the game stands at, and which of their turn."""
    table = view["table"] or {}
    return str(table.get("player")), int(table.get("rolls", 0))


def _as_rolled(fresh: list[str], rolled: list[str] | None) -> bool:
    """Whether the faces in "to roll" are the roll's, but for a DOC and an EXT the player may
    have moved to the top already.

    >>> _as_rolled(["H4", "D2", "DOC"], ["H4", "DOC", "D2"]), _as_rolled(["H4"], ["H4", "EXT"])
    (True, True)
    >>> _as_rolled(["H4"], ["H4", "D2"]), _as_rolled(["H4", "H4"], ["H4", "DOC"])
    (False, False)
    """
    have, want = Counter(fresh), Counter(rolled or ())
    return not have - want and all(face in ("DOC", "EXT") and count == 1
                                   for face, count in (want - have).items())


def _to_top(view: dict[str, Any]) -> int:
    """How many of the last roll's dice the rules moved to the top (one DOC, one EXT)."""
    rolled = view["table"]["rolled"] or []
    return int("DOC" in rolled) + int("EXT" in rolled)


def _extra_on_top(at_roll: DalekObservation | None, now: DalekObservation,
                  view: dict[str, Any]) -> str | None:
    """A DOC or EXT put on the top beyond the one of each the rules move there."""
    before = Counter(_faces_in(at_roll, "top"))
    moved = Counter(_faces_in(now, "top")) - before
    rolled = view["table"]["rolled"] or []
    for face in ("DOC", "EXT"):
        if moved[face] > int(face in rolled):
            return face
    return None
