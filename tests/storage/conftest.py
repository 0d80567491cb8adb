"""The storage contract's fixtures: one ``storage`` per backend, and faults on demand.

Every test written against ``storage`` and ``backend`` runs on each backend in ``BACKENDS``
(SQLite today; PostgreSQL joins it with its adapter), so one contract covers them all.  What a
test needs from a backend beyond the port -- reopening, a fault, a damaged row -- it asks the
:class:`Backend` for, never the database directly.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Protocol

import pytest

from bot.storage import SqliteStorage, StoragePort


class FakeClock:
    """Deterministic, strictly increasing time so timestamps can be asserted exactly."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


CORRUPTIONS = ["not json", "a list", "null", "not utf-8"]
"""Ways a stored state or meta can be damaged (``Backend.corrupt``)."""


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


BACKENDS = ["sqlite"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock) -> Backend:
    if request.param == "sqlite":
        return SqliteBackend(tmp_path / "data" / "bot.sqlite3", clock)
    raise AssertionError(request.param)


@pytest.fixture
async def storage(backend: Backend) -> AsyncIterator[StoragePort]:
    s = await backend.open()
    yield s
    await s.close()
