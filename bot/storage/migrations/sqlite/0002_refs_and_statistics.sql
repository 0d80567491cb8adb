-- Adapter bookkeeping (message ids etc.) that must survive a restart.
CREATE TABLE game_refs (
    game_id INTEGER NOT NULL REFERENCES games (id),
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;

-- One row per recorded game makes recording a match idempotent (INSERT OR IGNORE on game_id)
-- and keeps the raw results so the aggregate table can be rebuilt if scoring rules change.
CREATE TABLE matches (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    chat_key    TEXT NOT NULL,
    results     TEXT NOT NULL,
    recorded_at REAL NOT NULL
);

CREATE TABLE player_stats (
    chat_key TEXT    NOT NULL,
    user_id  TEXT    NOT NULL,
    name     TEXT    NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    points   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_key, user_id)
) WITHOUT ROWID;

CREATE INDEX player_stats_rank
    ON player_stats (chat_key, wins DESC, points DESC, games, name);

-- Start-up scans for running games to re-arm their timers.
CREATE INDEX games_status ON games (status);
