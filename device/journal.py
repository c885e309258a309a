"""The journal: an append-only SQLite record of every game and every acknowledged line.

Every connection uses WAL and ``synchronous=FULL``, so a line is on disk before the action is
acknowledged; a power cut (``kill -9``) loses nothing that was acknowledged. The schema is in
``schema.sql`` beside this module. Every commit counts itself in the journal and in the file
``table.db-commits`` beside it (:mod:`device.recovery` compares the two at start). A write the
disk refuses (full, read-only, damaged) raises :class:`JournalError` and changes nothing.

>>> import tempfile, pathlib
>>> journal = Journal(pathlib.Path(tempfile.mkdtemp()) / "table.db")
>>> game_id, version = journal.start_game({"game": "dalek", "players": ["Ana", "Ben"]})
>>> journal.append(game_id, [{"roll": ["H4"] * 10}], source="phone")
2
>>> journal.latest_game().lines
({'roll': ['H4', 'H4', 'H4', 'H4', 'H4', 'H4', 'H4', 'H4', 'H4', 'H4']},)
"""

from __future__ import annotations

import errno
import json
import os
import resource
import secrets
import sqlite3
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from device.reserve import let_go
from device.state_dir import ownership_advice, this_user
from engine import RecordError, parse_lines

Source = Literal["phone", "camera", "button"]
Status = Literal["playing", "finished", "abandoned"]
Problem = Literal["full", "room_let_go", "read_only", "damaged", "other"]
PIN_DIGITS = 6
MAX_ID = 2 ** 63 - 1  # SQLite's largest integer: no game has a larger number
GRANT_DAYS = 30
ROOM_BYTES = 1 << 20
"""Less free room than this for the journal to grow is a full disk."""
JOURNAL_VERSION = 1
"""The layout of the journal this code reads and writes, kept in SQLite's ``user_version``:
one more for a layout that older code cannot play on (0: made before it was counted). A
journal of a later version (a backup from a newer dicetable) is refused, not written."""
COMMITS_SUFFIX = "-commits"
"""The file beside the journal that holds its commit count: ``table.db-commits``."""


class JournalError(Exception):
    """The journal cannot be read or written: ``problem`` says why in one word (the disk is
    full, the folder read-only, the file damaged); nothing was changed."""

    def __init__(self, problem: Problem, detail: str) -> None:
        super().__init__(detail)
        self.problem = problem


class NoTable(JournalError):
    """There is no journal where one was looked for (only ``dicetable serve`` makes one)."""

    def __init__(self, path: Path) -> None:
        super().__init__("other", f"there is no table in {path.parent} (no {path.name}); "
                                  "`dicetable serve` makes one")
        self.path = path


def owners_only(path: Path) -> None:
    """Make the journal file at ``path``, if there is none, for its owner's eyes only: it holds
    the PIN and the secret that signs the phones' cookies (SQLite gives its log and index the
    same mode)."""
    if not path.exists():
        with suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                as_folders_owner(fd, path.parent)
            finally:
                os.close(fd)


def as_folders_owner(fd: int, folder: Path) -> None:
    """Give the file open as ``fd`` to the owner of ``folder`` when root opened it there and
    another user owns the folder (``sudo dicetable …`` on the service's state folder), as
    SQLite does with its log and index: else the table could no longer write it."""
    if os.geteuid() == 0:
        owner = os.stat(folder)
        if owner.st_uid != 0:
            os.fchown(fd, owner.st_uid, owner.st_gid)


def journal_error(err: sqlite3.Error | OSError, path: Path) -> JournalError:
    """What a failed read or write of the journal at ``path`` means for its user."""
    code = getattr(err, "sqlite_errorcode", None)
    name = str(getattr(err, "sqlite_errorname", ""))
    errno = getattr(err, "errno", None)
    if code == sqlite3.SQLITE_FULL or errno in (28, 27) \
            or (name.startswith("SQLITE_IOERR") and has_no_room(path)):  # ENOSPC, EFBIG
        return JournalError("full", f"{path.parent} is full: {err}")
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")) or errno in (13, 30) \
            or (name.startswith("SQLITE_IOERR") and _mounted_read_only(path)):  # EROFS
        return JournalError("read_only", cannot_write(path))
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return JournalError("damaged", f"{path} is damaged: {err}")
    return JournalError("other", f"{path}: {err}")


def layout_version(db: sqlite3.Connection) -> int:
    """The version of the journal's layout that ``db`` holds (see :data:`JOURNAL_VERSION`)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def newer_layout(version: int) -> str:
    """Words for a journal's layout ``version`` newer than this code reads, and what to do."""
    return (f"(its journal's version {version}; this one reads up to {JOURNAL_VERSION}): "
            "update dicetable (git pull, then systemd/install again)")


def readable_layout(db: sqlite3.Connection, path: Path) -> int:
    """The layout version of the journal at ``path`` open as ``db``; JournalError if a newer
    dicetable wrote it (nothing is written)."""
    version = layout_version(db)
    if version > JOURNAL_VERSION:
        raise JournalError("other", f"{path} was written by a newer dicetable "
                           f"{newer_layout(version)} to open it")
    return version


@dataclass(frozen=True)
class StoredGame:
    """A game as the journal holds it: its header and every line, undos included. Where the
    disk garbled a line's text, ``damage`` says which (a RecordError); the lines stop before
    it (the header is ``{}`` when it is the header)."""

    id: int
    header: dict[str, Any]
    lines: tuple[dict[str, Any], ...]
    status: Status
    damage: RecordError | None = None


def _loaded(text: str) -> Any:
    """The JSON in ``text``; None where the disk garbled it."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def cannot_write(path: Path) -> str:
    """Why the journal at ``path`` cannot be written, in the host's words, and what to do."""
    if _mounted_read_only(path):
        return (f"{path.parent} cannot be written: the memory card (or disk) it is on is "
                "read-only. A card the system made read-only after an error may be failing: "
                "copy the table off it with `dicetable backup`, then check or replace the card; "
                "else make it writable again (its lock switch, or how it is mounted)")
    me, folder = this_user(), path.parent
    if _not_made(folder):
        return (f"{folder} does not exist, and this user ({me}) cannot create it: create the "
                f"folder and give it to this user (sudo mkdir -p {folder}, then "
                f"sudo chown {me} {folder})")
    return f"{folder} cannot be written by this user ({me}): {ownership_advice(folder)}"


def _not_made(folder: Path) -> bool:
    """True if ``folder`` does not exist (one that this user may not look at does)."""
    try:
        folder.stat()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def _mounted_read_only(path: Path) -> bool:
    """True if the disk of the journal at ``path`` cannot be written now: mounted read-only,
    or made so by the kernel for a failing SD card (ext4's emergency read-only does not show
    in the mount's flags: a file made there says so). SQLite then says "disk I/O error"."""
    try:
        if os.statvfs(path.parent).f_flag & os.ST_RDONLY:
            return True
        handle, made = tempfile.mkstemp(prefix=".dicetable-", dir=path.parent)
    except OSError as err:
        return err.errno == errno.EROFS
    os.close(handle)
    os.unlink(made)
    return False


def has_no_room(path: Path) -> bool:
    """True if the journal in ``path`` has no room to grow: its disk is (all but) full, or its
    files reach the process's file size limit (``RLIMIT_FSIZE``; SQLite then says "disk I/O
    error")."""
    try:
        disk = os.statvfs(path.parent)
        sizes = [p.stat().st_size for p in (path, path.with_name(path.name + "-wal"))
                 if p.exists()]
    except OSError:
        return False
    if disk.f_bavail * disk.f_frsize < ROOM_BYTES:
        return True
    limit, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return limit != resource.RLIM_INFINITY and any(s + ROOM_BYTES > limit for s in sizes)


class Journal:
    """The SQLite journal in file ``path``; a new one (with its folder, PIN and secret) is made
    if there is none. :meth:`existing` opens only one that is there."""

    def __init__(self, path: Path, *, read_only: bool = False,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.path = path
        self.read_only = read_only
        """Opened only to read (see :func:`_reading`): every write is refused as ``read_only``."""
        self.clock = clock
        """When a line, a game or a change is journalled (UTC): what the table's clock says,
        which need not only grow (a Pi has no clock of its own until it finds the time)."""
        self._local = threading.local()
        self._commits_lock = threading.Lock()
        self._commits_seen = 0
        self._commits_fd: int | None = None
        self.room_let_go = False
        """The room kept on the card was let go (a write found the card full), and the host
        is yet to be told (whoever tells sets it back)."""
        self.on_room_let_go: Callable[[], None] | None = None
        """Called as the room kept is let go, in the thread whose write found the card full
        (the table tells the host at once: :class:`web.table.Table`)."""
        try:
            if read_only:
                self._refuse_newer()
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            owners_only(path)
            version = self._refuse_newer()
            schema = files("device").joinpath("schema.sql").read_text("utf-8")
            # written only when older: a write on every open fails on a full card
            mark = f" PRAGMA user_version = {JOURNAL_VERSION};" \
                if version < JOURNAL_VERSION else ""
            self._connection().executescript(
                f"BEGIN IMMEDIATE; {self._finals_before_end_seq()}{schema};{mark} COMMIT;")
        except (sqlite3.Error, OSError) as err:
            self.close()
            raise journal_error(err, path) from err
        except JournalError:
            self.close()
            raise
        if self._never_made():
            self.new_pin()
            self.secret()

    def _refuse_newer(self) -> int:
        """The journal's layout version; JournalError if a newer dicetable wrote it (nothing
        is written)."""
        return readable_layout(self._connection(), self.path)

    def _finals_before_end_seq(self) -> str:
        """SQL that drops a ``finals`` table of a journal made before summaries were kept by
        their end's line (``end_seq``): derived, they are made again from the games' lines."""
        columns = {row[1] for row in self._connection().execute("PRAGMA table_info(finals)")}
        return "DROP TABLE IF EXISTS finals; " if columns and "end_seq" not in columns else ""

    def _now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="milliseconds")

    def _never_made(self) -> bool:
        """No table was ever made in this journal: no PIN, no change committed, and no count
        of commits acknowledged beside it (a first start cut short made part of it at most;
        a journal that lost its PIN with damaged files is not new)."""
        return (self.setting("pin") is None and self.commits() == 0
                and not self.commits_path.exists())

    @classmethod
    def existing(cls, path: Path, *, read_only: bool = False) -> Journal:
        """The journal in file ``path`` (``read_only``: opened only to read, for where it
        cannot be written); :class:`NoTable` if there is none."""
        if not path.is_file() or path.stat().st_size == 0:
            raise NoTable(path)
        return cls(path, read_only=read_only)

    @property
    def commits_path(self) -> Path:
        """The file that holds the journal's commit count as last acknowledged."""
        return self.path.with_name(self.path.name + COMMITS_SUFFIX)

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None and self.read_only:
            db = self._local.db = _reading(self.path)
        if db is None:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.execute("PRAGMA foreign_keys=ON")
            except sqlite3.Error:
                db.close()  # kept, it would write without the log or the full syncs
                raise
            self._local.db = db
        return db

    @contextmanager
    def _transaction(self, *, room: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction, counted in the journal and (once committed) in the commits
        file; a failure of the disk is a :class:`JournalError` and leaves nothing behind.
        ``room``: a full card lets the room kept for the table's changes go (not for a write
        that can wait, as a summary the journal can do without)."""
        try:
            db = self._connection()
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise self._refused(err, room=room) from err
        try:
            yield db
            (count,) = db.execute("UPDATE commits SET count = count + 1 WHERE id = 1"
                                  " RETURNING count").fetchone()
            db.execute("COMMIT")
        except BaseException as err:
            if db.in_transaction:
                with suppress(sqlite3.Error):  # a failed COMMIT may have rolled back already
                    db.execute("ROLLBACK")
            if isinstance(err, sqlite3.Error):
                raise self._refused(err, room=room) from err
            raise
        self._count_commit(int(count))

    def _refused(self, err: sqlite3.Error, *, room: bool = True) -> JournalError:
        """What a failed write means; on a full card, the room kept for it is let go (with
        ``room``), so that the change goes in when tried again (:mod:`device.reserve`)."""
        told = journal_error(err, self.path)
        if room and told.problem == "full" and let_go(self.path.parent):
            self.room_let_go = True
            if self.on_room_let_go is not None:
                self.on_room_let_go()
            return JournalError("room_let_go", f"{told}; the room kept for this was let go")
        return told

    def commits(self) -> int:
        """How many transactions the journal holds (its own sequence number)."""
        row = self._connection().execute("SELECT count FROM commits WHERE id = 1").fetchone()
        return int(row[0]) if row else 0

    def mark_commits(self) -> None:
        """Write the journal's commit count to the commits file (at start, after checks)."""
        self._count_commit(self.commits(), reset=True)

    def _count_commit(self, count: int, *, reset: bool = False) -> None:
        # A fixed-width line rewritten in place: no fsync (a power cut may leave it behind the
        # journal, never ahead of it), and no new block on a full disk.
        with self._commits_lock:
            self._commits_seen = count if reset else max(self._commits_seen, count)
            try:
                if self._commits_fd is None:
                    self._commits_fd = os.open(self.commits_path, os.O_RDWR | os.O_CREAT, 0o600)
                    as_folders_owner(self._commits_fd, self.path.parent)
                os.pwrite(self._commits_fd, f"{self._commits_seen:020d}\n".encode(), 0)
            except OSError:
                pass  # the count is a check, never a reason to refuse an acknowledged change

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
        with self._commits_lock:
            if self._commits_fd is not None:
                os.close(self._commits_fd)
                self._commits_fd = None

    def version(self) -> int:
        """The number of the last change of the table (0 before any)."""
        row = self._connection().execute("SELECT max(version) FROM changes").fetchone()
        return int(row[0] or 0)

    def start_game(self, header: dict[str, Any], *, abandoning: int | None = None
                   ) -> tuple[int, int]:
        """Journal a new game, in one transaction with abandoning game ``abandoning`` when
        given; returns its id and the new version."""
        with self._transaction() as db:
            if abandoning is not None:
                _abandon(db, abandoning, self._now())
            cursor = db.execute("INSERT INTO games (header, started_at) VALUES (?, ?)",
                                (json.dumps(header, ensure_ascii=False), self._now()))
            game_id = int(cursor.lastrowid or 0)
            return game_id, _change(db, game_id, "new-game", self._now())

    def append(self, game_id: int, lines: Sequence[dict[str, Any]], *, source: Source,
               winners: Sequence[str] | None = None) -> int:
        """Journal ``lines`` of game ``game_id`` in one transaction; returns the new version.

        ``winners`` (when the lines end the game) marks it finished; None marks it playing
        again (an undo after the end).
        """
        with self._transaction() as db:
            (last,) = db.execute("SELECT coalesce(max(seq), 0) FROM lines WHERE game_id = ?",
                                 (game_id,)).fetchone()
            now = self._now()
            db.executemany(
                "INSERT INTO lines (game_id, seq, line, source, at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, last + i, json.dumps(line, ensure_ascii=False), source, now)
                 for i, line in enumerate(lines, start=1)])
            if winners is None:
                db.execute("UPDATE games SET status = 'playing', ended_at = NULL, winners = NULL"
                           " WHERE id = ?", (game_id,))
            else:
                db.execute("UPDATE games SET status = 'finished', ended_at = ?, winners = ?"
                           " WHERE id = ?", (now, json.dumps(list(winners)), game_id))
            return _change(db, game_id, "lines", now)

    def continue_as_new(self, game_id: int, record: Sequence[dict[str, Any]]) -> tuple[int, int]:
        """In one transaction: abandon game ``game_id`` and start a new one from ``record``
        (header and standing actions); returns the new game's id and the new version."""
        header, *actions = record
        with self._transaction() as db:
            now = self._now()
            db.execute("UPDATE games SET status = 'abandoned', ended_at = ? WHERE id = ?",
                       (now, game_id))
            cursor = db.execute("INSERT INTO games (header, started_at) VALUES (?, ?)",
                                (json.dumps(header, ensure_ascii=False), now))
            new_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO lines (game_id, seq, line, source, at) VALUES (?, ?, ?, ?, ?)",
                [(new_id, seq, json.dumps(line, ensure_ascii=False), "phone", now)
                 for seq, line in enumerate(actions, start=1)])
            return new_id, _change(db, new_id, "new-game", now)

    def abandon(self, game_id: int) -> int:
        """Mark game ``game_id`` abandoned (its lines stay); returns the new version."""
        with self._transaction() as db:
            return _abandon(db, game_id, self._now())

    def latest_game(self) -> StoredGame | None:
        """The most recent game that was not abandoned, with all its lines; None if none."""
        db = self._connection()
        row = db.execute("SELECT id, header, status FROM games ORDER BY id DESC LIMIT 1"
                         ).fetchone()
        if row is None or row[2] == "abandoned":
            return None
        return self.game(int(row[0]))

    def game(self, game_id: int) -> StoredGame | None:
        """Game ``game_id`` with all its lines; None if there is none."""
        if not 0 < game_id <= MAX_ID:
            return None
        db = self._connection()
        row = db.execute("SELECT header, status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        texts = [row[0], *(r[0] for r in db.execute(
            "SELECT line FROM lines WHERE game_id = ? ORDER BY seq", (game_id,)))]
        readable: list[dict[str, Any]] = []
        damage = None
        try:
            for _, line in parse_lines(texts):
                readable.append(line)
        except RecordError as err:
            damage = err
        header, *lines = readable or [{}]
        return StoredGame(game_id, header, tuple(lines), row[1], damage)

    def taken_up(self, game_id: int, record: Sequence[dict[str, Any]]) -> bool:
        """True if a later game starts with ``record`` (game ``game_id``'s header and standing
        actions) as :meth:`continue_as_new` wrote it: that game was taken up again."""
        header, *actions = record
        if not actions:
            return False  # a game with no action is no more than its header (a rematch's)
        db = self._connection()
        later = [row[0] for row in db.execute(
            "SELECT id FROM games WHERE id > ? AND header = ?",
            (game_id, json.dumps(header, ensure_ascii=False)))]
        wanted = [json.dumps(line, ensure_ascii=False) for line in actions]
        for other in later:
            lines = [row[0] for row in db.execute(
                "SELECT line FROM lines WHERE game_id = ? AND seq <= ? ORDER BY seq",
                (other, len(wanted)))]
            if lines == wanted:
                return True
        return False

    def history(self, status: Status = "finished") -> list[dict[str, Any]]:
        """Games of ``status`` (finished ones by default), newest first: id, game, players,
        winners, started_at, ended_at, and last_seq: the number of its last line (0 with
        none), which only grows (an undo is a line too), so a finished game's tells its end
        from an end taken back and made again, whatever the clock said."""
        rows = self._connection().execute(
            "SELECT id, header, winners, started_at, ended_at,"
            " (SELECT coalesce(max(seq), 0) FROM lines WHERE game_id = games.id) FROM games"
            " WHERE status = ? ORDER BY id DESC", (status,)).fetchall()
        history = []
        for game_id, header, winners, started, ended, last_seq in rows:
            parsed = _loaded(header)
            if not isinstance(parsed, dict) or not {"game", "players"} <= parsed.keys():
                continue  # garbled on disk: there is no game to show
            history.append({"id": game_id, "game": parsed["game"], "players": parsed["players"],
                            "winners": _loaded(winners or "[]") or [], "started_at": started,
                            "ended_at": ended, "last_seq": last_seq})
        return history

    def finals(self) -> dict[tuple[int, int], Any]:
        """The summaries kept of finished games (:meth:`keep_finals`) by game id and the
        number of the line that ended it, each the JSON it was kept as (None where the disk
        garbled it)."""
        rows = self._connection().execute("SELECT game_id, end_seq, final FROM finals")
        return {(int(game_id), int(end_seq)): _loaded(text) for game_id, end_seq, text in rows}

    def keep_finals(self, finals: Sequence[tuple[int, int, dict[str, Any]]]) -> None:
        """Keep summaries of finished games in one transaction, each ``(game_id, end_seq,
        final)``: ``final`` made of the game's end at its line ``end_seq`` (its ``last_seq``
        in :meth:`history`), in place of any older one. A card that cannot take them (full,
        read-only) raises :class:`JournalError` and keeps the room kept for the games'
        lines."""
        with self._transaction(room=False) as db:
            db.executemany("INSERT OR REPLACE INTO finals (game_id, end_seq, final)"
                           " VALUES (?, ?, ?)",
                           [(game_id, end_seq, json.dumps(final, ensure_ascii=False))
                            for game_id, end_seq, final in finals])

    def player_wins(self) -> dict[str, int]:
        """Each player's wins over all finished games (a shared win counts for each)."""
        wins: Counter[str] = Counter()
        for game in self.history():
            wins.update(game["winners"])
        return dict(wins)

    def setting(self, key: str) -> str | None:
        """A stored setting, or None."""
        row = self._connection().execute("SELECT value FROM settings WHERE key = ?",
                                         (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str, *, change: str | None = None) -> int:
        """Store a setting; with ``change``, it counts as a change of the table."""
        with self._transaction() as db:
            db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key)"
                       " DO UPDATE SET value = excluded.value", (key, value))
            return _change(db, None, change, self._now()) if change else _version(db)

    def pin(self) -> str:
        """The table PIN (made with the table, or by :meth:`new_pin`)."""
        pin = self.setting("pin")
        if pin is None:
            raise JournalError("damaged", f"{self.path} has no table PIN")
        return pin

    def has_pin(self) -> bool:
        """True if the journal holds a PIN (a damaged one may have lost it)."""
        return self.setting("pin") is not None

    def new_pin(self) -> str:
        """Make a new table PIN and revoke every grant made with the old one."""
        pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
        with self._transaction() as db:
            db.execute("INSERT INTO settings (key, value) VALUES ('pin', ?) ON CONFLICT (key)"
                       " DO UPDATE SET value = excluded.value", (pin,))
            db.execute("DELETE FROM grants")
        return pin

    def secret(self) -> str:
        """The secret that signs the phones' session cookies (made on first use)."""
        value = self.setting("secret")
        if value is None:
            with self._transaction() as db:
                db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES ('secret', ?)",
                           (secrets.token_hex(32),))
            value = self.setting("secret")
        assert value is not None
        return value

    def grant(self) -> str:
        """A new grant (the right to change the game) for one phone: its id."""
        grant_id = secrets.token_urlsafe(18)
        now = time.time()
        with self._transaction() as db:
            db.execute("DELETE FROM grants WHERE made_at < ?", (now - GRANT_DAYS * 86400,))
            db.execute("INSERT INTO grants (id, made_at) VALUES (?, ?)", (grant_id, now))
        return grant_id

    def granted(self, grant_id: str) -> bool:
        """True while grant ``grant_id`` stands: not revoked, not older than 30 days."""
        row = self._connection().execute(
            "SELECT 1 FROM grants WHERE id = ? AND made_at >= ?",
            (grant_id, time.time() - GRANT_DAYS * 86400)).fetchone()
        return row is not None

    def revoke(self, grant_id: str) -> None:
        """Revoke one grant (a phone logs out)."""
        with self._transaction() as db:
            db.execute("DELETE FROM grants WHERE id = ?", (grant_id,))


def _reading(path: Path) -> sqlite3.Connection:
    """A connection that only reads the journal at ``path``. SQLite reads a journal in WAL
    mode through the index beside its log (``-shm``); in a folder that cannot be written
    (SQLite says "unable to open database file" on a read-only mount, "attempt to write a
    readonly database" where the folder's mode forbids it), where the table was closed
    cleanly, there is neither log nor index and none can be made: the file then holds every
    change, and is read as a file nothing changes (``immutable``)."""
    uri = path.resolve().as_uri()
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, timeout=30)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # SQLite opens it here
        return db
    except sqlite3.OperationalError as err:
        db.close()
        log = path.with_name(path.name + "-wal")
        index_not_made = err.sqlite_errorname.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY"))
        if not index_not_made or (log.exists() and log.stat().st_size > 0):
            raise
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)


def _abandon(db: sqlite3.Connection, game_id: int, now: str) -> int:
    db.execute("UPDATE games SET status = 'abandoned', ended_at = ? WHERE id = ?",
               (now, game_id))
    return _change(db, game_id, "abandon", now)


def _change(db: sqlite3.Connection, game_id: int | None, what: str, now: str) -> int:
    cursor = db.execute("INSERT INTO changes (game_id, what, at) VALUES (?, ?, ?)",
                        (game_id, what, now))
    return int(cursor.lastrowid or 0)


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT coalesce(max(version), 0) FROM changes").fetchone()[0])

