"""Adapter bookkeeping per game (message ids etc.) that must survive a restart."""

from __future__ import annotations

import sqlite3
from typing import Final

from bot.storage.port import GameNotFound
from bot.storage.sqlite.group_commit import Apply

ONE: Final = "SELECT value FROM game_refs WHERE game_id = ? AND key = ?"
ALL: Final = "SELECT key, value FROM game_refs WHERE game_id = ? ORDER BY key"


def put(game_id: int, key: str, value: str) -> Apply:
    def apply(conn: sqlite3.Connection) -> None:
        try:
            conn.execute(
                "INSERT INTO game_refs (game_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                (game_id, key, value),
            )
        except sqlite3.IntegrityError as exc:  # the foreign key: no such game
            raise GameNotFound(game_id) from exc

    return apply


def claim(game_id: int, key: str, value: str, replacing: str | None) -> Apply:
    def apply(conn: sqlite3.Connection) -> str | None:
        try:
            if replacing is None:
                conn.execute(
                    "INSERT INTO game_refs (game_id, key, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, key) DO NOTHING",
                    (game_id, key, value),
                )
            else:
                conn.execute(
                    "UPDATE game_refs SET value = ? WHERE game_id = ? AND key = ? AND value = ?",
                    (value, game_id, key, replacing),
                )
        except sqlite3.IntegrityError as exc:  # the foreign key: no such game
            raise GameNotFound(game_id) from exc
        row = conn.execute(ONE, (game_id, key)).fetchone()
        return None if row is None else str(row[0])

    return apply
