"""The journal: an append-only SQLite record of every game and every acknowledged line.

Every connection uses WAL and ``synchronous=FULL``, so a line is on disk before the action is
acknowledged; a power cut (``kill -9``) loses nothing that was acknowledged. The schema is in
``schema.sql`` beside this module.

>>> import tempfile, pathlib
>>> journal = Journal(pathlib.Path(tempfile.mkdtemp()) / "table.db")
>>> game_id, version = journal.start_game({"game": "dalek", "players": ["Ana", "Ben"]})
>>> journal.append(game_id, [{"roll": ["H4"] * 10}], source="phone")
2
>>> journal.latest_game().lines
({'roll': ['H4', 'H4', 'H4', 'H4', 'H4', 'H4', 'H4', 'H4', 'H4', 'H4']},)
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

Source = Literal["phone", "camera", "button"]
Status = Literal["playing", "finished", "abandoned"]
PIN_DIGITS = 6


@dataclass(frozen=True)
class StoredGame:
    """A game as the journal holds it: its header and every line, undos included."""

    id: int
    header: dict[str, Any]
    lines: tuple[dict[str, Any], ...]
    status: Status


class Journal:
    """The SQLite journal in file ``path`` (created with its folder if missing)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._local = threading.local()
        self._connection().executescript(
            files("device").joinpath("schema.sql").read_text("utf-8"))

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def version(self) -> int:
        """The number of the last change of the table (0 before any)."""
        row = self._connection().execute("SELECT max(version) FROM changes").fetchone()
        return int(row[0] or 0)

    def start_game(self, header: dict[str, Any]) -> tuple[int, int]:
        """Journal a new game; returns its id and the new version."""
        with self._transaction() as db:
            cursor = db.execute("INSERT INTO games (header, started_at) VALUES (?, ?)",
                                (json.dumps(header, ensure_ascii=False), _now()))
            game_id = int(cursor.lastrowid or 0)
            return game_id, _change(db, game_id, "new-game")

    def append(self, game_id: int, lines: Sequence[dict[str, Any]], *, source: Source,
               winners: Sequence[str] | None = None) -> int:
        """Journal ``lines`` of game ``game_id`` in one transaction; returns the new version.

        ``winners`` (when the lines end the game) marks it finished; None marks it playing
        again (an undo after the end).
        """
        with self._transaction() as db:
            (last,) = db.execute("SELECT coalesce(max(seq), 0) FROM lines WHERE game_id = ?",
                                 (game_id,)).fetchone()
            now = _now()
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
            return _change(db, game_id, "lines")

    def continue_as_new(self, game_id: int, record: Sequence[dict[str, Any]]) -> tuple[int, int]:
        """In one transaction: abandon game ``game_id`` and start a new one from ``record``
        (header and standing actions); returns the new game's id and the new version."""
        header, *actions = record
        with self._transaction() as db:
            now = _now()
            db.execute("UPDATE games SET status = 'abandoned', ended_at = ? WHERE id = ?",
                       (now, game_id))
            cursor = db.execute("INSERT INTO games (header, started_at) VALUES (?, ?)",
                                (json.dumps(header, ensure_ascii=False), now))
            new_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO lines (game_id, seq, line, source, at) VALUES (?, ?, ?, ?, ?)",
                [(new_id, seq, json.dumps(line, ensure_ascii=False), "phone", now)
                 for seq, line in enumerate(actions, start=1)])
            return new_id, _change(db, new_id, "new-game")

    def abandon(self, game_id: int) -> int:
        """Mark game ``game_id`` abandoned (its lines stay); returns the new version."""
        with self._transaction() as db:
            db.execute("UPDATE games SET status = 'abandoned', ended_at = ? WHERE id = ?",
                       (_now(), game_id))
            return _change(db, game_id, "abandon")

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
        db = self._connection()
        row = db.execute("SELECT header, status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        lines = db.execute("SELECT line FROM lines WHERE game_id = ? ORDER BY seq",
                           (game_id,)).fetchall()
        return StoredGame(game_id, json.loads(row[0]), tuple(json.loads(r[0]) for r in lines),
                          row[1])

    def history(self) -> list[dict[str, Any]]:
        """Finished games, newest first: id, game, players, winners, started_at, ended_at."""
        rows = self._connection().execute(
            "SELECT id, header, winners, started_at, ended_at FROM games"
            " WHERE status = 'finished' ORDER BY id DESC").fetchall()
        history = []
        for game_id, header, winners, started, ended in rows:
            parsed = json.loads(header)
            history.append({"id": game_id, "game": parsed["game"], "players": parsed["players"],
                            "winners": json.loads(winners), "started_at": started,
                            "ended_at": ended})
        return history

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
            return _change(db, None, change) if change else _version(db)

    def pin(self) -> str:
        """The table PIN (made on first use; kept across restarts)."""
        return self._secret_setting("pin", lambda: f"{secrets.randbelow(10**PIN_DIGITS):06d}")

    def secret(self) -> str:
        """The secret that signs the phones' session cookies (made on first use)."""
        return self._secret_setting("secret", lambda: secrets.token_hex(32))

    def _secret_setting(self, key: str, make: Any) -> str:
        value = self.setting(key)
        if value is None:
            with self._transaction() as db:
                db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)",
                           (key, make()))
            value = self.setting(key)
        assert value is not None
        return value


def _change(db: sqlite3.Connection, game_id: int | None, what: str) -> int:
    cursor = db.execute("INSERT INTO changes (game_id, what, at) VALUES (?, ?, ?)",
                        (game_id, what, _now()))
    return int(cursor.lastrowid or 0)


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT coalesce(max(version), 0) FROM changes").fetchone()[0])


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
