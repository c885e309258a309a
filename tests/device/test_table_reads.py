"""From settled reads to what the rules expect: rolls, rerolls, nudges, questions, holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from device.table_reads import (
    Apply,
    Ask,
    DalekReads,
    DicyReads,
    Hold,
    Note,
    SeventeenReads,
    TableReads,
    reads_for,
)
from engine import Game
from vision.dice import DieRead
from vision.observation import Observation
from vision.sheet_seen import (
    DalekObservation,
    DicyObservation,
    DieSeen,
    PlaceSeen,
    SeventeenObservation,
)

DICY = {"game": "dicy", "players": ["Ana", "Ben"], "mode": "glacial"}
SIDE = 40.0
PLACES = [(100.0, 100.0), (300.0, 100.0), (500.0, 100.0), (100.0, 300.0), (300.0, 300.0),
          (500.0, 300.0)]


def seen(values: Sequence[int | None], places: Sequence[tuple[float, float]] = PLACES
         ) -> Observation:
    dice = tuple(DieRead(v, x, y, 0.9, SIDE) for v, (x, y) in zip(values, places, strict=False))
    return Observation(dice, 800, 600)


def game_after(*lines: dict[str, Any]) -> Game:
    game = Game.start(DICY)
    for line in lines:
        game = game.play_json(line)
    return game


def test_a_fresh_roll_of_six_is_a_roll() -> None:
    reads = DicyReads()
    assert reads.decide(seen([6, 6, 5, 2, 1, 1]), game_after()) == Apply(
        {"roll": [6, 6, 5, 2, 1, 1]})


def test_nothing_changed_means_nothing_after_a_long_rest_or_a_passing_hand() -> None:
    reads, game = DicyReads(), game_after()
    first = seen([6, 6, 5, 2, 1, 1])
    reads.remember(first, game_after({"roll": [6, 6, 5, 2, 1, 1]}))
    assert reads.decide(first, game_after({"roll": [6, 6, 5, 2, 1, 1]})) is None
    assert reads.decide(first, game) is None  # not even when the rules expect a roll


def test_the_dice_of_the_last_turn_lying_there_are_no_roll_after_a_restart() -> None:
    game = game_after({"roll": [6, 6, 5, 2, 1, 1]}, {"score": {"card": "two-dice",
                                                                "dice": [6, 6]}},
                      {"effect": {"player": "Ben", "card": "odd"}})
    assert "roll" in game.view()["expects"]
    assert DicyReads().decide(seen([1, 1, 2, 5, 6, 6]), game) is None


def test_dice_that_change_during_a_turn_are_a_reroll_and_ask_which_card() -> None:
    reads, game = DicyReads(), game_after({"roll": [6, 6, 5, 2, 1, 1]})
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game)
    moved = [*PLACES[:4], (650.0, 450.0), (700.0, 500.0)]
    decision = reads.decide(seen([6, 6, 5, 2, 3, 4], moved), game)
    assert isinstance(decision, Ask) and decision.kind == "freeze"
    assert decision.player == "Ana" and decision.next_player == "Ben"
    assert decision.cards == ("two-dice", "no-six", "odd", "straight", "two-pairs")
    assert decision.line == {"reroll": {"dice": [6, 6, 5, 2, 3, 4]}}


def test_with_one_active_card_the_reroll_needs_no_question() -> None:
    header = {**DICY, "target": 500}
    game = Game.start(header)
    for line in [{"roll": [1, 1, 1, 1, 1, 1]},
                 {"reroll": {"freeze": "two-dice", "dice": [1, 1, 1, 1, 1, 1]}},
                 {"reroll": {"freeze": "no-six", "dice": [1, 1, 1, 1, 1, 1]}},
                 {"reroll": {"freeze": "odd", "dice": [1, 1, 1, 1, 1, 1]}},
                 {"reroll": {"freeze": "straight", "dice": [1, 1, 1, 1, 1, 1]}}]:
        game = game.play_json(line)
    reads = DicyReads()
    reads.remember(seen([1, 1, 1, 1, 1, 1]), game)
    moved = [(650.0, 450.0), *PLACES[1:]]
    assert reads.decide(seen([4, 1, 1, 1, 1, 1], moved), game) == Apply(
        {"reroll": {"freeze": "two-pairs", "dice": [4, 1, 1, 1, 1, 1]}})


def test_a_nudged_die_is_not_a_reroll_the_phones_are_asked() -> None:
    reads, game = DicyReads(), game_after({"roll": [6, 6, 5, 2, 1, 1]})
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game)
    nudged = [*PLACES[:5], (PLACES[5][0] + 25, PLACES[5][1] + 10)]
    decision = reads.decide(seen([6, 6, 5, 2, 1, 4], nudged), game)
    assert isinstance(decision, Ask) and decision.kind == "nudge"
    assert decision.circled == (5,) and decision.was == (1, 1, 2, 5, 6, 6)


def test_a_die_pushed_aside_with_its_value_is_nothing() -> None:
    reads, game = DicyReads(), game_after({"roll": [6, 6, 5, 2, 1, 1]})
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game)
    pushed = [*PLACES[:5], (PLACES[5][0] + 30, PLACES[5][1])]
    assert reads.decide(seen([6, 6, 5, 2, 1, 1], pushed), game) is None


def test_a_reroll_that_lands_on_the_same_values_is_still_asked() -> None:
    reads, game = DicyReads(), game_after({"roll": [6, 6, 5, 2, 1, 1]})
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game)
    thrown = [*PLACES[:4], (650.0, 450.0), (700.0, 520.0)]
    decision = reads.decide(seen([6, 6, 5, 2, 1, 1], thrown), game)
    assert isinstance(decision, Ask) and decision.kind == "freeze"


def test_dice_entered_by_phone_then_seen_by_the_camera_are_nothing() -> None:
    reads = DicyReads()
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game_after({"roll": [6, 6, 5, 2, 1, 1]}))
    typed = game_after({"roll": [6, 6, 5, 2, 1, 1]},
                       {"reroll": {"freeze": "odd", "dice": [6, 6, 5, 2, 3, 4]}})
    thrown = [*PLACES[:4], (650.0, 450.0), (700.0, 520.0)]
    assert reads.decide(seen([6, 6, 5, 2, 3, 4], thrown), typed) is None


def test_fewer_dice_than_six_are_told_not_played() -> None:
    reads, game = DicyReads(), game_after({"roll": [6, 6, 5, 2, 1, 1]})
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game)
    assert reads.decide(seen([6, 6, 5, 2]), game) == Note("camera.count", {"n": 4, "need": 6})


def test_a_die_the_camera_is_not_sure_of_is_asked_never_guessed() -> None:
    decision = DicyReads().decide(seen([6, None, 5, 2, 1, None]), game_after())
    assert isinstance(decision, Ask) and decision.kind == "values"
    assert decision.circled == (1, 5) and decision.dice == (6, None, 5, 2, 1, None)


def test_a_roll_while_effect_choices_are_owed_is_held_for_the_next_player() -> None:
    game = game_after({"roll": [6, 6, 5, 2, 1, 1]},
                      {"score": {"card": "two-dice", "dice": [6, 6]}})
    assert game.view()["expects"] == ["effect"]
    reads = DicyReads()
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game)
    thrown = [(x + 7 * SIDE, y + 5 * SIDE) for x, y in PLACES]
    assert reads.decide(seen([3, 3, 4, 4, 5, 5], thrown), game) == Hold(
        {"roll": [3, 3, 4, 4, 5, 5]}, "Ben")


def test_a_game_over_takes_nothing() -> None:
    game = Game.start({**DICY, "target": 1})
    for line in [{"roll": [6, 6, 5, 2, 1, 1]}, {"score": {"card": "no-six", "dice": []}}]:
        try:
            game = game.play_json(line)
        except ValueError:
            game = game.play_json({"score": {"card": "odd", "dice": [5, 1, 1]}})
    for line in [{"roll": [2, 2, 2, 2, 2, 2]}, {"score": {"card": "two-dice", "dice": [2, 2]}},
                 {"effect": {"player": "Ana", "card": "no-six"}}]:
        game = game.play_json(line)
    assert game.over
    assert DicyReads().decide(seen([1, 2, 3, 4, 5, 6]), game) is None


def test_dalek_and_17_without_their_sheet_ask_for_it() -> None:
    for header in ({"game": "dalek", "players": ["Ana", "Ben"]},
                   {"game": "17", "players": ["Ana", "Ben"]}):
        game = Game.start(header)
        assert reads_for(game).decide(seen([1, 2, 3, 4, 5, 6]), game) == Note(
            "camera.no_sheet", {"game": header["game"]})


@pytest.mark.parametrize(("why", "note"), [
    ("far", "camera.far"), ("small", "camera.small"), ("skewed", "camera.skewed"),
    ("covered", "camera.covered"),
    ("glare", "camera.glare"), ("dark", "camera.dark"), ("no-sheet", "camera.no_sheet"),
    ("flat", "camera.flat")])
def test_a_sheet_that_cannot_be_found_says_why(why: str, note: str) -> None:
    # a 640x480 camera sees the whole sheet, too small to read: "bring the camera closer",
    # not "lay the sheet under the camera"
    unfound = Observation((), 640, 480, problem="sheet", sheet=why)
    for header in ({"game": "dalek", "players": ["Ana", "Ben"]},
                   {"game": "17", "players": ["Ana", "Ben"]}):
        game = Game.start(header)
        told = reads_for(game).decide(unfound, game)
        assert told == (Note(note) if why == "dark" else Note(note, {"game": header["game"]}))


def test_another_games_sheet_under_the_camera_asks_for_this_ones() -> None:
    seventeen = Observation((), 800, 600, table=SeventeenObservation((), ()))
    for header in ({"game": "dalek", "players": ["Ana", "Ben"]}, DICY):
        game = Game.start(header)
        assert reads_for(game).decide(seventeen, game) == Note(
            "camera.no_sheet", {"game": header["game"]})
    game = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    assert reads_for(game).decide(dalek(), game) == Note("camera.no_sheet", {"game": "17"})


def dalek(*dice: tuple[str | None, str, float, float]) -> Observation:
    """A read of the Dalek sheet: (face, zone, x, y) of each die."""
    return Observation((), 800, 600, table=DalekObservation(
        tuple(DieSeen(f, z, x, y, 0.9) for f, z, x, y in dice)))


ROLL = [("H4", 60.0), ("H4", 100.0), ("H2", 140.0), ("D3", 180.0), ("DOC", 220.0)]


def test_dalek_a_roll_then_a_keep_known_when_the_rest_is_rolled_again() -> None:
    reads = DalekReads()
    game = Game.start({"game": "dalek", "players": ["Ana", "Ben"]})
    empty = dalek()
    assert reads.decide(empty, game) is None
    reads.remember(empty, game)
    ten = [(f, "to-roll", x + dx, 150.0) for dx in (0.0, 5.0) for f, x in ROLL]
    rolled = dalek(*ten)
    assert reads.decide(rolled, game) == Apply({"roll": [d[0] for d in ten]})
    game = game.play_json({"roll": [d[0] for d in ten]})
    reads.remember(rolled, game)
    moved = dalek(("DOC", "top", 100.0, 20.0), ("H4", "kept-humans", 40.0, 80.0),
                  ("H4", "kept-humans", 70.0, 80.0), ("D3", "kept-daleks", 200.0, 80.0),
                  *[d for d in ten if d[0] in ("H2", "D3", "DOC") and d[2] > 62.0][1:])
    assert reads.decide(moved, game) is None  # the player may still be moving dice
    reads.remember(moved, game)
    assert reads.pending(game) == {"keep": ["D3", "H4", "H4"]}
    still = [d for d in moved.table.dice if d.zone != "to-roll"]  # type: ignore[union-attr]
    again = dalek(*[(d.face, d.zone, d.x, d.y) for d in still],  # type: ignore[misc]
                  *[(f, "to-roll", 70.0 + 30 * i, 185.0) for i, f in enumerate(
                      ["H2", "H2", "D2", "D2", "EXT", "H4"])])
    assert reads.decide(again, game) == Apply(
        {"keep": ["D3", "H4", "H4"]}, {"roll": ["H2", "H2", "D2", "D2", "EXT", "H4"]})


def test_dalek_a_second_doctor_on_top_is_told() -> None:
    reads = DalekReads()
    game = Game.start({"game": "dalek", "players": ["Ana", "Ben"]}).play_json(
        {"roll": ["DOC", "DOC"] + ["H4"] * 8})
    rolled = dalek(*[(f, "to-roll", 30.0 + 20 * i, 150.0)
                     for i, f in enumerate(["DOC", "DOC"] + ["H4"] * 8)])
    reads.remember(rolled, game)
    both = dalek(("DOC", "top", 80.0, 20.0), ("DOC", "top", 120.0, 20.0),
                 *[("H4", "to-roll", 70.0 + 20 * i, 150.0) for i in range(8)])
    assert reads.decide(both, game) == Note("camera.top_extra", {"face": "DOC"})


def row(*faces: str) -> Observation:
    """A read of the 17 sheet's row: each card's face ("back", or a number with "/up")."""
    places = tuple(PlaceSeen(f"row-{i + 1}", None if f == "back" else f.removesuffix(
        "/up"), "up" if f.endswith("/up") else "down", f, 0.9) for i, f in enumerate(faces))
    return Observation((), 800, 600, table=SeventeenObservation(places, ()))


def test_17_a_card_at_the_row_end_is_a_play_and_two_are_a_question() -> None:
    reads = SeventeenReads()
    game = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    assert reads.decide(row(), game) is None
    assert reads.decide(row("back"), game) == Apply({"play": {"face": "down"}})
    game = game.play_json({"play": {"face": "down"}})
    assert reads.decide(row("back", "4/up", "x2/up"), game) == Note("camera.row", {"n": 2})
    assert reads.decide(row("back", "4/up"), game) == Apply({"play": {"card": "4",
                                                                      "face": "up"}})


def ten_rolled() -> tuple[DalekReads, Game]:
    """Ana's ten dice rolled into "to roll", and the reads that saw them lie there."""
    reads = DalekReads()
    faces = ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]
    game = Game.start({"game": "dalek", "players": ["Ana", "Ben"]}).play_json({"roll": faces})
    reads.remember(dalek(*[(f, "to-roll", 30.0 + 25 * i, 150.0) for i, f in enumerate(faces)]),
                   game)
    return reads, game


def test_dalek_kept_dice_that_do_not_add_up_are_no_keep() -> None:
    reads, game = ten_rolled()
    # H4 × 3 and D3 × 3 kept, the DOC on top, the other three picked up to be rolled, and
    # the hand that holds them rests over the kept humans: one H4 of three is seen.
    covered = dalek(("DOC", "top", 100.0, 20.0), ("H4", "kept-humans", 40.0, 80.0),
                    *[("D3", "kept-daleks", 190.0 + 30 * i, 80.0) for i in range(3)])
    assert reads.decide(covered, game) == Note("camera.count", {"n": 5, "need": 10})
    every = dalek(("DOC", "top", 100.0, 20.0),
                  *[(f, "kept-humans", 30.0 + 25 * i, 80.0)
                    for i, f in enumerate(["H4", "H4", "H4", "H2", "H2"])],
                  *[(f, "kept-daleks", 190.0 + 25 * i, 80.0)
                    for i, f in enumerate(["D3", "D3", "D3", "D2"])])
    assert reads.decide(every, game) == Apply(  # no dice left: every one was kept
        {"keep": ["D2", "D3", "D3", "D3", "H2", "H2", "H4", "H4", "H4"]})


def after_a_turn() -> Game:
    """Ana rolled and scored; the effect she owed is given: Ben is to roll."""
    game = game_after({"roll": [6, 6, 5, 2, 1, 1]}, {"score": {"card": "two-dice",
                                                                "dice": [6, 6]}},
                      {"effect": {"player": "Ben", "card": "odd"}})
    assert game.view()["expects"] == ["roll"]
    return game


def test_a_die_knocked_before_a_roll_is_asked_not_taken_for_the_roll() -> None:
    reads, game = DicyReads(), after_a_turn()
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game)
    knocked = [*PLACES[:5], (PLACES[5][0] + 2 * SIDE, PLACES[5][1])]  # far, and lands a 2
    decision = reads.decide(seen([6, 6, 5, 2, 1, 2], knocked), game)
    assert isinstance(decision, Ask) and decision.kind == "nudge" and decision.circled == (5,)
    thrown = [(x + 7 * SIDE, y + 5 * SIDE) for x, y in PLACES]  # Ben's roll moves them all
    assert reads.decide(seen([3, 3, 4, 4, 5, 5], thrown), game) == Apply(
        {"roll": [3, 3, 4, 4, 5, 5]})


def test_a_die_knocked_while_effect_choices_are_owed_is_not_held_as_a_roll() -> None:
    game = game_after({"roll": [6, 6, 5, 2, 1, 1]},
                      {"score": {"card": "two-dice", "dice": [6, 6]}})
    reads = DicyReads()
    reads.remember(seen([6, 6, 5, 2, 1, 1]), game)
    pushed = [*PLACES[:5], (PLACES[5][0] + 12, PLACES[5][1])]
    assert reads.decide(seen([6, 6, 5, 2, 1, 4], pushed), game) is None


def test_an_answered_die_read_unsure_again_where_it_lay_asks_nothing() -> None:
    reads, game = DicyReads(), game_after({"roll": [6, 6, 5, 2, 1, 5]})
    reads.remember(seen([6, 6, 5, 2, 1, 5]), game)  # the sixth die's 5 came from the phone
    assert reads.decide(seen([6, 6, 5, 2, 1, None]), game) is None


def test_a_card_frozen_by_an_effect_and_flipped_with_the_reroll_card_is_no_question() -> None:
    game = after_a_turn().play_json({"roll": [6, 6, 5, 2, 1, 1]})  # Ben, his odd frozen
    cards = ["two-dice", "no-six", "odd", "straight", "two-pairs"]

    def ben(frozen: set[str], values: list[int], places: list[tuple[float, float]]
            ) -> Observation:
        row = tuple(PlaceSeen(f"p2-{i + 1}", c, side, f"{c}/{side}", 0.9) for i, c in
                    enumerate(cards) for side in ["frozen" if c in frozen else "active"])
        dice = seen(values, places).dice
        return Observation(dice, 800, 600, table=DicyObservation(row, ()))

    reads = DicyReads()
    reads.remember(ben(set(), [6, 6, 5, 2, 1, 1], PLACES), game)
    thrown = [*PLACES[:4], (650.0, 450.0), (700.0, 520.0)]
    # Ben turns odd over (the effect) as he turns straight for his reroll
    assert reads.decide(ben({"odd", "straight"}, [6, 6, 5, 2, 3, 4], thrown), game) == Apply(
        {"reroll": {"freeze": "straight", "dice": [6, 6, 5, 2, 3, 4]}})


def test_dalek_a_keep_and_the_rest_picked_up_at_once_is_taken_at_the_next_roll() -> None:
    reads, game = ten_rolled()
    kept = [("DOC", "top", 100.0, 20.0), *[("H4", "kept-humans", 30.0 + 25 * i, 80.0)
                                             for i in range(3)],
            *[("D3", "kept-daleks", 190.0 + 25 * i, 80.0) for i in range(3)]]
    # in one move: six kept, the DOC on top, the other three in a hand (only noted: not kept
    # as the table's last read)
    assert reads.decide(dalek(*kept), game) == Note("camera.count", {"n": 7, "need": 10})
    again = dalek(*kept, ("H2", "to-roll", 60.0, 185.0), ("D3", "to-roll", 100.0, 185.0),
                  ("EXT", "to-roll", 140.0, 185.0))
    assert reads.decide(again, game) == Apply(
        {"keep": ["D3", "D3", "D3", "H4", "H4", "H4"]}, {"roll": ["H2", "D3", "EXT"]})


def test_17_a_card_the_last_read_saw_in_its_place_is_no_play() -> None:
    reads = SeventeenReads()
    game = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    reads.remember(row("4/up"), game.play_json({"play": {"card": "4", "face": "up"}}))
    assert reads.decide(row("4/up"), game) is None  # the play taken back by phone: still there
    assert reads.decide(row("4/up", "back"), game) is None
    assert reads.decide(row("back"), game) == Apply({"play": {"face": "down"}})  # another card


def test_what_lies_there_as_the_camera_found_it_is_no_move() -> None:
    dalek_game = Game.start({"game": "dalek", "players": ["Ana", "Ben"]})
    ten = dalek(*[(f, "to-roll", x + dx, 150.0) for dx in (0.0, 5.0) for f, x in ROLL])
    seventeen = Game.start({"game": "17", "players": ["Ana", "Ben"]})
    cases: list[tuple[TableReads, Observation, Observation, Game]] = [
        (DicyReads(), seen([6, 6, 5, 2, 1, 1]), seen([]), game_after()),
        (DalekReads(), ten, dalek(), dalek_game),
        (SeventeenReads(), row("back"), row(), seventeen)]
    for reads, found, empty, game in cases:
        assert reads.decide(found, game) is not None  # seen after something moved: a move
        assert reads.decide(found, game, as_found=True) is None
        reads.remember(empty, game)  # an earlier read to compare with: compared
        assert reads.decide(found, game, as_found=True) is not None
