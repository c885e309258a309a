"""``dicetable restore FILE``: a backup made by ``dicetable backup`` put back in place of the
journal (refused while the table serves)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.backup import BackupError, restore
from device.state_dir import add_state_argument, journal_path


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the restore arguments."""
    add_state_argument(parser)
    parser.add_argument("file", type=Path, metavar="FILE",
                        help="a backup made by dicetable backup")


def run(args: argparse.Namespace) -> int:
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
