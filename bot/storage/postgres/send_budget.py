"""The chats' shared send budget: how many messages a chat may be sent per period, across
every process.

A chat's sends are counted under a transaction-scoped advisory lock on its key, so two
processes taking its last slot at once take turns and the second finds it gone.
"""

from __future__ import annotations

from collections.abc import Callable

import asyncpg

from bot.storage.port import SendBudgetStorage, SendSlot
from bot.storage.postgres.base import PostgresBase


class SendBudget(PostgresBase, SendBudgetStorage):
    """The send budget concern of `PostgresStorage`."""

    async def take_send_slot(
        self, chat_key: str, clock: Callable[[], float], count: int, period: float, flight: float
    ) -> SendSlot | float:
        """One send of the chat's shared budget: taken and recorded in flight, or the seconds
        to wait (see the port).

        The chat's sends are counted under a transaction-scoped advisory lock on its key, so
        two processes taking the last slot at once take turns and the second finds it gone;
        the time is read once the lock is held, after any wait for it.
        """

        async def take(conn: asyncpg.Connection) -> SendSlot | float:
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", chat_key)
            now = clock()
            since = now - period
            # Only sends older than two periods go: a taker whose clock is behind still counts
            # its own window's (see the SQLite adapter).
            await conn.execute(
                "DELETE FROM send_log WHERE chat_key = $1 AND at <= $2", chat_key, since - period
            )
            oldest: float | None = await conn.fetchval(
                "SELECT at FROM send_log WHERE chat_key = $1 AND at > $2"
                " ORDER BY at DESC LIMIT 1 OFFSET $3",
                chat_key, since, count - 1,
            )  # fmt: skip
            if oldest is not None:  # (one still in flight lands no earlier than now)
                return max(min(oldest, now) - since, 1e-3)
            slot = SendSlot(chat_key, now + flight)
            await conn.execute(
                "INSERT INTO send_log (chat_key, at) VALUES ($1, $2)", chat_key, slot.mark
            )
            return slot

        return await self._write(take)

    async def land_send_slot(self, slot: SendSlot, at: float) -> None:
        """The slot's call completed at ``at``: its send is recorded then.  One row of the
        slot's mark moves (rows of one chat and one time are alike), under the chat's lock: two
        landing at once do not both pick the same row."""

        async def land(conn: asyncpg.Connection) -> None:
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", slot.chat_key)
            await conn.execute(
                "UPDATE send_log SET at = $3 WHERE ctid = (SELECT ctid FROM send_log"
                " WHERE chat_key = $1 AND at = $2 LIMIT 1)",
                slot.chat_key, slot.mark, at,
            )  # fmt: skip

        await self._write(land)
