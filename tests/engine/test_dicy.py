"""Dicy Cards through the public interface: set-up, turns, effects, skips, the end, hints."""

import json
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

import pytest

from engine import Game, IllegalAction
from engine.dicy import draw_interglacial, parse_presets, presets
from engine.dicy_cards import Card, best

GLACIAL = ["two-dice", "no-six", "odd", "straight", "two-pairs"]
INTERGLACIAL = ["sixes", "pair", "lowest-three", "distinct-x4", "distinct-sum"]


def start(players: Sequence[str] = ("Ana", "Ben"), **options: Any) -> Game:
    if "cards" not in options and "mode" not in options:
        options["mode"] = "glacial"
    return Game.start({"game": "dicy", "players": list(players), **options})


def play(game: Game, *lines: Mapping[str, Any]) -> Game:
    for line in lines:
        game = game.play_json(line)
    return game


def refusal(game: Game, line: Mapping[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        game.play_json(line)
    return str(err.value)


def setup_refusal(**header: Any) -> str:
    with pytest.raises(IllegalAction) as err:
        Game.start({"game": "dicy", "players": ["Ana", "Ben"], **header})
    return str(err.value)


def frozen(game: Game, player: str) -> list[str]:
    return [c for c, s in game.view()["rows"][player].items() if s == "frozen"]


def roll(*dice: int) -> dict[str, Any]:
    return {"roll": list(dice)}


def score(card: str, *dice: int) -> dict[str, Any]:
    return {"score": {"card": card, "dice": list(dice)}}


def reroll(card: str, *dice: int) -> dict[str, Any]:
    return {"reroll": {"freeze": card, "dice": list(dice)}}


def effect(player: str, card: str) -> dict[str, Any]:
    return {"effect": {"player": player, "card": card}}


SKIP: dict[str, Any] = {"skip": {}}


# set-up


def test_glacial_gives_every_player_the_five_glacial_cards_active() -> None:
    view = start(("Ana", "Ben", "Cleo")).view()
    assert view["cards"] == GLACIAL
    assert view["mode"] == "glacial"
    assert view["target"] == 100
    for player in ("Ana", "Ben", "Cleo"):
        assert view["rows"][player] == dict.fromkeys(GLACIAL, "active")
        assert view["active"][player] == 5
    assert view["turn"] == "Ana" and view["round"] == 1 and view["expects"] == ["roll"]
    assert view["scores"] == {"Ana": 0, "Ben": 0, "Cleo": 0}
    assert view["table"] == {"player": "Ana", "dice": None, "rerolls": 0,
                             "frozen_to_reroll": [], "outcome": None}
    assert view["pending"] == [] and view["results"] == [] and view["winners"] == []


def test_interglacial_plays_the_five_drawn_cards_in_their_order() -> None:
    view = start(mode="interglacial", cards=INTERGLACIAL).view()
    assert view["cards"] == INTERGLACIAL and view["mode"] == "interglacial"


def test_any_five_cards_without_a_mode() -> None:
    view = start(cards=["same-x5", "forty-minus", "pair", "odd", "sixes"]).view()
    assert view["cards"] == ["same-x5", "forty-minus", "pair", "odd", "sixes"]
    assert view["mode"] is None


def test_glacial_may_name_its_own_cards_in_another_order() -> None:
    cards = list(reversed(GLACIAL))
    assert start(mode="glacial", cards=cards).view()["cards"] == cards


def test_a_preset_of_the_box_is_played_with_the_cards_its_header_names() -> None:
    # RULES.md: cards are "required unless the mode fixes them"; the box's B, C and D are
    # not known to the table, so a record of one names its cards
    view = start(mode="B", cards=INTERGLACIAL).view()
    assert view["cards"] == INTERGLACIAL and view["mode"] == "B"


@pytest.mark.parametrize(("header", "message"), [
    ({}, "a Dicy Cards game needs a mode or its 5 cards"),
    ({"mode": "interglacial"},
     "interglacial mode needs the 5 drawn cards in the header's cards"),
    ({"mode": "B"},
     'there is no mode "B"; the modes are glacial, interglacial (the box\'s presets B, C, D are'
     " not known yet); or leave out mode and name the 5 cards"),
    ({"mode": 3},
     "there is no mode 3; the modes are glacial, interglacial (the box's presets B, C, D are"
     " not known yet); or leave out mode and name the 5 cards"),
    ({"mode": "glacial", "cards": INTERGLACIAL},
     "glacial mode plays two-dice, no-six, odd, straight, two-pairs; cards names sixes, pair,"
     " lowest-three, distinct-x4, distinct-sum"),
    ({"cards": ["pair", "odd", "sixes", "straight"]}, "cards must name 5 cards, not 4"),
    ({"cards": ["pair", "odd", "pair", "sixes", "straight"]},
     "cards names pair twice; the 5 cards are all different"),
    ({"cards": ["pair", "odd", "joker", "sixes", "straight"]},
     "a card must be one of two-dice, no-six, odd, straight, two-pairs, sixes, pair,"
     " lowest-three, distinct-x4, distinct-sum, forty-minus, same-x5, not \"joker\""),
    ({"cards": "pair"}, "write cards as a list in square brackets, not \"pair\""),
    ({"mode": "glacial", "target": 0}, "the target is a whole number from 1 to 10000, not 0"),
    ({"mode": "glacial", "target": "100"}, '"100" must be a number, written without quotes: 100'),
    ({"mode": "glacial", "target": "0"}, 'the target is a whole number from 1 to 10000, not "0"'),
    ({"mode": "glacial", "first": "Ben"},
     'Dicy Cards does not take "first" in its header (it takes cards, mode, target)'),
])
def test_bad_headers_are_refused(header: dict[str, Any], message: str) -> None:
    assert setup_refusal(**header) == message


def test_two_to_four_players() -> None:
    with pytest.raises(IllegalAction, match="Dicy Cards is for 2 to 4 players, not 5"):
        start(("A", "B", "C", "D", "E"))
    with pytest.raises(IllegalAction, match="not 1"):
        start(("A",))


def test_target_from_the_header() -> None:
    assert start(target=40).view()["target"] == 40


def test_draw_interglacial_gives_five_different_cards_from_the_rng() -> None:
    cards = draw_interglacial(Random(3))
    assert len(cards) == 5 and len(set(cards)) == 5
    assert cards == draw_interglacial(Random(3))
    assert {draw_interglacial(Random(seed)) for seed in range(20)} != {cards}
    view = start(mode="interglacial", cards=list(cards)).view()
    assert view["cards"] == list(cards)


def test_the_preset_file_is_empty_until_the_box_presets_are_known() -> None:
    assert presets() == {}


def test_presets_are_read_as_five_cards_each() -> None:
    parsed = parse_presets({"B": ["pair", "odd", "sixes", "straight", "same-x5"]})
    assert parsed == {"B": (Card.PAIR, Card.ODD, Card.SIXES, Card.STRAIGHT, Card.SAME_X5)}
    with pytest.raises(IllegalAction, match="preset B is refused: cards must name 5 cards, not 1"):
        parse_presets({"B": ["pair"]})
    with pytest.raises(IllegalAction, match="the preset file holds its modes in curly brackets"):
        parse_presets(["B"])
    with pytest.raises(IllegalAction, match='the preset file cannot define mode "glacial"'):
        parse_presets({"glacial": GLACIAL})


# the turn


def test_a_turn_starts_with_a_roll() -> None:
    game = start()
    assert refusal(game, SKIP) == ("Ana has not rolled yet; only a player whose cards are all "
                                   "frozen skips without rolling")
    assert refusal(game, score("two-dice", 6, 6)) == (
        "Ana has not rolled yet; a turn starts with a roll of 6 dice, not a score")
    assert refusal(game, reroll("odd", 1, 1, 1, 1, 1, 1)) == (
        "Ana has not rolled yet; a turn starts with a roll of 6 dice, not a reroll")
    game = play(game, roll(6, 6, 5, 2, 1, 1))
    view = game.view()
    assert view["table"]["dice"] == [6, 6, 5, 2, 1, 1]
    assert view["expects"] == ["reroll", "score", "skip"]
    assert refusal(game, roll(1, 2, 3, 4, 5, 6)) == (
        "Ana has rolled already; to roll again, freeze a card with a reroll")


@pytest.mark.parametrize(("line", "message"), [
    (roll(6, 6, 5, 2, 1), "roll needs all 6 dice, not 5: 6,6,5,2,1"),
    (roll(6, 6, 5, 2, 1, 7), "a die shows 1 to 6, not 7"),
    (roll(6, 6, 5, 2, 1, True), "a die shows 1 to 6, not true"),
    (roll(6, 6, 5, 2, 1, "1"), '"1" must be a number, written without quotes: 1'),
    (roll(6, 6, 5, 2, 1, "7"), 'a die shows 1 to 6, not "7"'),
    ({"roll": "666521"}, "in roll, write the dice as a list in square brackets, not \"666521\""),
    ({"throw": [1, 2, 3, 4, 5, 6]},
     "a Dicy Cards action must be one of roll, reroll, score, skip, effect, not \"throw\""),
    ({"skip": {"now": True}}, 'skip does not take "now" (its curly brackets stay empty)'),
    ({"reroll": {"freeze": "odd"}}, "reroll needs dice"),
    ({"reroll": {"freeze": "odd", "dice": [1, 2, 3], "keep": []}},
     'reroll does not take "keep" (it takes dice, freeze)'),
    ({"reroll": {"freeze": "odd", "dice": [1, 2, 3]}}, "reroll needs all 6 dice, not 3: 1,2,3"),
    ({"score": {"dice": [6, 6]}}, "score needs card"),
    ({"score": {"card": "joker", "dice": [6, 6]}},
     "in score, card must be one of two-dice, no-six, odd, straight, two-pairs, sixes, pair,"
     " lowest-three, distinct-x4, distinct-sum, forty-minus, same-x5, not \"joker\""),
    ({"score": {"card": "pair", "dice": 66}},
     "in score, write the dice as a list in square brackets, not 66"),
    ({"effect": {"player": 1, "card": "odd"}}, "effect's player needs a name, not 1"),
    ({"effect": ["Ben", "odd"]},
     'write effect with its details in curly brackets, not ["Ben", "odd"]'),
])
def test_malformed_lines_are_refused(line: dict[str, Any], message: str) -> None:
    assert refusal(start(), line) == message


def test_reroll_freezes_an_active_card_and_replaces_the_dice() -> None:
    game = play(start(), roll(6, 6, 5, 2, 1, 1), reroll("odd", 6, 6, 5, 3, 4, 1))
    view = game.view()
    assert view["table"]["dice"] == [6, 6, 5, 3, 4, 1]
    assert view["table"]["rerolls"] == 1 and view["table"]["frozen_to_reroll"] == ["odd"]
    assert frozen(game, "Ana") == ["odd"]
    assert refusal(game, reroll("odd", 1, 1, 1, 1, 1, 1)) == (
        "Ana's odd is frozen; a reroll freezes an active card "
        "(two-dice, no-six, straight, two-pairs)")
    assert refusal(game, reroll("sixes", 1, 1, 1, 1, 1, 1)) == (
        "sixes is not one of this game's cards (two-dice, no-six, odd, straight, two-pairs)")
    game = play(game, reroll("straight", 6, 6, 5, 3, 4, 1))
    assert game.view()["table"]["rerolls"] == 2


def test_rerolls_go_on_while_active_cards_remain_then_only_skip() -> None:
    game = play(start(), roll(6, 6, 6, 6, 2, 4), reroll("two-dice", 6, 6, 6, 6, 2, 4))
    assert game.view()["expects"] == ["reroll", "skip"]  # no active card is met by 6,6,6,6,2,4
    game = play(game, reroll("no-six", 1, 1, 1, 1, 1, 1), reroll("odd", 1, 1, 1, 1, 1, 1),
                reroll("straight", 1, 1, 1, 1, 1, 1), reroll("two-pairs", 2, 2, 3, 3, 1, 1))
    assert game.view()["expects"] == ["skip"]
    assert refusal(game, reroll("odd", 1, 1, 1, 1, 1, 1)) == (
        "Ana's odd is frozen; a reroll freezes an active card (none is left)")
    assert refusal(game, score("two-pairs", 2, 2, 3, 3)) == (
        "Ana's two-pairs is frozen; score with an active card (none is left)")
    game = play(game, SKIP)
    assert frozen(game, "Ana") == [] and game.view()["turn"] == "Ben"


def test_score_adds_the_points_freezes_the_card_and_passes_the_turn() -> None:
    game = play(start(), roll(5, 5, 4, 4, 2, 1), score("no-six", 1, 2, 4, 4, 5, 5))
    view = game.view()
    assert view["scores"] == {"Ana": 21, "Ben": 0}
    assert frozen(game, "Ana") == ["no-six"]
    assert view["turn"] == "Ben" and view["expects"] == ["roll"]
    assert view["results"] == [{"player": "Ana", "round": 1, "what": "score", "card": "no-six",
                                "dice": [1, 2, 4, 4, 5, 5], "points": 21, "choices": []}]


def test_score_refusals_name_the_card_the_dice_and_the_table() -> None:
    game = play(start(), roll(4, 4, 4, 4, 2, 1))
    assert refusal(game, score("two-pairs", 4, 4, 4, 4)) == (
        "two-pairs needs two different values; 4,4,4,4 is one")
    assert refusal(game, score("two-dice", 6, 6)) == (
        "6,6 is not among the dice on the table, 4,4,4,4,2,1")
    assert refusal(game, score("odd", 1, 1)) == (
        "1,1 is not among the dice on the table, 4,4,4,4,2,1")
    assert refusal(game, score("odd")) == "odd needs at least 1 die"
    assert refusal(game, score("pair", 4, 4)) == (
        "pair is not one of this game's cards (two-dice, no-six, odd, straight, two-pairs)")
    game = play(game, reroll("odd", 4, 4, 4, 4, 2, 1))
    assert refusal(game, score("odd", 1)) == (
        "Ana's odd is frozen; score with an active card (two-dice, no-six, straight,"
        " two-pairs)")


# effects


def test_two_dice_with_two_players_hits_the_one_opponent_once() -> None:
    game = play(start(), roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6))
    view = game.view()
    assert view["pending"] == [{"player": "Ben", "choice": "freeze", "because": "two-dice",
                                "eligible": GLACIAL}]
    assert view["turn"] == "Ana" and view["expects"] == ["effect"]
    assert view["table"]["outcome"] == {"what": "score", "card": "two-dice", "dice": [6, 6],
                                        "points": 12, "choices": []}
    assert game.hints() == {}
    game = play(game, effect("Ben", "straight"))
    assert frozen(game, "Ben") == ["straight"]
    assert game.view()["turn"] == "Ben"
    assert game.view()["results"][0]["choices"] == [
        {"player": "Ben", "choice": "freeze", "card": "straight"}]


def test_two_dice_hits_left_and_right_but_not_across() -> None:
    game = play(start(("Ana", "Ben", "Cleo", "Dan")), roll(6, 6, 5, 2, 1, 1),
                score("two-dice", 6, 6))
    assert [p["player"] for p in game.view()["pending"]] == ["Ben", "Dan"]
    game = play(start(("Ana", "Ben", "Cleo")), roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6))
    assert [p["player"] for p in game.view()["pending"]] == ["Ben", "Cleo"]


def test_choices_come_in_any_order_and_only_effect_lines_are_taken() -> None:
    game = play(start(("Ana", "Ben", "Cleo")), roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6))
    waiting = "waiting for Ben and Cleo to freeze a card (two-dice)"
    assert refusal(game, roll(1, 2, 3, 4, 5, 6)) == f"{waiting}; only effect choices are taken now"
    assert refusal(game, SKIP) == f"{waiting}; only effect choices are taken now"
    assert refusal(game, effect("Ana", "odd")) == f"Ana owes no choice now; {waiting}"
    assert refusal(game, effect("Zoe", "odd")) == (
        '"Zoe" is not playing; the players are Ana, Ben, Cleo')
    assert refusal(game, effect("Ben", "pair")) == (
        "Ben has no pair; this game's cards are two-dice, no-six, odd, straight, two-pairs")
    game = play(game, effect("Cleo", "odd"))
    assert game.view()["expects"] == ["effect"]
    assert refusal(game, effect("Cleo", "straight")) == (
        "Cleo owes no choice now; waiting for Ben to freeze a card (two-dice)")
    game = play(game, effect("Ben", "no-six"))
    assert game.view()["turn"] == "Ben" and game.view()["pending"] == []
    assert refusal(game, effect("Ben", "odd")) == (
        "nobody owes an effect choice now; it is Ben's turn to roll")


def test_a_freeze_must_pick_an_active_card() -> None:
    game = play(start(), roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6), effect("Ben", "odd"),
                roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6))
    assert game.view()["pending"][0]["eligible"] == ["no-six", "odd", "straight", "two-pairs"]
    assert refusal(game, effect("Ana", "two-dice")) == (
        "Ana must freeze an active card (no-six, odd, straight, two-pairs); "
        "two-dice is already frozen")


def test_sixes_makes_neighbours_reactivate_and_skips_those_with_nothing_frozen() -> None:
    cards = ["sixes", "pair", "lowest-three", "odd", "two-dice"]
    game = play(start(("Ana", "Ben", "Cleo"), cards=cards),
                roll(6, 6, 2, 2, 1, 1), score("sixes", 6, 6))
    assert game.view()["pending"] == [] and game.view()["turn"] == "Ben"
    game = play(game, roll(1, 1, 2, 5, 6, 4), score("lowest-three", 1, 1, 2))
    assert game.view()["pending"] == [
        {"player": "Cleo", "choice": "freeze", "because": "lowest-three", "eligible": cards},
        {"player": "Ana", "choice": "freeze", "because": "lowest-three",
         "eligible": ["pair", "lowest-three", "odd", "two-dice"]}]
    game = play(game, effect("Ana", "odd"), effect("Cleo", "pair"))
    game = play(game, roll(6, 3, 3, 3, 3, 3), score("sixes", 6))
    # Cleo's neighbours: Ana (left, next) and Ben (right, previous)
    view = game.view()
    assert view["pending"] == [
        {"player": "Ana", "choice": "reactivate", "because": "sixes",
         "eligible": ["sixes", "odd"]},
        {"player": "Ben", "choice": "reactivate", "because": "sixes",
         "eligible": ["lowest-three"]}]
    assert refusal(game, effect("Ana", "pair")) == (
        "Ana must reactivate a frozen card (sixes, odd); pair is active")
    game = play(game, effect("Ben", "lowest-three"), effect("Ana", "sixes"))
    assert frozen(game, "Ana") == ["odd"] and frozen(game, "Ben") == []
    assert game.view()["turn"] == "Ana" and game.view()["round"] == 2


def test_sixes_with_two_players_asks_the_opponent_once() -> None:
    cards = ["sixes", "pair", "lowest-three", "odd", "two-dice"]
    game = play(start(cards=cards), roll(6, 6, 2, 2, 1, 1), score("two-dice", 6, 6),
                effect("Ben", "odd"), roll(6, 6, 2, 2, 1, 1), score("sixes", 6, 6))
    assert game.view()["pending"] == [
        {"player": "Ana", "choice": "reactivate", "because": "sixes", "eligible": ["two-dice"]}]


def test_an_affected_player_without_an_eligible_card_owes_nothing() -> None:
    game = play(start(cards=["pair", "no-six", "straight", "odd", "two-dice"]),
                roll(6, 6, 5, 2, 1, 1), reroll("pair", 1, 1, 1, 1, 1, 1),
                reroll("no-six", 1, 1, 1, 1, 1, 1), reroll("straight", 1, 1, 1, 1, 1, 1),
                reroll("odd", 6, 6, 5, 2, 1, 1), score("two-dice", 6, 6), effect("Ben", "odd"))
    assert game.view()["active"]["Ana"] == 0
    game = play(game, roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6))
    assert game.view()["pending"] == [] and game.view()["turn"] == "Ana"


# skip


def test_skip_reactivates_own_cards_then_others_reactivate_one() -> None:
    game = play(start(("Ana", "Ben", "Cleo")), roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6),
                effect("Ben", "odd"), effect("Cleo", "no-six"),
                roll(1, 2, 3, 4, 5, 6), reroll("straight", 1, 2, 3, 4, 5, 6), SKIP)
    view = game.view()
    assert frozen(game, "Ben") == []
    assert view["pending"] == [
        {"player": "Cleo", "choice": "reactivate", "because": "skip", "eligible": ["no-six"]},
        {"player": "Ana", "choice": "reactivate", "because": "skip", "eligible": ["two-dice"]}]
    assert view["table"]["outcome"] == {"what": "skip", "card": None, "dice": None,
                                        "points": 0, "choices": []}
    game = play(game, effect("Cleo", "no-six"), effect("Ana", "two-dice"))
    assert game.view()["turn"] == "Cleo"
    assert game.view()["results"][-1] == {
        "player": "Ben", "round": 1, "what": "skip", "card": None, "dice": None, "points": 0,
        "choices": [{"player": "Cleo", "choice": "reactivate", "card": "no-six"},
                    {"player": "Ana", "choice": "reactivate", "card": "two-dice"}]}


def test_a_player_with_every_card_frozen_must_skip_without_rolling() -> None:
    game = play(start(cards=["pair", "no-six", "straight", "odd", "two-pairs"]),
                roll(6, 6, 5, 2, 1, 1), reroll("odd", 6, 6, 5, 2, 1, 1),
                reroll("no-six", 6, 6, 5, 2, 1, 1), reroll("straight", 6, 6, 5, 2, 1, 1),
                reroll("two-pairs", 6, 6, 5, 2, 1, 1), score("pair", 6, 6),
                roll(1, 2, 3, 4, 5, 6), score("straight", 1, 2, 3, 4, 5, 6))
    view = game.view()
    assert view["turn"] == "Ana" and view["expects"] == ["skip"] and view["active"]["Ana"] == 0
    assert game.hints() == {}
    assert refusal(game, roll(1, 2, 3, 4, 5, 6)) == (
        "all of Ana's cards are frozen: Ana must skip, not roll")
    assert refusal(game, score("pair", 6, 6)) == (
        "all of Ana's cards are frozen: Ana must skip, not score")
    game = play(game, SKIP)
    assert game.view()["pending"] == [
        {"player": "Ben", "choice": "reactivate", "because": "skip", "eligible": ["straight"]}]
    game = play(game, effect("Ben", "straight"))
    assert game.view()["active"] == {"Ana": 5, "Ben": 5} and game.view()["turn"] == "Ben"


# the end


def test_the_round_is_finished_after_the_target_is_reached() -> None:
    game = play(start(("Ana", "Ben", "Cleo"), target=20), roll(6, 6, 5, 5, 1, 2),
                score("two-pairs", 6, 6, 5, 5))
    assert not game.view()["over"] and game.view()["turn"] == "Ben"
    game = play(game, roll(1, 1, 1, 1, 1, 1), score("odd", 1))
    assert not game.view()["over"]
    game = play(game, roll(6, 6, 5, 5, 4, 4), score("two-pairs", 6, 6, 5, 5))
    view = game.view()
    assert view["over"] and view["winners"] == ["Ana", "Cleo"] and view["turn"] is None
    assert view["expects"] == [] and view["table"] is None and view["pending"] == []
    assert [r["player"] for r in view["results"]] == ["Ana", "Ben", "Cleo"]
    assert refusal(game, roll(1, 2, 3, 4, 5, 6)) == "the game is over; no more actions"
    assert refusal(game, effect("Ana", "odd")) == "the game is over; no more actions"
    assert game.hints() == {}


def test_effect_choices_on_the_final_turn_come_before_the_end() -> None:
    game = play(start(target=10), roll(6, 6, 5, 5, 1, 2), score("two-pairs", 6, 6, 5, 5),
                roll(6, 6, 5, 5, 4, 4), score("two-dice", 6, 5))
    view = game.view()
    assert not view["over"] and view["expects"] == ["effect"] and view["turn"] == "Ben"
    assert view["winners"] == []
    game = play(game, effect("Ana", "no-six"))
    view = game.view()
    assert view["over"] and view["winners"] == ["Ana"]
    assert view["scores"] == {"Ana": 22, "Ben": 11}
    assert view["results"][-1]["choices"] == [
        {"player": "Ana", "choice": "freeze", "card": "no-six"}]


def test_a_tie_goes_to_the_player_with_more_active_cards() -> None:
    game = play(start(target=10), roll(6, 6, 5, 5, 1, 2), score("two-pairs", 6, 6, 5, 5),
                roll(6, 6, 5, 1, 1, 2), reroll("odd", 6, 6, 5, 5, 1, 1),
                score("two-pairs", 6, 6, 5, 5))
    view = game.view()
    assert view["scores"] == {"Ana": 22, "Ben": 22}
    assert view["active"] == {"Ana": 4, "Ben": 3}
    assert view["over"] and view["winners"] == ["Ana"]


def test_random_games_always_end() -> None:
    rules = start().rules
    for seed in range(60):
        rng = Random(seed)
        players = ["Ana", "Ben", "Cleo", "Dan"][: 2 + seed % 3]
        header: dict[str, Any] = {"game": "dicy", "players": players, "target": 60}
        if seed % 2:
            header["mode"] = "glacial"
        else:
            header["cards"] = [c.value for c in draw_interglacial(rng)]
        game = Game.start(header)
        for _ in range(3000):
            if game.over:
                break
            game = game.play(rules.random_action(game.state, rng))
        assert game.over, seed
        view = game.view()
        assert view["winners"] and json.loads(json.dumps(view)) == view
    with pytest.raises(IllegalAction, match="the game is over"):
        rules.random_action(game.state, Random(0))


# view and hints


def test_the_view_is_plain_json() -> None:
    game = play(start(("Ana", "Ben", "Cleo")), roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6))
    view = game.view()
    assert json.loads(json.dumps(view)) == view
    assert view["version"] == 1 and view["actions"] == 2 and view["game"] == "dicy"


def test_hints_give_the_best_selection_for_each_active_card() -> None:
    game = play(start(), roll(5, 5, 4, 4, 2, 1), reroll("odd", 5, 5, 4, 4, 2, 1))
    hints = game.hints()
    assert hints == {"player": "Ana", "dice": [5, 5, 4, 4, 2, 1], "cards": {
        "two-dice": {"dice": [5, 5], "points": 10},
        "no-six": {"dice": [5, 5, 4, 4, 2, 1], "points": 21},
        "straight": {"dice": [5, 4], "points": 9},
        "two-pairs": {"dice": [5, 5, 4, 4], "points": 18},
    }}
    game = play(start(), roll(6, 6, 6, 6, 4, 2))
    assert game.hints()["cards"]["odd"] is None and game.hints()["cards"]["no-six"] is None
    assert start().hints() == {}


def test_hints_agree_with_the_engine_on_random_tables() -> None:
    rng = Random(5)
    game = start(cards=["distinct-sum", "lowest-three", "forty-minus", "same-x5", "pair"])
    for _ in range(50):
        dice = [rng.randint(1, 6) for _ in range(6)]
        rolled = play(game, roll(*dice))
        for card, hint in rolled.hints()["cards"].items():
            expected = best(Card(card), tuple(dice))
            assert (hint is None) == (expected is None)
            if hint is not None:
                scored = play(rolled, score(card, *hint["dice"]))
                assert scored.view()["scores"]["Ana"] == hint["points"]


def test_describe_names_the_players_and_what_is_awaited() -> None:
    game = play(start(), roll(6, 6, 5, 2, 1, 1), reroll("odd", 6, 6, 5, 3, 4, 1),
                score("two-dice", 6, 6))
    assert game.describe().splitlines()[1:] == [
        "  Ana 12  (frozen: two-dice, odd)", "  Ben 0  (frozen: none)",
        "  round 1, Ana's turn: waiting for Ben to freeze a card (two-dice)",
        "  dice: 6,6,5,3,4,1 after 1 reroll"]
    skipped = play(game, effect("Ben", "odd"), roll(2, 2, 3, 5, 6, 6), SKIP)
    assert skipped.describe().splitlines()[3] == (  # Ben's turn, Ana's choice
        "  round 1, Ben's turn: waiting for Ana to reactivate a card (Ben skipped)")
    assert "  round 2, Ana to roll" in play(skipped, effect("Ana", "two-dice")).describe()
    over = play(start(target=5), roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6),
                effect("Ben", "odd"), roll(6, 6, 5, 2, 1, 1), score("two-pairs", 6, 6, 1, 1))
    assert over.describe().splitlines()[-2:] == ["  over after round 1", "  Winner: Ben"]


def test_undo_takes_back_effect_choices_and_scores() -> None:
    game = play(start(), roll(6, 6, 5, 2, 1, 1), score("two-dice", 6, 6), effect("Ben", "odd"))
    back = game.undo()
    assert back.view()["expects"] == ["effect"] and frozen(back, "Ben") == []
    back = back.undo()
    assert back.view()["scores"]["Ana"] == 0 and frozen(back, "Ana") == []
    assert back.view()["table"]["dice"] == [6, 6, 5, 2, 1, 1]
