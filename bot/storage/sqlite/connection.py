"""One sqlite3 connection and the one thread that ever touches it.

A ``ThreadPoolExecutor(max_workers=1)`` runs what it is given one item at a time, in the order
it was given (FIFO), and the connection is created, used and closed only on that thread, so
sqlite3's own same-thread check stays on as a safety net.  An item is a whole function of the
connection -- a write transaction from ``BEGIN`` to ``COMMIT`` is ONE item -- so nothing else
can run on the connection in the middle of it.  Once an item has started it runs to its end
whatever happens to the coroutine awaiting it; an item cancelled before it started never runs.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TypeVar

from bot.storage.port import StorageError

_T = TypeVar("_T")


class ConnectionThread:
    """Create with ``await ConnectionThread.open(...)``; run work with :meth:`run`."""

    def __init__(self, executor: ThreadPoolExecutor, conn: sqlite3.Connection) -> None:
        self._executor = executor
        self._conn = conn
        self._closed = False

    @classmethod
    async def open(
        cls,
        database: str | Path,
        *,
        name: str,
        busy_timeout: float,
        setup: Callable[[sqlite3.Connection], None],
        uri: bool = False,
    ) -> ConnectionThread:
        """Connect on a new thread named ``name`` and run ``setup`` there (pragmas)."""
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        loop = asyncio.get_running_loop()
        try:
            conn = await loop.run_in_executor(
                executor, partial(_connect, database, busy_timeout, setup, uri)
            )
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(executor, conn)

    async def run(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """``fn(connection)`` as one item of the thread's queue."""
        if self._closed:
            raise StorageError("storage is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, self._conn)

    async def close(self) -> None:
        """Close the connection after everything already queued; idempotent."""
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, self._conn.close)
        finally:
            self._executor.shutdown(wait=False)


def _connect(
    database: str | Path,
    busy_timeout: float,
    setup: Callable[[sqlite3.Connection], None],
    uri: bool,
) -> sqlite3.Connection:
    # isolation_level=None: the sqlite3 module must not open transactions behind our back;
    # every transaction here is an explicit BEGIN.  timeout= is SQLite's busy timeout: how
    # long a statement waits for another connection's lock before failing.
    conn = sqlite3.connect(database, isolation_level=None, timeout=busy_timeout, uri=uri)
    try:
        conn.row_factory = sqlite3.Row
        setup(conn)
    except BaseException:
        conn.close()
        raise
    return conn
