"""17 hints: the exact chance of 17 or more, checked against brute-force enumeration."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from random import Random
from typing import Any

from engine import Game
from engine.seventeen_cards import PLAIN_BACKS, Card
from engine.seventeen_hints import any_chance, reach_chance

SPECIALS = ("reverse", "x2", "trash", "trap")


def brute_force(view: dict[str, Any]) -> tuple[Fraction, Fraction]:
    """The chances of 17 or more and of a hidden trap, over every set of physical cards the
    hidden ones could be (the deck's plain backs less those seen in the row: a trashed card
    may be back in the draw pile)."""
    seen = Counter(c["card"] for c in view["row"] if not c["hidden"])
    pool = [c for c in PLAIN_BACKS for _ in range(view["deck"][c.value] - seen[c.value])]
    known = sum(c["value"] for c in view["row"] if not c["hidden"])
    hidden = sum(1 for c in view["row"] if c["hidden"])
    draws = list(combinations(range(len(pool)), hidden))
    reach = sum(1 for d in draws if known + sum(pool[i].points for i in d) >= 17)
    trap = sum(1 for d in draws if any(pool[i] is Card.TRAP for i in d))
    return Fraction(reach, len(draws)), Fraction(trap, len(draws))


def small_deck(rng: Random) -> dict[str, int]:
    deck = {c.value: rng.randint(0, 2) for c in Card}
    deck["5"] = rng.randint(1, 3)
    deck["4"] = rng.randint(1, 3)
    return deck


def test_chance_matches_brute_force_on_small_decks() -> None:
    rng = Random(17)
    checked = 0
    for _ in range(60):
        game = Game.start({"game": "17", "players": ["Ana", "Ben", "Cleo"],
                           "deck": small_deck(rng)})
        while not game.over and checked < 400:
            hints, view = game.hints(), game.view()
            reach, trap = brute_force(view)
            assert hints["chance_17"] == float(reach)
            assert hints["trap_chance"] == float(trap)
            assert hints["hidden"] == sum(1 for c in view["row"] if c["hidden"])
            checked += 1
            game = game.play(game.rules.random_action(game.state, rng))
    assert checked == 400


def test_chance_with_many_hidden_cards() -> None:
    lines: list[dict[str, Any]] = [{"play": {"card": "5", "face": "up"}},
                                   *[{"play": {"face": "down"}}] * 4]
    game = Game.start({"game": "17", "players": ["Ana", "Ben"],
                       "deck": {"1": 2, "2": 2, "3": 2, "4": 2, "5": 3, "reverse": 1,
                                "x2": 1, "trash": 1, "trap": 1}})
    for line in lines:
        game = game.play_json(line)
    hints = game.hints()
    reach, trap = brute_force(game.view())
    assert hints["known_sum"] == 5 and hints["hidden"] == 4
    assert hints["chance_17"] == float(reach) and 0 < reach < 1
    assert hints["trap_chance"] == float(trap)


def test_what_the_table_sees_is_all_the_hints_use() -> None:
    def hints(card: str | None) -> dict[str, Any]:
        hidden = {"face": "down"} if card is None else {"card": card, "face": "down"}
        game = Game.start({"game": "17", "players": ["Ana", "Ben"]})
        for line in [{"play": {"card": "5d", "face": "down"}}, {"play": hidden},
                     {"play": {"card": "4", "face": "up"}},
                     {"play": {"card": "reverse", "face": "up"}},
                     {"play": {"card": "trash", "face": "up"}}]:
            game = game.play_json(line)
        return game.hints()

    assert hints("trap") == hints("5") == hints(None)
    seen = hints(None)
    assert seen["known_sum"] == 9 and seen["hidden"] == 1
    # The hidden card needs 8 or more: impossible. The pool: 35 plain backs less the 4 seen in
    # the row (the 5d is double-sided; the reverse and the trash were trashed, and a trashed
    # card may be back in the draw pile); 5 traps among those 34.
    assert seen["chance_17"] == 0.0
    assert seen["trap_chance"] == float(Fraction(5, 34))


def test_no_hidden_card_gives_a_certain_answer() -> None:
    game = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    for card in ["5", "5d", "5", "2d"]:
        game = game.play_json({"play": {"card": card, "face": "up"}})
    assert game.hints() == {"known_sum": 17, "hidden": 0, "chance_17": 1.0,
                            "trap_chance": 0.0}
    game = game.play_json({"call": ["Ana"]})
    assert game.hints()["known_sum"] == 0 and game.hints()["chance_17"] == 0.0


def test_after_the_call_the_named_cards_count_and_the_unknown_ones_stay_hidden() -> None:
    game = Game.start({"game": "17", "players": ["Ana", "Ben", "Cleo"]})
    for line in [{"play": {"card": "5", "face": "down"}}, {"play": {"face": "down"}},
                 {"play": {"card": "5d", "face": "up"}}, {"call": ["Ana"]}]:
        game = game.play_json(line)
    hints = game.hints()
    assert hints["known_sum"] == 10 and hints["hidden"] == 1


def test_reach_chance_on_explicit_pools() -> None:
    pool = [(5, 2), (4, 1), (0, 3)]
    cards = [5, 5, 4, 0, 0, 0]
    for hidden in range(4):
        for need in range(-1, 16):
            draws = list(combinations(cards, hidden))
            expected = Fraction(sum(1 for d in draws if sum(d) >= need), len(draws))
            assert reach_chance(need, hidden, pool) == expected
    assert any_chance(2, 2, 6) == 1 - Fraction(6, 15)
