"""The outbox: what a commit asks to be delivered, claimed by whoever delivers it.

An entry is written by the commit it belongs to (`append`), then claimed, and marked sent or
handed back for later.  A write here is one request of the group commit, so a claim's read and
update are one transaction: nobody else writes in between, in this process or another (``BEGIN
IMMEDIATE``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Final

from bot.storage import codec
from bot.storage.port import KEEP_SENT, OutboxEntry, OutboxStorage
from bot.storage.sqlite.base import SqliteBase
from bot.storage.sqlite.group_commit import Apply

_COLUMNS: Final = "id, chat_key, game_id, version, CAST(payload AS BLOB), created_at, attempts"

# Unsent, unclaimed entries of the chats with a key prefix, oldest first; an entry waits while
# an older unsent entry of its game is still claimed (it is being delivered, or backs off).
_CLAIMABLE: Final = (
    f"SELECT {_COLUMNS} FROM outbox AS o WHERE sent_at IS NULL AND claimed_until <= :now"
    " AND substr(chat_key, 1, length(:prefix)) = :prefix"
    " AND NOT (game_id IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS e"
    " WHERE e.game_id = o.game_id AND e.id < o.id AND e.sent_at IS NULL"
    " AND e.claimed_until > :now))"
    " ORDER BY id LIMIT :limit"
)


def append(
    conn: sqlite3.Connection,
    chat_key: str,
    c: codec.Commit,
) -> list[int]:
    """Insert the commit's payloads as entries of its chat, game and version; their ids."""
    ids = []
    for payload in c.outbox:
        cur = conn.execute(
            "INSERT INTO outbox (chat_key, game_id, version, payload, created_at, claimed_until)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (chat_key, c.game_id, c.version, payload, c.now, c.claim),
        )
        assert cur.lastrowid is not None
        ids.append(cur.lastrowid)
    return ids


def _claim(prefix: str, now: float, lease: float, limit: int) -> Apply:
    def apply(conn: sqlite3.Connection) -> list[OutboxEntry]:
        conn.execute("DELETE FROM outbox WHERE sent_at < ?", (now - KEEP_SENT,))
        rows = conn.execute(_CLAIMABLE, {"now": now, "prefix": prefix, "limit": limit}).fetchall()
        conn.executemany(
            "UPDATE outbox SET claimed_until = ? WHERE id = ?", [(now + lease, r[0]) for r in rows]
        )
        return [codec.outbox_entry(r) for r in rows]

    return apply


def _extend(entry_ids: Sequence[int], until: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> None:
        conn.executemany(
            "UPDATE outbox SET claimed_until = max(claimed_until, ?)"
            " WHERE id = ? AND sent_at IS NULL",
            [(until, entry_id) for entry_id in entry_ids],
        )

    return apply


def _finish(entry_id: int, now: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE outbox SET sent_at = ? WHERE id = ? AND sent_at IS NULL", (now, entry_id)
        )

    return apply


def _retry(entry_id: int, at: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE outbox SET attempts = attempts + 1, claimed_until = ?"
            " WHERE id = ? AND sent_at IS NULL",
            (at, entry_id),
        )

    return apply


class Outbox(SqliteBase, OutboxStorage):
    """The outbox concern of `SqliteStorage`."""

    async def claim_outbox(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[OutboxEntry]:
        """Unsent entries of the chats whose key starts with ``prefix`` whose claim ran out,
        oldest first, each claimed until ``now + lease`` (see :mod:`.outbox`)."""
        return await self._write(_claim(prefix, now, lease, limit))

    async def extend_outbox(self, entry_ids: Sequence[int], until: float) -> None:
        known = [i for i in entry_ids if codec.known_id(i)]
        if known:
            await self._write(_extend(known, until))

    async def finish_outbox(self, entry_id: int, now: float) -> None:
        if codec.known_id(entry_id):
            await self._write(_finish(entry_id, now))

    async def retry_outbox(self, entry_id: int, at: float) -> None:
        if codec.known_id(entry_id):
            await self._write(_retry(entry_id, at))
