-- The first schema: chat settings, games, and each game's action log.
--
-- A shipped migration is never edited (databases in the wild have already run it): a change
-- is a new file with the next number.

CREATE TABLE settings (
    chat_key   TEXT PRIMARY KEY,
    data       TEXT NOT NULL,
    updated_at REAL NOT NULL
);

-- AUTOINCREMENT: ids are never reused, so a stale ref/log/timer keyed by a game id can never
-- attach itself to a different, newer game.
CREATE TABLE games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_key   TEXT    NOT NULL,
    status     TEXT    NOT NULL
               CHECK (status IN ('lobby', 'running', 'finished', 'killed')),
    version    INTEGER NOT NULL DEFAULT 0,
    state      TEXT,
    meta       TEXT    NOT NULL,
    deadline   REAL,
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL
);

-- The database, not a check-then-insert in Python, guarantees one open game per chat: two
-- processes racing to create a lobby cannot both succeed.
CREATE UNIQUE INDEX games_one_active_per_chat
    ON games (chat_key) WHERE status IN ('lobby', 'running');

-- seq orders several entries produced by one commit; the primary key also makes a duplicate
-- (game, version) application impossible at the database level.
CREATE TABLE game_log (
    game_id INTEGER NOT NULL REFERENCES games (id),
    version INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    actor   TEXT    NOT NULL,
    action  TEXT    NOT NULL,
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, version, seq)
) WITHOUT ROWID;
