"""Copies of the journal: SQLite's online backup API, safe while the table writes to it.

A backup is a consistent SQLite file of every game, line, setting (the PIN too) and change,
taken page by page while the table goes on; restoring one puts it in place of the journal,
after keeping the journal it replaces beside it.

>>> import tempfile, pathlib
>>> from device.journal import Journal
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> journal = Journal(folder / "table.db")
>>> _ = journal.start_game({"game": "dalek", "players": ["Ana", "Ben"]})
>>> backup(journal.path, folder / "copy.db")
1
>>> Journal(folder / "copy.db").latest_game().header["players"]
['Ana', 'Ben']
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path

from device.journal import (
    COMMITS_SUFFIX,
    JOURNAL_VERSION,
    cannot_write,
    has_no_room,
    layout_version,
    newer_layout,
    owners_only,
)
from device.recovery import SIDE_FILES
from device.serving import AlreadyServing, ServingLock
from device.state_dir import ownership_advice, stamped, this_user

TABLES = {"games", "lines", "settings", "changes"}
SQLITE_HEADER = b"SQLite format 3\x00"
"""How every SQLite file begins: one that does, but cannot be read, is damaged or cut short."""
PAGES_PER_STEP = 256
"""Pages copied at a time: the table's writers get the database between steps."""
SCRATCH_PREFIX = "dicetable-backup-"
SCRATCH_MARK = "dicetable-scratch"
"""The file that marks a folder named :data:`SCRATCH_PREFIX` as a backup's scratch."""
_log = logging.getLogger("dicetable")


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why, in words."""


def backup(journal: Path, target: Path) -> int:
    """Copy the journal at ``journal`` to ``target`` (replaced if it exists); returns how
    many games it holds."""
    if not journal.is_file():
        raise BackupError(f"there is no journal at {journal}")
    if (closed := _closed_folder(target)) is not None:  # (running as its owner is no answer)
        raise BackupError(f"{_cannot_enter(closed)}: back up into a folder this user can "
                          "write, such as its home folder")
    if target.is_dir():
        raise BackupError(f"{target} is a folder; name the backup file")
    target = target.resolve()  # through a link, to the file it names (on a USB stick, say)
    if _is_journals_own(target, journal):  # the live table's files replaced under it
        raise BackupError(f"{target} is one of the table's own files; name another file "
                          "for the backup")
    if target.exists() and not target.is_file():
        raise BackupError(f"{target} is not a file; name the backup file")
    partial = target.with_name(target.name + ".partial")
    drop_left_scratch(partial.parent)
    try:
        partial.touch(mode=0o600)  # a place that cannot be written is said in words
        partial.chmod(0o600)  # it holds the PIN: for its owner's eyes only
        with _open_journal(journal, partial.parent) as source, _open(partial) as copy:
            source.backup(copy, pages=PAGES_PER_STEP)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, no log or index beside it
        partial.replace(target)  # a backup file is whole, or not there
    except sqlite3.Error as err:
        _drop(partial)
        raise BackupError(f"the backup failed: {err}") from None
    except OSError as err:
        _drop(partial)
        raise BackupError(f"cannot write {target}: {err.strerror}") from None
    return games_in(target)


@contextmanager
def _open_journal(journal: Path, aside: Path) -> Iterator[sqlite3.Connection]:
    """The journal to copy, read only. On a card that went read-only (as a failing SD card
    does) or is full, SQLite cannot open it beside its write-ahead log: its files are copied
    into a scratch folder in ``aside`` (the backup's own folder) and read from the copy, the
    log's last changes included."""
    folder = journal.parent
    if not os.statvfs(folder).f_flag & os.ST_RDONLY and not has_no_room(journal):
        with _open(journal, read_only=True) as db:
            yield db
        return
    with _scratch(aside) as scratch:
        for part in (journal, journal.with_name(journal.name + "-wal")):
            if part.exists():
                shutil.copyfile(part, scratch / part.name)
        with _open(scratch / journal.name) as db:
            yield db


@contextmanager
def _scratch(aside: Path) -> Iterator[Path]:
    """A scratch folder in ``aside``, removed after: named ``dicetable-backup-…``, marked as one
    by a file in it and locked (``flock`` on the folder) while in use, so that
    :func:`drop_left_scratch` tells one a backup or restore killed meanwhile left (the lock let
    go by the system) from one a running backup reads."""
    while True:
        scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=aside))
        held = os.open(scratch, os.O_RDONLY | os.O_DIRECTORY)
        # A file system without locks (ENOLCK, EOPNOTSUPP: some network ones) refuses flock to
        # every process alike, so drop_left_scratch leaves this folder alone: the backup goes
        # on without the lock, as it did before there was one.
        with suppress(OSError):
            fcntl.flock(held, fcntl.LOCK_EX)  # (waits for one removing it as left, if any)
        if _is_folder(held, scratch):
            break
        os.close(held)  # removed as left before it was locked: another
    try:
        (scratch / SCRATCH_MARK).touch()
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        os.close(held)


def drop_left_scratch(folder: Path) -> None:
    """Remove the scratch folders (:func:`_scratch`) in ``folder`` that a backup or restore
    killed meanwhile left, copies of the journal (its PIN too): those marked as such, and
    locked by no running process. A running backup's is left alone, and so is a folder of the
    host's named alike (it has no mark). On a file system without locks none can be told from
    a running backup's: each is left, and logged."""
    for scratch in folder.glob(f"{SCRATCH_PREFIX}*"):
        try:
            held = os.open(scratch, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:  # a file, a link, or gone
            continue
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if _is_folder(held, scratch) and os.path.isfile(scratch / SCRATCH_MARK):
                shutil.rmtree(scratch, ignore_errors=True)
        except BlockingIOError:  # a running backup reads it
            pass
        except OSError:  # no locks (ENOLCK, EOPNOTSUPP): whether one does cannot be told
            if os.path.isfile(scratch / SCRATCH_MARK):  # (so they pile up: say so)
                _log.warning("dicetable: %s, a copy of the journal a backup or restore made, "
                             "is left there: this file system has no locks, so whether a "
                             "backup still reads it cannot be told; remove it once no backup "
                             "or restore runs", scratch)
        finally:
            os.close(held)


def _is_folder(held: int, path: Path) -> bool:
    """Whether the folder open as ``held`` is still the one at ``path``."""
    try:
        return os.path.samestat(os.fstat(held), os.stat(path, follow_symlinks=False))
    except OSError:
        return False


def _drop(partial: Path) -> None:
    """Remove an unfinished backup file, where it can be."""
    with suppress(OSError):
        partial.unlink(missing_ok=True)


def restore(backup_file: Path, journal: Path) -> tuple[int, Path | None]:
    """Put ``backup_file`` in place of the journal at ``journal``; refused while the table
    serves. Returns the games restored and where the replaced journal was kept (None when
    there was none).

    The table's serving lock is held for the whole restore: a table started meanwhile
    (systemd restarting one) is refused, as a second table is, until the restore is done.
    In this order: the journal is kept beside it, its count of commits is removed, then the
    backup is copied in (one SQLite transaction: whole, or not at all). A restore stopped at
    any point (a power cut) leaves the journal it replaced or the backup, never beside a count
    of commits that is not its own."""
    if (closed := _closed_folder(backup_file)) is not None:  # (whether it is there is unknown)
        raise BackupError(f"{_cannot_enter(closed)}: copy the backup into a folder this user "
                          "can enter, such as its home folder, and restore it from there")
    if _is_journals_own(backup_file, journal):
        raise BackupError(f"{backup_file} is the table's own journal, not a backup; name a "
                          "file written by dicetable backup")
    _refuse_newer(backup_file)
    games = games_in(backup_file)
    try:
        with ServingLock(journal.parent):
            drop_unfinished_keeps(journal, restoring=backup_file)
            return games, _put_in_place(backup_file, journal)
    except AlreadyServing:
        raise BackupError(f"the table is serving from {journal.parent} (or another restore "
                          "into it is under way); stop it first (sudo systemctl stop "
                          "dicetable), or let the other restore end, then restore") from None


def _put_in_place(backup_file: Path, journal: Path) -> Path | None:
    """Keep the journal, remove its count of commits, copy the backup in; where the journal
    was kept (None when there was none)."""
    kept = None
    if journal.is_file():
        if not _open_to_this_user(journal):  # the table's user's, root's, or on a read-only card
            raise BackupError(f"nothing was restored: {cannot_write(journal)}")
        kept = stamped(journal.parent, _kept_name(journal), journal.suffix)
        try:
            backup(journal, kept)
        except BackupError as err:
            if has_no_room(journal):  # SQLite's words for it: "disk I/O error", "disk is full"
                raise BackupError(
                    f"nothing was restored: {journal.parent} is full, and the journal it would "
                    "replace is kept beside it first; make room there, then restore again"
                ) from None
            raise BackupError(f"nothing was restored: the journal it would replace could not "
                              f"be kept ({err})") from None
    try:
        journal.parent.mkdir(parents=True, exist_ok=True)
    except PermissionError:
        raise BackupError(f"nothing was restored: {cannot_write(journal)}") from None
    # The count of commits acknowledged is the replaced journal's: an older backup holds
    # fewer, which the next start would take for changes lost on the card. It goes before
    # the journal is replaced, so that no stop leaves it beside the backup; the next start
    # counts anew.
    journal.with_name(journal.name + COMMITS_SUFFIX).unlink(missing_ok=True)
    try:
        owners_only(journal)
        with _open(backup_file, read_only=True) as source, _open(journal) as target:
            source.backup(target, pages=PAGES_PER_STEP)
    except sqlite3.Error as err:
        raise BackupError(f"the restore failed: {err}; the journal was kept in {kept}") from None
    return kept


def _open_to_this_user(journal: Path) -> bool:
    """Whether this user may read and write the journal at ``path`` and write its folder."""
    return os.access(journal, os.R_OK | os.W_OK) and os.access(journal.parent, os.W_OK | os.X_OK)


def _kept_name(journal: Path) -> str:
    """How a journal kept by a restore is named, less its time and suffix."""
    return f"{journal.stem}-before-restore"


def drop_unfinished_keeps(journal: Path, *, restoring: Path | None = None) -> None:
    """Remove what a restore stopped while keeping the journal (killed, a power cut) left
    beside it: ``table-before-restore-<time>.db.partial``, whole or cut short, and SQLite's
    ``-journal`` of it. The journal it copied was not replaced yet, so the copy holds nothing
    it lacks; left, it would hold the PIN and read as a second journal. The file a restore is
    ``restoring`` from (a host may restore such a copy) stays, with SQLite's files of it. Only
    the holder of the folder's serving lock may call this (a restore, a table starting): no
    other restore is writing one then."""
    spared = {Path(f"{restoring.resolve()}{side}") for side in ("", *SIDE_FILES)} \
        if restoring is not None else set()
    for unfinished in journal.parent.glob(f"{_kept_name(journal)}-*{journal.suffix}.partial*"):
        if unfinished.resolve() not in spared:
            _drop(unfinished)


def _is_journals_own(path: Path, journal: Path) -> bool:
    """True if ``path`` is the journal at ``journal`` or a file beside it that it keeps (its
    log, index, count of commits)."""
    own = [journal, *(journal.with_name(journal.name + suffix) for suffix in SIDE_FILES)]
    return any(path.resolve() == mine.resolve() or (path.exists() and mine.exists()
                                                    and path.samefile(mine)) for mine in own)


def _refuse_newer(backup_file: Path) -> None:
    """BackupError if a newer dicetable made ``backup_file``: checked before its tables, which
    a newer layout may name otherwise (a file that cannot be read is left to
    :func:`games_in`)."""
    if not backup_file.is_file():
        return
    try:
        with _open(backup_file, read_only=True) as db:
            version = layout_version(db)
    except sqlite3.DatabaseError:
        return
    if version > JOURNAL_VERSION:
        raise BackupError(f"{backup_file} was made by a newer dicetable "
                          f"{newer_layout(version)}, then restore it")


def games_in(path: Path) -> int:
    """How many games the journal file at ``path`` holds; BackupError when it is no sound
    dicetable journal."""
    if path.is_dir():
        raise BackupError(f"{path} is a folder; name the backup file")
    if not path.is_file():
        raise BackupError(f"there is no file {path}")
    if not os.access(path, os.R_OK):  # (SQLite would say only that it cannot open it)
        raise BackupError(f"{path} cannot be read by this user ({this_user()}): "
                          f"{ownership_advice(path)}")
    try:
        with _open(path, read_only=True) as db:
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not TABLES.issubset(tables):
                raise BackupError(f"{path} is no dicetable journal")
            (check,) = db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise BackupError(_damaged(path))
            return int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError:
        if _begins_as_sqlite(path):  # a copy cut short (a stick pulled out), or garbled
            raise BackupError(_damaged(path)) from None
        raise BackupError(f"{path} is no dicetable journal (not an SQLite file)") from None


def _damaged(path: Path) -> str:
    """Why the SQLite file at ``path`` cannot be restored, in the host's words."""
    return f"{path} is damaged or cut short: its games cannot be read whole; take an older backup"


def _begins_as_sqlite(path: Path) -> bool:
    """Whether the file at ``path`` begins as every SQLite file does."""
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _open(path: Path, *, read_only: bool = False) -> closing[sqlite3.Connection]:
    """A connection to ``path`` that the ``with`` closes."""
    uri = path.resolve().as_uri() + ("?mode=ro" if read_only else "")
    return closing(sqlite3.connect(uri, uri=True, timeout=30))


def _closed_folder(target: Path) -> Path | None:
    """The first folder on the way to ``target`` that this user cannot enter (another user's
    home, say), if there is one; None also where a folder on the way is not there."""
    for folder in reversed(target.absolute().parents):  # from / down: each one's folder is open
        if not folder.is_dir():
            return None
        if not os.access(folder, os.X_OK):
            return folder
    return None


def _cannot_enter(folder: Path) -> str:
    """That this user cannot enter ``folder``, in the host's words."""
    return f"{folder} cannot be entered by this user ({this_user()})"
