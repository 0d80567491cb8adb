"""Schema migrations: ``bot/storage/migrations/postgres/NNNN_name.sql``, applied in order.

The ``schema_version`` table holds one row per applied file.  Opening a storage applies the
pending files in ONE transaction (PostgreSQL's DDL is transactional), so a database is always
at some whole version.  The transaction first takes an advisory lock: two processes starting at
once queue on it, and the second finds the work done.  A shipped file is never edited; a change
is a new file with the next number.
"""

from __future__ import annotations

from typing import Final

import asyncpg

from bot.storage.migration_files import scripts
from bot.storage.port import SchemaTooNew

LOCK_KEY: Final = 0x756E6F5F736368  # "uno_sch": the advisory lock every bot process migrates under


def load() -> tuple[str, ...]:
    """The shipped scripts. Each runs as one script (asyncpg sends a query without arguments
    as a simple query, which may hold several statements), so PostgreSQL's own parser splits
    it."""
    return scripts("postgres")


MIGRATIONS: tuple[str, ...] = load()
"""``MIGRATIONS[i]`` takes the schema from version i to i + 1."""

SCHEMA_VERSION: Final = len(MIGRATIONS)


async def migrate(conn: asyncpg.Connection) -> int:
    """Bring the schema up to date; returns how many files were applied now."""
    migrations = MIGRATIONS  # looked up at call time so tests can substitute a list
    target = len(migrations)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK_KEY)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        current: int = await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")
        if current > target:
            raise SchemaTooNew(
                f"database schema is version {current}, this code only knows {target}"
            )
        for number in range(current + 1, target + 1):
            await conn.execute(migrations[number - 1])
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
    return target - current
