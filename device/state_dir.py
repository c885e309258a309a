"""Where a table keeps its state: the journal (games, PIN, secret) in one folder.

The folder is ``--state DIR``, else ``$DICETABLE_STATE``, else ``$XDG_STATE_HOME/dicetable``
(``~/.local/state/dicetable``), the same for every command and for ``make run``, so that
``dicetable pin`` finds the table ``serve`` made. Under systemd it is ``/var/lib/dicetable``.
``serve`` makes a table (``restore`` puts one back); the other commands say so when a folder
has none, and every command when the folder named is a file.
"""

from __future__ import annotations

import argparse
import os
import pwd
from datetime import UTC, datetime
from pathlib import Path

JOURNAL_FILE = "table.db"


def default_state_dir() -> Path:
    """The state folder when none is given on the command line."""
    if os.environ.get("DICETABLE_STATE"):
        return Path(os.environ["DICETABLE_STATE"])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "dicetable"


def add_state_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--state DIR`` to a command."""
    parser.add_argument("--state", type=Path, default=None, metavar="DIR",
                        help="the table's state folder (default: $DICETABLE_STATE, else "
                             "$XDG_STATE_HOME/dicetable or ~/.local/state/dicetable)")


class StateFolderIsAFile(Exception):
    """The state folder named is a file: no table can be kept there."""


def journal_path(state: Path | None) -> Path:
    """The journal file in the given (or default) state folder; StateFolderIsAFile when that
    is a file."""
    folder = state or default_state_dir()
    if folder.exists() and not folder.is_dir():
        raise StateFolderIsAFile(f"{folder} is a file, not a folder to keep a table in")
    return folder / JOURNAL_FILE


def stamped(folder: Path, name: str, suffix: str = "") -> Path:
    """A path in ``folder`` that nothing holds yet: ``NAME-<UTC time>SUFFIX`` (to the second),
    else ``NAME-<time>-2SUFFIX`` and on, so that two within one second keep both."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path, number = folder / f"{name}-{stamp}{suffix}", 1
    while path.exists():
        number += 1
        path = folder / f"{name}-{stamp}-{number}{suffix}"
    return path


def _owned(path: Path) -> tuple[Path, str] | None:
    """``path`` and the name of the user owning it, else its folder and its owner's (on the
    Pi, the table's own user); None where neither can be looked at. The folders above are not
    asked: /var/lib is root's, not the table's, where the state folder is not made yet."""
    for place in (path, path.parent):
        try:
            return place, pwd.getpwuid(place.stat().st_uid).pw_name
        except (OSError, KeyError):
            continue
    return None


NO_OWNER_ADVICE = "run dicetable as the user who owns it"
"""What to do about a file no owner of which can be looked up."""


def ownership_advice(path: Path) -> str:
    """What to do about ``path`` (a file, or a folder and its files) that this user cannot
    open or write, in one wording for every command: run dicetable as the user who owns it
    (never as root), or give it to this user. Where ``path`` cannot be looked at, only its
    folder is (another user's 0700 home, the Pi's state folder, the service's): run dicetable
    as that folder's owner, or, where that is root, back the table up (its journal; a copy of
    it alone would leave out its write-ahead log) or copy the file out; never give the folder
    away, which would give this user another's home, or take the Pi's table from its service.

    >>> ownership_advice(Path("/no/such/place"))
    'run dicetable as the user who owns it'
    """
    me, owned = this_user(), _owned(path)
    if owned is None:
        return NO_OWNER_ADVICE
    place, owner = owned
    if place != path:
        if owner == "root" and path.name.startswith(JOURNAL_FILE):  # its log beside it too
            return (f"its folder {place} is root's: back the table up, as root, into a folder "
                    f"this user can open (sudo dicetable backup --state {place} FILE; a copy "
                    f"of {JOURNAL_FILE} alone leaves out its latest moves), give the backup to "
                    f"this user (sudo chown {me} FILE) and restore it (dicetable restore FILE)")
        if owner == "root":
            return (f"its folder {place} is root's: copy it, as root, into a folder this user "
                    f"can open, and give the copy to this user (sudo chown -R {me} on the copy)")
        if owner == me:
            return f"its folder {place} is this user's: open it to this user (chmod u+rwx {place})"
        return (f"run dicetable as {owner}, who owns its folder {place} "
                f"(sudo -u {owner} dicetable …)")
    give = f"give it to this user (sudo chown -R {me} {path})"
    if owner in ("root", me):  # root is never to be run as; this user's own: only the files
        return give  # in it (root's, copied in with sudo) can be given
    return f"run dicetable as {owner}, who owns it (sudo -u {owner} dicetable …), or {give}"


def this_user() -> str:
    """The name of the user running this process (its number if it has none)."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())
