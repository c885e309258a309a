"""``dicetable backup FILE``: a copy of every game, taken while the table serves (SQLite's
online backup); ``dicetable restore`` (:mod:`dicetable.restore`) puts one back."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.backup import BackupError, backup
from device.state_dir import add_state_argument, journal_path


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the backup arguments."""
    add_state_argument(parser)
    parser.add_argument("file", type=Path, metavar="FILE",
                        help="where to write the backup (an SQLite file; replaced if it exists)")


def run(args: argparse.Namespace) -> int:
    """Write the backup."""
    try:
        games = backup(journal_path(args.state), args.file)
    except BackupError as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    print(f"Backed up {games} game{'s' if games != 1 else ''} to {args.file}")
    return 0
