-- The journal of a dicetable: every game and every line of its record, append-only.
-- Opened with journal_mode=WAL and synchronous=FULL on every connection (device/journal.py).

CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    header      TEXT NOT NULL,                 -- the record's header line, JSON
    started_at  TEXT NOT NULL,                 -- ISO 8601, UTC
    status      TEXT NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'abandoned')),
    ended_at    TEXT,
    winners     TEXT                           -- JSON list of names once finished
);

CREATE TABLE IF NOT EXISTS lines (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL,              -- 1, 2, ... within the game
    line        TEXT NOT NULL,                 -- one record line (an action or an undo), JSON
    source      TEXT NOT NULL CHECK (source IN ('phone', 'camera', 'button')),
    at          TEXT NOT NULL,                 -- ISO 8601, UTC
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE IF NOT EXISTS settings (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL
);

-- One row per change of the table: its number is the state version phones send back.
CREATE TABLE IF NOT EXISTS changes (
    version     INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER REFERENCES games (id),
    what        TEXT NOT NULL,                 -- 'new-game', 'lines', 'abandon', 'hints'
    at          TEXT NOT NULL
);
