"""Adapter refs: each adapter's facts about a game (its message ids...) that outlive a restart.

A ref belongs to its game: the foreign key turns a ref of an unknown game into GameNotFound.
"""

from __future__ import annotations

import asyncpg

from bot.storage import codec
from bot.storage.port import GameNotFound, RefStorage
from bot.storage.postgres.base import PostgresBase


class Refs(PostgresBase, RefStorage):
    """The ref concern of `PostgresStorage`."""

    async def put_ref(self, game_id: int, key: str, value: str) -> None:
        """Store an adapter's fact about a game; :class:`GameNotFound` for an unknown game."""
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)

        async def upsert(conn: asyncpg.Connection) -> None:
            try:
                await conn.execute(
                    "INSERT INTO game_refs (game_id, key, value) VALUES ($1, $2, $3)"
                    " ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                    game_id, key, value,
                )  # fmt: skip
            except asyncpg.ForeignKeyViolationError as exc:
                raise GameNotFound(game_id) from exc

        await self._write(upsert)

    async def get_ref(self, game_id: int, key: str) -> str | None:
        if not codec.known_id(game_id):
            return None
        row = await self._row(
            "SELECT value FROM game_refs WHERE game_id = $1 AND key = $2", game_id, key
        )
        return None if row is None else str(row[0])

    async def refs(self, game_id: int) -> dict[str, str]:
        if not codec.known_id(game_id):
            return {}
        rows = await self._rows(
            "SELECT key, value FROM game_refs WHERE game_id = $1 ORDER BY key", game_id
        )
        return {r["key"]: r["value"] for r in rows}

    async def claim_ref(
        self, game_id: int, key: str, value: str, *, replacing: str | None = None
    ) -> str | None:
        """Store ``value`` only if the ref is still ``replacing`` (None: absent); the value
        it holds afterwards. A concurrent claim's row is waited for (its insert or update
        commits or rolls back first), so of two claims of an absent ref exactly one stores.
        :class:`GameNotFound` for an unknown game."""
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)

        async def claim(conn: asyncpg.Connection) -> str | None:
            try:
                if replacing is None:
                    await conn.execute(
                        "INSERT INTO game_refs (game_id, key, value) VALUES ($1, $2, $3)"
                        " ON CONFLICT (game_id, key) DO NOTHING",
                        game_id, key, value,
                    )  # fmt: skip
                else:
                    await conn.execute(
                        "UPDATE game_refs SET value = $3"
                        " WHERE game_id = $1 AND key = $2 AND value = $4",
                        game_id, key, value, replacing,
                    )  # fmt: skip
            except asyncpg.ForeignKeyViolationError as exc:
                raise GameNotFound(game_id) from exc
            row = await conn.fetchrow(
                "SELECT value FROM game_refs WHERE game_id = $1 AND key = $2", game_id, key
            )
            return None if row is None else str(row[0])

        return await self._write(claim)
