"""Engine benchmarks: random full games per second per game, and hint times.

They live outside ``engine/`` because they read the clock, which the rules never do.

Run through ``dicetable bench --suite engine``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator, Mapping
from itertools import combinations_with_replacement
from random import Random
from typing import Any

from engine.game import Game
from engine.rules import game_names, rules_for
from engine.selfplay import HEADERS, random_game

GAMES_PER_RUN = 40
HINT_SAMPLES = 2000


def suite(threads: int) -> Iterator[tuple[str, float, str]]:
    """Random full games per second for each game; median hint time per game."""
    del threads  # the engine is single-threaded pure Python
    rng = Random(17)
    for name in game_names():
        header = HEADERS[name]
        start = time.perf_counter()
        games = [random_game(header, rng) for _ in range(GAMES_PER_RUN)]
        elapsed = time.perf_counter() - start
        actions = statistics.median(len(g.actions) for g in games)
        yield f"{name}: random full games per second", GAMES_PER_RUN / elapsed, "games/s"
        yield f"{name}: actions per game (median)", actions, "actions"
        yield f"{name}: median hint time", _median_hint_ms(header, rng), "ms"
    yield "dicy: median hint time, 5 active cards, all 462 rolls", _dicy_five_card_hint_ms(), "ms"


def _dicy_five_card_hint_ms() -> float:
    """Median hint time right after the first roll (all five cards active), every roll."""
    start = Game.start(HEADERS["dicy"])
    times = []
    for dice in combinations_with_replacement(range(1, 7), 6):
        game = start.play_json({"roll": list(dice)})
        began = time.perf_counter()
        game.hints()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def _median_hint_ms(header: Mapping[str, Any], rng: Random) -> float:
    """Median time of ``hints`` over states met in random play where hints are non-empty."""
    rules = rules_for(header["game"])
    times: list[float] = []
    while len(times) < HINT_SAMPLES:
        game = Game.start(header)
        state = game.state
        while not rules.is_over(state) and len(times) < HINT_SAMPLES:
            start = time.perf_counter()
            hint = rules.hints(state)
            spent = time.perf_counter() - start
            if hint:
                times.append(spent * 1000)
            state = rules.apply(state, rules.random_action(state, rng))
    return statistics.median(times)
