"""Chat settings: one JSON object per chat, replaced wholesale."""

from __future__ import annotations

import sqlite3
from typing import Any, Final

from bot.storage import codec
from bot.storage.port import SettingsStorage
from bot.storage.sqlite.base import SqliteBase
from bot.storage.sqlite.group_commit import Apply

GET: Final = "SELECT CAST(data AS BLOB) FROM settings WHERE chat_key = ?"


def _decode(row: sqlite3.Row | None) -> dict[str, Any] | None:
    """The stored settings; a value that is not a JSON object reads as none (the defaults),
    so that one damaged row cannot stop its chat from playing."""
    return None if row is None else codec.settings_object(row[0])


def _put(chat_key: str, data: str, now: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO settings (chat_key, data, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (chat_key) DO UPDATE"
            " SET data = excluded.data, updated_at = excluded.updated_at",
            (chat_key, data, now),
        )

    return apply


class Settings(SqliteBase, SettingsStorage):
    """The settings concern of `SqliteStorage`."""

    async def get_settings(self, chat_key: str) -> dict[str, Any] | None:
        return _decode(await self._row(GET, (chat_key,)))

    async def put_settings(self, chat_key: str, settings: dict[str, Any]) -> None:
        await self._write(_put(chat_key, codec.dumps(settings), self._clock()))
