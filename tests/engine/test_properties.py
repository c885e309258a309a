"""Property-based tests: random legal games of every game end, and keep their invariants."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, read_record, write_record
from engine.selfplay import HEADERS

MAX_ACTIONS = 20_000
VICTORY_TOKENS, PENALTY_TOKENS = 14, 10

GAME_HEADERS: list[dict[str, Any]] = [
    *HEADERS.values(),
    {"game": "dicy", "players": ["Ana", "Ben"], "mode": "interglacial",
     "cards": ["two-dice", "sixes", "lowest-three", "pair", "forty-minus"], "target": 60},
    {"game": "dicy", "players": ["A", "B", "C", "D"],
     "cards": ["distinct-x4", "distinct-sum", "same-x5", "sixes", "lowest-three"], "target": 50},
    {"game": "dalek", "players": ["A", "B", "C", "D", "E", "F", "G", "H"], "target": 30},
    {"game": "17", "players": ["A", "B"], "first": "B"},
    {"game": "17", "players": ["A", "B", "C", "D", "E", "F"], "target": 2,
     "deck": {"trap": 9, "x2": 9, "reverse": 9, "trash": 9, "1": 3, "5d": 7}},
]


def check_step(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Totals never drop but by rule; tokens stay within the box."""
    if "scores" in after:
        for name, total in after["scores"].items():
            assert total >= before["scores"][name], f"{name}'s total dropped"
        return
    tokens = after["tokens"]
    assert sum(t["victory"] for t in tokens.values()) <= VICTORY_TOKENS
    assert sum(t["penalty"] for t in tokens.values()) <= PENALTY_TOKENS
    for name, held in tokens.items():
        assert held["victory"] >= 0 and 0 <= held["penalty"] <= 1
        # A victory token is only lost to a second penalty (which then discards both); a
        # caller may get several penalties in one round (one per face-down trap, one for the
        # total), so count the discards the round's result lists.
        lost = before["tokens"][name]["victory"] - held["victory"]
        if lost > 0:
            discards = [d for d in after["results"][-1]["discarded"] if d["player"] == name]
            assert lost <= sum(d["victory"] for d in discards)


@pytest.mark.parametrize("header", GAME_HEADERS,
                         ids=lambda h: f"{h['game']}-{len(h['players'])}p")
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), undo_at=st.floats(0, 1))
def test_random_games_end_and_keep_their_invariants(header: dict[str, Any], seed: int,
                                                    undo_at: float) -> None:
    rng = Random(seed)
    game = Game.start(header)
    view = game.view()
    while not game.over:
        assert len(game.actions) < MAX_ACTIONS, "the game never ended"
        game = game.play(game.rules.random_action(game.state, rng))
        after = game.view()
        check_step(view, after)
        view = after
    assert view["winners"] and set(view["winners"]) <= set(view["players"])
    assert view["turn"] is None and view["expects"] == []

    replayed = read_record(write_record(game).splitlines())
    assert replayed.state == game.state

    index = int(undo_at * (len(game.actions) - 1))
    undone = game
    for _ in range(len(game.actions) - index):
        undone = undone.undo()
    redone = undone
    for action in game.actions[index:]:
        redone = redone.play(action)
    assert redone.state == game.state
