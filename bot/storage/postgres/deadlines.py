"""Deadlines claimed across processes: each due deadline is acted on by one process at a time.

A claim lasts a lease, and ends early when the process that holds it is gone
(`bot.storage.postgres.presence`); any commit of the game clears it.
"""

from __future__ import annotations

from typing import Final

from bot.storage.port import DeadlineStorage
from bot.storage.postgres.base import PostgresBase
from bot.storage.postgres.presence import GONE

# "Open games of the chats whose key starts with $1", the status spelled like the partial index.
_OPEN_OF_PREFIX: Final = "status IN ('lobby', 'running') AND starts_with(chat_key, $1)"


class Deadlines(PostgresBase, DeadlineStorage):
    """The deadline concern of `PostgresStorage`."""

    async def claim_deadlines(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[tuple[str, float]]:
        """(chat key, deadline) of the open games of chats whose key starts with ``prefix``
        whose deadline is due (``<= now``) and not claimed (its claim ran out by ``now``, or
        the process that claimed it is gone: `bot.storage.postgres.presence`), earliest first,
        each claimed until ``now + lease`` by this process.

        ``FOR UPDATE SKIP LOCKED``: a row another process is claiming or committing right now
        is skipped, not waited for, and one claimed meanwhile no longer matches once locked
        (PostgreSQL re-checks the condition on the row's newest version), so two claimers never
        get the same deadline while its claim runs.  Any commit of the game clears its claim.
        """
        owner = None if self._presence is None else self._presence.owner
        rows = await self._write(
            lambda conn: conn.fetch(
                "UPDATE games SET deadline_claimed_until = $3, deadline_claimed_by = $5"
                " WHERE id IN (SELECT id FROM games WHERE deadline <= $2"
                f" AND (deadline_claimed_until <= $2 OR {GONE})"
                f" AND {_OPEN_OF_PREFIX} ORDER BY deadline, id LIMIT $4"
                " FOR UPDATE SKIP LOCKED) RETURNING id, chat_key, deadline",
                prefix, now, now + lease, limit, owner,
            ),
            alone=True,
        )  # fmt: skip
        ordered = sorted(rows, key=lambda r: (r["deadline"], r["id"]))
        return [(r["chat_key"], r["deadline"]) for r in ordered]

    async def next_deadline(self, prefix: str) -> float | None:
        """When the earliest deadline of the open games of chats whose key starts with
        ``prefix`` can be claimed: its time, or for one claimed by a live process when its
        claim runs out."""
        row = await self._row(
            # (GONE, which reads pg_locks, only for a deadline still claimed after it is due)
            "SELECT min(CASE WHEN deadline_claimed_until <= deadline THEN deadline"
            f" WHEN {GONE} THEN deadline ELSE deadline_claimed_until END) FROM games"
            f" WHERE deadline IS NOT NULL AND {_OPEN_OF_PREFIX}",
            prefix,
        )
        return None if row is None or row[0] is None else float(row[0])
