"""A table that played under an older dicetable, served by this one: a journal of the layout
before finished games' summaries were kept (tests/device/fixtures, as that version wrote it)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import urllib.request
from contextlib import closing
from pathlib import Path

from device.journal import Journal
from dicetable.child import ServedTable
from web.client import Phone

OLD_JOURNAL = Path(__file__).parents[1] / "device" / "fixtures" / "journal-before-finals.sql"


def old_journal(path: Path) -> str:
    """Write the older version's journal to ``path`` (its folder made); returns its PIN."""
    path.parent.mkdir()
    with closing(sqlite3.connect(path)) as db:
        db.executescript(OLD_JOURNAL.read_text("utf-8"))
        assert db.execute("PRAGMA user_version").fetchone() == (0,)  # before it was counted
        (pin,) = db.execute("SELECT value FROM settings WHERE key = 'pin'").fetchone()
    return str(pin)


def version_of(path: Path) -> int:
    """The layout version that the journal at ``path`` says it is."""
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def test_a_journal_of_an_older_version_opened_says_it_is_of_this_layout(tmp_path: Path) -> None:
    path = tmp_path / "state" / "table.db"
    old_journal(path)
    Journal(path).close()
    assert version_of(path) == 1


def test_a_journal_of_an_older_version_serves_its_games_where_they_were(tmp_path: Path) -> None:
    state = tmp_path / "state"
    old_pin = old_journal(state / "table.db")
    with ServedTable(state) as table:
        assert table.pin == old_pin  # the phones' PIN as it was
        phone = Phone(table.url, pin=old_pin)
        _, history = phone.get("/api/history")
        assert [(g["id"], g["winners"]) for g in history["games"]] == [(2, ["Cy"]), (1, ["Ana"])]
        _, stats = phone.get("/api/stats")
        assert stats["games"]["dalek"]["played"] == 2
        assert stats["games"]["dalek"]["players"]["Ana"]["best"] == 21
        _, abandoned = phone.get("/api/abandoned")
        assert [g["id"] for g in abandoned["games"]] == [3]
        _, state_now = phone.get("/api/state")  # the game in progress, to go on with
        view = state_now["state"]["view"]
        assert (view["players"], view["actions"], view["turn"]) == (["Ana", "Fay"], 4, "Fay")
        record = tmp_path / "game-1.jsonl"
        with urllib.request.urlopen(f"{table.url}/export/1.jsonl") as reply:
            record.write_bytes(reply.read())
        phone.close()
    assert version_of(state / "table.db") == 1
    replayed = subprocess.run([sys.executable, "-m", "dicetable", "replay", str(record)],
                              capture_output=True, text=True, check=False,
                              cwd=Path(__file__).parents[2])
    assert (replayed.returncode, replayed.stdout) == (
        0, "Dalek Dice, over after round 2 (target 20)\n  Ana 21   Ben 0\n  Winner: Ana\n")
