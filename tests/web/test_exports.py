"""Exports of a finished game: its record as JSON Lines and its score sheet as CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.web.conftest import Phone

JENNA_TURN: list[dict[str, Any]] = [
    {"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D3", "D2", "DOC"]},
    {"keep": ["H4", "H4", "H4", "D3", "D3", "D3"]},
    {"roll": ["D3", "D2", "EXT"]},
    {"keep": ["D3", "D2"]},
]
PETER_TURN: list[dict[str, Any]] = [{"roll": ["D3"] * 10}, {"keep": ["D3"]}, {"stop": {}}]


def finish(phone: Phone, players: list[str]) -> dict[str, Any]:
    """A one-round Dalek Dice game to 10 points: the first player wins with 17."""
    header = {"game": "dalek", "players": players, "target": 10}
    assert phone.change("/api/game", {"header": header}).status_code == 200
    return phone.play(*JENNA_TURN, {"undo": {}}, JENNA_TURN[-1], *PETER_TURN)


def test_a_finished_game_is_in_the_history_with_its_winner(phone: Phone) -> None:
    state = finish(phone, ["Jenna", "Peter"])
    assert state["view"]["over"] and state["wins"] == {"Jenna": 1}
    body = phone.client.get("/api/history").json
    assert body is not None
    assert [g["winners"] for g in body["games"]] == [["Jenna"]]
    assert body["wins"] == {"Jenna": 1}


def test_the_record_export_is_the_standing_actions(phone: Phone) -> None:
    state = finish(phone, ["Jenna", "Peter"])
    response = phone.client.get(f"/export/{state['game_id']}.jsonl")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert lines == [{"game": "dalek", "players": ["Jenna", "Peter"], "target": 10},
                     *JENNA_TURN, *PETER_TURN]


def test_the_csv_export_has_a_row_per_turn_with_running_totals(phone: Phone) -> None:
    state = finish(phone, ["Jenna", "Peter"])
    response = phone.client.get(f"/export/{state['game_id']}.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(r["round"], r["player"], r["points"], r["ending"], r["total"]) for r in rows] == [
        ("1", "Jenna", "17", "no-dice", "17"), ("1", "Peter", "0", "stop", "0")]


def test_csv_cells_are_never_formulas(phone: Phone) -> None:
    state = finish(phone, ["=1+1", "@SUM"])
    text = phone.client.get(f"/export/{state['game_id']}.csv").get_data(as_text=True)
    players = [row["player"] for row in csv.DictReader(io.StringIO(text))]
    assert players == ["'=1+1", "'@SUM"]


def test_a_17_round_exports_its_tokens(phone: Phone) -> None:
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"], "target": 1}
    assert phone.change("/api/game", {"header": header}).status_code == 200
    state = phone.play({"play": {"card": "3d", "face": "down"}}, {"play": {"face": "down"}},
                       {"play": {"card": "trap", "face": "down"}}, {"call": ["Ana", "Ben"]},
                       {"reveal": ["4"]})
    assert state["view"]["winners"] == ["Cleo"]
    text = phone.client.get(f"/export/{state['game_id']}.csv").get_data(as_text=True)
    (row,) = csv.DictReader(io.StringIO(text))
    assert (row["caller"], row["total"], row["row"], row["starts_next"]) == (
        "Ana", "7", "3d 4 trap", "Cleo")


def test_an_unknown_game_is_a_404(phone: Phone) -> None:
    response = phone.client.get("/export/99.jsonl")
    assert response.status_code == 404
    assert response.json == {"error": "There is no game 99."}
    huge = 10**30
    assert phone.client.get(f"/export/{huge}.csv").json == {"error": f"There is no game {huge}."}


def test_a_game_in_progress_is_not_exported(phone: Phone) -> None:
    header = {"game": "17", "players": ["Ana", "Ben", "Cleo"]}
    state = phone.change("/api/game", {"header": header}).json
    assert state is not None
    game_id = state["state"]["game_id"]
    phone.play({"play": {"card": "trap", "face": "down"}})
    for kind in ("jsonl", "csv"):
        response = phone.client.get(f"/export/{game_id}.{kind}")
        assert response.status_code == 409
        assert response.json == {
            "error": f"Game {game_id} is not over yet; it can be exported once it has ended."}
    assert phone.change("/api/abandon").status_code == 200
    assert phone.client.get(f"/export/{game_id}.jsonl").status_code == 409
