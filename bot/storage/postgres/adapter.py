"""The PostgreSQL adapter of the storage port: several bot processes over one database.

`PostgresStorage` is its concerns put together (games, outbox, deadlines, settings, statistics,
refs, send budget: a module each) over one pool (`.base`); this module opens and closes it. The
database keeps the port's promises across processes: a game's row lock and version check
serialise its writers (`.commit`), ``COMMIT`` returns only once the WAL is flushed,
``lock_timeout`` bounds a wait for another connection's lock, and the partial unique index
``games_one_active_per_chat`` keeps one open game per chat. There is no group commit as in the
SQLite adapter: PostgreSQL already shares one WAL flush among the transactions that commit
together, each on its own pooled connection. Schema changes are ``.sql`` files applied when the
storage opens (`.migrate`). A method's contract is the port's; the concerns' docstrings say only
what this backend adds to it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from types import TracebackType

import asyncpg

from bot.storage.port import StoragePort
from bot.storage.postgres import listen
from bot.storage.postgres.base import FAILURES, backend_failure
from bot.storage.postgres.connections import Connections
from bot.storage.postgres.deadlines import Deadlines
from bot.storage.postgres.games import Games
from bot.storage.postgres.migrate import migrate
from bot.storage.postgres.outbox import Outbox
from bot.storage.postgres.presence import Presence
from bot.storage.postgres.refs import Refs
from bot.storage.postgres.send_budget import SendBudget
from bot.storage.postgres.settings import Settings
from bot.storage.postgres.statistics import Statistics


class PostgresStorage(
    Games, Outbox, Deadlines, Settings, Statistics, Refs, SendBudget, StoragePort
):
    """All persistence for the bot in one PostgreSQL database.  Create with ``await .open(url)``."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        lock_timeout: float | None = 10.0,
        min_size: int = 1,
        max_size: int = 10,
    ) -> PostgresStorage:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``), migrate.

        ``lock_timeout`` is how long, in seconds, a statement waits for another connection's
        lock before the call fails; it is generous because failing means refusing a player's
        move.  None keeps the server's own setting (for the database or role).  ``min_size``
        and ``max_size`` bound its connections (`.connections`): at most ``max_size``
        transactions of this process run at once, the others wait for a connection.  Raises
        :class:`StorageError` if the database cannot be reached, :class:`SchemaTooNew` if newer
        code migrated it.
        """
        settings = {"application_name": "uno-bot"}
        if lock_timeout is not None:
            settings["lock_timeout"] = str(max(1, round(lock_timeout * 1000)))
        try:
            pool = await Connections.open(
                lambda: asyncpg.connect(url, server_settings=settings),
                min_size=min_size, max_size=max_size,
            )  # fmt: skip
        except FAILURES as exc:
            raise backend_failure(exc) from exc
        try:
            await pool.run(migrate)
            presence = await Presence.open(url)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, FAILURES):
                raise backend_failure(exc) from exc
            raise
        return cls(pool, clock, presence)

    async def close(self) -> None:
        """Let the writes already started finish, then close the pool; idempotent.  Calls made
        once closing has begun raise :class:`StorageError`."""
        if self._closed:
            return
        self._closed = True
        if self._writes:
            await asyncio.wait(set(self._writes))
        await self._pool.close()
        if self._presence is not None:
            await self._presence.close()

    async def __aenter__(self) -> PostgresStorage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def sole_process(self) -> bool:
        """Never: any number of processes may share the database."""
        return False

    async def listen_changes(
        self, publish: Callable[[int, int], None], gap: Callable[[], None]
    ) -> None:
        """Hand every process's commits to `publish` until cancelled (`bot.storage.postgres.
        listen`); cancel it before `close`, which waits for its connection."""
        await listen.follow(self._pool, publish, gap)
