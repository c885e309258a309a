-- The journal of a dicetable: every game and every line of its record, append-only.
-- Opened with journal_mode=WAL and synchronous=FULL on every connection (device/journal.py).
-- Its layout's version is SQLite's user_version (journal.JOURNAL_VERSION, set after this).

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

-- What the statistics take of each finished game (its kind, final scores, winners), kept at
-- the first look after its end: derived, never the truth (its lines are). It stands for the
-- end it was made of, told by the number of the line that ended it (lines are only added, an
-- undo too: an end taken back and made again ends at a later line, whatever the clock said).
-- One missing (a journal older than this table, a salvaged one; one kept by its ended_at
-- before, dropped at the start), garbled or of another end is made again by replaying the
-- game.
CREATE TABLE IF NOT EXISTS finals (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    end_seq     INTEGER NOT NULL,              -- lines.seq of the game's last line at its end
    final       TEXT NOT NULL                  -- JSON: {"game", "scores", "winners"}
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

-- The phones that may change the game: a random id each, kept in the phone's signed cookie.
-- Logging out deletes one; a new PIN (`dicetable pin --new`) deletes them all.
CREATE TABLE IF NOT EXISTS grants (
    id          TEXT PRIMARY KEY,
    made_at     REAL NOT NULL                  -- Unix time; a grant lasts 30 days
);

-- The journal's own sequence number: one more for every committed transaction. Each commit
-- also writes it to the file `table.db-commits` beside the journal, so that a start finds out
-- when the journal holds fewer commits than were acknowledged (a lost or torn -wal file).
CREATE TABLE IF NOT EXISTS commits (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    count       INTEGER NOT NULL
);
INSERT OR IGNORE INTO commits (id, count) VALUES (1, 0);
