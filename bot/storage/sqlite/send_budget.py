"""The chats' shared send budget: how many messages a chat may be sent per period.

A slot is taken and recorded in one write transaction, the time read inside it, so no other
taker -- in this process or another on the file -- goes between the count and the record.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

from bot.storage.port import SendBudgetStorage, SendSlot
from bot.storage.sqlite.base import SqliteBase
from bot.storage.sqlite.group_commit import Apply


def _take(
    chat_key: str, clock: Callable[[], float], count: int, period: float, flight: float
) -> Apply:
    """Record a send in flight unless ``count`` are recorded in the last ``period``: the slot,
    else the seconds until the oldest send that counts leaves the window (see the port).  The
    time is read inside the write transaction: no other taker goes between it and the record."""

    def apply(conn: sqlite3.Connection) -> SendSlot | float:
        now = clock()
        since = now - period
        # Only sends older than two periods go: a taker whose clock is behind (another
        # process's, or a call that queued while a later one went first) still counts its own
        # window's.
        conn.execute(
            "DELETE FROM send_log WHERE chat_key = ? AND at <= ?", (chat_key, since - period)
        )
        row: Sequence[float] | None = conn.execute(
            "SELECT at FROM send_log WHERE chat_key = ? AND at > ?"
            " ORDER BY at DESC LIMIT 1 OFFSET ?",
            (chat_key, since, count - 1),
        ).fetchone()
        if row is not None:  # (one still in flight lands no earlier than now)
            return max(min(row[0], now) - since, 1e-3)
        slot = SendSlot(chat_key, now + flight)
        conn.execute("INSERT INTO send_log (chat_key, at) VALUES (?, ?)", (chat_key, slot.mark))
        return slot

    return apply


def _land(slot: SendSlot, at: float) -> Apply:
    """The slot's call completed at ``at``: one row of its mark is moved there (rows of one
    chat and one time are alike)."""

    def apply(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE send_log SET at = ? WHERE rowid = (SELECT rowid FROM send_log"
            " WHERE chat_key = ? AND at = ? LIMIT 1)",
            (at, slot.chat_key, slot.mark),
        )

    return apply


class SendBudget(SqliteBase, SendBudgetStorage):
    """The send budget concern of `SqliteStorage`."""

    async def take_send_slot(
        self, chat_key: str, clock: Callable[[], float], count: int, period: float, flight: float
    ) -> SendSlot | float:
        """One send of the chat's shared budget: taken and recorded in flight, or the seconds
        to wait (see the port)."""
        return await self._write(_take(chat_key, clock, count, period, flight))

    async def land_send_slot(self, slot: SendSlot, at: float) -> None:
        """The slot's call completed at ``at``: its send is recorded then."""
        await self._write(_land(slot, at))
