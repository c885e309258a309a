"""Games played to their end by the rules' own random play: for property tests and benchmarks.

Pure: the randomness comes from the ``rng`` passed in.

>>> from random import Random
>>> random_game(HEADERS["dalek"], Random(1)).over
True
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from engine.game import Game

HEADERS: dict[str, dict[str, Any]] = {
    "dicy": {"game": "dicy", "players": ["Ana", "Ben", "Cleo"], "mode": "glacial"},
    "dalek": {"game": "dalek", "players": ["Ana", "Ben", "Cleo"]},
    "17": {"game": "17", "players": ["Ana", "Ben", "Cleo", "Dai"]},
}
"""A typical table of each game."""


def random_game(header: Mapping[str, Any], rng: Random, max_actions: int = 100_000) -> Game:
    """A game played to its end by ``random_action``; RuntimeError if it never ends."""
    game = Game.start(header)
    rules = game.rules
    state = game.state
    actions: list[Any] = []
    while not rules.is_over(state):
        if len(actions) >= max_actions:
            raise RuntimeError(f"a random {header['game']} game did not end in {max_actions}")
        action = rules.random_action(state, rng)
        state = rules.apply(state, action)
        actions.append(action)
    return Game(rules, header, tuple(actions), state)


def random_lines(header: Mapping[str, Any], count: int, rng: Random) -> list[dict[str, Any]]:
    """The first ``count`` record lines (actions) of a game played by ``random_action``; fewer
    if the game ends before (give a high target for a long game).

    >>> lines = random_lines({"game": "dalek", "players": ["Ana", "Ben"]}, 3, Random(1))
    >>> len(lines), list(lines[0])
    (3, ['roll'])
    """
    game = Game.start(header)
    rules = game.rules
    state = game.state
    lines: list[dict[str, Any]] = []
    while len(lines) < count and not rules.is_over(state):
        action = rules.random_action(state, rng)
        state = rules.apply(state, action)
        lines.append(rules.action_to_json(action))
    return lines
