"""``dicetable replay RECORD...``: rebuild games from their records and print their state."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine import Game, RecordError, read_record


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the replay arguments."""
    parser.add_argument("records", nargs="+", type=Path, metavar="RECORD",
                        help="a game record: a JSON Lines file as described in RULES.md")
    parser.add_argument("--json", action="store_true",
                        help="print the state's public view as JSON on stdout")


def run(args: argparse.Namespace) -> int:
    """Replay every record; if any is bad, print ``FILE: line N: why`` for each bad one and no
    state at all, with exit status 2."""
    games: list[tuple[Path, Game]] = []
    failed = False
    for path in args.records:
        try:
            games.append((path, _replay(path)))
        except (OSError, UnicodeDecodeError, RecordError) as err:
            print(f"{path}: {_reason(err)}", file=sys.stderr)
            failed = True
    if failed:
        return 2
    for path, game in games:
        if args.json:
            print(json.dumps(game.view(), ensure_ascii=False))
            continue
        if len(games) > 1:
            print(f"== {path}")
        print(game.describe())
    return 0


def _replay(path: Path) -> Game:
    with path.open(encoding="utf-8") as lines:
        return read_record(lines)


def _reason(err: Exception) -> str:
    if isinstance(err, FileNotFoundError):
        return "no such file"
    if isinstance(err, UnicodeDecodeError):
        return "this is not a text file (UTF-8 JSON Lines expected)"
    if isinstance(err, OSError):
        return err.strerror or str(err)
    return str(err)
