"""Chat settings: one JSON object per chat, replaced wholesale."""

from __future__ import annotations

from typing import Any

from bot.storage import codec
from bot.storage.port import SettingsStorage
from bot.storage.postgres.base import PostgresBase


class Settings(PostgresBase, SettingsStorage):
    """The settings concern of `PostgresStorage`."""

    async def get_settings(self, chat_key: str) -> dict[str, Any] | None:
        row = await self._row("SELECT data FROM settings WHERE chat_key = $1", chat_key)
        return None if row is None else codec.settings_object(row[0])

    async def put_settings(self, chat_key: str, settings: dict[str, Any]) -> None:
        data, now = codec.dumps(settings), self._clock()
        await self._write(
            lambda conn: conn.execute(
                "INSERT INTO settings (chat_key, data, updated_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (chat_key) DO UPDATE"
                " SET data = excluded.data, updated_at = excluded.updated_at",
                chat_key, data, now,
            ),
            alone=True,
        )  # fmt: skip
