"""Games: the row the optimistic version check guards, and the queries that find them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Final

from bot.storage.port import GameExists, GameNotFound, VersionConflict
from bot.storage.sqlite.group_commit import Apply

# state and meta are read as bytes: a value that is not valid UTF-8 would otherwise make
# sqlite3 raise while fetching, and one bad row would fail a whole listing.
COLUMNS: Final = (
    "id, chat_key, status, version, CAST(state AS BLOB), CAST(meta AS BLOB),"
    " deadline, created_at, updated_at"
)

BY_ID: Final = f"SELECT {COLUMNS} FROM games WHERE id = ?"

# The status test is spelled exactly like the WHERE clause of games_one_active_per_chat: only then
# can SQLite use that partial unique index (one row per chat).  With bound parameters instead of
# literals it falls back to games_status and reads every running game's row on every call.
ACTIVE_GAME: Final = (
    f"SELECT {COLUMNS} FROM games WHERE chat_key = ? AND status IN ('lobby', 'running')"
)

# The chat's newest game of any status, through games_by_chat.
LAST_GAME: Final = f"SELECT {COLUMNS} FROM games WHERE chat_key = ? ORDER BY id DESC LIMIT 1"

RUNNING: Final = f"SELECT {COLUMNS} FROM games WHERE status = 'running' ORDER BY id"

OPEN: Final = f"SELECT {COLUMNS} FROM games WHERE status IN ('lobby', 'running') ORDER BY id"

# A finished game is recorded when a matches row names it.
UNRECORDED_FINISHED: Final = (
    f"SELECT {COLUMNS} FROM games WHERE status = 'finished'"
    " AND NOT EXISTS (SELECT 1 FROM matches WHERE matches.game_id = games.id) ORDER BY id"
)


def create(chat_key: str, meta: str, deadline: float | None, now: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> int | None:
        try:
            cur = conn.execute(
                "INSERT INTO games (chat_key, status, version, state, meta, deadline,"
                " created_at, updated_at) VALUES (?, 'lobby', 0, NULL, ?, ?, ?, ?)",
                (chat_key, meta, deadline, now, now),
            )
        except sqlite3.IntegrityError as exc:
            if _is_active_game_clash(exc):
                raise GameExists(chat_key) from exc
            raise
        return cur.lastrowid

    return apply


def update(
    game_id: int,
    expected_version: int,
    *,
    status: str,
    state: str | None,
    meta: str,
    deadline: float | None,
    now: float,
) -> Apply:
    """The compare-and-swap: replace the row only if it is still at ``expected_version``.

    Returns the row's ``(chat_key, created_at)``.
    """

    def apply(conn: sqlite3.Connection) -> sqlite3.Row:
        try:
            cur = conn.execute(
                "UPDATE games SET version = version + 1, status = ?, state = ?, meta = ?,"
                " deadline = ?, deadline_claimed_until = 0, updated_at = ?"
                " WHERE id = ? AND version = ?",
                (status, state, meta, deadline, now, game_id, expected_version),
            )
        except sqlite3.IntegrityError as exc:
            if _is_active_game_clash(exc):
                raise GameExists(_chat_of(conn, game_id)) from exc
            raise
        if cur.rowcount != 1:
            found = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
            if found is None:
                raise GameNotFound(game_id)
            raise VersionConflict(game_id, expected_version, found["version"])
        row: sqlite3.Row = conn.execute(
            "SELECT chat_key, created_at FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return row

    return apply


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


def claim_deadlines(prefix: str, now: float, until: float, limit: int) -> Apply:
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


def mark_broken(game_id: int, now: float) -> Apply:
    """Set the game aside whatever its version; the version still moves on, so a move loaded
    before cannot be committed on top of it."""

    def apply(conn: sqlite3.Connection) -> None:
        cur = conn.execute(
            "UPDATE games SET status = 'broken', deadline = NULL, version = version + 1,"
            " updated_at = ? WHERE id = ?",
            (now, game_id),
        )
        if cur.rowcount != 1:
            raise GameNotFound(game_id)

    return apply


def _is_active_game_clash(exc: sqlite3.IntegrityError) -> bool:
    return "games.chat_key" in str(exc)


def _chat_of(conn: sqlite3.Connection, game_id: int) -> str:
    row: Sequence[str] | None = conn.execute(
        "SELECT chat_key FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    return "?" if row is None else str(row[0])
