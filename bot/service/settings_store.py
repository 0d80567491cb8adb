"""Chat settings and personal choices, read through a cache.

Nearly every update needs its chat's settings (language, timer, rules), and most never change
them: reading them once per chat and keeping them until this process writes them turns the
settings read of a move into a dictionary lookup.

The cache is only as fresh as this process's own writes. That is exact while one process owns
the database; several processes over one database (issue 15) will need the database's own
invalidation, e.g. a version read with the game or a notification on change, before they may
share settings this way.
"""

from __future__ import annotations

from typing import Any

from cachetools import LRUCache

from bot.settings import ChatSettings
from bot.storage import StoragePort

_MISSING = object()


class SettingsStore:
    def __init__(self, storage: StoragePort, *, size: int = 10_000) -> None:
        self._storage = storage
        self._cache: LRUCache[str, dict[str, Any] | None] = LRUCache(maxsize=size)
        # Bumped by every write: a read that overlapped a write does not cache what it read,
        # since it may be the value from before the write.
        self._writes = 0

    async def _read(self, key: str) -> dict[str, Any] | None:
        cached = self._cache.get(key, _MISSING)
        if cached is not _MISSING:
            return cached  # type: ignore[return-value]
        writes = self._writes
        data = await self._storage.get_settings(key)
        if writes == self._writes:
            self._cache[key] = data
        return data

    async def _write(self, key: str, data: dict[str, Any]) -> None:
        self._writes += 1
        self._cache.pop(key, None)
        await self._storage.put_settings(key, data)
        self._writes += 1
        self._cache[key] = data

    async def chat(self, chat_key: str) -> ChatSettings:
        return ChatSettings.from_dict(await self._read(chat_key))

    async def put_chat(self, chat_key: str, settings: ChatSettings) -> None:
        await self._write(chat_key, settings.to_dict())

    async def personal(self, user_key: str) -> dict[str, Any]:
        """A person's own choices (e.g. hands by DM), stored apart from any chat's settings."""
        return dict(await self._read(f"user:{user_key}") or {})

    async def put_personal(self, user_key: str, data: dict[str, Any]) -> None:
        await self._write(f"user:{user_key}", dict(data))
