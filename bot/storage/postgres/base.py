"""What every concern of the PostgreSQL adapter runs its statements through.

A read is one statement on a pooled connection; a write is one transaction that runs to its
COMMIT or ROLLBACK even when its caller is cancelled, so it is all or nothing and a reload
afterwards sees which. Every driver or connection failure reaches the caller as StorageError.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import asyncpg

from bot.storage import codec
from bot.storage.port import GameRecord, StorageError
from bot.storage.postgres.connections import Connections
from bot.storage.postgres.presence import Presence

_T = TypeVar("_T")

Work = Callable[[asyncpg.Connection], Awaitable[_T]]

GAME: Final = "id, chat_key, status, version, state, meta, deadline, created_at, updated_at"
"""A game row's columns, in the order `codec.game_record` reads them."""

FAILURES: Final = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


def backend_failure(exc: BaseException) -> BaseException:
    """``exc`` as callers see it: a database or connection failure becomes StorageError.

    A value the database cannot hold is the caller's, not a fault of the machine, and raises
    ``ValueError`` like the codec's own checks: asyncpg reports one it cannot encode (a lone
    surrogate) as a ``DataError`` before sending anything, and PostgreSQL refuses others (a NUL
    character in text, a number past ``bigint``) with a data exception, SQLSTATE class 22,
    which asyncpg also raises as ``DataError``.  Either way the transaction is rolled back.
    The storage's answers (``VersionConflict``, ``GameNotFound``, ...) pass unchanged.
    """
    if isinstance(exc, asyncpg.DataError):
        refused = ValueError(f"a value cannot be stored: {exc}")
        refused.__cause__ = exc
        return refused
    if not isinstance(exc, FAILURES):
        return exc
    error = StorageError(f"database failure: {exc}")
    error.__cause__ = exc
    return error


async def _in_transaction(conn: asyncpg.Connection, work: Work[_T]) -> _T:
    async with conn.transaction():
        return await work(conn)


class PostgresBase:
    """The connections, the clock and this process's presence, shared by the adapter's
    concerns."""

    def __init__(
        self, pool: Connections, clock: Callable[[], float], presence: Presence | None = None
    ) -> None:
        """Use ``PostgresStorage.open``; this only wires connections to a migrated database (and
        the session that tells the others this process lives, `bot.storage.postgres.presence`).
        Nothing is reset when a connection is given back (`.connections`): the storage leaves
        nothing behind in a session (its settings are the connection's own from the start, its
        advisory locks end with their transaction, it opens no cursor, and the one connection
        that listens, `listen.follow`, stops listening before it goes back)."""
        self._pool = pool
        self._clock = clock
        self._presence = presence
        self._writes: set[asyncio.Task[Any]] = set()
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("storage is closed")

    async def _read(self, work: Work[_T]) -> _T:
        """One read on a pooled connection, outside any explicit transaction: each statement
        sees everything committed before it started."""
        self._check_open()
        try:
            return await self._pool.run(work)
        except FAILURES as exc:
            raise backend_failure(exc) from exc

    async def _write(self, work: Work[_T], *, alone: bool = False) -> _T:
        """``work`` in one transaction, run to its end even if the caller is cancelled.
        ``alone``: the work is one statement, its own transaction (no BEGIN and COMMIT to
        send: two round trips fewer)."""
        self._check_open()
        task = asyncio.ensure_future(self._transaction(work, alone=alone))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            # The transaction goes on to COMMIT or ROLLBACK; tell the caller once it has.
            await asyncio.wait([task])
            if not task.cancelled():
                task.exception()  # retrieved: the caller was cancelled, not told
            raise

    async def _transaction(self, work: Work[_T], *, alone: bool = False) -> _T:
        try:
            return await self._pool.run(work if alone else lambda conn: _in_transaction(conn, work))
        except FAILURES as exc:
            raise backend_failure(exc) from exc

    async def _rows(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return await self._read(lambda conn: conn.fetch(sql, *args))

    async def _row(self, sql: str, *args: Any) -> asyncpg.Record | None:
        rows = await self._rows(sql, *args)
        return rows[0] if rows else None

    async def _game(self, sql: str, *args: Any) -> GameRecord | None:
        row = await self._row(sql, *args)
        return None if row is None else codec.game_record(row)

    async def _games(self, sql: str) -> list[GameRecord]:
        return [codec.game_record(row) for row in await self._rows(sql)]
