"""The schema migrations exactly as the code before `.sql` files shipped them (user_version 4).

A fixture, never to be edited: databases in the wild were created by these statements, and
the `.sql` files must carry on from what they left.
"""

Migration = tuple[str, ...]

_V1: Migration = (
    """
    CREATE TABLE settings (
        chat_key   TEXT PRIMARY KEY,
        data       TEXT NOT NULL,
        updated_at REAL NOT NULL
    )
    """,
    # AUTOINCREMENT: ids are never reused, so a stale ref/log/timer keyed by a game id can never
    # attach itself to a different, newer game.
    """
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
    )
    """,
    # The database, not a check-then-insert in Python, guarantees one open game per chat: two
    # processes racing to create a lobby cannot both succeed.
    """
    CREATE UNIQUE INDEX games_one_active_per_chat
        ON games (chat_key) WHERE status IN ('lobby', 'running')
    """,
    # seq orders several entries produced by one commit; the primary key also makes a duplicate
    # (game, version) application impossible at the database level.
    """
    CREATE TABLE game_log (
        game_id INTEGER NOT NULL REFERENCES games (id),
        version INTEGER NOT NULL,
        seq     INTEGER NOT NULL,
        actor   TEXT    NOT NULL,
        action  TEXT    NOT NULL,
        at      REAL    NOT NULL,
        PRIMARY KEY (game_id, version, seq)
    ) WITHOUT ROWID
    """,
)

_V2: Migration = (
    # Adapter bookkeeping (message ids etc.) that must survive a restart.
    """
    CREATE TABLE game_refs (
        game_id INTEGER NOT NULL REFERENCES games (id),
        key     TEXT    NOT NULL,
        value   TEXT    NOT NULL,
        PRIMARY KEY (game_id, key)
    ) WITHOUT ROWID
    """,
    # One row per recorded game makes record_match idempotent (INSERT OR IGNORE on game_id) and
    # keeps the raw results so the aggregate table can be rebuilt if scoring rules change.
    """
    CREATE TABLE matches (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id),
        chat_key    TEXT NOT NULL,
        results     TEXT NOT NULL,
        recorded_at REAL NOT NULL
    )
    """,
    """
    CREATE TABLE player_stats (
        chat_key TEXT    NOT NULL,
        user_id  TEXT    NOT NULL,
        name     TEXT    NOT NULL,
        games    INTEGER NOT NULL DEFAULT 0,
        wins     INTEGER NOT NULL DEFAULT 0,
        points   INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_key, user_id)
    ) WITHOUT ROWID
    """,
    """
    CREATE INDEX player_stats_rank
        ON player_stats (chat_key, wins DESC, points DESC, games, name)
    """,
    # Startup scans for running games to re-arm their timers.
    "CREATE INDEX games_status ON games (status)",
)

_V3: Migration = (
    # Statistics by scoring mode. `winner` points (the others' cards, more is better) and `tally`
    # points (your own cards, fewer is better) measure opposite things, so one sum of both is
    # meaningless: `points` keeps the winner-scored ones and the tally ones get columns of their
    # own. A match now records its mode; older matches get it from their game's stored rules.
    """
    ALTER TABLE matches ADD COLUMN scoring TEXT NOT NULL DEFAULT 'winner'
        CHECK (scoring IN ('winner', 'tally'))
    """,
    # CASE, not AND: SQL does not promise to stop an AND at its first false side, and
    # json_extract raises on text that is not JSON.
    """
    UPDATE matches SET scoring = 'tally' WHERE game_id IN (
        SELECT id FROM games
        WHERE CASE WHEN json_valid(state) THEN json_extract(state, '$.rules.scoring') END
              = 'tally'
    )
    """,
    "ALTER TABLE player_stats ADD COLUMN tally_games INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE player_stats ADD COLUMN tally_points INTEGER NOT NULL DEFAULT 0",
    """
    UPDATE player_stats SET
        tally_games = (
            SELECT count(*) FROM matches AS m, json_each(m.results) AS r
            WHERE m.scoring = 'tally' AND m.chat_key = player_stats.chat_key
              AND json_extract(r.value, '$.user_id') = player_stats.user_id
        ),
        tally_points = (
            SELECT coalesce(sum(json_extract(r.value, '$.points')), 0)
            FROM matches AS m, json_each(m.results) AS r
            WHERE m.scoring = 'tally' AND m.chat_key = player_stats.chat_key
              AND json_extract(r.value, '$.user_id') = player_stats.user_id
        )
    """,
    "UPDATE player_stats SET points = points - tally_points",
    # The ranking now depends on the chat's mode (see Storage.leaderboard), so no single index
    # order serves it; a chat's rows are found by the primary key.
    "DROP INDEX player_stats_rank",
)

_V4: Migration = (
    # A chat's games newest first (the rematch looks up the chat's last game). Without it that
    # lookup walks every game of every chat back to the chat's last one, or all of them for a
    # chat that never played.
    "CREATE INDEX games_by_chat ON games (chat_key, id)",
)

LEGACY_MIGRATIONS: tuple[Migration, ...] = (_V1, _V2, _V3, _V4)
