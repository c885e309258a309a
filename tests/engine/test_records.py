"""Game records: every record under tests/engine/records replays, round-trips and refuses bad
lines with their line number."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from random import Random
from typing import Any

import pytest

from engine import Game, IllegalAction, RecordError, read_record, write_record
from engine.dalek import Action as DalekAction
from engine.dalek import DalekRules, DalekState
from engine.selfplay import random_lines

RECORDS = sorted((Path(__file__).parent / "records").glob("*.jsonl"))
LONG_DALEK = {"game": "dalek", "players": ["Ana", "Ben", "Cleo", "Dai"], "target": 10_000}


def test_there_are_records_of_every_game() -> None:
    games = {json.loads(p.read_text().splitlines()[0])["game"] for p in RECORDS}
    assert games == {"dicy", "dalek", "17"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_each_record_replays_and_its_export_replays_the_same(path: Path) -> None:
    game = read_record(path.read_text(encoding="utf-8").splitlines())
    exported = write_record(game)
    again = read_record(exported.splitlines())
    assert again.view() == game.view()
    assert again.record() == game.record()
    # The export holds the standing actions only: no undo lines.
    assert all("undo" not in json.loads(line) for line in exported.splitlines()[1:])


def test_golden_jenna_and_peter() -> None:
    path = Path(__file__).parent / "records" / "dalek-jenna-peter.jsonl"
    view = read_record(path.read_text().splitlines()).view()
    assert view["scores"] == {"Jenna": 17, "Peter": 15}
    assert [(r["player"], r["points"], r["ending"]) for r in view["results"]] == [
        ("Jenna", 17, "no-dice"), ("Peter", 15, "no-dice")]
    assert view["turn"] == "Jenna" and view["round"] == 2


HEADER = '{"game": "dalek", "players": ["Ana", "Ben"]}'


@pytest.mark.parametrize(("lines", "line", "why"), [
    ([], 1, "the record is empty"),
    (["{oops"], 1, "the text cannot be read at column"),
    (['{"game": "chess", "players": ["A", "B"]}'], 1, "this table does not play that game"),
    (['{"game": "Dalek Dice", "players": ["A", "B"]}'], 1,
     "this table does not play that game; it plays Dalek Dice, Dicy Cards, 17"),
    (['{"roll": ["H4"]}'], 1, "a game starts with its set-up: the game to play and its players"),
    (['{"game": "dalek"}'], 1, "a game starts with its set-up: the game to play and its players"),
    (['{"game": "dalek", "players": ["Zo\u00eb", "Zoe\u0308"]}'], 1,
     "two players have the same name: Zo\u00eb"),  # the same letters, written two ways
    (['{"game": "dalek", "players": ["Ana", "An\u200ba"]}'], 1,
     "two players have the same name: Ana"),
    ([HEADER + "\n", '{"roll": ["H4"}\r\n'], 2, "the text cannot be read at column 15"),
    ([HEADER, '{"stop": []}'], 2, "write stop with empty curly brackets, not []"),
    ([HEADER, '{"undo": "now"}'], 2, 'write undo with empty curly brackets, not "now"'),
    (['{"game": "17", "players": ["Ana", "Ben", "Cleo"]}', '{"play": {"face": "up", "card": "5"}}',
      '{"call": ["Ben", "Cleo", "Ben\u200b"]}'], 3, "is named twice in the call"),
    (['{"game": "dalek", "players": ["Ana", "Ana"]}'], 1, "two players have the same name"),
    (['{"game": "dalek", "players": ["Ana", ""]}'], 1, "every player needs a name"),
    (['{"game": "dalek", "players": ["Ana", "\\u200b"]}'], 1, "every player needs a name"),
    (['{"game": "dalek", "players": ["Ana", "Be\\nn"]}'], 1,
     'a name cannot hold line breaks or other control characters: "Be\\nn"'),
    (['{"game": "dalek", "players": ["\\u202eAna", "Ben"]}'], 1,
     'control characters: "\\u202eAna"'),  # shown escaped, not turning the message round
    (['{"game": "dalek", "players": ["Ana", "Be\\u2028n"]}'], 1,
     'line breaks or other control characters: "Be\\u2028n"'),  # Unicode's own line break
    ([HEADER, '{"roll": ["H4"], "keep": []}'], 2, "an action is one move"),
    ([HEADER, "", '{"undo": {}}'], 3, "there is nothing to undo"),
    ([HEADER, '{"roll": ' + json.dumps(["H4"] * 10) + "}", "", HEADER], 4,
     "a second game starts on this line; a record file holds one game"),  # two pasted together
    ([HEADER, '{"roll": ["H4"]} {"keep": ["H4"]}'], 2, "the text cannot be read at column 18"),
    ([HEADER, '{"roll": ' + json.dumps(["H4"] * 10) + "}", "[1, 2]"], 3, "an action is one move"),
])
def test_bad_lines_are_refused_with_their_number(lines: list[str], line: int, why: str) -> None:
    with pytest.raises(RecordError) as refused:
        read_record(lines)
    assert refused.value.line == line
    assert why in str(refused.value)
    assert str(refused.value).startswith(f"line {line}: ")


def test_records_written_other_ways_replay_as_written_plainly() -> None:
    plain = read_record(['{"game": "dalek", "players": ["Zo\u00eb", "Ben"], "target": 20}',
                         '{"roll": ' + json.dumps(["H4"] * 10) + "}", '{"keep": ["H4"]}'])
    other = read_record(['\ufeff{"game": "dalek", "players": ["Zo\u00eb", "Ben"], '
                         '"target": 20.0}',  # a BOM, a whole number written 20.0
                         '{"roll": ' + json.dumps(["H4"] * 10) + "}", '{"keep": ["H4"]}'])
    assert other.view() == plain.view()


def test_a_record_takes_names_as_rules_allow_while_a_new_game_here_keeps_the_pads_rules(
        ) -> None:
    # RULES.md: "unique non-empty names"; the score pad trims a name and takes 24 letters
    header = {"game": "dalek", "players": ["Maria Fernanda de Oliveira", " Ben "]}
    game = read_record([json.dumps(header),
                        '{"roll": ["H4", "H4", "H4", "H2", "H2", "D3", "D3", "D2", "D2", "DOC"]}',
                        '{"keep": ["H4", "D2", "D2"]}', '{"stop": {}}'])
    assert game.view()["players"] == ["Maria Fernanda de Oliveira", " Ben "]
    assert game.view()["scores"] == {"Maria Fernanda de Oliveira": 4, " Ben ": 0}
    assert game.view()["turn"] == " Ben "
    with pytest.raises(IllegalAction, match="a name neither starts nor ends with a space"):
        Game.start(header)
    with pytest.raises(IllegalAction, match="a name has at most 24 letters"):
        Game.start({"game": "dalek", "players": ["Maria Fernanda de Oliveira", "Ben"]})


def test_a_record_may_carry_notes_after_a_hash_as_the_examples_of_rules_md_do() -> None:
    noted = read_record([
        '  # Ana and Ben, glacial',
        '{"game": "dicy", "players": ["Ana #1", "Ben"], "mode": "glacial"}   # a # in a name',
        '{"roll": [6, 6, 5, 2, 1, 1]}',
        '{"reroll": {"freeze": "odd", "dice": [6, 6, 5, 3, 4, 1]}}\t\t# all six after it',
        '',
        '{"score": {"card": "two-dice", "dice": [6, 6]}}#',
        '{"effect": {"player": "Ben", "card": "odd"}}  # a choice an effect asks for  \r\n'])
    assert noted.view()["players"] == ["Ana #1", "Ben"]
    assert noted.view()["scores"] == {"Ana #1": 12, "Ben": 0}
    assert len(noted.actions) == 4


def test_a_long_value_is_shown_short_in_a_refusal() -> None:
    with pytest.raises(RecordError) as refused:
        read_record([HEADER, '{"roll": ["' + "X" * 100_000 + '"]}'])
    assert len(str(refused.value)) < 300 and "…" in str(refused.value)


def test_undo_lines_take_back_the_last_standing_action_repeatedly() -> None:
    roll = '{"roll": ' + json.dumps(["H4"] * 9 + ["D3"]) + "}"
    game = read_record([HEADER, roll, '{"keep": ["D3"]}', '{"undo": {}}', '{"undo": {}}', roll])
    assert len(game.actions) == 1
    assert game.view()["expects"] == ["keep"]


def test_correcting_an_earlier_action_replays_the_rest_or_names_the_one_refused() -> None:
    game = Game.start(json.loads(HEADER))
    for line in [{"roll": ["H4"] * 9 + ["D3"]}, {"keep": ["D3"]}, {"stop": {}}]:
        game = game.play_json(line)
    fixed = game.correct(0, game.parse({"roll": ["H4"] * 8 + ["D3", "D3"]}))
    assert fixed.view()["scores"] == {"Ana": 0, "Ben": 0}
    assert len(fixed.actions) == 3
    with pytest.raises(IllegalAction, match=r"action 2 \(\{\"keep\": \[\"D3\"\]\}\) is refused"):
        game.correct(0, game.parse({"roll": ["H4"] * 10}))


@pytest.mark.parametrize(("text", "why"), [
    ("[" * 100_000 + "]" * 100_000, "this line nests too deeply to be a record line"),
    ('{"game": "dalek", "game": "17", "players": ["A", "B"]}', "game appears twice in this line"),
    ('{"game": "dalek", "players": ["A", "B"], "target": ' + "9" * 5000 + "}",
     "this line holds a number too long to be a record line"),
    ('{"game": "dalek", "players": ["\\ud800", "B"]}',
     "this line holds text that is not valid Unicode"),
])
def test_hostile_lines_are_refused_with_their_number(text: str, why: str) -> None:
    with pytest.raises(RecordError, match=f"line 1: {why}"):
        read_record([text])


def test_a_long_record_replays_in_a_time_that_grows_with_its_length() -> None:
    # Each line copied all the actions before it: 10,000 lines took 1.5 to 3 s, 100,000 a
    # minute and a half. Per line, a long record now costs about what a short one does (CPU
    # time, the short one's best of three: other work on the machine counts less).
    header = {"game": "dalek", "players": ["Ana", "Ben", "Cleo", "Dai", "Eve", "Fay", "Gil",
                                           "Hal"], "target": 10_000}
    actions = random_lines(header, 30_000, Random(3))
    assert len(actions) == 30_000  # the game is still on
    lines = [json.dumps(line) for line in [header, *actions]]

    def cpu_s_per_line(count: int) -> float:
        began = time.process_time()
        game = read_record(lines[:count + 1])
        assert game.record() == [header, *actions[:count]]
        return (time.process_time() - began) / count

    short = min(cpu_s_per_line(1_000) for _ in range(3))
    assert cpu_s_per_line(30_000) < 2.5 * short


class CountedDalek(DalekRules):
    """Dalek Dice's own rules, counting the actions they apply."""

    def __init__(self) -> None:
        self.applied = 0

    def apply(self, state: DalekState, action: DalekAction) -> DalekState:
        self.applied += 1
        return super().apply(state, action)


def undone_every_third(moves: int) -> list[dict[str, Any]]:
    """A Dalek record of ``moves`` moves where every third is undone and made again."""
    lines: list[dict[str, Any]] = []
    for number, line in enumerate(random_lines(LONG_DALEK, moves, Random(5)), start=1):
        lines.append(line)
        if number % 3 == 0:
            lines += [{"undo": {}}, line]
    assert len(lines) == moves + 2 * (moves // 3)  # the game is still on
    return lines


def test_undos_in_a_record_apply_a_number_of_actions_that_grows_with_its_length() -> None:
    # Each undo replayed every action from the header: 2,000 moves with an undo every third
    # took 11 s to replay, 4,000 moves 76 s.
    def applied(moves: int) -> int:
        rules = CountedDalek()
        game = replace(Game.start(LONG_DALEK), rules=rules).play_lines(undone_every_third(moves))
        assert len(game.actions) == moves
        return rules.applied

    assert applied(2_000) < 5 * applied(500)


def test_undos_in_a_record_end_where_the_record_without_the_undone_lines_ends() -> None:
    rng = Random(8)
    moves = random_lines(LONG_DALEK, 240, rng)
    lines: list[dict[str, Any]] = []
    for number, line in enumerate(moves):
        lines.append(line)
        if rng.random() < 0.2:  # take back up to 40 and play them again
            back = rng.randint(1, min(40, number + 1))
            lines += [{"undo": {}}] * back + moves[number + 1 - back:number + 1]
    lines += [{"undo": {}}] * 70

    def replayed(lines: list[dict[str, Any]]) -> Game:
        return read_record(json.dumps(line) for line in [LONG_DALEK, *lines])

    game, plain = replayed(lines), replayed(moves[:170])
    assert game.record() == plain.record() and game.view() == plain.view()
    assert replayed(moves[:50]).play_lines([{"undo": {}}] * 45).view() == replayed(moves[:5]).view()
