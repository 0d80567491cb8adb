"""The storage contract's fixtures: one ``storage`` per backend, and faults on demand.

Every test written against ``storage`` and ``backend`` runs on each backend in ``BACKENDS``
(SQLite, and PostgreSQL on a private server, see :mod:`tests.storage.postgres_server`), so one
contract covers them all.  What a
test needs from a backend beyond the port -- reopening, a fault, a damaged row -- it asks the
:class:`Backend` for, never the database directly.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Protocol

import asyncpg
import pytest

from bot.storage import SqliteStorage, StoragePort
from bot.storage.postgres import PostgresStorage
from tests.storage.postgres_server import empty_postgres_url, pg_server, postgres_url

__all__ = ["empty_postgres_url", "pg_server", "postgres_url"]  # fixtures for these tests


class FakeClock:
    """Deterministic, strictly increasing time so timestamps can be asserted exactly."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


CORRUPTIONS = {
    "sqlite": ["not json", "a list", "null", "not utf-8"],
    # A PostgreSQL text column refuses bytes that are not valid in the database's encoding.
    "postgres": ["not json", "a list", "null"],
}
"""Ways a stored state or meta can be damaged on each backend (``Backend.corrupt``)."""


class Backend(Protocol):
    name: str

    async def open(self, **options: Any) -> StoragePort:
        """A new storage on this test's database (the same one each time)."""
        ...

    def fault(self, storage: StoragePort, kind: str) -> AbstractAsyncContextManager[None]:
        """While inside, every write of ``storage`` fails: ``locked`` (another connection
        holds the write lock past the busy timeout), ``full`` (no room for new data),
        ``read_only``."""
        ...

    def refuse_stats(self) -> AbstractAsyncContextManager[None]:
        """While inside, the database refuses to add statistics rows (a trigger)."""
        ...

    async def corrupt(self, game_id: int, column: str, how: str) -> None:
        """Damage a stored game's ``state`` or ``meta`` one of the ``CORRUPTIONS`` ways."""
        ...


class SqliteBackend:
    name = "sqlite"

    def __init__(self, path: Path, clock: Callable[[], float]) -> None:
        self.path = path
        self.clock = clock

    async def open(self, **options: Any) -> StoragePort:
        return await SqliteStorage.open(self.path, **{"clock": self.clock, **options})

    def raw(self) -> sqlite3.Connection:
        """Another connection to the file, as another process would have."""
        return sqlite3.connect(self.path, isolation_level=None, timeout=5.0)

    @asynccontextmanager
    async def fault(self, storage: StoragePort, kind: str) -> AsyncIterator[None]:
        assert isinstance(storage, SqliteStorage)
        writer = storage._writer

        async def on_writer(sql: str) -> None:
            await writer.run(lambda conn: conn.execute(sql).fetchall())

        if kind == "locked":
            other = self.raw()
            await on_writer("PRAGMA busy_timeout = 50")
            other.execute("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                other.execute("ROLLBACK")
                other.close()
                await on_writer("PRAGMA busy_timeout = 10000")
        elif kind == "full":
            await on_writer("PRAGMA max_page_count = 1")  # clamps to the current page count
            try:
                yield
            finally:
                await on_writer("PRAGMA max_page_count = 1073741823")
        elif kind == "read_only":
            await on_writer("PRAGMA query_only = 1")
            try:
                yield
            finally:
                await on_writer("PRAGMA query_only = 0")
        else:
            raise ValueError(kind)

    @asynccontextmanager
    async def refuse_stats(self) -> AsyncIterator[None]:
        with self.raw() as raw:
            raw.execute(
                "CREATE TRIGGER no_stats BEFORE INSERT ON player_stats"
                " BEGIN SELECT RAISE(ABORT, 'stats refused'); END"
            )
        try:
            yield
        finally:
            with self.raw() as raw:
                raw.execute("DROP TRIGGER no_stats")

    async def corrupt(self, game_id: int, column: str, how: str) -> None:
        assert column in ("state", "meta")
        value = {"not json": "'{\"cut'", "a list": "'[1, 2]'", "null": "'null'",
                 "not utf-8": "X'FFFE00'"}[how]  # fmt: skip
        with self.raw() as raw:
            raw.execute(f"UPDATE games SET {column} = {value} WHERE id = ?", (game_id,))


class PostgresBackend:
    """PostgreSQL faults on demand, each from outside the storage as the database would fail:

    * ``locked``: another connection holds ``LOCK TABLE ... IN EXCLUSIVE MODE`` on every table
      (reads still pass) while the database's ``lock_timeout`` is 100 ms;
    * ``full``: a trigger on every table raises SQLSTATE 53100 ``disk_full`` for each new or
      changed row (PostgreSQL has no quota to fill, and filling a real disk is no unit test);
    * ``read_only``: the database's ``default_transaction_read_only`` is on.

    Database-level settings reach only new sessions, so the storage's pool is told to replace
    its connections (``Pool.expire_connections``) when a fault begins and ends.  The storages
    opened here leave ``lock_timeout`` to the database (it is otherwise set per session, which
    would override the database's).
    """

    name = "postgres"
    TABLES = "games, game_log, game_refs, settings, matches, player_stats"

    def __init__(self, url: str, clock: Callable[[], float]) -> None:
        self.url = url
        self.clock = clock

    async def open(self, **options: Any) -> StoragePort:
        defaults = {"clock": self.clock, "lock_timeout": None, "max_size": 4}
        return await PostgresStorage.open(self.url, **{**defaults, **options})

    @asynccontextmanager
    async def raw(self) -> AsyncIterator[asyncpg.Connection]:
        """Another connection to the database, as another process would have (one that can
        still write while the database defaults to read-only)."""
        conn = await asyncpg.connect(
            self.url, server_settings={"default_transaction_read_only": "off"}
        )
        try:
            yield conn
        finally:
            await conn.close()

    async def _set(self, storage: StoragePort, name: str, value: str | None) -> None:
        """Set (or with None, reset) a database-level setting and renew the pool's sessions."""
        assert isinstance(storage, PostgresStorage)
        async with self.raw() as raw:
            db = await raw.fetchval("SELECT current_database()")
            change = f"RESET {name}" if value is None else f"SET {name} = {value}"
            await raw.execute(f"ALTER DATABASE {db} {change}")
        storage._pool.expire()

    @asynccontextmanager
    async def fault(self, storage: StoragePort, kind: str) -> AsyncIterator[None]:
        if kind == "locked":
            await self._set(storage, "lock_timeout", "'100ms'")
            async with self.raw() as other:
                await other.execute(f"BEGIN; LOCK TABLE {self.TABLES} IN EXCLUSIVE MODE")
                try:
                    yield
                finally:
                    await other.execute("ROLLBACK")
                    await self._set(storage, "lock_timeout", None)
        elif kind == "full":
            async with self.raw() as raw:
                await raw.execute(
                    "CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$"
                    " BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'"
                    " USING ERRCODE = 'disk_full'; END $$"
                )
                for table in self.TABLES.split(", "):
                    await raw.execute(
                        f"CREATE TRIGGER full_{table} BEFORE INSERT OR UPDATE ON {table}"
                        " FOR EACH ROW EXECUTE FUNCTION disk_full()"
                    )
            try:
                yield
            finally:
                async with self.raw() as raw:
                    await raw.execute("DROP FUNCTION disk_full() CASCADE")
        elif kind == "read_only":
            await self._set(storage, "default_transaction_read_only", "on")
            try:
                yield
            finally:
                await self._set(storage, "default_transaction_read_only", None)
        else:
            raise ValueError(kind)

    @asynccontextmanager
    async def refuse_stats(self) -> AsyncIterator[None]:
        async with self.raw() as raw:
            await raw.execute(
                "CREATE FUNCTION no_stats() RETURNS trigger LANGUAGE plpgsql AS $$"
                " BEGIN RAISE EXCEPTION 'stats refused'; END $$;"
                " CREATE TRIGGER no_stats BEFORE INSERT ON player_stats"
                " FOR EACH ROW EXECUTE FUNCTION no_stats()"
            )
        try:
            yield
        finally:
            async with self.raw() as raw:
                await raw.execute("DROP FUNCTION no_stats() CASCADE")

    async def corrupt(self, game_id: int, column: str, how: str) -> None:
        assert column in ("state", "meta")
        value = {"not json": '{"cut', "a list": "[1, 2]", "null": "null"}[how]
        async with self.raw() as raw:
            await raw.execute(f"UPDATE games SET {column} = $1 WHERE id = $2", value, game_id)


BACKENDS = ["sqlite", "postgres"]

CORRUPT_CASES = [(name, how) for name in BACKENDS for how in CORRUPTIONS[name]]
"""``(backend, how)`` for every way each backend's rows can be damaged: parametrize with
``indirect=["backend"]``."""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock) -> Backend:
    if request.param == "sqlite":
        return SqliteBackend(tmp_path / "data" / "bot.sqlite3", clock)
    if request.param == "postgres":
        return PostgresBackend(request.getfixturevalue("postgres_url"), clock)
    raise AssertionError(request.param)


@pytest.fixture
async def storage(backend: Backend) -> AsyncIterator[StoragePort]:
    s = await backend.open()
    yield s
    await s.close()
