"""The outbox: what a commit asks to be delivered, claimed by whichever process delivers it.

Entries are written by the commit they belong to (`append_outbox`, or the commit statement
itself); a claim locks its rows with ``FOR UPDATE SKIP LOCKED``, so concurrent claimers in any
process pass over each other's rows instead of waiting for them or taking them twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import asyncpg

from bot.storage import codec
from bot.storage.port import KEEP_SENT, OutboxEntry, OutboxStorage
from bot.storage.postgres.base import PostgresBase

_ENTRY: Final = "id, chat_key, game_id, version, payload, created_at, attempts"
# Unsent, unclaimed entries of the chats with a key prefix, oldest first, locked so that a
# concurrent claimer skips them; an entry waits while an older unsent entry of its game is still
# claimed (being delivered, or backing off).
_CLAIMABLE: Final = (
    f"SELECT {_ENTRY} FROM outbox AS o WHERE sent_at IS NULL AND claimed_until <= $2"
    " AND starts_with(chat_key, $1)"
    " AND NOT (game_id IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS e"
    " WHERE e.game_id = o.game_id AND e.id < o.id AND e.sent_at IS NULL"
    " AND e.claimed_until > $2))"
    " ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED"
)


async def append_outbox(conn: asyncpg.Connection, chat_key: str, c: codec.Commit) -> list[int]:
    """Insert the commit's payloads as entries of its chat, game and version; their ids."""
    ids = []
    for payload in c.outbox:
        entry_id: int = await conn.fetchval(
            "INSERT INTO outbox (chat_key, game_id, version, payload, created_at,"
            " claimed_until) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            chat_key, c.game_id, c.version, payload, c.now, c.claim,
        )  # fmt: skip
        ids.append(entry_id)
    return ids


class Outbox(PostgresBase, OutboxStorage):
    """The outbox concern of `PostgresStorage`."""

    async def claim_outbox(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[OutboxEntry]:
        """Unsent entries of the chats whose key starts with ``prefix`` whose claim ran out,
        oldest first, each claimed until ``now + lease``.  ``FOR UPDATE SKIP LOCKED``: a
        concurrent claimer passes over the rows this one is taking, never waits for them and
        never gets them."""

        async def take(conn: asyncpg.Connection) -> list[OutboxEntry]:
            # Rows another claimer is deleting are skipped, not waited for.
            await conn.execute(
                "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE sent_at < $1"
                " FOR UPDATE SKIP LOCKED)",
                now - KEEP_SENT,
            )
            rows = await conn.fetch(_CLAIMABLE, prefix, now, limit)
            if rows:
                await conn.execute(
                    "UPDATE outbox SET claimed_until = $1 WHERE id = ANY($2::bigint[])",
                    now + lease, [r["id"] for r in rows],
                )  # fmt: skip
            return [codec.outbox_entry(r) for r in rows]

        return await self._write(take)

    async def extend_outbox(self, entry_ids: Sequence[int], until: float) -> None:
        known = [i for i in entry_ids if codec.known_id(i)]
        if known:
            await self._write(
                lambda conn: conn.execute(
                    "UPDATE outbox SET claimed_until = greatest(claimed_until, $1)"
                    " WHERE id = ANY($2::bigint[]) AND sent_at IS NULL",
                    until, known,
                ),
                alone=True,
            )  # fmt: skip

    async def finish_outbox(self, entry_id: int, now: float) -> None:
        if codec.known_id(entry_id):
            await self._write(
                lambda conn: conn.execute(
                    "UPDATE outbox SET sent_at = $2 WHERE id = $1 AND sent_at IS NULL",
                    entry_id, now,
                ),
                alone=True,
            )  # fmt: skip

    async def retry_outbox(self, entry_id: int, at: float) -> None:
        if codec.known_id(entry_id):
            await self._write(
                lambda conn: conn.execute(
                    "UPDATE outbox SET attempts = attempts + 1, claimed_until = $2"
                    " WHERE id = $1 AND sent_at IS NULL",
                    entry_id, at,
                ),
                alone=True,
            )  # fmt: skip
