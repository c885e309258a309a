"""The 12 Dicy Cards: conditions, scores, refusal reasons and the fast best selection."""

from collections import Counter
from itertools import combinations_with_replacement, product

import pytest

from engine.dicy_cards import EFFECTS, Card, Choice, Reach, best, points, refusal

ALL_TABLES = list(combinations_with_replacement(range(1, 7), 6))


def sub_multisets(table: tuple[int, ...]) -> list[tuple[int, ...]]:
    counts = Counter(table)
    values = sorted(counts)
    return [tuple(v for v, k in zip(values, ks, strict=True) for _ in range(k))
            for ks in product(*(range(counts[v] + 1) for v in values))]


def test_there_are_462_tables_of_six_dice() -> None:
    assert len(ALL_TABLES) == 462


@pytest.mark.parametrize("card", list(Card))
def test_best_matches_brute_force_on_every_table(card: Card) -> None:
    for table in ALL_TABLES:
        legal = [points(card, s) for s in sub_multisets(table) if refusal(card, s, table) is None]
        found = best(card, table)
        if not legal:
            assert found is None, (card, table)
            continue
        assert found is not None, (card, table)
        assert found.points == max(legal), (card, table)
        assert not Counter(found.dice) - Counter(table), (card, table)
        assert refusal(card, found.dice, table) is None, (card, table)
        assert points(card, found.dice) == found.points


@pytest.mark.parametrize(("card", "dice", "score"), [
    # the rulebook's examples
    (Card.TWO_DICE, (4, 5), 9),
    (Card.NO_SIX, (2, 3, 5, 5, 1, 4), 20),
    (Card.ODD, (1, 1, 5, 5, 3), 15),
    (Card.STRAIGHT, (2, 3, 4), 9),
    (Card.TWO_PAIRS, (6, 6, 3, 3), 18),
    (Card.SIXES, (6, 6, 6), 18),
    (Card.PAIR, (4, 4), 16),
    (Card.DISTINCT_X4, (1, 5, 2, 6), 16),
    (Card.DISTINCT_SUM, (5, 2, 4), 11),
    (Card.FORTY_MINUS, (2, 3, 6, 4, 1, 3), 21),
    (Card.SAME_X5, (1, 1, 1), 15),
    (Card.LOWEST_THREE, (1, 3, 3), 7),
])
def test_rulebook_examples_score_as_printed(card: Card, dice: tuple[int, ...], score: int) -> None:
    table = (*dice, *(6,) * (6 - len(dice)))
    assert refusal(card, dice, table) is None
    assert points(card, dice) == score


@pytest.mark.parametrize(("card", "selected", "table", "reason"), [
    (Card.TWO_DICE, (6, 6, 5), (6, 6, 5, 2, 1, 1), "two-dice needs exactly 2 dice, not 3"),
    (Card.NO_SIX, (5, 4), (5, 4, 3, 2, 1, 1), "no-six needs all 6 dice, not 2"),
    (Card.NO_SIX, (6, 5, 4, 3, 2, 1), (6, 5, 4, 3, 2, 1),
     "no-six needs no 6 among the dice; 6,5,4,3,2,1 has one"),
    (Card.NO_SIX, (6, 6, 4, 3, 2, 1), (6, 6, 4, 3, 2, 1),
     "no-six needs no 6 among the dice; 6,6,4,3,2,1 has 2"),
    (Card.ODD, (), (6, 6, 4, 3, 2, 1), "odd needs at least 1 die"),
    (Card.ODD, (3, 4, 2), (6, 6, 4, 3, 2, 1), "odd takes odd dice only (1, 3, 5), not 4,2"),
    (Card.STRAIGHT, (4,), (6, 6, 4, 3, 2, 1), "straight needs at least 2 dice"),
    (Card.STRAIGHT, (4, 4, 3), (6, 4, 4, 3, 2, 1),
     "straight needs all values different; 4,4,3 repeats 4"),
    (Card.STRAIGHT, (2, 5, 3), (6, 5, 4, 3, 2, 1),
     "straight needs a run without gaps; 2,3,5 misses 4"),
    (Card.STRAIGHT, (6, 1), (6, 5, 4, 3, 2, 1),
     "straight needs a run without gaps; 1,6 misses 2,3,4,5"),
    (Card.TWO_PAIRS, (4, 4), (4, 4, 4, 4, 2, 1), "two-pairs needs exactly 4 dice, not 2"),
    (Card.TWO_PAIRS, (4, 4, 4, 4), (4, 4, 4, 4, 2, 1),
     "two-pairs needs two different values; 4,4,4,4 is one"),
    (Card.TWO_PAIRS, (4, 4, 4, 2), (4, 4, 4, 4, 2, 1),
     "two-pairs needs two dice of one value and two of another; 4,4,4,2 is not"),
    (Card.SIXES, (), (6, 4, 4, 3, 2, 1), "sixes needs at least 1 die"),
    (Card.SIXES, (6, 5), (6, 5, 4, 3, 2, 1), "sixes takes 6s only, not 5"),
    (Card.PAIR, (6, 6, 6), (6, 6, 6, 3, 2, 1), "pair needs exactly 2 dice, not 3"),
    (Card.PAIR, (6, 5), (6, 5, 4, 3, 2, 1), "pair needs two dice of the same value; 6,5 differ"),
    (Card.LOWEST_THREE, (1, 2), (6, 5, 4, 3, 2, 1), "lowest-three needs exactly 3 dice, not 2"),
    (Card.LOWEST_THREE, (1, 2, 4), (6, 5, 4, 3, 2, 1),
     "lowest-three needs the three lowest of the six dice, 1,2,3; not 1,2,4"),
    (Card.LOWEST_THREE, (1, 2, 2), (2, 5, 2, 1, 1, 6),
     "lowest-three needs the three lowest of the six dice, 1,1,2; not 1,2,2"),
    (Card.DISTINCT_X4, (), (6, 5, 4, 3, 2, 1), "distinct-x4 needs at least 1 die"),
    (Card.DISTINCT_X4, (5, 5, 4, 4, 3), (5, 5, 4, 4, 3, 1),
     "distinct-x4 needs all values different; 5,5,4,4,3 repeats 5,4"),
    (Card.DISTINCT_SUM, (6, 5, 4, 3, 2, 1), (6, 5, 4, 3, 2, 1),
     "distinct-sum takes at most 5 dice, not 6"),
    (Card.DISTINCT_SUM, (3, 3), (3, 3, 4, 3, 2, 1),
     "distinct-sum needs all values different; 3,3 repeats 3"),
    (Card.FORTY_MINUS, (6, 5, 4, 3, 2), (6, 5, 4, 3, 2, 1),
     "forty-minus needs all 6 dice, not 5"),
    (Card.SAME_X5, (), (6, 5, 4, 3, 2, 1), "same-x5 needs at least 1 die"),
    (Card.SAME_X5, (5, 5, 4), (5, 5, 4, 3, 2, 1),
     "same-x5 needs every die the same value; 5,5,4 are not"),
])
def test_refusals_say_what_is_wrong(card: Card, selected: tuple[int, ...],
                                    table: tuple[int, ...], reason: str) -> None:
    assert str(refusal(card, selected, table)) == reason


@pytest.mark.parametrize(("card", "selected"), [
    (Card.STRAIGHT, (1, 2, 3, 4, 5, 6)),
    (Card.STRAIGHT, (5, 6)),
    (Card.ODD, (1, 3, 5, 5, 3, 1)),
    (Card.SIXES, (6, 6, 6, 6, 6, 6)),
    (Card.SAME_X5, (2,)),
    (Card.DISTINCT_X4, (1, 2, 3, 4, 5, 6)),
    (Card.DISTINCT_SUM, (6,)),
])
def test_limits_that_are_allowed(card: Card, selected: tuple[int, ...]) -> None:
    table = (*selected, *(1,) * (6 - len(selected)))
    assert refusal(card, selected, table) is None


def test_best_picks_the_highest_run_and_the_highest_pairs() -> None:
    found = best(Card.STRAIGHT, (1, 2, 4, 5, 6, 6))
    assert found is not None and found.dice == (6, 5, 4) and found.points == 15
    found = best(Card.TWO_PAIRS, (6, 6, 6, 6, 5, 5))
    assert found is not None and found.dice == (6, 6, 5, 5)
    assert best(Card.TWO_PAIRS, (4, 4, 4, 4, 2, 1)) is None
    assert best(Card.STRAIGHT, (1, 1, 3, 3, 5, 5)) is None
    assert best(Card.NO_SIX, (6, 1, 1, 1, 1, 1)) is None
    assert best(Card.ODD, (2, 2, 4, 4, 6, 6)) is None


def test_the_three_effects() -> None:
    assert EFFECTS[Card.TWO_DICE].reach is Reach.NEIGHBOURS
    assert EFFECTS[Card.TWO_DICE].choice is Choice.FREEZE
    assert EFFECTS[Card.SIXES].reach is Reach.NEIGHBOURS
    assert EFFECTS[Card.SIXES].choice is Choice.REACTIVATE
    assert EFFECTS[Card.LOWEST_THREE].reach is Reach.OTHERS
    assert EFFECTS[Card.LOWEST_THREE].choice is Choice.FREEZE
    assert set(EFFECTS) == {Card.TWO_DICE, Card.SIXES, Card.LOWEST_THREE}
