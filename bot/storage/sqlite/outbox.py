"""The outbox and the chats' shared send budget (issue 15).

An outbox entry is written by the commit it belongs to (:func:`append`), claimed by whoever
delivers it (:func:`claim`), and marked sent (:func:`finish`) or handed back for later
(:func:`retry`).  A write here is one request of the group commit, so a claim's read and update
are one transaction: nobody else writes in between, in this process or another (``BEGIN
IMMEDIATE``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Final

from bot.storage import codec
from bot.storage.port import KEEP_SENT, OutboxEntry, SendSlot
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


def claim(prefix: str, now: float, lease: float, limit: int) -> Apply:
    def apply(conn: sqlite3.Connection) -> list[OutboxEntry]:
        conn.execute("DELETE FROM outbox WHERE sent_at < ?", (now - KEEP_SENT,))
        rows = conn.execute(_CLAIMABLE, {"now": now, "prefix": prefix, "limit": limit}).fetchall()
        conn.executemany(
            "UPDATE outbox SET claimed_until = ? WHERE id = ?", [(now + lease, r[0]) for r in rows]
        )
        return [codec.outbox_entry(r) for r in rows]

    return apply


def extend(entry_ids: Sequence[int], until: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> None:
        conn.executemany(
            "UPDATE outbox SET claimed_until = max(claimed_until, ?)"
            " WHERE id = ? AND sent_at IS NULL",
            [(until, entry_id) for entry_id in entry_ids],
        )

    return apply


def finish(entry_id: int, now: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE outbox SET sent_at = ? WHERE id = ? AND sent_at IS NULL", (now, entry_id)
        )

    return apply


def retry(entry_id: int, at: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE outbox SET attempts = attempts + 1, claimed_until = ?"
            " WHERE id = ? AND sent_at IS NULL",
            (at, entry_id),
        )

    return apply


def take_slot(
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


def land_slot(slot: SendSlot, at: float) -> Apply:
    """The slot's call completed at ``at``: one row of its mark is moved there (rows of one
    chat and one time are alike)."""

    def apply(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE send_log SET at = ? WHERE rowid = (SELECT rowid FROM send_log"
            " WHERE chat_key = ? AND at = ? LIMIT 1)",
            (at, slot.chat_key, slot.mark),
        )

    return apply
