"""Game records as JSON Lines (RULES.md): read and replay, write back.

>>> text = '{"game": "dalek", "players": ["Jenna", "Peter"]}\\n{"stop": {}}\\n'
>>> read_record(text.splitlines())
Traceback (most recent call last):
...
engine.errors.RecordError: line 2: Jenna has not rolled yet; stop comes after a roll and a keep
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.errors import EngineError, IllegalAction, RecordError
from engine.game import Game
from engine.names import NameRules

NOTE = "#"
"""What starts a note in a record line: it runs to the end of the line."""
SECOND_GAME = ("a second game starts on this line; a record file holds one game: put each "
               "game in a file of its own")
"""The refusal of a header after the first (two records pasted into one file)."""
UNREADABLE = "the text cannot be read at column {column}"
"""The refusal of a line that is not JSON (the refusal's ``reason``: see RecordError)."""
JSON_SPACE = " \t\r\n"
"""The characters JSON takes as spaces around a value."""


def read_record(lines: Iterable[str]) -> Game:
    """Replay a record's text lines (header first; blank lines are skipped).

    Raises RecordError with the 1-based number of the first line that is not JSON, not an
    object with the right keys, or not legal in the game as it stands.
    """
    return replay(parse_lines(lines))


def replay(lines: Iterable[tuple[int, Mapping[str, Any]]], *,
           names: NameRules = NameRules.RECORD) -> Game:
    """Replay numbered record objects: ``(line number, header)`` first, then the actions
    (``names``: the rules the header's names are held to; a record's, as RULES.md has them,
    unless the journal kept it)."""
    numbered = iter(lines)
    number = 1

    def actions() -> Iterator[Mapping[str, Any]]:
        nonlocal number
        for pair in numbered:
            number, line = pair  # kept: the number of a line that is refused
            if isinstance(line, Mapping) and {"game", "players"} <= line.keys():
                raise IllegalAction(SECOND_GAME)
            yield line

    try:
        first = next(numbered, None)
        if first is None:
            raise RecordError(1, EngineError("the record is empty; it starts with a header line"))
        number, header = first
        return Game.start(header, names=names).play_lines(actions())
    except IllegalAction as err:
        raise RecordError(number, err) from None


def parse_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """Each text line's JSON with its 1-based number; RecordError at the first that is not
    JSON or holds what no record line may. Blank lines are skipped, and so are notes: from a
    ``#`` after a line's JSON (or at the start of a line) to the end of the line, as in the
    examples of RULES.md."""
    for number, text in enumerate(lines, start=1):
        if number == 1:
            text = text.removeprefix("\ufeff")  # a record saved by Notepad starts with a BOM
        if not text.strip() or text.lstrip().startswith(NOTE):
            continue
        try:  # (without its line end, a column at the end of the line is counted right)
            line = _json_before_note(text.rstrip("\r\n"))
            _check_text(line)
        except json.JSONDecodeError as err:
            raise RecordError(number, EngineError(UNREADABLE, column=err.colno)) from None
        except ValueError:  # an integer past Python's digit limit for int('…')
            raise RecordError(number, EngineError("this line holds a number too long to be "
                                                  "a record line")) from None
        except RecursionError:
            raise RecordError(number, EngineError("this line nests too deeply to be a record "
                                                  "line")) from None
        except EngineError as err:
            raise RecordError(number, err) from None
        yield number, line


def _json_before_note(text: str) -> Any:
    """The JSON value a line starts with (after any spaces), followed by nothing but spaces
    or a note; JSONDecodeError where it is not JSON or something else follows it (a ``#``
    inside a JSON string is part of the string)."""
    decoder = json.JSONDecoder(object_pairs_hook=_unique_keys)
    start = len(text) - len(text.lstrip(JSON_SPACE))
    value, end = decoder.raw_decode(text, start)
    rest = text[end:].lstrip(JSON_SPACE)
    if rest and not rest.startswith(NOTE):
        raise json.JSONDecodeError("Extra data", text, len(text) - len(rest))
    return value


def _check_text(line: object) -> None:
    """Refuse text that is no Unicode (a lone surrogate such as ``"\\ud800"``): it could be
    neither journalled nor printed."""
    try:
        json.dumps(line, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise EngineError("this line holds text that is not valid Unicode") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (JSON would keep only the last)."""
    keys = [key for key, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise EngineError("{key} appears twice in this line", key=key)
    return dict(pairs)


def write_record(game: Game) -> str:
    """The record of ``game`` (header and standing actions) as JSON Lines text."""
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in game.record())
