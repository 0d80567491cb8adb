"""The SQLite adapter of the storage port: the embedded default, one bot process per file.

`SqliteStorage` is its concerns put together (games, outbox, deadlines, settings, statistics,
refs, send budget: a module each) over two connections (`.base`); this module opens and closes
them. Every write is a request of the group commit (`.group_commit`): ``BEGIN IMMEDIATE``
transactions, each fsynced (``synchronous=FULL``, since with ``NORMAL`` the last commits may
roll back in a power loss and desynchronise the chats) and shared by the writes that queued
meanwhile. A busy timeout makes a write wait for another connection's lock rather than fail at
once. An exclusive lock beside the file (`.file_lock`) keeps a second process out. Schema
changes are ``.sql`` files applied when the database is opened (`.migrate`). A method's contract
is the port's; the concerns' docstrings say only what this backend adds to it.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from bot.storage.port import StoragePort
from bot.storage.sqlite.connection import ConnectionThread
from bot.storage.sqlite.deadlines import Deadlines, release_claims
from bot.storage.sqlite.file_lock import FileLock
from bot.storage.sqlite.games import Games
from bot.storage.sqlite.group_commit import DEFAULT_MAX_BATCH, WriteStats, backend_failure
from bot.storage.sqlite.migrate import migrate
from bot.storage.sqlite.outbox import Outbox
from bot.storage.sqlite.refs import Refs
from bot.storage.sqlite.send_budget import SendBudget
from bot.storage.sqlite.settings import Settings
from bot.storage.sqlite.statistics import Statistics

MEMORY = ":memory:"


class SqliteStorage(Games, Outbox, Deadlines, Settings, Statistics, Refs, SendBudget, StoragePort):
    """All persistence for the bot in one SQLite file.  Create with ``await .open(path)``."""

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        busy_timeout: float = 10.0,
        max_batch: int = DEFAULT_MAX_BATCH,
        exclusive: bool = True,
    ) -> SqliteStorage:
        """Open (creating if needed) and migrate the database at ``path``.

        ``busy_timeout`` is how long, in seconds, to wait for another connection's write lock
        before giving up; it is generous because giving up means refusing a player's move.
        ``max_batch`` caps how many write requests share one transaction.  ``exclusive=False``
        skips the one-process lock: only for tools and tests that share a file on purpose
        (moves stay safe through the version check).  Raises :class:`DatabaseInUse` if another
        process holds the database, :class:`StorageError` if it cannot be opened.
        """
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        memory = str(path) == MEMORY
        lock = None
        if not memory:
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            if exclusive:
                lock = FileLock.beside(path)
        opened: list[ConnectionThread] = []
        try:
            writer = await ConnectionThread.open(
                path, name="storage-write", busy_timeout=busy_timeout, setup=_setup_writer
            )
            opened.append(writer)
            reader = writer
            if not memory:
                reader = await ConnectionThread.open(
                    path, name="storage-read", busy_timeout=busy_timeout, setup=_setup_reader
                )
                opened.append(reader)
            if lock is not None:  # alone on the file: every claim found was a dead process's
                await writer.run(release_claims)
        except BaseException as exc:
            for connection in opened:
                await connection.close()
            if lock is not None:
                lock.release()
            if isinstance(exc, sqlite3.Error):
                raise backend_failure(exc) from exc
            raise
        return cls(writer, reader, clock, max_batch=max_batch, lock=lock)

    async def close(self) -> None:
        """Commit the writes already queued, then close the connections and release the
        database; idempotent.  Calls made once closing has begun raise :class:`StorageError`."""
        await self._group.close()
        if not self._closed:
            self._closed = True
            try:
                await self._reader.close()
                await self._writer.close()
            finally:
                if self._lock is not None:
                    self._lock.release()

    async def __aenter__(self) -> SqliteStorage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def listen_changes(
        self, publish: Callable[[int, int], None], gap: Callable[[], None]
    ) -> None:
        """Nothing to hand on: the one process that writes the file publishes its own commits
        (`bot.service.unit_of_work`), so this waits until cancelled."""
        await asyncio.Event().wait()

    @property
    def sole_process(self) -> bool:
        """True while this storage holds the file's lock (or the database is in memory):
        no other process can use the database."""
        return self._lock is not None or self._reader is self._writer

    @property
    def write_stats(self) -> WriteStats:
        """How many transactions the writes took so far (see :class:`WriteStats`)."""
        return self._group.stats


Storage = SqliteStorage
"""The name the bot has always used for its (SQLite) storage."""


def _setup_writer(conn: sqlite3.Connection) -> None:
    # WAL: readers never block the writer and vice versa, and a commit is one sequential
    # append.  (":memory:" databases silently stay in "memory" mode.)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)


def _setup_reader(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA query_only = ON")  # this connection only ever reads
