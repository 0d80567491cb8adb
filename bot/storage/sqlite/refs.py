"""Adapter bookkeeping per game (message ids etc.) that must survive a restart."""

from __future__ import annotations

import sqlite3
from typing import Final

from bot.storage import codec
from bot.storage.port import GameNotFound, RefStorage
from bot.storage.sqlite.base import SqliteBase
from bot.storage.sqlite.group_commit import Apply

ONE: Final = "SELECT value FROM game_refs WHERE game_id = ? AND key = ?"
ALL: Final = "SELECT key, value FROM game_refs WHERE game_id = ? ORDER BY key"


def _put(game_id: int, key: str, value: str) -> Apply:
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


def _claim(game_id: int, key: str, value: str, replacing: str | None) -> Apply:
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


class Refs(SqliteBase, RefStorage):
    """The ref concern of `SqliteStorage`."""

    async def put_ref(self, game_id: int, key: str, value: str) -> None:
        """Store an adapter's fact about a game; :class:`GameNotFound` for an unknown game."""
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        await self._write(_put(game_id, key, value))

    async def get_ref(self, game_id: int, key: str) -> str | None:
        if not codec.known_id(game_id):
            return None
        row = await self._row(ONE, (game_id, key))
        return None if row is None else str(row["value"])

    async def refs(self, game_id: int) -> dict[str, str]:
        if not codec.known_id(game_id):
            return {}
        return {r["key"]: r["value"] for r in await self._rows(ALL, (game_id,))}

    async def claim_ref(
        self, game_id: int, key: str, value: str, *, replacing: str | None = None
    ) -> str | None:
        """Store ``value`` only if the ref is still ``replacing`` (None: absent); the value
        it holds afterwards. :class:`GameNotFound` for an unknown game."""
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        stored: str | None = await self._write(_claim(game_id, key, value, replacing))
        return stored
