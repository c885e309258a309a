"""``dicetable pin``: print the table PIN (for a Pi without a screen, reached over ssh); with
``--link`` the host's link, with ``--new`` a new PIN that logs every phone out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.journal import Journal, JournalError
from device.serving import is_serving
from device.state_dir import add_state_argument, journal_path


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the pin arguments."""
    add_state_argument(parser)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--new", action="store_true",
                      help="make a new PIN: every phone that entered the old one (or opened the "
                           "old host link) must enter the new one")
    what.add_argument("--link", action="store_true",
                      help="print the host's link instead (it changes the game without the PIN)")


def run(args: argparse.Namespace) -> int:
    """Print the PIN (or the host link) of the table in the state folder; a folder without a
    table is an error (only ``dicetable serve`` makes one)."""
    from web.auth import host_link, served_at
    from web.qr import table_url

    try:
        journal = _opened(journal_path(args.state), writing=args.new)
    except JournalError as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    try:
        if args.new:
            print(journal.new_pin())
        elif args.link:
            where = served_at(journal)
            if where is None:
                print(f"dicetable: {_not_served_yet(journal.path.parent)}", file=sys.stderr)
                return 2
            host, port = where
            # the address the table has now, not at its start: the Pi's network changes
            print(host_link(table_url(port, host), journal))
        else:
            print(journal.pin())
    except JournalError as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    finally:
        journal.close()  # (its files let go: a card mounted for it can be unmounted)
    return 0


def _opened(path: Path, *, writing: bool) -> Journal:
    """The table's journal; where it cannot be written (a card mounted read-only) and only
    needs reading (to show the PIN or the link), opened only to read."""
    try:
        return Journal.existing(path)
    except JournalError as err:
        if writing or err.problem != "read_only":
            raise
    return Journal.existing(path, read_only=True)


def _not_served_yet(state: Path) -> str:
    """Why there is no host link: the table has not said where it listens (it is starting:
    a serve holds the folder first and says so once it listens; started by an earlier
    version of dicetable, which did not; or not started since). No port is guessed: a link
    to another port than the table's would not work."""
    if is_serving(state):
        return (f"the table serving {state} is starting, or was started by an earlier "
                "version of dicetable, which does not tell where it listens: wait a moment "
                "and ask again; if it still says so, restart it once (sudo systemctl restart "
                "dicetable, or stop `dicetable serve` and run it again), then ask again")
    return (f"the table in {state} has not been served by this version of dicetable yet, so "
            "where it listens is not known; `dicetable serve` (or sudo systemctl start "
            "dicetable) serves it and prints the host link, and `dicetable pin --link` gives "
            "it from then on")
