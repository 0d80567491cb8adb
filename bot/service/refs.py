"""Per-game facts the adapters keep between updates: message ids, "told the chat once" marks.

Adapters reach them only through this port (`Service.refs`), never through the storage, so
the storage can change shape without touching any adapter.
"""

from __future__ import annotations

import asyncio
import weakref

from bot.storage import RefStorage

# Refs are stored as text; a mark set by `once` only needs to exist.
_MARK = "1"


class Refs:
    """Message ids and similar small facts of one game, by key (e.g. "tg:table")."""

    def __init__(self, storage: RefStorage) -> None:
        self._storage = storage
        # `once` reads and then writes: two quick calls for one game must not both see "first".
        # One lock per game while someone holds it; an idle game's lock is dropped.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def get(self, game_id: int, key: str) -> str | None:
        return await self._storage.get_ref(game_id, key)

    async def put(self, game_id: int, key: str, value: str) -> None:
        await self._storage.put_ref(game_id, key, value)

    async def all(self, game_id: int) -> dict[str, str]:
        return await self._storage.refs(game_id)

    async def claim(
        self, game_id: int, key: str, value: str, *, replacing: str | None = None
    ) -> str | None:
        """Store `value` unless another process stored something else first: only over
        `replacing` (None: over nothing). Returns what is stored now; `value` if this won.
        For a message meant to be the only one of its kind, sent by whichever process
        got there first."""
        return await self._storage.claim_ref(game_id, key, value, replacing=replacing)

    async def once(self, game_id: int, key: str) -> bool:
        """Mark `key` for the game; True only the first time (tell the chat something once).

        The mark is stored, so "once" holds across restarts too.
        """
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        async with lock:
            if await self._storage.get_ref(game_id, key) is not None:
                return False
            await self._storage.put_ref(game_id, key, _MARK)
            return True
