"""A move's commit in one statement: one round trip to the server.

The game's row, its log rows, its outbox entries and the change's notification (`listen`) come
from one statement of data-modifying CTEs, run on its own: its own transaction, all of it or
none of it, durable before the server answers. The UPDATE takes the row's lock and checks the
version in its WHERE, re-checked on the newest version if another writer committed meanwhile
(READ COMMITTED), so of two writers of one version exactly one matches; the rest take their
rows from the UPDATE's, so nothing is logged, queued or announced when it matched nothing.
Only then is the row read again, to tell an unknown game from a version conflict.
"""

from __future__ import annotations

from typing import Any, Final

import asyncpg

from bot.storage import codec
from bot.storage.port import GameExists, GameNotFound, VersionConflict
from bot.storage.postgres import listen

ONE_ACTIVE: Final = "games_one_active_per_chat"

STATEMENT: Final = """
WITH moved AS (
    UPDATE games SET version = $3, status = $4, state = $5, meta = $6, deadline = $7,
        deadline_claimed_until = 0, updated_at = $8
    WHERE id = $1 AND version = $2
    RETURNING id, version, chat_key, created_at
), logged AS (
    INSERT INTO game_log (game_id, version, seq, actor, action, at)
    SELECT $1, $3, l.seq, l.actor, l.action, l.at
    FROM moved, unnest($9::integer[], $10::text[], $11::text[], $12::double precision[])
        AS l (seq, actor, action, at)
), queued AS (
    INSERT INTO outbox (chat_key, game_id, version, payload, created_at, claimed_until)
    SELECT moved.chat_key, $1, $3, o.payload, $8, $14
    FROM moved, unnest($13::text[]) WITH ORDINALITY AS o (payload, n)
    ORDER BY o.n
    RETURNING id
), told AS (
    SELECT pg_notify($15, moved.id::text || ':' || moved.version::text) FROM moved
)
SELECT chat_key, created_at, ARRAY(SELECT id FROM queued ORDER BY id) AS outbox FROM moved, told
"""


def arguments(c: codec.Commit, expected_version: int) -> tuple[Any, ...]:
    log = c.log
    return (
        c.game_id, expected_version, c.version, c.status, c.state, c.meta, c.deadline, c.now,
        [row[2] for row in log], [row[3] for row in log], [row[4] for row in log],
        [row[5] for row in log], c.outbox, c.claim, listen.CHANNEL,
    )  # fmt: skip


async def moved(conn: asyncpg.Connection, c: codec.Commit, expected_version: int) -> asyncpg.Record:
    """Run the statement; its row (chat key, created_at, the new entries' ids), or the storage's
    answer why nothing was written: `GameNotFound`, `VersionConflict`, `GameExists`."""
    try:
        row: asyncpg.Record | None = await conn.fetchrow(STATEMENT, *arguments(c, expected_version))
    except asyncpg.UniqueViolationError as exc:
        if exc.constraint_name == ONE_ACTIVE:  # re-opening a game whose chat has another
            chat = None
            if not conn.is_in_transaction():  # (an aborted transaction answers nothing more)
                chat = await conn.fetchval("SELECT chat_key FROM games WHERE id = $1", c.game_id)
            raise GameExists(str(chat or "?")) from exc
        raise
    if row is not None:
        return row
    actual = await conn.fetchval("SELECT version FROM games WHERE id = $1", c.game_id)
    if actual is None:
        raise GameNotFound(c.game_id)
    raise VersionConflict(c.game_id, expected_version, actual)
