"""What the camera saw on one settled frame, as the live loop hands it on.

An :class:`Observation` holds every read of one frame and the frame's size: the ordinary dice
(in frame pixels), and on a calibrated table what the game's sheet shows
(:mod:`vision.table_reads`: Dalek dice in their areas, Dicy Cards rows, the 17 row), with
marks for the phones' picture, or why the sheet could not be read (it moved, it is not in
view). Two reads of a still scene are compared by :meth:`Observation.key`; where two reads of
the same scene disagree on a die or card, that one is "not sure" (:func:`doubt_disagreements`):
the camera never guesses.

>>> a = Observation((DieRead(5, 10, 10, 0.9, 20), DieRead(2, 60, 10, 0.9, 20)), 100, 50)
>>> b = Observation((DieRead(5, 11, 10, 0.9, 20), DieRead(3, 60, 11, 0.8, 20)), 100, 50)
>>> a.key(), a.key() == b.key()
((2, 5), False)
>>> [d.value for d in doubt_disagreements(a, b).dice]
[5, None]
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

import numpy as np
from numpy.typing import NDArray

from vision.dice import DieRead

if TYPE_CHECKING:
    from vision.calibrate import Calibration
    from vision.sheet_seen import TableSeen

NOT_SURE = 0  # how a "not sure" die counts in a key


@dataclass(frozen=True)
class Mark:
    """Something read, for the phones' picture: where (frame pixels), how large, what (None:
    not sure)."""

    x: float
    y: float
    size: float
    text: str | None


@dataclass(frozen=True)
class Observation:
    """The reads of one frame: the dice (values None where not sure), and the frame's size;
    on a calibrated table, the sheet's reads (table), their marks, and a problem with the
    sheet ("moved": the camera was bumped or the sheet taken away, nothing read; with
    ``sheet`` "no-sheet", a Dicy sheet taken away, no sheet's marker in view, its dice read
    anywhere in the frame; "dark", "bright": it cannot see the sheet for the light; "sheet":
    it cannot be found, and ``sheet`` says why: a
    :class:`vision.calibrate.CalibrationError`'s reason, such as "far"); ``lies``: where the
    sheet read lay in the frame (its calibration, shifted to where its markers were)."""

    dice: tuple[DieRead, ...]
    width: int
    height: int
    table: TableSeen | None = None
    marks: tuple[Mark, ...] = ()
    problem: str | None = None
    sheet: str | None = None
    lies: Calibration | None = field(default=None, compare=False, repr=False)

    def key(self) -> Hashable:
        """What two reads of a still scene must share to agree: the dice values, sorted, and
        what the sheet showed."""
        dice = tuple(sorted(NOT_SURE if d.value is None else d.value for d in self.dice))
        if self.table is None and self.problem is None:
            return dice
        return (dice, None if self.table is None else self.table.key(), self.problem)

    @property
    def sheet_taken_away(self) -> bool:
        """Whether a Dicy sheet was taken away (no sheet's marker in view): its dice are read
        anywhere in the frame, its cards not until it is back.

        >>> Observation((), 640, 480, problem="moved", sheet="no-sheet").sheet_taken_away
        True
        >>> Observation((), 640, 480, problem="moved").sheet_taken_away  # a bumped camera
        False
        """
        return self.problem == "moved" and self.sheet == "no-sheet"

    def values(self) -> list[int] | None:
        """The dice values when every die is sure, else None."""
        if any(d.value is None for d in self.dice):
            return None
        return [int(d.value) for d in self.dice if d.value is not None]


class Observer(Protocol):
    """Anything that reads a BGR frame into an Observation (the dice reader, later the
    readers of Dalek faces and cards)."""

    def observe(self, image: NDArray[np.uint8]) -> Observation:
        """The reads of ``image``."""


class DiceObserver:
    """Reads the dice of a frame with a :class:`vision.reader.DiceReader`."""

    def __init__(self, reader: _Reads) -> None:
        self._reader = reader

    def observe(self, image: NDArray[np.uint8]) -> Observation:
        """Every die of ``image``; UnreadableImage when it is no picture."""
        dice = tuple(self._reader.read(image))
        return Observation(dice, int(image.shape[1]), int(image.shape[0]))


class _Reads(Protocol):
    def read(self, image_bgr: NDArray[np.uint8]) -> list[DieRead]: ...


def nearest(die: DieRead, others: tuple[DieRead, ...]) -> tuple[int, float] | None:
    """The index of the die of ``others`` nearest to ``die`` and its distance in die sides
    (pixels where sizes are unknown); None when ``others`` is empty."""
    if not others:
        return None
    side = die.size or 1.0
    distances = [((o.x - die.x) ** 2 + (o.y - die.y) ** 2) ** 0.5 / side for o in others]
    best = min(range(len(others)), key=distances.__getitem__)
    return best, distances[best]


def doubt_disagreements(before: Observation, after: Observation) -> Observation:
    """``after`` with "not sure" for each die whose value ``before`` read otherwise (or did
    not see) at the same place, and each die or card of the sheet likewise."""
    dice = []
    for die in after.dice:
        match = nearest(die, before.dice)
        same = match is not None and match[1] < 0.5 and before.dice[match[0]].value == die.value
        dice.append(die if same else replace(die, value=None))
    table = after.table
    if table is not None and before.table is not None and type(before.table) is type(table):
        table = table.doubted(before.table)  # type: ignore[arg-type]
    return replace(after, dice=tuple(dice), table=table)
