"""What every concern of the SQLite adapter runs its statements through.

A write is a request of the group commit (`.group_commit`) on the write connection.  A read is
one statement (one consistent snapshot, never inside a transaction) on a connection where
nothing is queued ahead of it: the write connection while it is idle, since its page cache is
still warm (SQLite drops a connection's whole cache once the database changed), else the read
connection, which in WAL mode a writer never blocks.  A ``:memory:`` database exists only in
its one connection, so there both are the same.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final, TypeVar

from bot.storage import codec
from bot.storage.port import GameRecord, StorageError
from bot.storage.sqlite.connection import ConnectionThread
from bot.storage.sqlite.file_lock import FileLock
from bot.storage.sqlite.group_commit import DEFAULT_MAX_BATCH, GroupCommit, backend_failure

_T = TypeVar("_T")

Params = Sequence[Any] | Mapping[str, Any]

# state and meta are read as bytes: a value that is not valid UTF-8 would otherwise make
# sqlite3 raise while fetching, and one bad row would fail a whole listing.
GAME: Final = (
    "id, chat_key, status, version, CAST(state AS BLOB), CAST(meta AS BLOB),"
    " deadline, created_at, updated_at"
)
"""A game row's columns, in the order `codec.game_record` reads them."""


class SqliteBase:
    """The two connections, the group commit, the clock and the file's lock, shared by the
    adapter's concerns."""

    def __init__(
        self,
        writer: ConnectionThread,
        reader: ConnectionThread,
        clock: Callable[[], float],
        *,
        max_batch: int = DEFAULT_MAX_BATCH,
        lock: FileLock | None = None,
    ) -> None:
        """Use ``SqliteStorage.open``; this only wires connections already configured and
        migrated."""
        self._writer = writer
        self._reader = reader
        self._group = GroupCommit(writer, max_batch=max_batch)
        self._clock = clock
        self._lock = lock
        self._closed = False

    async def _write(self, apply: Callable[[sqlite3.Connection], _T]) -> _T:
        return await self._group.write(apply)

    async def _rows(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """One read statement: one snapshot of committed data, on a connection where nothing
        is queued ahead of it (see the module docstring)."""
        if self._closed:
            raise StorageError("storage is closed")
        connection = self._writer if self._group.idle else self._reader
        try:
            return await connection.run(partial(_fetchall, sql=sql, params=params))
        except sqlite3.Error as exc:
            raise backend_failure(exc) from exc

    async def _row(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

    async def _game(self, sql: str, params: Params = ()) -> GameRecord | None:
        row = await self._row(sql, params)
        return None if row is None else codec.game_record(row)

    async def _games(self, sql: str) -> list[GameRecord]:
        return [codec.game_record(row) for row in await self._rows(sql)]


def _fetchall(conn: sqlite3.Connection, sql: str, params: Params) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()
