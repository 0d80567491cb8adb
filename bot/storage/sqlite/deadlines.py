"""Deadlines claimed across processes: each due deadline is acted on by one claimer at a time.

A claim is one write transaction, so two claimers never get the same deadline while its claim
runs, and any commit of the game clears it.  One process holds the file (`.file_lock`), so a
claim found when it opens the file was left by a process that is gone: `release_claims`.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from bot.storage.port import DeadlineStorage
from bot.storage.sqlite.base import SqliteBase
from bot.storage.sqlite.group_commit import Apply

# "Open games of the chats whose key starts with ?": the status test is spelled like the partial
# index's, the prefix compared as a substring (no LIKE: a key may hold `%` or `_`).
_OPEN_OF_PREFIX: Final = (
    "status IN ('lobby', 'running') AND substr(chat_key, 1, length(:prefix)) = :prefix"
)

# When each open game's deadline can next be claimed: a claimed one only once its claim ran out.
NEXT_DEADLINE: Final = (
    "SELECT min(max(deadline, deadline_claimed_until)) FROM games"
    f" WHERE deadline IS NOT NULL AND {_OPEN_OF_PREFIX}"
)


def release_claims(conn: sqlite3.Connection) -> None:
    """Take back every claim on a deadline: for a process that holds the file alone, each was
    left by one that is gone (it would otherwise wait out the claim's lease). Without any, the
    file is only read (opening an up-to-date file takes no write lock)."""
    if conn.execute("SELECT 1 FROM games WHERE deadline_claimed_until > 0 LIMIT 1").fetchone():
        conn.execute("UPDATE games SET deadline_claimed_until = 0 WHERE deadline_claimed_until > 0")


def _claim(prefix: str, now: float, until: float, limit: int) -> Apply:
    """Claim the due, unclaimed deadlines until ``until``; returns ``[(chat key, deadline)]``,
    earliest first.  One write transaction: no other writer (process) runs between the
    SELECT and the UPDATE, so nothing is claimed twice."""

    def apply(conn: sqlite3.Connection) -> list[tuple[str, float]]:
        params = {"prefix": prefix, "now": now, "until": until, "limit": limit}
        rows = conn.execute(
            "SELECT id, chat_key, deadline FROM games WHERE deadline <= :now"
            f" AND deadline_claimed_until <= :now AND {_OPEN_OF_PREFIX}"
            " ORDER BY deadline, id LIMIT :limit",
            params,
        ).fetchall()
        conn.executemany(
            "UPDATE games SET deadline_claimed_until = ? WHERE id = ?",
            [(until, row["id"]) for row in rows],
        )
        return [(row["chat_key"], row["deadline"]) for row in rows]

    return apply


class Deadlines(SqliteBase, DeadlineStorage):
    """The deadline concern of `SqliteStorage`."""

    async def claim_deadlines(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[tuple[str, float]]:
        """(chat key, deadline) of the open games of chats whose key starts with ``prefix``
        whose deadline is due (``<= now``) and not claimed (its claim ran out by ``now``),
        earliest first, each claimed until ``now + lease``.

        One write transaction, so two claimers -- coroutines or processes on the file -- never
        get the same deadline while its claim runs.  Any commit of the game clears its claim.
        """
        return await self._write(_claim(prefix, now, now + lease, limit))

    async def next_deadline(self, prefix: str) -> float | None:
        """When the earliest deadline of the open games of chats whose key starts with
        ``prefix`` can be claimed: its time, or for a claimed one when its claim runs out."""
        row = await self._row(NEXT_DEADLINE, {"prefix": prefix})
        return None if row is None or row[0] is None else float(row[0])
