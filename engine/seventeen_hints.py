"""Exact 17 odds: the chance that the row's true total reaches 17, from what the table sees.

A hidden card is a plain-back card (a front-only number or a special) that nobody at the table
has seen this round, so the hidden cards are a draw without replacement from the deck's plain
backs less those seen in the row (a trashed card may be back in the draw pile, as the cards of
the rounds before may be; the engine's deck checks count the row alone too). The odds count
every such draw exactly (a dynamic programme over the counts of each card id), never by
sampling.

>>> from engine.game import Game
>>> game = Game.start({"game": "17", "players": ["Ana", "Ben", "Cleo"]})
>>> for line in [{"play": {"card": "5d", "face": "down"}}, {"play": {"card": "5", "face": "up"}},
...              {"play": {"face": "down"}}]:
...     game = game.play_json(line)
>>> hints = game.hints()
>>> hints["known_sum"], hints["hidden"], round(hints["chance_17"], 4)
(10, 1, 0.0)
>>> round(hints["trap_chance"], 4)
0.1471
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from math import comb

from engine.rules import JSONDict
from engine.seventeen import SEVENTEEN, SeventeenState, left_in_deck, seen_in_row, shown
from engine.seventeen_cards import PLAIN_BACKS, Card


def row_hints(state: SeventeenState) -> JSONDict:
    """Hints about the row; empty once the game is over.

    ``known_sum``: the total of the cards the table sees. ``hidden``: how many cards in the
    row it does not see. ``chance_17``: the chance that the true total is 17 or more.
    ``trap_chance``: the chance that at least one hidden card is a trap.
    """
    if state.over:
        return {}
    left, _ = left_in_deck(state, seen_in_row(state))
    known_sum = hidden = 0
    for placed in state.row:
        card = shown(state, placed)
        if card is None:
            hidden += 1
        else:
            known_sum += card.points
    pool = [(c.points, left[c]) for c in PLAIN_BACKS]
    traps = left[Card.TRAP]
    return {
        "known_sum": known_sum,
        "hidden": hidden,
        "chance_17": float(reach_chance(SEVENTEEN - known_sum, hidden, pool)),
        "trap_chance": float(any_chance(traps, hidden, sum(n for _, n in pool))),
    }


def reach_chance(need: int, hidden: int, pool: Sequence[tuple[int, int]]) -> Fraction:
    """The chance that ``hidden`` cards drawn without replacement from ``pool`` (a list of
    (points, count) groups) add up to ``need`` or more.

    >>> reach_chance(5, 2, [(5, 1), (0, 3)])
    Fraction(1, 2)
    >>> reach_chance(0, 0, []), reach_chance(1, 0, [(3, 2)])
    (Fraction(1, 1), Fraction(0, 1))
    """
    goal = max(need, 0)
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for points, count in pool:
        grown: Counter[tuple[int, int]] = Counter()
        for (taken, total), weight in ways.items():
            for more in range(min(count, hidden - taken) + 1):
                reached = min(goal, total + more * points)
                grown[taken + more, reached] += weight * comb(count, more)
        ways = dict(grown)
    favourable = ways.get((hidden, goal), 0)
    return Fraction(favourable, comb(sum(n for _, n in pool), hidden))


def any_chance(marked: int, hidden: int, pool: int) -> Fraction:
    """The chance that ``hidden`` cards drawn from ``pool`` include one of ``marked`` cards.

    >>> any_chance(1, 1, 4), any_chance(0, 3, 9)
    (Fraction(1, 4), Fraction(0, 1))
    """
    return 1 - Fraction(comb(pool - marked, hidden), comb(pool, hidden))
