-- A game whose stored state cannot be loaded is set aside as 'broken' so that its chat can
-- start a new one. The status CHECK is part of the table definition, which SQLite cannot
-- alter: the table is rebuilt as sqlite.org prescribes for "other kinds of table schema
-- changes" (the runner switches foreign keys off around the migrations and checks them all
-- before it commits).
CREATE TABLE games_new (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_key   TEXT    NOT NULL,
    status     TEXT    NOT NULL
               CHECK (status IN ('lobby', 'running', 'finished', 'killed', 'broken')),
    version    INTEGER NOT NULL DEFAULT 0,
    state      TEXT,
    meta       TEXT    NOT NULL,
    deadline   REAL,
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL
);

INSERT INTO games_new (id, chat_key, status, version, state, meta, deadline, created_at,
                       updated_at)
SELECT id, chat_key, status, version, state, meta, deadline, created_at, updated_at
FROM games;

-- Ids are never reused: carry over the highest id ever handed out, not just the highest kept.
UPDATE sqlite_sequence SET seq = max(seq, coalesce(
    (SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0))
WHERE name = 'games_new';

DROP TABLE games;

ALTER TABLE games_new RENAME TO games;

CREATE UNIQUE INDEX games_one_active_per_chat
    ON games (chat_key) WHERE status IN ('lobby', 'running');

CREATE INDEX games_status ON games (status);

CREATE INDEX games_by_chat ON games (chat_key, id);
