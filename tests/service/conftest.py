"""A service on a real SQLite file with a clock the test moves by hand; `database` and `store`
for a test that runs on both backends (PostgreSQL: the tests' private server)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.presentation.i18n import I18n
from bot.presentation.render import Renderer
from bot.service import Service, User
from bot.storage import Storage, StoragePort
from bot.storage.postgres import PostgresStorage
from tests.storage.postgres_server import pg_server, postgres_url

__all__ = ["pg_server", "postgres_url"]  # fixtures for the tests on both backends


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


ALICE = User("1001", "Алиса", "ru")
BORIS = User("1002", "Борис", "ru")
VIKA = User("1003", "Віка", "uk")
GLEB = User("1004", "Глеб", "ru")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "uno.sqlite3"


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await Storage.open(db_path, clock=clock)
    yield store
    await store.close()


@pytest.fixture
async def service(storage: Storage, clock: FakeClock) -> Service:
    counter = iter(range(1, 10_000))
    svc = Service(storage, clock=clock, bot_delay=2.0, seed=lambda: 4242 + next(counter))
    await svc.start()
    return svc


@pytest.fixture(scope="session")
def renderer() -> Renderer:
    return Renderer(I18n(strict=True))


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest) -> str:
    """A SQLite file's path, or a PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(request.getfixturevalue("db_path"))
    return str(request.getfixturevalue("postgres_url"))


async def open_store(database: str, clock: FakeClock) -> StoragePort:
    """A storage on `database` (a new process's, each time it is called)."""
    if database.startswith("postgresql:"):
        return await PostgresStorage.open(database, clock=clock)
    return await Storage.open(database, clock=clock)


@pytest.fixture
async def store(database: str, clock: FakeClock) -> AsyncIterator[StoragePort]:
    opened = await open_store(database, clock)
    yield opened
    await opened.close()
