"""``dicetable pin``: print the table PIN (for a Pi without a screen, reached over ssh)."""

from __future__ import annotations

import argparse

from device.journal import Journal
from device.state_dir import add_state_argument, journal_path


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the pin arguments."""
    add_state_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Print the PIN kept in the state folder (made there on first use)."""
    print(Journal(journal_path(args.state)).pin())
    return 0
