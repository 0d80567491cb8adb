-- The whole schema as the SQLite migrations 0001-0005 left it, in PostgreSQL's words.
--
-- A shipped migration is never edited (databases in the wild have already run it): a change
-- is a new file with the next number.  The runner (bot/storage/postgres/migrate.py) applies
-- the pending files in one transaction and records each in schema_version.

CREATE TABLE settings (
    chat_key   text PRIMARY KEY,
    data       text NOT NULL,
    updated_at double precision NOT NULL
);

-- state and meta are text, not jsonb: the storage treats them as opaque JSON written by the
-- engine, text keeps them byte for byte (jsonb would reorder keys), and a damaged value reads
-- as a corrupt row instead of failing the query that meets it.
-- An identity never hands out an id twice, so a stale ref, log entry or timer keyed by a
-- game id can never attach itself to a newer game.
CREATE TABLE games (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_key   text   NOT NULL,
    status     text   NOT NULL
               CHECK (status IN ('lobby', 'running', 'finished', 'killed', 'broken')),
    version    bigint NOT NULL DEFAULT 0,
    state      text,
    meta       text   NOT NULL,
    deadline   double precision,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL
);

-- The database, not a check-then-insert, guarantees one open game per chat: two processes
-- racing to create a lobby cannot both succeed.
CREATE UNIQUE INDEX games_one_active_per_chat
    ON games (chat_key) WHERE status IN ('lobby', 'running');

-- Start-up lists the open games; the rematch looks up a chat's newest game.
CREATE INDEX games_status ON games (status);
CREATE INDEX games_by_chat ON games (chat_key, id);

-- The primary key makes applying one (game, version) twice impossible at the database level.
CREATE TABLE game_log (
    game_id bigint  NOT NULL REFERENCES games (id),
    version bigint  NOT NULL,
    seq     integer NOT NULL,
    actor   text    NOT NULL,
    action  text    NOT NULL,
    at      double precision NOT NULL,
    PRIMARY KEY (game_id, version, seq)
);

-- Adapter bookkeeping (message ids etc.) that must survive a restart.
CREATE TABLE game_refs (
    game_id bigint NOT NULL REFERENCES games (id),
    key     text   NOT NULL,
    value   text   NOT NULL,
    PRIMARY KEY (game_id, key)
);

-- One row per recorded game makes recording a match idempotent (ON CONFLICT DO NOTHING) and
-- keeps the raw results so the statistics can be rebuilt if scoring rules change.
CREATE TABLE matches (
    game_id     bigint PRIMARY KEY REFERENCES games (id),
    chat_key    text   NOT NULL,
    results     text   NOT NULL,
    recorded_at double precision NOT NULL,
    scoring     text   NOT NULL DEFAULT 'winner' CHECK (scoring IN ('winner', 'tally'))
);

-- COLLATE "C": the leaderboard breaks ties by name and id byte by byte, as SQLite does,
-- whatever locale the server was initialised with.
CREATE TABLE player_stats (
    chat_key     text   NOT NULL,
    user_id      text   COLLATE "C" NOT NULL,
    name         text   COLLATE "C" NOT NULL,
    games        bigint NOT NULL DEFAULT 0,
    wins         bigint NOT NULL DEFAULT 0,
    points       bigint NOT NULL DEFAULT 0,
    tally_games  bigint NOT NULL DEFAULT 0,
    tally_points bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_key, user_id)
);
