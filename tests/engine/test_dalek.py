"""Dalek Dice: turns, scoring, refusals, the end of the game and the stop-or-roll hints."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, product
from pathlib import Path
from typing import Any

import pytest

from engine import Game, IllegalAction, read_record
from engine.dalek import Face

ALL = ["H4", "H2", "D3", "D2", "DOC", "EXT"]


def play(lines: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Ben"),
         **options: Any) -> Game:
    game = Game.start({"game": "dalek", "players": list(players), **options})
    for line in lines:
        game = game.play_json(line)
    return game


def turn_scoring(points_lines: list[dict[str, Any]]) -> int:
    """Ana's points after the given lines of her first turn."""
    result: int = play(points_lines).view()["scores"]["Ana"]
    return result


def test_three_doctors_end_the_turn_with_nothing_even_with_three_exterminates() -> None:
    game = play([
        {"roll": ["DOC", "EXT", "H4", "H2", "H2", "H2", "D3", "D3", "D3", "D2"]},
        {"keep": ["D3"]},
        {"roll": ["DOC", "EXT", "H4", "H4", "H4", "D3", "D3"]},
        {"keep": ["D3", "D3"]},
        {"roll": ["DOC", "EXT", "H4"]},
    ])
    view = game.view()
    assert view["scores"]["Ana"] == 0
    assert view["turn"] == "Ben"
    assert view["results"][-1]["ending"] == "doctor"


def test_three_exterminates_double_the_humans_and_add_the_bonus_when_no_dice_are_left() -> None:
    lines = [
        {"roll": ["EXT", "H4", "H4", "H4", "H2", "D2", "D2", "D2", "D2", "D2"]},
        {"keep": ["H4", "H4"]},
        {"roll": ["EXT", "H4", "D2", "D2", "D2", "D2", "D2"]},
        {"keep": ["D2"]},
        {"roll": ["EXT", "H2", "D2", "D2", "D2"]},
        {"keep": ["H2"]},
    ]
    view = play(lines).view()
    assert view["scores"]["Ana"] == 2 * 10
    assert view["results"][-1]["ending"] == "exterminate"
    # The same, keeping every last die: 2 × humans + 5.
    lines[-1] = {"keep": ["H2", "D2", "D2", "D2"]}
    assert turn_scoring(lines) == 2 * 10 + 5


def test_no_dice_left_scores_humans_plus_five_only_when_the_daleks_match() -> None:
    many_daleks = [{"roll": ["H4", "H4", "D3", "D3", "D3", "D2", "D2", "D2", "H2", "D3"]},
                   {"keep": ["H4", "H4", "D3", "D3", "D3", "D2", "D2", "D2", "H2", "D3"]}]
    assert turn_scoring(many_daleks) == 10 + 5
    few_daleks = [{"roll": ["H4", "H4", "H4", "H4", "D3", "D2", "D2", "D2", "H2", "D3"]},
                  {"keep": ["H4", "H4", "H4", "H4", "D3", "D2", "D2", "D2", "H2", "D3"]}]
    assert turn_scoring(few_daleks) == 0


def test_stop_scores_the_humans_without_bonus_when_the_daleks_match() -> None:
    start = [{"roll": ["H4", "H2", "D3", "D3", "D2", "H2", "H2", "H2", "H2", "H2"]}]
    assert turn_scoring([*start, {"keep": ["H4", "H2", "D3", "D3"]}, {"stop": {}}]) == 6
    assert turn_scoring([*start, {"keep": ["H4", "H2", "D3"]}, {"stop": {}}]) == 0


def test_extra_doctors_return_to_the_pool() -> None:
    game = play([{"roll": ["DOC", "DOC", "DOC", "EXT", "EXT", "H4", "H4", "D3", "D3", "D2"]},
                 {"keep": ["H4", "D3"]}])
    table = game.view()["table"]
    assert table["top"] == {"DOC": 1, "EXT": 1}
    assert table["pool"] == 10 - 2 - 2


@pytest.mark.parametrize(("lines", "message"), [
    ([{"keep": ["H4"]}], "it is Ana's turn to roll 10 dice, not to keep"),
    ([{"stop": {}}], "Ana has not rolled yet; stop comes after a roll and a keep"),
    ([{"roll": ["H4"] * 9}], "Ana rolls 10 dice; this roll has 9"),
    ([{"roll": ["H4"] * 9 + ["H5"]}], "a die must be one of H4, H2, D3, D2, DOC, EXT, not \"H5\""),
    ([{"roll": ["H4"] * 9 + [4]}], "a die must be one of H4, H2, D3, D2, DOC, EXT, not 4$"),
    ([{"roll": ["H4"] * 10}, {"keep": []}], "keep at least one die from every roll"),
    ([{"roll": ["H4"] * 9 + ["DOC"]}, {"keep": ["DOC"]}],
     "the Doctor and Exterminate go to the top by"),
    ([{"roll": ["H4"] * 9 + ["DOC"]}, {"keep": ["D3"]}], "it has no D3 to keep"),
    ([{"roll": ["H4"] + ["D3"] * 9}, {"keep": ["H4", "H4"]}], "it has 1 × H4 to keep, not 2"),
    ([{"roll": ["H4"] * 9 + ["DOC"]}, {"stop": {}}], "it is Ana's turn to keep, not to stop"),
    ([{"roll": ["H4"] * 10}, {"keep": ["H4"]}, {"roll": ["H4"] * 10}], "Ana rolls 9 dice"),
    ([{"stop": {"now": True}}], 'stop does not take "now"'),
    ([{"jump": {}}], "a Dalek Dice action must be one of roll, keep, stop"),
])
def test_refusals_say_why_and_change_nothing(lines: list[dict[str, Any]], message: str) -> None:
    game = play(lines[:-1])
    with pytest.raises(IllegalAction, match=message.replace("(", r"\(")):
        game.play_json(lines[-1])
    assert play(lines[:-1]).view() == game.view()


def whole_turn() -> list[dict[str, Any]]:
    """Lines of one turn that keeps all ten dice: 16 humans, 18 Daleks → 16 + 5 = 21."""
    faces = ["H4"] * 4 + ["D3"] * 6
    return [{"roll": faces}, {"keep": faces}]


def test_the_round_is_finished_after_the_target_and_ties_share() -> None:
    turn = whole_turn()
    game = play(turn * 5, players=("Ana", "Ben", "Cleo"), target=50)
    view = game.view()
    # Ana reached 63 after her 3rd turn (round 3); Ben and Cleo still get their 3rd turns.
    assert view["scores"] == {"Ana": 42, "Ben": 42, "Cleo": 21}
    assert not view["over"]
    game = play(turn * 9, players=("Ana", "Ben", "Cleo"), target=50)
    view = game.view()
    assert view["over"] and view["turn"] is None and view["expects"] == []
    assert view["winners"] == ["Ana", "Ben", "Cleo"]
    with pytest.raises(IllegalAction, match="the game is over"):
        game.play_json({"roll": ["H4"] * 10})


def test_the_highest_total_wins() -> None:
    lose = [{"roll": ["H4"] * 10}, {"keep": ["H4"]}, {"stop": {}}]
    game = play([*whole_turn(), *lose], target=20)
    assert game.view()["winners"] == ["Ana"]


def test_header_options_are_checked() -> None:
    with pytest.raises(IllegalAction, match="Dalek Dice is for 2 to 8 players, not 1"):
        Game.start({"game": "dalek", "players": ["Ana"]})
    with pytest.raises(IllegalAction, match='does not take "mode"'):
        Game.start({"game": "dalek", "players": ["Ana", "Ben"], "mode": "glacial"})
    with pytest.raises(IllegalAction, match="the target is a whole number from 1 to 10000"):
        Game.start({"game": "dalek", "players": ["Ana", "Ben"], "target": 0})


def brute_force_roll_once(pool: int, top_doc: int, top_ext: int, kept: list[str]) -> Fraction:
    """Expected points of one more roll, over all 6**pool ordered rolls and all keeps."""
    total = Fraction(0)
    base = play(_lines_to_reach(pool, top_doc, top_ext, kept))
    for roll in product(ALL, repeat=pool):
        best = 0
        rolled = base.play_json({"roll": list(roll)})
        if rolled.view()["turn"] != "Ana":
            continue
        hd = [f for f in roll if f not in ("DOC", "EXT")]
        for size in range(len(hd) + 1):
            for keep in set(combinations(sorted(hd), size)):
                try:
                    after = rolled.play_json({"keep": list(keep)})
                except IllegalAction:
                    continue
                if after.view()["turn"] == "Ana":
                    after = after.play_json({"stop": {}})
                best = max(best, after.view()["scores"]["Ana"])
        total += best
    return total / 6**pool


def _lines_to_reach(pool: int, top_doc: int, top_ext: int, kept: list[str]) -> list[
        dict[str, Any]]:
    """Lines that leave Ana deciding with ``pool`` dice, the given top and kept dice."""
    first = kept + ["DOC"] * min(top_doc, 1) + ["EXT"] * min(top_ext, 1)
    lines: list[dict[str, Any]] = []
    left = 10
    filler = ["H2"] * (10 - len(first) - (top_doc > 1) - (top_ext > 1) - pool)
    roll1 = first + ["H2"] * (left - len(first))
    lines += [{"roll": roll1}, {"keep": kept + filler[: len(filler)]}]
    left = 10 - len(kept) - len(filler) - min(top_doc, 1) - min(top_ext, 1)
    if top_doc > 1 or top_ext > 1:
        second = ["DOC"] * (top_doc > 1) + ["EXT"] * (top_ext > 1)
        lines += [{"roll": second + ["H2"] * (left - len(second))}, {"keep": []}]
    return lines


@pytest.mark.parametrize(("pool", "top_doc", "top_ext", "kept"), [
    (3, 1, 0, ["H4", "H4", "H4", "D3", "D3", "D3"]),
    (2, 2, 2, ["H4", "D3"]),
    (3, 2, 1, ["H2", "D2"]),
    (2, 0, 2, ["H4", "H4"]),
])
def test_roll_once_expected_agrees_with_brute_force(pool: int, top_doc: int, top_ext: int,
                                                   kept: list[str]) -> None:
    game = play(_lines_to_reach(pool, top_doc, top_ext, kept))
    table = game.view()["table"]
    assert (table["pool"], table["top"]["DOC"], table["top"]["EXT"]) == (pool, top_doc, top_ext)
    assert Counter(table["kept"]) >= Counter(kept)
    hints = game.hints()
    expected = brute_force_roll_once(pool, top_doc, top_ext, kept)
    assert hints["roll_expected"] == pytest.approx(float(expected), abs=1e-12)
    assert hints["doctor_chance"] == pytest.approx(1 - (5 / 6) ** pool if top_doc == 2 else 0)
    assert hints["stop_points"] == (table["humans"] if table["daleks"] >= table["humans"] else 0)


def test_hints_are_empty_unless_the_player_decides_between_stop_and_roll() -> None:
    assert play([]).hints() == {}
    assert play([{"roll": ["H4"] * 10}]).hints() == {}


def test_faces_count_humans_and_daleks() -> None:
    assert [(f.humans, f.daleks) for f in Face] == [(4, 0), (2, 0), (0, 3), (0, 2), (0, 0),
                                                      (0, 0)]


RECORDS = Path(__file__).parent / "records"


@pytest.mark.parametrize(("record", "scores", "endings", "winners"), [
    ("dalek-doctor", {"Ana": 0, "Ben": 0}, ["doctor", "stop"], []),
    ("dalek-exterminate", {"Ana": 20, "Ben": 21}, ["exterminate", "exterminate"], []),
    ("dalek-stop-undo-shared", {"Ana": 48, "Ben": 46, "Cleo": 48},
     ["stop", "stop", "no-dice", "no-dice", "no-dice", "stop", "no-dice", "no-dice", "no-dice"],
     ["Ana", "Cleo"]),
    # Ana reaches the target first (33 of 30); Ben, last in the round, still plays and overtakes
    # with 3 EXT: 2 × 16 humans, no bonus (the extra EXT is a die left). The keep that ends the
    # game is undone and kept again: the undo reopened the game.
    ("dalek-overtake-last-round", {"Ana": 33, "Ben": 36},
     ["no-dice", "stop", "stop", "exterminate"], ["Ben"]),
])
def test_records_replay_to_their_scores(record: str, scores: dict[str, int],
                                        endings: list[str], winners: list[str]) -> None:
    view = read_record((RECORDS / f"{record}.jsonl").read_text().splitlines()).view()
    assert view["scores"] == scores
    assert [r["ending"] for r in view["results"]] == endings
    assert view["winners"] == winners and view["over"] == bool(winners)
