"""A 17 card played face down stays hidden from every phone until the call: two tables that
differ only in that card look the same through every address a watcher can fetch."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from flask.testing import FlaskClient

if TYPE_CHECKING:
    from tests.web.conftest import Phone

    NewTable = Callable[[], tuple[Phone, FlaskClient]]

HEADER = {"game": "17", "players": ["Ana", "Ben", "Cleo"], "target": 1}
BOOT = re.compile(r'<script id="boot" type="application/json">(.*?)</script>', re.S)


def first_round(hidden: str) -> list[dict[str, Any]]:
    """Ana plays a two-sided 3 face down, Ben ``hidden`` face down, Cleo a 2 face up."""
    return [{"play": {"card": "3d", "face": "down"}}, {"play": {"card": hidden, "face": "down"}},
            {"play": {"card": "2", "face": "up"}}]


def table_with(new_table: NewTable, hidden: str) -> tuple[Phone, FlaskClient]:
    """A table where Ben's face-down card is ``hidden``."""
    host, watcher = new_table()
    assert host.change("/api/game", {"header": HEADER}).status_code == 200
    host.play(*first_round(hidden))
    return host, watcher


def without_csrf(data: Any) -> Any:
    """A page's or state's JSON without the phone's own CSRF token, and the state without
    its ``run`` (drawn when the table starts)."""
    data = {k: v for k, v in data.items() if k != "csrf"}
    if "state" in data:
        data["state"] = {k: v for k, v in data["state"].items() if k != "run"}
    return data


def everything_a_watcher_sees(watcher: FlaskClient) -> dict[str, object]:
    """Status and body of every address a watcher can fetch, for game 1."""
    seen: dict[str, object] = {}
    page = watcher.get("/").get_data(as_text=True)
    match = BOOT.search(page)
    assert match is not None
    seen["/"] = without_csrf(json.loads(match.group(1)))
    seen["/api/state"] = without_csrf(watcher.get("/api/state").json)
    for path in ("/api/record", "/api/history", "/export/1.jsonl", "/export/1.csv"):
        response = watcher.get(path)
        seen[path] = (response.status_code, response.get_data(as_text=True))
    stream = watcher.get("/events", buffered=False)
    seen["/events"] = re.sub(r'"run":"\w+",', "", next(iter(cast(Iterable[bytes],
                                                                stream.response))).decode())
    stream.close()
    return seen


def test_a_watcher_cannot_tell_a_face_down_trap_from_a_4(new_table: NewTable) -> None:
    _, trap = table_with(new_table, "trap")
    _, four = table_with(new_table, "4")
    seen = everything_a_watcher_sees(trap)
    assert seen == everything_a_watcher_sees(four)
    assert seen["/export/1.jsonl"][0] == 409  # type: ignore[index]


def test_the_record_leaves_the_hidden_card_out_until_the_call(new_table: NewTable) -> None:
    host, watcher = table_with(new_table, "trap")
    actions = cast(dict[str, Any], watcher.get("/api/record").json)["actions"]
    assert actions == [first_round("trap")[0], {"play": {"face": "down"}},
                       first_round("trap")[2]]
    assert cast(dict[str, Any], host.client.get("/api/record").json)["actions"] == actions
    state = host.play({"call": ["Ana"]})
    assert state["view"]["over"]
    actions = cast(dict[str, Any], watcher.get("/api/record").json)["actions"]
    assert actions[1] == {"play": {"card": "trap", "face": "down"}}
    lines = watcher.get("/export/1.jsonl").get_data(as_text=True).splitlines()
    assert json.loads(lines[2]) == {"play": {"card": "trap", "face": "down"}}


def test_a_hidden_card_is_corrected_by_entering_it_again(new_table: NewTable) -> None:
    host, _ = table_with(new_table, "trap")
    response = host.change("/api/correct", {"index": 1, "line": {"play": {"card": "5",
                                                                          "face": "up"}}})
    assert response.status_code == 200, response.json
    row = response.json["state"]["view"]["row"]  # type: ignore[index]
    assert [c["card"] for c in row] == ["3d", "5", "2"]


def test_a_pin_holder_cannot_test_a_face_down_card_by_playing_one_like_it(
        new_table: NewTable) -> None:
    """Two 5 face up and Cleo's card face down: another 5 face up gets the same answer whether
    that card is a 5 or a 4. The deck's 3 fives count only once the call shows every card."""
    answers = {}
    for hidden in ("5", "4"):
        host, _ = table_with_row(new_table, hidden)
        fourth = host.act({"play": {"card": "5", "face": "up"}})
        answers[hidden] = (fourth.status_code, fourth.json["state"]["view"])  # type: ignore[index]
        assert fourth.status_code == 200, fourth.json
        called = host.act({"call": ["Ben"]})
        if hidden == "5":
            assert called.status_code == 400
            assert called.json == {"error": "the face-down cards, turned over, do not fit the "
                                            "deck (the deck has only 3 5 cards): correct the "
                                            "one entered wrong, then call 17 again"}
        else:
            assert called.status_code == 200, called.json
    assert answers["5"] == answers["4"]


def table_with_row(new_table: NewTable, hidden: str) -> tuple[Phone, FlaskClient]:
    """Ana and Ben play a 5 face up, Cleo ``hidden`` face down."""
    host, watcher = new_table()
    assert host.change("/api/game", {"header": HEADER}).status_code == 200
    host.play({"play": {"card": "5", "face": "up"}}, {"play": {"card": "5", "face": "up"}},
              {"play": {"card": hidden, "face": "down"}})
    return host, watcher
