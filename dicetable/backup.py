"""``dicetable backup FILE`` and ``dicetable restore FILE``: a copy of every game, taken while
the table serves (SQLite's online backup), and putting one back (refused while serving)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.backup import BackupError, backup, restore
from device.state_dir import add_state_argument, journal_path


def configure_backup(parser: argparse.ArgumentParser) -> None:
    """Add the backup arguments."""
    add_state_argument(parser)
    parser.add_argument("file", type=Path, metavar="FILE",
                        help="where to write the backup (an SQLite file; replaced if it exists)")


def run_backup(args: argparse.Namespace) -> int:
    """Write the backup."""
    try:
        games = backup(journal_path(args.state), args.file)
    except BackupError as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    print(f"Backed up {games} game{'s' if games != 1 else ''} to {args.file}")
    return 0


def configure_restore(parser: argparse.ArgumentParser) -> None:
    """Add the restore arguments."""
    add_state_argument(parser)
    parser.add_argument("file", type=Path, metavar="FILE",
                        help="a backup made by dicetable backup")


def run_restore(args: argparse.Namespace) -> int:
    """Put the backup in place of the journal, unless the table is serving."""
    try:
        games, kept = restore(args.file, journal_path(args.state))
    except BackupError as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    print(f"Restored {games} game{'s' if games != 1 else ''} from {args.file}")
    if kept is not None:
        print(f"The journal it replaced is kept in {kept}")
    return 0
