"""Games: their rows, read by id or chat, and the commit that moves one on.

`PostgresStorage.commit` is one statement on its own (`.commit`), so writers of one game, in
any process, take turns on its row and the version check decides; the match's last move adds
its statistics in the same transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import asyncpg

from bot.storage import codec
from bot.storage.port import (
    GameExists,
    GameNotFound,
    GameRecord,
    GameStorage,
    LogEntry,
    MatchRecord,
)
from bot.storage.postgres import listen
from bot.storage.postgres.base import GAME, PostgresBase
from bot.storage.postgres.commit import ONE_ACTIVE, moved
from bot.storage.postgres.outbox import append_outbox
from bot.storage.postgres.statistics import recorder

_BY_ID: Final = f"SELECT {GAME} FROM games WHERE id = $1"
# Spelled like the partial unique index's predicate, so the planner can use that index.
_ACTIVE: Final = f"SELECT {GAME} FROM games WHERE chat_key = $1 AND status IN ('lobby', 'running')"
_LAST: Final = f"SELECT {GAME} FROM games WHERE chat_key = $1 ORDER BY id DESC LIMIT 1"
_RUNNING: Final = f"SELECT {GAME} FROM games WHERE status = 'running' ORDER BY id"
_OPEN: Final = f"SELECT {GAME} FROM games WHERE status IN ('lobby', 'running') ORDER BY id"


class Games(PostgresBase, GameStorage):
    """The game concern of `PostgresStorage`."""

    async def create_game(
        self,
        chat_key: str,
        meta: dict[str, Any],
        *,
        deadline: float | None = None,
        outbox: Sequence[dict[str, Any]] = (),
        claim: float = 0.0,
    ) -> GameRecord:
        meta_text, now = codec.dumps(meta), self._clock()
        payloads = [codec.dumps(payload) for payload in outbox]

        async def insert(conn: asyncpg.Connection) -> tuple[int, list[int]]:
            try:
                game_id: int = await conn.fetchval(
                    "INSERT INTO games (chat_key, status, version, state, meta, deadline,"
                    " created_at, updated_at) VALUES ($1, 'lobby', 0, NULL, $2, $3, $4, $4)"
                    " RETURNING id",
                    chat_key, meta_text, deadline, now,
                )  # fmt: skip
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == ONE_ACTIVE:
                    raise GameExists(chat_key) from exc
                raise
            c = codec.Commit(
                game_id, "lobby", 0, None, meta_text, deadline, now, [], payloads, claim
            )
            await listen.notify(conn, game_id, 0)
            return game_id, await append_outbox(conn, chat_key, c)

        game_id, ids = await self._write(insert)
        return GameRecord(
            game_id, chat_key, "lobby", 0, None, codec.json_object(meta_text) or {},
            deadline, now, now, outbox=tuple(ids),
        )  # fmt: skip

    async def get_game(self, game_id: int) -> GameRecord | None:
        if not codec.known_id(game_id):
            return None
        return await self._game(_BY_ID, game_id)

    async def active_game(self, chat_key: str) -> GameRecord | None:
        return await self._game(_ACTIVE, chat_key)

    async def last_game(self, chat_key: str) -> GameRecord | None:
        return await self._game(_LAST, chat_key)

    async def active_games(self) -> list[GameRecord]:
        """Every running game in every chat, oldest first (lobbies excluded)."""
        return await self._games(_RUNNING)

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first: the deadlines to re-arm after a restart.
        A corrupt row is listed (``corrupt=True``), never raised."""
        return await self._games(_OPEN)

    async def commit(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: dict[str, Any] | None,
        meta: dict[str, Any],
        status: str,
        log: Sequence[LogEntry] = (),
        deadline: float | None = None,
        match: MatchRecord | None = None,
        outbox: Sequence[dict[str, Any]] = (),
        claim: float = 0.0,
    ) -> GameRecord:
        """Atomically replace the game's row and append ``log``, producing version + 1.

        Each ``outbox`` payload becomes an outbox entry in the same transaction, claimed until
        ``claim``; the returned record's ``outbox`` holds their ids. One statement
        (`bot.storage.postgres.commit`) locks the game's row, so writers of one game -- in any
        process -- take turns, and checks the version under that lock: :class:`VersionConflict`
        (and nothing changed) if another writer committed since the caller loaded the game.
        With ``match``, the match's statistics are recorded in the same transaction, at most
        once per game. Raises :class:`GameNotFound` for an unknown id and :class:`GameExists` if
        re-opening a finished game would give its chat two open games.
        """
        # Checked and serialised before the transaction: a bad state fails fast, holding no lock.
        c = codec.prepare_commit(
            game_id, expected_version, state=state, meta=meta, status=status, log=log,
            deadline=deadline, now=self._clock(), outbox=outbox, claim=claim,
        )  # fmt: skip
        record = (
            None
            if match is None
            else recorder(game_id, match.results, match.scoring, recorded_at=c.now)
        )

        row: asyncpg.Record
        if record is None:  # one statement, one round trip (`bot.storage.postgres.commit`)
            row = await self._write(lambda conn: moved(conn, c, expected_version), alone=True)
        else:  # the match's last move: its statistics in the same transaction

            async def apply(conn: asyncpg.Connection) -> asyncpg.Record:
                row = await moved(conn, c, expected_version)
                await record(conn, row["chat_key"])
                return row

            row = await self._write(apply)
        return c.record(row["chat_key"], row["created_at"], list(row["outbox"]))

    async def mark_broken(self, game_id: int) -> None:
        """Set a game aside whose stored state cannot be loaded; its chat may start a new one.

        No version check, but the version still moves on, so a move loaded before is refused.
        """
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        now = self._clock()
        done = await self._write(
            lambda conn: conn.execute(
                "UPDATE games SET status = 'broken', deadline = NULL, version = version + 1,"
                " updated_at = $2 WHERE id = $1",
                game_id, now,
            ),
            alone=True,
        )  # fmt: skip
        if done != "UPDATE 1":
            raise GameNotFound(game_id)

    async def log(self, game_id: int) -> list[LogEntry]:
        if not codec.known_id(game_id):
            return []
        rows = await self._rows(
            "SELECT actor, action, version, at FROM game_log WHERE game_id = $1"
            " ORDER BY version, seq",
            game_id,
        )
        return [LogEntry(r["actor"], r["action"], r["version"], r["at"]) for r in rows]
