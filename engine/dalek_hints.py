"""Exact Dalek Dice odds for the stop-or-roll decision, by enumerating every roll.

>>> from engine.game import Game
>>> game = Game.start({"game": "dalek", "players": ["Jenna", "Peter"]})
>>> for line in [{"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]},
...              {"keep": ["H4", "H4", "H4", "D3", "D3", "D3"]}]:
...     game = game.play_json(line)
>>> hints = game.hints()
>>> hints["stop_points"], hints["doctor_chance"]
(0, 0.0)
>>> round(hints["roll_expected"], 3)
6.949
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import factorial

from engine.dalek import TOP_LIMIT, DalekState, end_points, stop_points
from engine.rules import JSONDict

FACES = 6


def turn_hints(state: DalekState) -> JSONDict:
    """Hints for the player deciding between stopping and rolling; empty at other moments.

    ``doctor_chance``: the chance that the next roll ends the turn with 3 DOC.
    ``stop_points``: what stopping now banks. ``roll_expected``: the expected points of
    rolling once more, keeping the dice that maximise the score, then stopping.
    """
    if state.phase != "stop-or-roll":
        return {}
    turn = state.turn
    return {
        "doctor_chance": doctor_chance(turn.top_doctors, turn.pool),
        "stop_points": stop_points(turn.humans, turn.daleks),
        "roll_expected": roll_once_expected(turn.pool, turn.top_doctors, turn.top_exterminates,
                                            turn.humans, turn.daleks),
    }


def doctor_chance(top_doctors: int, pool: int) -> float:
    """Chance that rolling ``pool`` dice brings the Doctor to 3 on top.

    Only one DOC goes up per roll, so only a player with 2 on top is at risk.

    >>> round(doctor_chance(2, 1), 4), doctor_chance(1, 10)
    (0.1667, 0.0)
    """
    if top_doctors < 2 or pool == 0:
        return 0.0
    return 1 - (5 / 6) ** pool


def roll_once_expected(pool: int, top_doctors: int, top_exterminates: int, humans: int,
                       daleks: int) -> float:
    """Expected points of one more roll of ``pool`` dice, the best keep, then stopping."""
    total = 0
    for counts, weight in _outcomes(pool):
        total += weight * _best_points(counts, pool, top_doctors, top_exterminates, humans,
                                       daleks)
    rolls: int = FACES**pool
    return total / rolls


@lru_cache(maxsize=16)
def _outcomes(pool: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every roll of ``pool`` dice as face counts (H4, H2, D3, D2, DOC, EXT) and its weight.

    The weights are multinomial coefficients; they sum to 6**pool.
    """
    outcomes = []
    for counts in product(range(pool + 1), repeat=FACES - 1):
        rest = pool - sum(counts)
        if rest < 0:
            continue
        full = (*counts, rest)
        weight = factorial(pool)
        for c in full:
            weight //= factorial(c)
        outcomes.append((full, weight))
    return tuple(outcomes)


def _best_points(counts: tuple[int, ...], pool: int, top_doctors: int, top_exterminates: int,
                 humans: int, daleks: int) -> int:
    h4, h2, d3, d2, doc, ext = counts
    if top_doctors + (doc > 0) >= TOP_LIMIT:
        return 0
    exterminates = top_exterminates + (ext > 0)
    moved = (doc > 0) + (ext > 0)
    # Keeping every Dalek never hurts once the player stops: more Daleks, fewer dice left.
    all_daleks = daleks + 3 * d3 + 2 * d2
    best = 0
    for k4 in range(h4 + 1):
        for k2 in range(h2 + 1):
            kept = k4 + k2 + d3 + d2
            if kept == 0 and moved == 0:
                continue
            new_humans = humans + 4 * k4 + 2 * k2
            left = pool - kept - moved
            points = end_points(new_humans, all_daleks, exterminates, left)
            if points is None:
                points = stop_points(new_humans, all_daleks)
            best = max(best, points)
    return best
