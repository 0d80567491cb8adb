"""Chat settings and personal choices, read through a cache.

Nearly every update needs its chat's settings (language, timer, rules), and most never change
them: reading them once per chat turns the settings read of a move into a dictionary lookup.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from cachetools import Cache, LRUCache, TTLCache

from bot.service.chat_settings import ChatSettings
from bot.service.identity import is_key
from bot.storage import SettingsStorage

_MISSING = object()


class SettingsStore:
    """Without a `ttl` the cache is only as fresh as this process's own writes: exact while one
    process owns the database (a SQLite file is one process's). Over a database that other
    processes write too (PostgreSQL, several webhook workers), `ttl` bounds how long another
    worker's change may go unseen here (a language, a timer: a few seconds of the old one), and
    every read that decides a write (a toggle, a changed setting, a personal switch) is `fresh`,
    from the database, so that two quick presses sent to two workers are still two flips.
    """

    def __init__(
        self,
        storage: SettingsStorage,
        *,
        size: int = 10_000,
        ttl: float | None = None,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self._storage = storage
        self._shared = ttl is not None
        self._cache: Cache[str, dict[str, Any] | None] = (
            LRUCache(maxsize=size) if ttl is None else TTLCache(maxsize=size, ttl=ttl, timer=timer)
        )
        # Bumped by every write: a read that overlapped a write does not cache what it read,
        # since it may be the value from before the write.
        self._writes = 0

    async def _read(self, key: str, fresh: bool = False) -> dict[str, Any] | None:
        if not is_key(key):  # no chat or person has it (`bot.service.identity`): nothing stored
            return None
        cached = self._cache.get(key, _MISSING)
        if cached is not _MISSING and not (fresh and self._shared):
            return cached  # type: ignore[return-value]
        writes = self._writes
        data = await self._storage.get_settings(key)
        if writes == self._writes:
            self._cache[key] = data
        return data

    async def _write(self, key: str, data: dict[str, Any]) -> None:
        if not is_key(key):  # nobody's: kept nowhere, read back as never chosen
            return
        self._writes += 1
        self._cache.pop(key, None)
        await self._storage.put_settings(key, data)
        self._writes += 1
        self._cache[key] = data

    async def chat(self, chat_key: str, *, fresh: bool = False) -> ChatSettings:
        """The chat's settings; `fresh`: as stored now, for a read that decides a write."""
        return ChatSettings.from_dict(await self._read(chat_key, fresh))

    async def put_chat(self, chat_key: str, settings: ChatSettings) -> None:
        await self._write(chat_key, settings.to_dict())

    async def personal(self, user_key: str, *, fresh: bool = False) -> dict[str, Any]:
        """A person's own choices (e.g. hands by DM), stored apart from any chat's settings."""
        return dict(await self._read(f"user:{user_key}", fresh) or {})

    async def put_personal(self, user_key: str, data: dict[str, Any]) -> None:
        await self._write(f"user:{user_key}", dict(data))
