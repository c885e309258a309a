"""What the camera saw of a game's sheet, as plain data (no reader needed to use it).

- Dalek Dice: every die, its face and the zone it lies in (top, kept humans, kept Daleks, to
  roll; None off the zones).
- Dicy Cards: every card place (empty, or which card and which side) and the dice's values.
- 17: the row in order, each card's face and side, up to the first empty place.

Positions are sheet millimetres; a face None is "not sure" (never a guess). An observation's
key() leaves out positions and confidences, so the live loop can ask whether two settled
frames saw the same table; doubted() marks "not sure" what two reads of a still table saw
differently.

>>> a = DalekObservation((DieSeen("H4", "to-roll", 10, 10, 0.9),))
>>> b = DalekObservation((DieSeen("H2", "to-roll", 11, 10, 0.9),))
>>> a.key() == b.key(), a.doubted(b).dice[0].face
(False, None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from vision.components import EMPTY

SAME_PLACE_MM = 8.0  # two reads of one die lie closer than this


@dataclass(frozen=True)
class DieSeen:
    """A die on the sheet: its face (Dalek id, or a d6 value as text; None = not sure), the
    zone it lies in (None = off every zone), its centre (mm) and a confidence 0..1."""

    face: str | None
    zone: str | None
    x: float
    y: float
    confidence: float


@dataclass(frozen=True)
class PlaceSeen:
    """A card place: the card's id and side (both None when empty; card None when not sure;
    a plain back shows no id), the face seen, and a confidence 0..1."""

    place: str
    card: str | None
    side: str | None
    face: str | None
    confidence: float

    @property
    def empty(self) -> bool:
        return self.face == EMPTY

    @property
    def sure(self) -> bool:
        return self.face is not None


@dataclass(frozen=True)
class DalekObservation:
    dice: tuple[DieSeen, ...]

    def zone(self, name: str) -> tuple[str | None, ...]:
        """The faces in one zone, sorted (not sure as None, last)."""
        return _faces([d for d in self.dice if d.zone == name])

    def key(self) -> tuple[tuple[str | None, tuple[str | None, ...]], ...]:
        """Each zone's faces: equal for two frames that saw the same dice in the same zones."""
        zones = sorted({d.zone for d in self.dice}, key=lambda z: (z is None, z or ""))
        return tuple((z, self.zone(z) if z is not None else _faces(
            [d for d in self.dice if d.zone is None])) for z in zones)

    @property
    def sure(self) -> bool:
        return all(d.face is not None for d in self.dice)

    def doubted(self, before: DalekObservation) -> DalekObservation:
        """This read with "not sure" for each die another read of the still table saw
        otherwise."""
        return DalekObservation(_doubt_dice(self.dice, before.dice))


@dataclass(frozen=True)
class DicyObservation:
    places: tuple[PlaceSeen, ...]
    dice: tuple[DieSeen, ...]

    def row(self, player: int) -> tuple[PlaceSeen, ...]:
        """One player's places (1..4), left to right as the sheet lies."""
        return tuple(p for p in self.places if p.place.startswith(f"p{player}-"))

    def key(self) -> tuple[tuple[tuple[str, str | None], ...], tuple[str | None, ...]]:
        return (tuple((p.place, p.face) for p in self.places), _faces(list(self.dice)))

    @property
    def sure(self) -> bool:
        return all(p.sure for p in self.places) and all(d.face is not None for d in self.dice)

    def doubted(self, before: DicyObservation) -> DicyObservation:
        """This read with "not sure" for each place and die another read saw otherwise."""
        return DicyObservation(_doubt_places(self.places, before.places),
                               _doubt_dice(self.dice, before.dice))


@dataclass(frozen=True)
class SeventeenObservation:
    row: tuple[PlaceSeen, ...]
    stray: tuple[PlaceSeen, ...]  # cards in places after the row's first gap

    def key(self) -> tuple[tuple[str | None, ...], int]:
        return (tuple(p.face for p in self.row), len(self.stray))

    @property
    def sure(self) -> bool:
        return all(p.sure for p in self.row) and not self.stray

    def doubted(self, before: SeventeenObservation) -> SeventeenObservation:
        """This read with "not sure" for each card of the row another read saw otherwise."""
        return SeventeenObservation(_doubt_places(self.row, before.row + before.stray),
                                    self.stray)


TableSeen = DalekObservation | DicyObservation | SeventeenObservation
"""What the camera saw of a game's sheet."""


def _doubt_dice(after: tuple[DieSeen, ...], before: tuple[DieSeen, ...]
                ) -> tuple[DieSeen, ...]:
    """after with face None for each die that before saw with another face, or not at all,
    within SAME_PLACE_MM."""
    out = []
    for die in after:
        same = any(b.face == die.face and (b.x - die.x) ** 2 + (b.y - die.y) ** 2
                   < SAME_PLACE_MM ** 2 for b in before)
        out.append(die if same else replace(die, face=None, confidence=0.0))
    return tuple(out)


def _doubt_places(after: tuple[PlaceSeen, ...], before: tuple[PlaceSeen, ...]
                  ) -> tuple[PlaceSeen, ...]:
    """after with "not sure" for each card place that before saw otherwise."""
    seen = {p.place: p.face for p in before}
    return tuple(p if seen.get(p.place, EMPTY) == p.face
                 else replace(p, card=None, side=None, face=None, confidence=0.0)
                 for p in after)


def _faces(dice: list[DieSeen]) -> tuple[str | None, ...]:
    return tuple(sorted((d.face for d in dice), key=lambda f: (f is None, f or "")))
