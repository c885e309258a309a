"""``dicetable replay RECORD...``: rebuild games from their records and print their state."""

from __future__ import annotations

import argparse
import difflib
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from engine import Game, RecordError, game_names, read_record, rules_for
from engine.errors import Shown
from engine.game import NO_SET_UP
from engine.record import UNREADABLE
from engine.rules import NOT_PLAYED

MAX_LINE_CHARS = 1 << 20
"""A record line is a header or one action: far under a million characters. A longer one (or
a file with no line breaks, such as ``/dev/zero``) is refused before it fills the memory."""


WHAT_A_LINE_IS = ('each line of a record is one JSON object, its keys and text in double '
                  'quotes: first its header, such as {"game": "dalek", "players": ["Ana", '
                  '"Ben"]}, then one action a line, such as {"undo": {}} (RULES.md gives the '
                  'format)')
"""Told after a line that is not JSON: whoever wrote the record reads what a line must be."""

WHAT_A_HEADER_IS = ("a record starts with its header: its game (" + ", ".join(
    json.dumps(name) for name in game_names()) + ') and its players, such as {"game": '
    '"dalek", "players": ["Ana", "Ben"]} (RULES.md gives the format)')
"""Told after a header without its game or its players, or of a game this table does not
play: the engine says so in a player's words, whoever wrote the record reads how to write
it."""

NEAR = 0.75
"""How alike (difflib's ratio) a game not played is written to an id or title to be named its
near typo: "dalk" or "dal" of "dalek", "dicey" of "dicy", not "1" of "17" (0.67)."""

STDIN = "-"
"""The record name that stands for standard input, as in other command-line tools (a file of
that name is ``./-``)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the replay arguments."""
    parser.add_argument("records", nargs="+", metavar="RECORD",
                        help="a game record: a JSON Lines file as described in RULES.md; "
                        "- reads one from standard input")
    parser.add_argument("--json", action="store_true",
                        help="print the state's public view as JSON on stdout")


def run(args: argparse.Namespace) -> int:
    """Replay every record and print the state of each good one; print ``FILE: line N: why``
    on stderr for each bad one, and exit with status 2 if there was any. With ``--json``, one
    line a record, in order: its view, or ``null`` for a bad one among several."""
    failed = False
    for record in args.records:
        try:
            game = _replay(record)
        except (OSError, RecordError, LineTooLong, NotUtf8, CutOff) as err:
            if args.json and len(args.records) > 1:
                print("null")
            sys.stdout.flush()
            print(f"{_name(record)}: {_reason(err)}", file=sys.stderr)
            failed = True
            continue
        if args.json:
            print(json.dumps(game.view(), ensure_ascii=False))
            continue
        if len(args.records) > 1:
            print(f"== {_name(record)}")
        print(game.describe())
    return 2 if failed else 0


class LineTooLong(Exception):
    """A line past :data:`MAX_LINE_CHARS`."""

    def __init__(self, number: int) -> None:
        super().__init__(f"line {number}: longer than {MAX_LINE_CHARS:,} characters; no record "
                         "line is that long")


class NotUtf8(Exception):
    """A line that is not UTF-8 text (a record saved as Latin-1 or UTF-16)."""

    def __init__(self, number: int) -> None:
        super().__init__(f"line {number}: this line is not UTF-8 text; save the record as "
                         "UTF-8")


class CutOff(Exception):
    """A record whose last line breaks off: the file was cut off while it was being written
    (a power cut leaves a line written in part, or the room the file took, never written,
    as zero bytes)."""

    def __init__(self, number: int) -> None:
        super().__init__(f"line {number}: the record breaks off in this line (its end is "
                         "missing: cut off as it was written, by a power cut, or a bracket left "
                         "out): the lines before it are whole; complete this line, or delete it "
                         "to replay them")


def _replay(record: str) -> Game:
    if record == STDIN:
        return _read(sys.stdin.buffer)
    with Path(record).open("rb") as file:
        return _read(file)


def _read(file: BinaryIO) -> Game:
    lines = _Lines(file)
    try:
        return read_record(lines)
    except RecordError as err:
        if err.reason.template == UNREADABLE and lines.breaks_off(err.line):
            raise CutOff(err.line) from None
        raise


NEVER_WRITTEN = b"\x00 \t\r\n"
"""What a file cut off by a power cut may hold past its last line: zero bytes (the room it
took, never written) and line ends."""


def _name(record: str) -> str:
    """How a record is named in what is printed."""
    return "standard input" if record == STDIN else record


class _Lines:
    """The file's lines as text, refusing one longer than :data:`MAX_LINE_CHARS` (in bytes:
    a character is one to four) or not UTF-8; the last one read is kept, to tell whether the
    record breaks off in it."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.number = 0
        self.last = ""

    def __iter__(self) -> Iterator[str]:
        while line := self.file.readline(4 * MAX_LINE_CHARS + 1):
            self.number += 1
            if len(line) > 4 * MAX_LINE_CHARS:
                raise LineTooLong(self.number)
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                if self._cut_in_a_letter(line):
                    raise CutOff(self.number) from None
                raise NotUtf8(self.number) from None
            if len(text) > MAX_LINE_CHARS:
                raise LineTooLong(self.number)
            self.last = text
            yield text

    def _cut_in_a_letter(self, line: bytes) -> bool:
        """Whether ``line``, which is not UTF-8, was cut off within a letter: what comes before
        its first zero byte ends in part of a letter, and nothing but :data:`NEVER_WRITTEN`
        follows to the end of the file."""
        written = line.split(b"\x00", 1)[0]
        try:
            written.decode("utf-8")
        except UnicodeDecodeError as err:
            if err.reason != "unexpected end of data" or line[len(written):].strip(NEVER_WRITTEN):
                return False
            return self._nothing_written_after()
        return False

    def _nothing_written_after(self) -> bool:
        """Whether nothing but :data:`NEVER_WRITTEN` follows the last line read to the end of
        the file (reads it)."""
        rest = self.file.read(MAX_LINE_CHARS)
        return len(rest) < MAX_LINE_CHARS and not rest.strip(NEVER_WRITTEN)

    def breaks_off(self, number: int) -> bool:
        """Whether line ``number``, which is no JSON, is where the file was cut off: the last
        line read, nothing but :data:`NEVER_WRITTEN` after it, and its JSON unfinished at the
        end of the file or zero bytes in it."""
        if number != self.number or not self._nothing_written_after():
            return False
        return "\x00" in self.last or (not self.last.endswith("\n")
                                       and _unfinished(self.last))


def _unfinished(text: str) -> bool:
    """Whether ``text`` is JSON that stops before its end (a string, an object or a list not
    closed), not JSON written wrong."""
    try:
        json.loads(text)
    except json.JSONDecodeError as err:
        return err.pos >= len(text.rstrip()) or err.msg.startswith("Unterminated string")
    except ValueError:
        return False
    return False


def _reason(err: Exception) -> str:
    if isinstance(err, FileNotFoundError):
        return "no such file"
    if isinstance(err, OSError):
        return err.strerror or str(err)
    if isinstance(err, RecordError) and err.reason.template == UNREADABLE:
        return f"{err}; {WHAT_A_LINE_IS}"
    if isinstance(err, RecordError) and err.reason.template == NOT_PLAYED:
        return f"line {err.line}: {_not_played(err.reason.params['game'])}; {WHAT_A_HEADER_IS}"
    if isinstance(err, RecordError) and err.reason.template == NO_SET_UP:
        return f"{err}; {WHAT_A_HEADER_IS}"
    return str(err)


def _not_played(read: object) -> str:
    """A header's game this table does not play, named as read, with the id a record gives the
    game it is the title of (or the id written otherwise: "Dalek", 17, 17.0), or the one it is
    a near typo of (a text alone: a number is 17 or no game).

    >>> _not_played(Shown("Dalek Dice")), _not_played(Shown("chess"))
    ('the game "Dalek Dice" is written "dalek" in a record', 'this table plays no game "chess"')
    >>> _not_played(Shown("dalk")), _not_played(Shown("1"))
    ('this table plays no game "dalk" (did you mean "dalek"?)', 'this table plays no game "1"')
    >>> _not_played(Shown(17.0)), _not_played(Shown(-17))
    ('the game 17.0 is written "17" in a record', 'this table plays no game -17')
    """
    value = read.value if isinstance(read, Shown) else read
    ids = {name.lower(): name for name in game_names()}
    ids |= {rules_for(name).title.lower(): name for name in game_names()}
    written = _written(value)
    if written in ids:
        return f"the game {read} is written {json.dumps(ids[written])} in a record"
    if isinstance(value, str) and written is not None:  # (a number is 17 or no game)
        near = difflib.get_close_matches(written, ids, n=1, cutoff=NEAR)
        if near:
            return (f"this table plays no game {read} (did you mean "
                    f"{json.dumps(ids[near[0]])}?)")
    return f"this table plays no game {read}"


def _written(value: object) -> str | None:
    """A header's game as a text to look for among the ids and titles: a text in lower case,
    a whole number in digits (17.0 is 17); None for anything else."""
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) and value == int(value):
        return str(int(value))
    return None
