"""Generated wrong input to every POST of the score pad, on a game in progress of each game:
wrong JSON in each field, another game's lines, bodies that are no JSON. Each is refused
with a 4xx (never a 500), in a player's words in the phone's language; the game and its
journal stay as they were; a right action after is taken."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.journal import Journal
from device.session import TableSession
from engine import Game
from engine.selfplay import HEADERS, random_lines
from tests.web.conftest import Phone, make_app
from web.i18n import LANGUAGES

CODE = re.compile(r"[\"{}\[\]<>`\\]|\b(?:None|True|False|null|true|false|NaN|Infinity)\b"
                  r"|Error\b|Traceback|__|\b(?:dict|str|int|float|bool|NoneType)\b")
"""What a player should never read outside the quotes around their own words: code syntax,
Python's names; the catalogs hold no straight quote, so one is an id or JSON."""
QUOTED = re.compile("“[^”]*”|«[^»]*»")
UNSEEN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
LONGEST = 400
"""The longest refusal a phone shows (the longest in the catalogs, with the words it quotes
cut short, is about 250 characters)."""
JOURNAL_TABLES = ("games", "lines", "finals", "changes")

words = st.text(st.characters(exclude_characters="“”«»"), max_size=12)
wrong = st.recursive(
    st.none() | st.booleans() | st.floats() | words
    | st.sampled_from([2**70, -(2**70), -1, 0, 1, 10**30, "x" * 3000, "\u202eAna", "H4", "Ana",
                       "undo", "roll", "sixes", "trap", "down"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        words | st.sampled_from(["card", "dice", "face", "player", "roll", "undo"]), inner,
        max_size=3),
    max_leaves=6)
"""A value of the wrong kind (or a right one where it is wrong)."""
RAW = st.sampled_from([b"", b"\xff\xfe\x00", b"{not json", b"[" * 7000, b"1" * 5000,
                       b'{"base_version": NaN}', b'{"base_version": 1e999}',
                       b'{"line": {"undo": {}}, "base_version": 0, "base_version": "x"}'])


class Table:
    """A table with a game of ``header`` a few moves in, and a phone that entered the PIN."""

    def __init__(self, header: dict[str, Any], folder: Path) -> None:
        self.header = header
        self.folder = folder
        self.path = folder / "table.db"
        self.journal = Journal(self.path)
        self.session = TableSession(self.journal)
        self.session.start()
        self.phone = Phone(make_app(self.session, self.journal).test_client())
        assert self.phone.enter_pin(self.journal.pin()).status_code == 200
        assert self.phone.change("/api/game", {"header": header}).status_code == 200
        self.phone.play(*random_lines(header, 4, Random(3)))

    def close(self) -> None:
        self.session.stop()
        self.journal.close()

    def game(self) -> Game:
        game = self.session.standing()[1]
        assert game is not None
        return game

    def legal_line(self, seed: int) -> dict[str, Any]:
        game = self.game()
        line: dict[str, Any] = game.rules.action_to_json(
            game.rules.random_action(game.state, Random(seed)))
        return line

    def kept(self) -> tuple[object, ...]:
        """The state every phone sees and the journal's rows."""
        with sqlite3.connect(self.path) as db:
            rows = tuple(tuple(db.execute(f"SELECT * FROM {name}")) for name in JOURNAL_TABLES)
        return json.dumps(self.phone.state(), sort_keys=True), rows


def templates(table: Table, seed: int) -> dict[str, dict[str, Any]]:
    """A right body of each POST (its base version the current one)."""
    version = table.phone.state()["version"]
    record = table.game().public_record()[1:]
    return {
        "/api/action": {"line": table.legal_line(seed), "base_version": version},
        "/api/correct": {"index": 0, "line": record[0], "then": [{"index": 1, "line": record[1]}],
                         "drop_from": len(record), "base_version": version},
        "/api/game": {"header": {**table.header}, "colours": {table.header["players"][0]: 1},
                      "draw_first": False, "abandon_current": True, "base_version": version},
        "/api/hints": {"on": False, "base_version": version},
        "/api/abandon": {"base_version": version},
        "/api/resume": {"game_id": 1, "base_version": version},
        "/api/camera/answer": {"question": 1, "answer": {"ignore": True},
                               "base_version": version},
        "/api/camera/teach": {"do": "start", "kind": "dalek", "base_version": version},
        "/api/camera/recalibrate": {"base_version": version},
    }


WEIGHT = ["/api/action"] * 4 + ["/api/correct", "/api/game"] * 2
"""The POSTs whose lines and headers the engine reads, tried more often."""


def places(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where each value of a body is (the body itself first)."""
    yield at
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, inner in items:
        yield from places(inner, (*at, key))


def put(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    """``value`` with ``new`` at ``at``; ``new`` None at a key of an object drops the key."""
    if not at:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    if len(at) == 1 and new is None and isinstance(copy, dict):
        del copy[at[0]]
    else:
        copy[at[0]] = put(value[at[0]], at[1:], new)
    return copy


@st.composite
def wrong_bodies(draw: st.DrawFn, right: dict[str, Any]) -> bytes:
    """A right body with one value made wrong, a key dropped or added, or no JSON at all."""
    how = draw(st.sampled_from(["value", "value", "drop", "add", "raw"]))
    if how == "raw":
        return draw(RAW)
    at = draw(st.sampled_from(list(places(right))))
    if how == "drop" and at:
        body = put(right, at, None)
    elif how == "add":
        here = right
        for key in at:
            here = here[key]
        body = put(right, at, {**here, draw(words): draw(wrong)} if isinstance(here, dict)
                   else [*here, draw(wrong)] if isinstance(here, list) else draw(wrong))
    else:
        body = put(right, at, draw(wrong))
    return json.dumps(body, allow_nan=True).encode()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Callable[[str], Table]]:
    made: list[Table] = []

    def make(game: str) -> Table:
        made.append(Table(HEADERS[game], tmp_path / str(len(made))))
        return made[-1]

    yield make
    for table in made:
        table.close()


def post(phone: Phone, path: str, data: bytes, lang: str) -> Any:
    return phone.client.post(path, data=data, headers={
        "X-CSRF-Token": phone.csrf, "Content-Type": "application/json", "Accept-Language": lang})


@pytest.mark.parametrize("game", list(HEADERS))
def test_wrong_input_is_refused_in_words_and_changes_nothing(
        tables: Callable[[str], Table], game: str) -> None:
    table = tables(game)
    other_games = [line for header in HEADERS.values() if header["game"] != game
                   for line in random_lines(header, 30, Random(5))]

    @settings(max_examples=150, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data(), path=st.sampled_from(list(templates(table, 0)) + WEIGHT),
           seed=st.integers(0, 3), lang=st.sampled_from(LANGUAGES[1:]))
    def refused(data: st.DataObject, path: str, seed: int, lang: str) -> None:
        nonlocal table
        right = templates(table, seed)
        if path == "/api/action" and data.draw(st.booleans()):
            body = json.dumps({**right[path], "line": data.draw(st.sampled_from(other_games))})
            sent = body.encode()
        else:
            sent = data.draw(wrong_bodies(right[path]))
        before = table.kept()
        answer = post(table.phone, path, sent, "en")
        if answer.status_code == 200:  # the change was right after all: a fresh table
            table = tables(game)
            return
        assert 400 <= answer.status_code < 500, (sent[:200], answer.get_data()[:300])
        message = answer.json["error"]
        assert message and len(message) <= LONGEST and not UNSEEN.search(message), message
        assert not CODE.search(QUOTED.sub("", message)), message
        translated = post(table.phone, path, sent, lang)
        assert translated.status_code == answer.status_code
        assert translated.json["error"] != message, (lang, message)
        assert table.kept() == before, (sent[:200], message)

    refused()
    assert table.phone.act(table.legal_line(1)).status_code == 200
