"""Group commit: many writes, one transaction, one fsync -- each write still alone in outcome.

``synchronous=FULL`` makes SQLite fsync the WAL on every commit, and one fsync per transaction
caps a process at a few hundred transactions per second.  So every write is a *request*
appended to one queue, and a writer task turns the queue into transactions:

* It takes everything queued (at most ``max_batch`` requests) and runs ONE ``BEGIN IMMEDIATE``
  transaction holding a ``SAVEPOINT`` per request, then one ``COMMIT`` -- one fsync for the
  whole batch -- and only then resolves the callers' futures.  A request that fails (version
  conflict, unknown game, constraint, a bad value) is rolled back to its savepoint and fails
  alone; the others in the batch are unaffected.  If the transaction as a whole fails (busy
  timeout on ``BEGIN``, disk full, an I/O error, SQLite aborting the transaction) every request
  in it fails with :class:`StorageError` and none of them is applied.
* There is no waiting for company: a lone write goes straight into its own transaction, and a
  batch holds exactly what queued up while the previous transaction was running.
* The optimistic check is per request, inside the write-locked transaction, so two processes
  still cannot both apply a move; two requests for one game in one batch see each other like
  two consecutive transactions would (the second gets ``VersionConflict``).
* ``IMMEDIATE`` takes the write lock up front, so a transaction never has to upgrade a read
  snapshot to a write lock (in WAL mode such an upgrade fails with ``SQLITE_BUSY`` instead of
  waiting on the busy handler).
* A whole transaction -- ``BEGIN`` to ``COMMIT`` or ``ROLLBACK`` -- is a single item queued to
  the write connection's own thread (:class:`ConnectionThread`), which runs its items in FIFO
  order, so nothing can interleave with a transaction and no :class:`asyncio.Lock` is needed.
  Reads use another connection (see :mod:`bot.storage.sqlite.base`).
* **Cancellation.**  A caller cancelled while its request is still queued withdraws it: it is
  never applied.  Once the writer has taken the request into a transaction, cancelling the caller
  no longer withdraws it: the request is committed, atomically, exactly when its transaction
  commits, and never half -- and the caller's ``CancelledError`` is raised only once that
  transaction has ended.  So, as with any interrupted write, a cancelled caller does not know
  whether its write happened, but a reload after it sees the outcome (reads use another
  connection, which would otherwise still show the state before an unfinished transaction).
  Cancellation can never leave the connection inside a transaction: once started on the
  connection thread, the transaction runs to its ``COMMIT`` or ``ROLLBACK`` regardless of what
  happens to the coroutines waiting for it.
* :meth:`GroupCommit.close` stops accepting writes (they raise :class:`StorageError`), lets the
  writer commit everything already queued, and returns once it has.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, TypeVar

from bot.storage.port import StorageError
from bot.storage.sqlite.connection import ConnectionThread

DEFAULT_MAX_BATCH: Final = 128
"""Most requests one transaction carries: bounds how long one transaction holds the lock."""

_T = TypeVar("_T")

Apply = Callable[[sqlite3.Connection], Any]
"""One request's work inside the batch transaction, run on the connection thread inside the
request's own savepoint.  It returns a value for its caller or raises to fail (alone)."""


@dataclass(frozen=True)
class WriteStats:
    """Counters of the group-commit writer, for tests and monitoring.

    ``transactions`` counts committed write transactions (each one fsync), ``requests`` the
    requests they carried (including ones that failed alone inside them) and ``largest_batch``
    the most requests one of them carried.  ``requests / transactions`` is the batching factor.
    """

    transactions: int = 0
    requests: int = 0
    largest_batch: int = 0


@dataclass(eq=False)
class _Request:
    apply: Apply
    future: asyncio.Future[Any]
    # Set when the writer takes the request into a transaction: done when that transaction ends.
    transaction: asyncio.Future[None] | None = None


def backend_failure(exc: BaseException) -> BaseException:
    """``exc`` as callers see it: sqlite3's own errors become :class:`StorageError`.

    The storage's own answers (``VersionConflict``, ``GameNotFound``, ...) and bad values from
    the caller pass unchanged.
    """
    if not isinstance(exc, sqlite3.Error):
        return exc
    error = StorageError(f"database failure: {exc}")
    error.__cause__ = exc
    return error


def run_batch(conn: sqlite3.Connection, applies: Sequence[Apply]) -> list[tuple[bool, Any]]:
    """Run one write transaction on the connection thread: ``(ok, value_or_exception)`` each.

    Either the transaction commits, with every request that succeeded in it, or this raises and
    nothing of it is kept.
    """
    outcomes: list[tuple[bool, Any]] = []
    try:
        conn.execute("BEGIN IMMEDIATE")
        for apply in applies:
            conn.execute("SAVEPOINT request")
            try:
                value = apply(conn)
            except Exception as exc:
                if not conn.in_transaction:
                    # Some errors (I/O, disk full, out of memory, ...) make SQLite roll back the
                    # whole transaction, taking the requests before this one with it: fail all.
                    raise
                conn.execute("ROLLBACK TO request")
                conn.execute("RELEASE request")
                outcomes.append((False, exc))
            else:
                conn.execute("RELEASE request")
                outcomes.append((True, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    return outcomes


class GroupCommit:
    """The write queue of one storage and the task that turns it into transactions."""

    def __init__(self, connection: ConnectionThread, *, max_batch: int = DEFAULT_MAX_BATCH):
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        self._connection = connection
        self._max_batch = max_batch
        self._queue: deque[_Request] = deque()
        self._writer: asyncio.Task[None] | None = None
        self.stats = WriteStats()
        self._closing = False

    async def write(self, apply: Callable[[sqlite3.Connection], _T]) -> _T:
        """Queue ``apply`` as one request of the next write transaction and await its outcome.

        Validation and serialisation belong before this call, so a bad value fails fast
        without ever reaching the queue.
        """
        if self._closing:
            raise StorageError("storage is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        request = _Request(apply, future)
        self._queue.append(request)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_loop(), name="storage-writer")
        try:
            # Cancelling this await cancels the future: a still-queued request is then dropped
            # by the writer, an already batched one is committed or not with its transaction.
            return await future
        except asyncio.CancelledError:
            if request.transaction is not None:
                await asyncio.shield(request.transaction)  # let the outcome land first
            raise

    async def close(self) -> None:
        """Refuse new writes and wait until everything already queued is committed."""
        self._closing = True
        writer = self._writer
        if writer is not None and not writer.done():
            # asyncio.wait, unlike awaiting the task, does not cancel the writer if this
            # close() is cancelled: the queued requests are still committed.
            await asyncio.wait([writer])

    @property
    def idle(self) -> bool:
        """No writer task alive: nothing lingers between writes."""
        return self._writer is None or self._writer.done()

    async def _write_loop(self) -> None:
        """Turn the queue into transactions until it is empty (it is restarted on demand).

        Only ever awaits the connection thread, so a batch is whatever queued while the
        previous transaction was running -- never a wait for more requests to arrive.
        """
        queue = self._queue
        batch: list[_Request] = []
        try:
            while queue:
                batch = []
                while queue and len(batch) < self._max_batch:
                    request = queue.popleft()
                    if not request.future.done():  # else its caller was cancelled: withdrawn
                        batch.append(request)
                if batch:
                    await self._run(batch)
        except BaseException as exc:
            # Only the event loop shutting down cancels the writer (and nothing else should
            # escape _run).  A started transaction still runs to COMMIT or ROLLBACK on the
            # connection thread, so its outcome is unknown -- what a cancelled caller is told --
            # and the requests still queued are withdrawn.  No caller is left waiting forever.
            for request in (*batch, *queue):
                if not request.future.done():
                    if isinstance(exc, asyncio.CancelledError):
                        request.future.cancel()
                    else:
                        request.future.set_exception(exc)
            queue.clear()
            raise

    async def _run(self, batch: list[_Request]) -> None:
        """Run one batch as one transaction, then tell each caller its own outcome."""
        applies = [r.apply for r in batch]
        transaction: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        for request in batch:
            request.transaction = transaction
        try:
            outcomes = await self._connection.run(partial(run_batch, applies=applies))
        except Exception as exc:  # the transaction failed as a whole: nothing was applied
            for request in batch:
                if not request.future.done():
                    request.future.set_exception(backend_failure(exc))
            return
        finally:
            transaction.set_result(None)
        s = self.stats
        self.stats = WriteStats(
            s.transactions + 1, s.requests + len(batch), max(s.largest_batch, len(batch))
        )
        for request, (ok, value) in zip(batch, outcomes, strict=True):
            if request.future.done():
                continue  # its caller was cancelled after the request was batched
            if ok:
                request.future.set_result(value)
            else:
                request.future.set_exception(backend_failure(value))
