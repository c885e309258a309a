"""The 12 Dicy Cards: what each needs, what it scores, its effect, and its best selection.

A selection is the multiset of dice a player picks from the six on the table.

>>> print(refusal(Card.TWO_PAIRS, (4, 4, 4, 4), (4, 4, 4, 4, 2, 1)))
two-pairs needs two different values; 4,4,4,4 is one
>>> points(Card.PAIR, (6, 6))
24
>>> best(Card.STRAIGHT, (6, 4, 4, 3, 2, 1))
Best(dice=(4, 3, 2, 1), points=10)
>>> best(Card.SIXES, (5, 5, 4, 4, 2, 1)) is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.errors import IllegalAction

Dice = tuple[int, ...]

SIX = 6
ALL_DICE = 6
FORTY = 40


class Card(StrEnum):
    """The 12 cards, by their RULES.md ids."""

    TWO_DICE = "two-dice"
    NO_SIX = "no-six"
    ODD = "odd"
    STRAIGHT = "straight"
    TWO_PAIRS = "two-pairs"
    SIXES = "sixes"
    PAIR = "pair"
    LOWEST_THREE = "lowest-three"
    DISTINCT_X4 = "distinct-x4"
    DISTINCT_SUM = "distinct-sum"
    FORTY_MINUS = "forty-minus"
    SAME_X5 = "same-x5"


class Choice(StrEnum):
    """What an effect asks an affected player to do with one card."""

    FREEZE = "freeze"
    REACTIVATE = "reactivate"


class Reach(StrEnum):
    """Who an effect hits: the two neighbours, or every other player."""

    NEIGHBOURS = "neighbours"
    OTHERS = "others"


@dataclass(frozen=True)
class Effect:
    """An immediate effect: who must choose, and what they do with one card of their choice."""

    reach: Reach
    choice: Choice


EFFECTS: Mapping[Card, Effect] = {
    Card.TWO_DICE: Effect(Reach.NEIGHBOURS, Choice.FREEZE),
    Card.SIXES: Effect(Reach.NEIGHBOURS, Choice.REACTIVATE),
    Card.LOWEST_THREE: Effect(Reach.OTHERS, Choice.FREEZE),
}
"""The three cards with an immediate effect."""


@dataclass(frozen=True)
class Best:
    """The best legal selection for a card, and what it scores."""

    dice: Dice
    points: int


def shown(dice: Sequence[int]) -> str:
    """Dice as a player writes them.

    >>> shown((6, 6, 5))
    '6,6,5'
    """
    return ",".join(str(d) for d in dice)


def refusal(card: Card, selected: Sequence[int], table: Sequence[int]) -> IllegalAction | None:
    """Why ``selected`` does not meet ``card`` (``table`` is all six dice), or None if it does.

    The caller checks that the selection lies on the table, and raises the refusal.

    >>> refusal(Card.NO_SIX, (6, 5, 4, 3, 2, 1), (6, 5, 4, 3, 2, 1))
    IllegalAction('no-six needs no 6 among the dice; 6,5,4,3,2,1 has one')
    >>> refusal(Card.LOWEST_THREE, (1, 2, 2), (2, 1, 5, 2, 6, 2)) is None
    True
    """
    return _CHECKS[card](tuple(selected), tuple(table))


def points(card: Card, selected: Sequence[int]) -> int:
    """What a selection that meets ``card`` scores.

    >>> points(Card.FORTY_MINUS, (2, 3, 6, 4, 1, 3)), points(Card.SAME_X5, (1, 1, 1))
    (21, 15)
    """
    if card is Card.PAIR:
        return 2 * sum(selected)
    if card is Card.DISTINCT_X4:
        return 4 * len(selected)
    if card is Card.SAME_X5:
        return 5 * len(selected)
    if card is Card.FORTY_MINUS:
        return FORTY - sum(selected)
    return sum(selected)


def best(card: Card, table: Sequence[int]) -> Best | None:
    """The highest-scoring legal selection for ``card`` from the six dice, or None if none is.

    Worked out from the value counts, without trying every selection.

    >>> best(Card.DISTINCT_SUM, (1, 2, 3, 4, 5, 6))
    Best(dice=(6, 5, 4, 3, 2), points=20)
    """
    dice = _BEST[card](tuple(sorted(table, reverse=True)))
    return None if dice is None else Best(dice, points(card, dice))


def _size(card: Card, selected: Dice, low: int, high: int) -> IllegalAction | None:
    count = len(selected)
    if low <= count <= high:
        return None
    if low == high == ALL_DICE:
        return IllegalAction("{card} needs all 6 dice, not {count}", card=card,
                             count=count)
    if low == high:
        return IllegalAction("{card} needs exactly {low} dice, not {count}", card=card,
                             low=low, count=count)
    if count < low == 1:
        return IllegalAction("{card} needs at least 1 die", card=card)
    if count < low:
        return IllegalAction("{card} needs at least {low} dice", card=card, low=low)
    return IllegalAction("{card} takes at most {high} dice, not {count}", card=card,
                         high=high, count=count)


def _twice(card: Card, selected: Dice) -> IllegalAction | None:
    repeated = sorted((v for v, n in Counter(selected).items() if n > 1), reverse=True)
    if not repeated:
        return None
    return IllegalAction("{card} needs all values different; {dice} repeats {repeated}",
                         card=card, dice=shown(selected), repeated=shown(repeated))


def _check_two_dice(selected: Dice, table: Dice) -> IllegalAction | None:
    return _size(Card.TWO_DICE, selected, 2, 2)


def _check_no_six(selected: Dice, table: Dice) -> IllegalAction | None:
    problem = _size(Card.NO_SIX, selected, ALL_DICE, ALL_DICE)
    if problem:
        return problem
    sixes = selected.count(SIX)
    if sixes == 1:
        return IllegalAction("{card} needs no 6 among the dice; {dice} has one",
                             card=Card.NO_SIX, dice=shown(selected))
    if sixes:
        return IllegalAction("{card} needs no 6 among the dice; {dice} has {count}",
                             card=Card.NO_SIX, dice=shown(selected), count=sixes)
    return None


def _check_odd(selected: Dice, table: Dice) -> IllegalAction | None:
    even = [d for d in selected if d % 2 == 0]
    if even:
        return IllegalAction("{card} takes odd dice only (1, 3, 5), not {dice}", card=Card.ODD,
                             dice=shown(even))
    return _size(Card.ODD, selected, 1, ALL_DICE)


def _check_straight(selected: Dice, table: Dice) -> IllegalAction | None:
    problem = _size(Card.STRAIGHT, selected, 2, ALL_DICE) or _twice(Card.STRAIGHT, selected)
    if problem:
        return problem
    low, high = min(selected), max(selected)
    if high - low + 1 != len(selected):
        gaps = [v for v in range(low, high) if v not in selected]
        return IllegalAction("{card} needs a run without gaps; {dice} misses {gaps}",
                             card=Card.STRAIGHT, dice=shown(sorted(selected)), gaps=shown(gaps))
    return None


def _check_two_pairs(selected: Dice, table: Dice) -> IllegalAction | None:
    problem = _size(Card.TWO_PAIRS, selected, 4, 4)
    if problem:
        return problem
    counts = sorted(Counter(selected).values())
    if counts == [4]:
        return IllegalAction("{card} needs two different values; {dice} is one",
                             card=Card.TWO_PAIRS, dice=shown(selected))
    if counts != [2, 2]:
        return IllegalAction("{card} needs two dice of one value and two of another; "
                             "{dice} is not", card=Card.TWO_PAIRS, dice=shown(selected))
    return None


def _check_sixes(selected: Dice, table: Dice) -> IllegalAction | None:
    others = [d for d in selected if d != SIX]
    if others:
        return IllegalAction("{card} takes 6s only, not {dice}", card=Card.SIXES,
                             dice=shown(others))
    return _size(Card.SIXES, selected, 1, ALL_DICE)


def _check_pair(selected: Dice, table: Dice) -> IllegalAction | None:
    problem = _size(Card.PAIR, selected, 2, 2)
    if problem:
        return problem
    if selected[0] != selected[1]:
        return IllegalAction("{card} needs two dice of the same value; {dice} differ",
                             card=Card.PAIR, dice=shown(selected))
    return None


def _check_lowest_three(selected: Dice, table: Dice) -> IllegalAction | None:
    problem = _size(Card.LOWEST_THREE, selected, 3, 3)
    if problem:
        return problem
    lowest = sorted(table)[:3]
    if sorted(selected) != lowest:
        return IllegalAction("{card} needs the three lowest of the six dice, {lowest}; "
                             "not {dice}", card=Card.LOWEST_THREE, lowest=shown(lowest),
                             dice=shown(sorted(selected)))
    return None


def _check_distinct_x4(selected: Dice, table: Dice) -> IllegalAction | None:
    return _size(Card.DISTINCT_X4, selected, 1, ALL_DICE) or _twice(Card.DISTINCT_X4, selected)


def _check_distinct_sum(selected: Dice, table: Dice) -> IllegalAction | None:
    return _size(Card.DISTINCT_SUM, selected, 1, 5) or _twice(Card.DISTINCT_SUM, selected)


def _check_forty_minus(selected: Dice, table: Dice) -> IllegalAction | None:
    return _size(Card.FORTY_MINUS, selected, ALL_DICE, ALL_DICE)


def _check_same_x5(selected: Dice, table: Dice) -> IllegalAction | None:
    problem = _size(Card.SAME_X5, selected, 1, ALL_DICE)
    if problem:
        return problem
    if len(set(selected)) > 1:
        return IllegalAction("{card} needs every die the same value; {dice} are not",
                             card=Card.SAME_X5, dice=shown(selected))
    return None


_CHECKS: Mapping[Card, Callable[[Dice, Dice], IllegalAction | None]] = {
    Card.TWO_DICE: _check_two_dice,
    Card.NO_SIX: _check_no_six,
    Card.ODD: _check_odd,
    Card.STRAIGHT: _check_straight,
    Card.TWO_PAIRS: _check_two_pairs,
    Card.SIXES: _check_sixes,
    Card.PAIR: _check_pair,
    Card.LOWEST_THREE: _check_lowest_three,
    Card.DISTINCT_X4: _check_distinct_x4,
    Card.DISTINCT_SUM: _check_distinct_sum,
    Card.FORTY_MINUS: _check_forty_minus,
    Card.SAME_X5: _check_same_x5,
}

# Each best-selection function gets the six dice sorted from high to low.


def _best_two_dice(dice: Dice) -> Dice | None:
    return dice[:2]


def _best_no_six(dice: Dice) -> Dice | None:
    return None if SIX in dice else dice


def _best_odd(dice: Dice) -> Dice | None:
    odd = tuple(d for d in dice if d % 2)
    return odd or None


def _best_straight(dice: Dice) -> Dice | None:
    # Every value adds points, so the best run is a whole maximal run of present values.
    values = sorted(set(dice))
    runs: list[list[int]] = []
    for value in values:
        if runs and runs[-1][-1] == value - 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    long_runs = [run for run in runs if len(run) >= 2]
    if not long_runs:
        return None
    return tuple(sorted(max(long_runs, key=sum), reverse=True))


def _best_two_pairs(dice: Dice) -> Dice | None:
    counts = Counter(dice)
    paired = sorted((v for v, n in counts.items() if n >= 2), reverse=True)
    if len(paired) < 2:
        return None
    high, low = paired[:2]
    return (high, high, low, low)


def _best_sixes(dice: Dice) -> Dice | None:
    sixes = tuple(d for d in dice if d == SIX)
    return sixes or None


def _best_pair(dice: Dice) -> Dice | None:
    counts = Counter(dice)
    paired = [v for v, n in counts.items() if n >= 2]
    if not paired:
        return None
    value = max(paired)
    return (value, value)


def _best_lowest_three(dice: Dice) -> Dice | None:
    return dice[3:]


def _best_distinct_x4(dice: Dice) -> Dice | None:
    return tuple(sorted(set(dice), reverse=True))


def _best_distinct_sum(dice: Dice) -> Dice | None:
    return tuple(sorted(set(dice), reverse=True))[:5]


def _best_forty_minus(dice: Dice) -> Dice | None:
    return dice


def _best_same_x5(dice: Dice) -> Dice | None:
    value, count = max(Counter(dice).items(), key=lambda item: (item[1], item[0]))
    return (value,) * count


_BEST: Mapping[Card, Callable[[Dice], Dice | None]] = {
    Card.TWO_DICE: _best_two_dice,
    Card.NO_SIX: _best_no_six,
    Card.ODD: _best_odd,
    Card.STRAIGHT: _best_straight,
    Card.TWO_PAIRS: _best_two_pairs,
    Card.SIXES: _best_sixes,
    Card.PAIR: _best_pair,
    Card.LOWEST_THREE: _best_lowest_three,
    Card.DISTINCT_X4: _best_distinct_x4,
    Card.DISTINCT_SUM: _best_distinct_sum,
    Card.FORTY_MINUS: _best_forty_minus,
    Card.SAME_X5: _best_same_x5,
}
