"""The adapter's connections to the server, each lent to one statement or transaction at a time.

asyncpg's pool costs more of the bot's CPU to lend a connection and take it back than a one-row
statement costs on it (a task shielding every release, an idle timer re-armed every time, a
proxy, an acquire context), and a move lends two. Here lending an idle connection is a list pop
and taking it back a push, the most recently used first (its server process is the likeliest to
be awake). A connection that comes back in a state not known to be clean (its work was
cancelled, or failed otherwise than by the server's refusal of a statement, or left a
transaction open) is dropped rather than lent again; another is opened when one is wanted.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TypeVar

import asyncpg

_T = TypeVar("_T")

Connect = Callable[[], Awaitable[asyncpg.Connection]]


class Connections:
    """At most ``size`` connections, opened when needed and kept; callers beyond them wait,
    first come first served. Create with ``await Connections.open(...)``."""

    def __init__(self, connect: Connect, size: int) -> None:
        self._connect = connect
        self._size = size
        self._idle: list[asyncpg.Connection] = []
        self._open = 0  # idle, lent, or being opened
        self._lent: set[asyncpg.Connection] = set()
        self._waiters: deque[asyncio.Future[asyncpg.Connection | None]] = deque()
        self._stale: set[asyncpg.Connection] = set()  # lent when `expire` was called
        self._returned = asyncio.Event()

    @classmethod
    async def open(cls, connect: Connect, *, min_size: int, max_size: int) -> Connections:
        self = cls(connect, max_size)
        try:
            for _ in range(min_size):
                self._open += 1
                self._idle.append(await connect())
        except BaseException:
            await self.close()
            raise
        return self

    async def run(self, work: Callable[[asyncpg.Connection], Awaitable[_T]]) -> _T:
        """``work`` on a connection of its own, given back when it ends."""
        conn = await self._take()
        self._lent.add(conn)
        clean = False
        try:
            result = await work(conn)
            clean = True
            return result
        except asyncpg.PostgresError:
            clean = True  # the server refused a statement: the session goes on
            raise
        finally:
            self._lent.discard(conn)
            self._give_back(conn, clean)

    async def _take(self) -> asyncpg.Connection:
        while True:
            while self._idle:
                conn = self._idle.pop()
                if not conn.is_closed():
                    return conn
                self._open -= 1
            if self._open < self._size:
                self._open += 1
                try:
                    return await self._connect()
                except BaseException:
                    self._dropped()
                    raise
            waiter: asyncio.Future[asyncpg.Connection | None]
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                conn = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():  # handed over, then cancelled
                    handed = waiter.result()
                    if handed is not None:
                        self._give_back(handed, True)
                    else:
                        self._wake(None)
                raise
            if conn is not None:
                return conn  # else a place became free: open one

    def _give_back(self, conn: asyncpg.Connection, clean: bool) -> None:
        if conn in self._stale:
            self._stale.discard(conn)
            clean = False
        if not clean or conn.is_closed() or conn.is_in_transaction():
            conn.terminate()
            self._dropped()
        elif not self._wake(conn):
            self._idle.append(conn)
        self._returned.set()

    def _dropped(self) -> None:
        self._open -= 1
        self._wake(None)

    def _wake(self, conn: asyncpg.Connection | None) -> bool:
        """Hand ``conn`` (None: a free place) to the first caller still waiting."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return True
        return False

    def expire(self) -> None:
        """Renew every session: the idle connections are closed now, the lent ones when they
        come back (a change of the database's settings reaches only new sessions)."""
        idle, self._idle = self._idle, []
        for conn in idle:
            conn.terminate()
            self._dropped()
        self._stale = set(self._lent)

    async def close(self) -> None:
        """Wait for every lent connection to come back, then close them all."""
        while self._lent or self._waiters:
            self._returned.clear()
            await self._returned.wait()
        idle, self._idle = self._idle, []
        self._open -= len(idle)
        await asyncio.gather(*(conn.close() for conn in idle), return_exceptions=True)
