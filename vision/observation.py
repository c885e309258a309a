"""What the camera saw on one settled frame, as the live loop hands it on.

An :class:`Observation` holds every read of one frame (today: the dice) and the frame's size.
Two reads of a still scene are compared by :meth:`Observation.key`; where two reads of the
same scene disagree on a die, that die is "not sure" (:func:`doubt_disagreements`): the
camera never guesses.

>>> a = Observation((DieRead(5, 10, 10, 0.9, 20), DieRead(2, 60, 10, 0.9, 20)), 100, 50)
>>> b = Observation((DieRead(5, 11, 10, 0.9, 20), DieRead(3, 60, 11, 0.8, 20)), 100, 50)
>>> a.key(), a.key() == b.key()
((2, 5), False)
>>> [d.value for d in doubt_disagreements(a, b).dice]
[5, None]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.dice import DieRead

NOT_SURE = 0  # how a "not sure" die counts in a key


@dataclass(frozen=True)
class Observation:
    """The reads of one frame: the dice (values None where not sure), and the frame's size."""

    dice: tuple[DieRead, ...]
    width: int
    height: int

    def key(self) -> tuple[int, ...]:
        """What two reads of a still scene must share to agree: the dice values, sorted."""
        return tuple(sorted(NOT_SURE if d.value is None else d.value for d in self.dice))

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
    not see) at the same place."""
    dice = []
    for die in after.dice:
        match = nearest(die, before.dice)
        same = match is not None and match[1] < 0.5 and before.dice[match[0]].value == die.value
        dice.append(die if same else replace(die, value=None))
    return replace(after, dice=tuple(dice))
