"""One sqlite3 connection and the one thread that ever touches it.

The thread runs what it is given one item at a time, in the order it was given (FIFO), and the
connection is created, used and closed only on that thread, so sqlite3's own same-thread check
stays on as a safety net.  An item is a whole function of the connection -- a write
transaction from ``BEGIN`` to ``COMMIT`` is ONE item -- so nothing else can run on the
connection in the middle of it.  Once an item has started it runs to its end whatever happens
to the coroutine awaiting it; an item whose caller was cancelled before it started never runs.

This is what ``ThreadPoolExecutor(max_workers=1)`` does, written out for one reason: every
storage call crosses to this thread and back (a move takes several), and the executor's
crossing -- a ``concurrent.futures.Future`` wrapped into an asyncio one -- costs about 9 us of
CPU more than handing the outcome straight to the event loop with ``call_soon_threadsafe``
(measured here: 29 against 20 us per crossing; a one-row read took 45-54 us of CPU through the
executor, 33-36 us this way, the same as through aiosqlite, whose worker thread works like
this one).
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.port import StorageError

_T = TypeVar("_T")

_Item = tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]


class ConnectionThread:
    """Create with ``await ConnectionThread.open(...)``; run work with :meth:`run`."""

    def __init__(self, name: str) -> None:
        """Use :meth:`open`."""
        self._items: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._conn: sqlite3.Connection | None = None
        self._closed = False

    @classmethod
    async def open(
        cls,
        database: str | Path,
        *,
        name: str,
        busy_timeout: float,
        setup: Callable[[sqlite3.Connection], None],
    ) -> ConnectionThread:
        """Connect on a new thread named ``name`` and run ``setup`` there (pragmas)."""
        self = cls(name)
        self._thread.start()
        try:
            await self.run(lambda _: self._connect(database, busy_timeout, setup))
        except BaseException:
            await self.close()
            raise
        return self

    async def run(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """``fn(connection)`` as one item of the thread's queue."""
        if self._closed:
            raise StorageError("storage is closed")
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._items.put((fn, future))
        return await future

    async def close(self) -> None:
        """Close the connection after everything already queued; idempotent."""
        if self._closed:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._items.put((self._disconnect, future))
        self._items.put(None)  # then the thread ends
        self._closed = True
        await asyncio.shield(future)  # closing goes on even if this caller is cancelled

    # -- on the thread ----------------------------------------------------------------

    def _serve(self) -> None:
        while (item := self._items.get()) is not None:
            fn, future = item
            if future.cancelled():  # its caller gave up before it started: never run it
                continue
            try:
                result = fn(self._conn)  # type: ignore[arg-type]
            except BaseException as exc:
                _deliver(future, None, exc)
            else:
                _deliver(future, result, None)

    def _connect(
        self,
        database: str | Path,
        busy_timeout: float,
        setup: Callable[[sqlite3.Connection], None],
    ) -> None:
        # isolation_level=None: the sqlite3 module must not open transactions behind our back;
        # every transaction here is an explicit BEGIN.  timeout= is SQLite's busy timeout: how
        # long a statement waits for another connection's lock before failing.
        conn = sqlite3.connect(database, isolation_level=None, timeout=busy_timeout)
        try:
            conn.row_factory = sqlite3.Row
            setup(conn)
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def _disconnect(self, conn: sqlite3.Connection | None) -> None:
        if conn is not None:
            conn.close()
            self._conn = None


def _deliver(future: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    """Hand an outcome to the future's event loop (from the connection thread)."""

    def settle() -> None:
        if future.cancelled():
            return
        if exc is None:
            future.set_result(result)
        else:
            future.set_exception(exc)

    with suppress(RuntimeError):  # the event loop is closed: nobody is waiting any more
        future.get_loop().call_soon_threadsafe(settle)
