"""Scoring dice reads against labels: per image, then totals over a dataset.

The rule (the issue's): a labelled die is read when a prediction's centre lies inside its box
(edges included) with the right value; "not sure" counts as missed; a prediction that matches
no labelled die and lies in no ignore region is a false die.

One prediction matches at most one labelled die and one die at most one prediction. Boxes may
overlap (touching dice, or a pip box inside a die box), so the matching is not greedy; it is a
maximum matching in three rounds, each among what the rounds before left unmatched:

1. sure reads with the die's value: these dice are read right;
2. the other sure reads: these dice have a wrong value;
3. "not sure" reads: these dice are missed (the read is not a false die).

Each round credits as many dice as any assignment could; among equal assignments, reads with
a higher confidence choose first and a read prefers the box whose centre is nearest. Dice left
over are missed. Reads left over are false dice unless their centre is in an ignore region,
even when they lie in a labelled box that another read already matched: a second read of one
die is a die that is not there.

Totals are also given by die size (SIZE_BINS): a labelled die's size is the longer side of its
box, a false die's the side the reader gave it (a read of size 0, unknown, falls in no bin).

>>> from vision.dice import DieRead
>>> score = score_image([DieRead(5, 15, 15, 0.9), DieRead(2, 80, 80, 0.8)],
...                     [LabelledDie(5, (0, 0, 30, 30))])
>>> score.correct, score.false_dice, score.exact
(1, 1, False)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from vision.datasets import Box, LabelledDie, inside
from vision.dice import DieRead

VALUES = 6
MISSED_COLUMN = VALUES
"""Confusion rows are the labelled values 1..6; columns the read values 1..6, then missed."""
Z95 = 1.959963984540054
SIZE_BINS = (0.0, 20.0, 30.0, 50.0, 80.0, 120.0, 200.0, math.inf)
"""Edges of the die-size bins, in pixels: a size s falls in the bin [low, high) holding it."""


class ReadOutcome(Enum):
    """What one prediction turned out to be."""

    CORRECT = "correct"
    WRONG_VALUE = "wrong value"
    NOT_SURE = "not sure"
    FALSE = "false die"
    IGNORED = "in an ignore region"


class DieOutcome(Enum):
    """What happened to one labelled die."""

    READ = "read"
    WRONG_VALUE = "wrong value"
    MISSED = "missed"


@dataclass(frozen=True)
class ImageScore:
    """One image scored. ``reads[i]`` / ``dice[j]`` give the outcome of the i-th prediction and
    the j-th labelled die; ``match[i]`` is the index of the die prediction i matched, if any."""

    reads: tuple[ReadOutcome, ...]
    dice: tuple[DieOutcome, ...]
    match: tuple[int | None, ...]
    confusion: tuple[tuple[int, ...], ...]
    die_sizes: tuple[float, ...] = ()
    read_sizes: tuple[float, ...] = ()

    @property
    def correct(self) -> int:
        """Labelled dice read right."""
        return self.dice.count(DieOutcome.READ)

    @property
    def wrong_value(self) -> int:
        """Labelled dice read with another value."""
        return self.dice.count(DieOutcome.WRONG_VALUE)

    @property
    def missed(self) -> int:
        """Labelled dice not found or read as "not sure"."""
        return self.dice.count(DieOutcome.MISSED)

    @property
    def false_dice(self) -> int:
        """Predictions where there is no (other) die."""
        return self.reads.count(ReadOutcome.FALSE)

    @property
    def exact(self) -> bool:
        """Every die read right and no false die."""
        return self.correct == len(self.dice) and self.false_dice == 0


def score_image(reads: Sequence[DieRead], dice: Sequence[LabelledDie],
                ignore: Sequence[Box] = ()) -> ImageScore:
    """Score one image's predictions against its labelled dice (see the module doc)."""
    within = [[j for j in _nearest_first(r, dice) if inside(dice[j].box, r.x, r.y)] for r in reads]
    order = sorted(range(len(reads)), key=lambda i: -reads[i].confidence)
    match: dict[int, int] = {}
    rounds: list[Callable[[int, int], bool]] = [
        lambda i, j: reads[i].value == dice[j].value,
        lambda i, j: reads[i].value is not None,
        lambda i, j: reads[i].value is None,
    ]
    for allowed in rounds:
        taken = set(match.values())
        candidates = {i: [j for j in within[i] if j not in taken and allowed(i, j)]
                      for i in order if i not in match}
        match.update(_max_matching(candidates))
    read_outcomes = tuple(_read_outcome(reads[i], dice[match[i]] if i in match else None, ignore)
                          for i in range(len(reads)))
    die_outcome = [DieOutcome.MISSED] * len(dice)
    confusion = [[0] * (VALUES + 1) for _ in range(VALUES)]
    read_value: dict[int, int | None] = {j: reads[i].value for i, j in match.items()}
    for j, die in enumerate(dice):
        value = read_value.get(j)
        if value is not None and 1 <= value <= VALUES:
            die_outcome[j] = DieOutcome.READ if value == die.value else DieOutcome.WRONG_VALUE
            confusion[die.value - 1][value - 1] += 1
        else:
            confusion[die.value - 1][MISSED_COLUMN] += 1
    return ImageScore(read_outcomes, tuple(die_outcome),
                      tuple(match.get(i) for i in range(len(reads))),
                      tuple(tuple(row) for row in confusion),
                      tuple(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice),
                      tuple(r.size for r in reads))


def _nearest_first(read: DieRead, dice: Sequence[LabelledDie]) -> list[int]:
    def distance(j: int) -> float:
        x0, y0, x1, y1 = dice[j].box
        return math.hypot((x0 + x1) / 2 - read.x, (y0 + y1) / 2 - read.y)

    return sorted(range(len(dice)), key=distance)


def _max_matching(candidates: dict[int, list[int]]) -> dict[int, int]:
    """A maximum matching of reads to dice (Kuhn's augmenting paths), reads tried in order."""
    read_of: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in candidates[i]:
            if j not in seen:
                seen.add(j)
                if j not in read_of or augment(read_of[j], seen):
                    read_of[j] = i
                    return True
        return False

    for i in candidates:
        augment(i, set())
    return {i: j for j, i in read_of.items()}


def _read_outcome(read: DieRead, die: LabelledDie | None, ignore: Sequence[Box]) -> ReadOutcome:
    if die is not None:
        if read.value is None:
            return ReadOutcome.NOT_SURE
        return ReadOutcome.CORRECT if read.value == die.value else ReadOutcome.WRONG_VALUE
    if any(inside(box, read.x, read.y) for box in ignore):
        return ReadOutcome.IGNORED
    return ReadOutcome.FALSE


@dataclass(frozen=True)
class SizeBin:
    """Totals of the dice whose size lies in [low, high) pixels, and of the false dice the
    reader sized so."""

    low: float
    high: float
    dice: int
    correct: int
    wrong_value: int
    missed: int
    false_dice: int

    @property
    def accuracy(self) -> float | None:
        """Fraction of these dice read right (None without dice)."""
        return self.correct / self.dice if self.dice else None


def size_bins(scores: Iterable[ImageScore], edges: Sequence[float] = SIZE_BINS
              ) -> tuple[SizeBin, ...]:
    """Totals by die size, one SizeBin per pair of neighbouring edges.

    >>> from vision.dice import DieRead
    >>> score = score_image([DieRead(2, 5, 5, 0.9), DieRead(4, 90, 90, 0.9, size=60.0)],
    ...                     [LabelledDie(2, (0, 0, 25, 12)), LabelledDie(3, (40, 0, 80, 40))])
    >>> [(b.low, b.dice, b.correct, b.missed, b.false_dice) for b in size_bins([score])
    ...  if b.dice or b.false_dice]
    [(20.0, 1, 1, 0, 0), (30.0, 1, 0, 1, 0), (50.0, 0, 0, 0, 1)]
    """
    counts = np.zeros((len(edges) - 1, 5), np.int64)  # dice, right, wrong, missed, false
    column = {DieOutcome.READ: 1, DieOutcome.WRONG_VALUE: 2, DieOutcome.MISSED: 3}

    def row(size: float) -> int:
        return int(np.searchsorted(edges, size, side="right")) - 1

    for score in scores:
        for outcome, size in zip(score.dice, score.die_sizes, strict=True):
            counts[row(size), [0, column[outcome]]] += 1
        for read, read_size in zip(score.reads, score.read_sizes, strict=True):
            if read is ReadOutcome.FALSE and read_size > 0:
                counts[row(read_size), 4] += 1
    return tuple(SizeBin(edges[i], edges[i + 1], *(int(v) for v in counts[i]))
                 for i in range(len(edges) - 1))


@dataclass(frozen=True)
class Summary:
    """Totals over the scored images; ``latency_ms`` holds one read time per image."""

    dice_total: int
    dice_correct: int
    dice_wrong_value: int
    dice_missed: int
    false_dice: int
    images_total: int
    images_exact: int
    confusion: tuple[tuple[int, ...], ...]
    latency_ms: tuple[float, ...]
    by_size: tuple[SizeBin, ...] = ()

    @property
    def accuracy(self) -> float | None:
        """Fraction of labelled dice read right (None without dice)."""
        return self.dice_correct / self.dice_total if self.dice_total else None

    @property
    def accuracy_wilson95(self) -> tuple[float, float] | None:
        """95 % Wilson score interval of :attr:`accuracy`."""
        return wilson_interval(self.dice_correct, self.dice_total) if self.dice_total else None

    @property
    def false_dice_rate(self) -> float | None:
        """False dice per labelled die (the bar is ≤ 0.005)."""
        return self.false_dice / self.dice_total if self.dice_total else None

    @property
    def latency_median_ms(self) -> float | None:
        """Median read time per image."""
        return _percentile(self.latency_ms, 50)

    @property
    def latency_p95_ms(self) -> float | None:
        """95th percentile read time per image (linear interpolation)."""
        return _percentile(self.latency_ms, 95)


def summarise(scores: Iterable[ImageScore], latency_ms: Iterable[float] = ()) -> Summary:
    """Add up image scores."""
    scores = list(scores)
    confusion = np.zeros((VALUES, VALUES + 1), dtype=np.int64)
    for score in scores:
        confusion += np.array(score.confusion, dtype=np.int64)
    return Summary(
        dice_total=sum(len(s.dice) for s in scores),
        dice_correct=sum(s.correct for s in scores),
        dice_wrong_value=sum(s.wrong_value for s in scores),
        dice_missed=sum(s.missed for s in scores),
        false_dice=sum(s.false_dice for s in scores),
        images_total=len(scores),
        images_exact=sum(s.exact for s in scores),
        confusion=tuple(tuple(int(v) for v in row) for row in confusion),
        latency_ms=tuple(latency_ms),
        by_size=size_bins(scores),
    )


def wilson_interval(successes: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    >>> low, high = wilson_interval(307, 308)
    >>> round(low, 4), round(high, 4)
    (0.9818, 0.9994)
    >>> wilson_interval(0, 0)
    Traceback (most recent call last):
    ValueError: the Wilson interval needs at least one trial
    """
    if total <= 0:
        raise ValueError("the Wilson interval needs at least one trial")
    p = successes / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _percentile(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None
