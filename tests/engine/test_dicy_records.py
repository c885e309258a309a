"""The Dicy Cards records in tests/engine/records replay to the views they should."""

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, RecordError, read_record, write_record

RECORDS = Path(__file__).parent / "records"


def lines(name: str) -> list[str]:
    return (RECORDS / f"dicy-{name}.jsonl").read_text(encoding="utf-8").splitlines()


def replay(name: str) -> Game:
    return read_record(lines(name))


def frozen(view: dict[str, Any]) -> dict[str, list[str]]:
    return {p: [c for c, s in row.items() if s == "frozen"] for p, row in view["rows"].items()}


def test_every_dicy_record_is_checked_here() -> None:
    names = {p.name[len("dicy-"):-len(".jsonl")] for p in RECORDS.glob("dicy-*.jsonl")}
    assert names == {"rules-example", "cristina", "interglacial", "four-players",
                     "forced-skip-undo", "end-tiebreak", "shared-win"}


@pytest.mark.parametrize("name", ["rules-example", "cristina", "interglacial", "four-players",
                                  "forced-skip-undo", "end-tiebreak", "shared-win"])
def test_a_written_record_replays_to_the_same_view(name: str) -> None:
    game = replay(name)
    again = read_record(write_record(game).splitlines())
    assert again.view() == game.view()
    assert "undo" not in write_record(game)


def test_the_rules_md_example() -> None:
    view = replay("rules-example").view()
    assert view["scores"] == {"Ana": 12, "Ben": 0}
    assert not view["over"] and view["winners"] == []
    assert view["turn"] == "Ana" and view["round"] == 2 and view["expects"] == ["roll"]
    assert frozen(view) == {"Ana": ["odd"], "Ben": []}
    assert view["results"] == [
        {"player": "Ana", "round": 1, "what": "score", "card": "two-dice", "dice": [6, 6],
         "points": 12, "choices": [{"player": "Ben", "choice": "freeze", "card": "odd"}]},
        {"player": "Ben", "round": 1, "what": "skip", "card": None, "dice": None, "points": 0,
         "choices": [{"player": "Ana", "choice": "reactivate", "card": "two-dice"}]},
    ]


def test_cristina_scores_24_25_10_then_must_skip() -> None:
    game = replay("cristina")
    view = game.view()
    assert view["scores"] == {"Cristina": 59, "Bruno": 46}
    mine = [(r["card"], r["dice"], r["points"]) for r in view["results"]
            if r["player"] == "Cristina"]
    assert mine == [("pair", [6, 6], 24), ("no-six", [5, 5, 4, 4, 4, 3], 25),
                    ("straight", [1, 2, 3, 4], 10)]
    assert view["turn"] == "Cristina" and view["expects"] == ["skip"]
    assert view["active"]["Cristina"] == 0
    assert not view["over"] and view["round"] == 4
    game = game.play_json({"skip": {}})
    assert game.view()["active"]["Cristina"] == 5


def test_cristina_could_have_scored_21_with_no_six_before_her_rerolls() -> None:
    game = read_record(lines("cristina")[:6])
    assert game.view()["table"]["dice"] == [5, 5, 4, 4, 2, 1]
    assert game.hints()["cards"]["no-six"] == {"dice": [5, 5, 4, 4, 2, 1], "points": 21}
    assert game.hints()["cards"]["straight"] == {"dice": [5, 4], "points": 9}
    rerolled = read_record(lines("cristina")[:8])
    assert rerolled.view()["table"]["rerolls"] == 2
    assert rerolled.view()["table"]["frozen_to_reroll"] == ["odd", "two-pairs"]


def test_a_roll_after_cristinas_third_turn_is_refused_with_its_line() -> None:
    bad = [*lines("cristina"), json.dumps({"roll": [1, 2, 3, 4, 5, 6]})]
    with pytest.raises(RecordError) as err:
        read_record(bad)
    assert str(err.value) == (
        "line 16: all of Cristina's cards are frozen: Cristina must skip, not roll")


def test_interglacial_sixes_lowest_three_and_the_distinct_cards() -> None:
    view = replay("interglacial").view()
    assert view["cards"] == ["sixes", "pair", "lowest-three", "distinct-x4", "distinct-sum"]
    assert view["scores"] == {"Ana": 42, "Ben": 19, "Cleo": 36}
    assert view["turn"] == "Ana" and view["round"] == 3
    assert frozen(view) == {"Ana": ["sixes", "distinct-sum"], "Ben": ["distinct-sum"],
                            "Cleo": ["sixes", "pair", "distinct-x4"]}
    points = [(r["player"], r["card"], r["points"]) for r in view["results"]]
    assert points == [("Ana", "sixes", 18), ("Ben", "lowest-three", 4),
                      ("Cleo", "distinct-x4", 24), ("Ana", "pair", 24),
                      ("Ben", "distinct-sum", 15), ("Cleo", "sixes", 12)]
    # Ana's first sixes found nobody with a frozen card: no choice was owed
    assert view["results"][0]["choices"] == []
    assert view["results"][1]["choices"] == [
        {"player": "Ana", "choice": "freeze", "card": "distinct-sum"},
        {"player": "Cleo", "choice": "freeze", "card": "pair"}]


def test_four_players_forty_minus_same_x5_and_effects_around_the_table() -> None:
    view = replay("four-players").view()
    assert view["scores"] == {"Ana": 32, "Ben": 19, "Cleo": 24, "Dan": 3}
    assert view["turn"] == "Dan" and view["round"] == 2 and view["expects"] == ["roll"]
    assert frozen(view) == {"Ana": ["two-dice", "same-x5"], "Ben": [],
                            "Cleo": ["lowest-three", "sixes"],
                            "Dan": ["two-dice", "lowest-three", "same-x5"]}
    by_turn = [(r["player"], r["card"], r["points"], [c["player"] for c in r["choices"]])
               for r in view["results"]]
    assert by_turn == [
        ("Ana", "same-x5", 20, []),
        ("Ben", "forty-minus", 19, []),
        ("Cleo", "two-dice", 12, ["Dan", "Ben"]),  # left and right, not Ana across
        ("Dan", "lowest-three", 3, ["Ana", "Cleo", "Ben"]),
        ("Ana", "two-dice", 12, ["Ben"]),  # Dan had every card frozen
        ("Ben", None, 0, ["Cleo", "Dan", "Ana"]),  # a skip
        ("Cleo", "sixes", 12, ["Dan"]),  # Ben had nothing frozen
    ]


def test_forced_skip_skip_after_a_roll_and_undo_lines() -> None:
    game = replay("forced-skip-undo")
    view = game.view()
    assert view["scores"] == {"Ana": 39, "Ben": 20}
    assert view["turn"] == "Ana" and view["round"] == 4 and view["expects"] == ["roll"]
    assert view["active"] == {"Ana": 5, "Ben": 5}
    assert len(game.actions) == len(lines("forced-skip-undo")) - 1 - 2 * 2
    ana = [(r["what"], r["card"], r["points"]) for r in view["results"] if r["player"] == "Ana"]
    assert ana == [("score", "odd", 18), ("score", "straight", 21), ("skip", None, 0)]
    assert view["results"][1]["choices"] == [
        {"player": "Ana", "choice": "freeze", "card": "no-six"}]
    assert view["results"][-1] == {"player": "Ben", "round": 3, "what": "skip", "card": None,
                                   "dice": None, "points": 0, "choices": []}


def test_the_round_is_finished_and_final_choices_break_the_tie() -> None:
    game = replay("end-tiebreak")
    view = game.view()
    assert view["over"] and view["turn"] is None and view["expects"] == []
    assert view["scores"] == {"Ana": 22, "Ben": 22, "Cleo": 3, "Dan": 11}
    assert view["active"] == {"Ana": 3, "Ben": 4, "Cleo": 3, "Dan": 4}
    assert view["winners"] == ["Ben"]
    assert len(view["results"]) == 4
    before = game.undo()
    assert not before.view()["over"] and before.view()["expects"] == ["effect"]
    assert before.view()["pending"][0]["player"] == "Ana"


def test_a_tie_on_points_and_active_cards_is_a_shared_win() -> None:
    view = replay("shared-win").view()
    assert view["over"] and view["winners"] == ["Ana", "Ben"]
    assert view["scores"] == {"Ana": 22, "Ben": 22} and view["active"] == {"Ana": 4, "Ben": 4}
