"""Opening the table's journal at start: find damage or loss, keep the damaged files, go on.

``dicetable serve`` opens its journal with :func:`open_table`, which checks it first:

- the file is no database, ``PRAGMA quick_check`` finds damage, or a game's lines have a gap:
  the files move to ``damaged-<time>/`` in the state folder, and whatever can still be read
  (games, lines, PIN, secret, grants) is copied into a new journal;
- the journal holds fewer commits than its commits file says were acknowledged (its ``-wal``
  file was lost, torn or damaged): the files are copied to ``damaged-<time>/`` and the table
  goes on from the last commit it holds;
- the journal is gone, but files beside it say there was one: a new table.

Each finding is a :class:`~device.notice.Notice` for the host (the log and the page). A PIN
that had to be made anew is one too: never a silent new PIN.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from device.journal import COMMITS_SUFFIX, Journal, journal_error, readable_layout
from device.notice import Notice
from device.state_dir import stamped

SIDE_FILES = ("-wal", "-shm", "-journal", COMMITS_SUFFIX)
SALVAGED = {  # table: the columns copied from a damaged journal, in order
    "settings": ("key", "value"),
    "games": ("id", "header", "started_at", "status", "ended_at", "winners"),
    "lines": ("game_id", "seq", "line", "source", "at"),
    "grants": ("id", "made_at"),
}


@dataclass
class OpenedTable:
    """The journal to serve, what the host must be told, and where damaged files were put."""

    journal: Journal
    notices: list[Notice] = field(default_factory=list)
    kept: Path | None = None
    detail: str | None = None
    """What was found, for the log (SQLite's words)."""


@dataclass(frozen=True)
class _Finding:
    commits: int = 0
    damage: str | None = None


def open_table(path: Path) -> OpenedTable:
    """Check the journal in file ``path``, set damaged files aside, and open it (a new one if
    there is none). Raises :class:`~device.journal.JournalError` when the folder cannot be
    written."""
    acknowledged = _acknowledged(path)
    if not path.is_file() or path.stat().st_size == 0:
        opened = _missing(path, acknowledged)
    else:
        present = [p for p in (path, *_files(path)) if p.exists()]  # opening makes a -wal
        try:
            opening = sqlite3.connect(path, isolation_level=None)
        except sqlite3.Error as err:  # another user's journal, say: said as the journal says it
            raise journal_error(err, path) from None
        with closing(opening) as db:
            _refuse_newer(db, path)
            finding = _inspect(db, path)
            kept = None
            if finding.damage is not None or finding.commits < (acknowledged or 0):
                kept = _keep_aside(path, present)  # before closing: closing checkpoints
        if finding.damage is not None:
            assert kept is not None
            opened = _salvage(path, kept, finding.damage)
        else:
            opened = OpenedTable(Journal(path), kept=kept)
            if kept is not None:
                lost = (acknowledged or 0) - finding.commits
                opened.notices.append(Notice("notice.journal_lost", {"count": lost}))
                opened.detail = (f"the journal holds {finding.commits} commits, "
                                 f"{acknowledged} were acknowledged")
    if not opened.journal.has_pin():
        opened.journal.new_pin()
        opened.notices.append(Notice("notice.new_pin"))
    opened.journal.mark_commits()
    return opened


def _missing(path: Path, acknowledged: int | None) -> OpenedTable:
    """No journal file: a new table; said so if files beside it show there was one."""
    leftovers = [p for p in _files(path) if p.exists()]
    journal_gone = bool(acknowledged) or any(
        p.exists() for p in leftovers if not p.name.endswith(COMMITS_SUFFIX))
    kept = _keep_aside(path, leftovers) if journal_gone else None
    for leftover in leftovers:
        leftover.unlink()
    opened = OpenedTable(Journal(path), kept=kept)
    if kept is not None:
        opened.notices.append(Notice("notice.journal_missing"))
    return opened


def _refuse_newer(db: sqlite3.Connection, path: Path) -> None:
    """JournalError if a newer dicetable wrote the journal: checked before anything else, so
    that its layout is neither salvaged nor set aside (a header that cannot be read is left to
    :func:`_inspect`)."""
    with suppress(sqlite3.DatabaseError):
        readable_layout(db, path)


def _inspect(db: sqlite3.Connection, path: Path) -> _Finding:
    """The journal's commit count and the damage found, if any (nothing is written)."""
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            return _Finding(damage="; ".join(map(str, problems[:3])))
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if "lines" in tables:
            gap = db.execute("SELECT game_id FROM lines GROUP BY game_id"
                             " HAVING count(*) != max(seq) LIMIT 1").fetchone()
            if gap is not None:
                return _Finding(damage=f"game {gap[0]} is missing lines")
        if "commits" not in tables:
            return _Finding()
        row = db.execute("SELECT count FROM commits WHERE id = 1").fetchone()
        return _Finding(commits=int(row[0]) if row else 0)
    except sqlite3.Error as err:
        error = journal_error(err, path)
        if error.problem != "damaged":
            raise error from err
        return _Finding(damage=str(err))


def _salvage(path: Path, kept: Path, damage: str) -> OpenedTable:
    """A new journal in ``path`` with everything that can still be read from the damaged copy
    in ``kept``."""
    for original in (path, *_files(path)):
        original.unlink(missing_ok=True)
    journal = Journal(path)
    journal.close()
    copied = {table: 0 for table in SALVAGED}
    with closing(sqlite3.connect(kept / path.name, isolation_level=None)) as damaged, \
            closing(sqlite3.connect(path, isolation_level=None)) as fresh:
        fresh.execute("BEGIN IMMEDIATE")
        pin_kept = any(row[0] == "pin" for row in _readable(damaged, "settings"))
        for table, columns in SALVAGED.items():
            if table == "grants" and not pin_kept:
                continue  # grants go with the PIN they were made under
            verb = "INSERT OR REPLACE" if table == "settings" else "INSERT OR IGNORE"
            for row in _readable(damaged, table):
                cursor = fresh.execute(
                    f"{verb} INTO {table} ({', '.join(columns)})"
                    f" VALUES ({', '.join('?' * len(columns))})", row)
                copied[table] += cursor.rowcount
        fresh.execute("DELETE FROM lines WHERE game_id NOT IN (SELECT id FROM games)")
        last = _last_version(damaged)
        # Versions go on after the damaged journal's: a phone's old version never matches.
        fresh.execute("INSERT INTO changes (version, what, at) VALUES (?, 'recovered', ?)",
                      (last + 1, datetime.now(UTC).isoformat(timespec="milliseconds")))
        fresh.execute("COMMIT")
    opened = OpenedTable(Journal(path), kept=kept, detail=damage)
    opened.notices.append(Notice("notice.journal_damaged", {"games": copied["games"]}))
    if not pin_kept:
        opened.notices.append(Notice("notice.new_pin"))
    return opened


def _readable(db: sqlite3.Connection, table: str) -> Iterator[tuple[object, ...]]:
    """The rows of ``table`` that can be read, in order, up to the first damaged page."""
    columns = ", ".join(SALVAGED[table])
    try:
        yield from db.execute(f"SELECT {columns} FROM {table} ORDER BY rowid")
    except sqlite3.DatabaseError:
        return


def _last_version(db: sqlite3.Connection) -> int:
    for query in ("SELECT seq FROM sqlite_sequence WHERE name = 'changes'",
                  "SELECT max(version) FROM changes"):
        try:
            row = db.execute(query).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row is not None and row[0] is not None:
            return int(row[0])
    return 0


def _acknowledged(path: Path) -> int | None:
    """The commit count last written beside the journal; None if there is none."""
    try:
        return int(path.with_name(path.name + COMMITS_SUFFIX).read_text("ascii").strip())
    except (OSError, ValueError):
        return None


def _files(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in SIDE_FILES]


def _keep_aside(path: Path, files: list[Path]) -> Path:
    """Copy ``files`` (the journal and those beside it) into a new ``damaged-<time>``
    folder."""
    with _writing(path):
        folder = stamped(path.parent, "damaged")
        folder.mkdir()
        for original in files:
            shutil.copy2(original, folder / original.name)
    return folder


@contextmanager
def _writing(path: Path) -> Iterator[None]:
    try:
        yield
    except OSError as err:
        raise journal_error(err, path) from err

