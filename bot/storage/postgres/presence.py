"""Whether the process that claimed a deadline still lives.

Each open `PostgresStorage` keeps one connection of its own, its presence, holding the
session-level advisory lock (`OWNER_CLASS`, the connection's backend pid) for as long as the
storage is open. A claim on a deadline records that pid (`games.deadline_claimed_by`). When the
process dies -- or closes, or loses that connection -- its session ends and the lock with it,
so its claims are free at once for any other process (`GONE`), instead of when their lease
runs out. A claim whose owner cannot be told (none recorded: the presence connection was lost)
waits out its lease.

A pid is reused only once its session ended, and a new session holds the lock only if it is
another bot process's presence: then a dead owner's claims look alive and wait out their lease,
never the other way round.
"""

from __future__ import annotations

from typing import Final

import asyncpg

OWNER_CLASS: Final = 0x756E6F  # "uno": the first key of every presence lock (the second: a pid)

_LIVE_OWNERS: Final = (
    "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2"
    f" AND classid = '{OWNER_CLASS}'::oid AND granted"
)
GONE: Final = (
    f"(deadline_claimed_by IS NOT NULL AND deadline_claimed_by::bigint NOT IN ({_LIVE_OWNERS}))"
)
"""SQL: the row's deadline was claimed by a process whose session has ended."""


class Presence:
    """This process's presence session; `owner` is what its claims record."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn
        self._pid = conn.get_server_pid()

    @classmethod
    async def open(cls, url: str) -> Presence:
        conn = await asyncpg.connect(url, server_settings={"application_name": "uno-bot presence"})
        try:
            presence = cls(conn)
            await conn.execute("SELECT pg_advisory_lock($1, $2)", OWNER_CLASS, presence._pid)
        except BaseException:
            await conn.close()
            raise
        return presence

    @property
    def owner(self) -> int | None:
        """The owner a claim made now records (None once the presence connection is lost)."""
        return None if self._conn.is_closed() else self._pid

    async def close(self) -> None:
        """End the session: every claim it owned is free for the others from now on."""
        await self._conn.close()
