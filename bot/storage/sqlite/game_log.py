"""Each game's applied actions: ``(game, version, seq)`` is unique, so a version is applied once."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, Final

from bot.storage.port import LogEntry

BY_GAME: Final = (
    "SELECT actor, action, version, at FROM game_log WHERE game_id = ? ORDER BY version, seq"
)


def append(conn: sqlite3.Connection, rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert ``(game_id, version, seq, actor, action, at)`` rows (inside a commit)."""
    conn.executemany(
        "INSERT INTO game_log (game_id, version, seq, actor, action, at) VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )


def decode(rows: Sequence[sqlite3.Row]) -> list[LogEntry]:
    return [LogEntry(r["actor"], r["action"], r["version"], r["at"]) for r in rows]
