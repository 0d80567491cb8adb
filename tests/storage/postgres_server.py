"""A private PostgreSQL server for the tests, and a fresh database for each test.

``pgserver`` (a dev dependency) ships the PostgreSQL 16 binaries and runs ``initdb`` and
``pg_ctl`` in a temporary folder as the current user: no system package, no root, no network
(it listens on a Unix socket in that folder).  Each test process -- each pytest-xdist worker --
starts ONE server of its own, on first use, in its own folder, so workers never share or
race over a data directory; it is stopped and deleted when the process exits.  If it cannot
start, the fixture raises and every PostgreSQL test errors: the run fails, it never skips.

Every test gets a database of its own, copied from a template that was migrated once
(``CREATE DATABASE ... TEMPLATE``), and dropped afterwards, so tests are independent.  A copy
takes about 0.3 s, nearly all of it the server waiting rather than working (four at once take
no longer than one), so the next databases are created ahead, in a thread with its own event
loop, while the current test runs.  The server runs without fsync: the tests check behaviour,
not durability against power loss.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import shutil
import tempfile
from collections import deque
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import asyncpg
import pgserver
import pytest

from bot.storage.postgres import PostgresStorage

TEMPLATE = "uno_template"
AHEAD = 4
"""How many fresh databases wait ready for the next tests."""


async def _execute(url: str, *statements: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


class Databases:
    """Fresh copies of the migrated template, made ahead of the tests that take them."""

    def __init__(self, srv: pgserver.PostgresServer) -> None:
        self.srv = srv
        self._names = itertools.count(1)
        self._threads = ThreadPoolExecutor(AHEAD, thread_name_prefix="pg-databases")
        self._ready: deque[Future[str]] = deque()
        self._threads.submit(self._run, self._make_template()).result()

    def _run(self, work: Coroutine[Any, Any, None]) -> None:
        asyncio.run(work)  # on a pool thread: an event loop of its own

    async def _make_template(self) -> None:
        await _execute(self.srv.get_uri(), f"CREATE DATABASE {TEMPLATE}")
        await (await PostgresStorage.open(self.srv.get_uri(TEMPLATE))).close()  # migrated once

    def _create(self, name: str, template: str) -> str:
        self._run(_execute(self.srv.get_uri(), f"CREATE DATABASE {name} TEMPLATE {template}"))
        return name

    def take(self) -> Future[str]:
        """A new database holding the current schema and no data (its name, when ready)."""
        while len(self._ready) <= AHEAD:
            name = f"test_{next(self._names)}"
            self._ready.append(self._threads.submit(self._create, name, TEMPLATE))
        return self._ready.popleft()

    def empty(self) -> Future[str]:
        """A new database with no schema at all."""
        return self._threads.submit(self._create, f"empty_{next(self._names)}", "template0")


@functools.cache
def databases() -> Databases:
    # A short folder under /tmp: the server's Unix socket path must stay under ~100 bytes.
    folder = tempfile.mkdtemp(prefix="uno-pg-")
    try:
        srv = pgserver.get_server(folder, cleanup_mode="delete")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    srv.psql(
        "ALTER SYSTEM SET fsync = off;"
        " ALTER SYSTEM SET synchronous_commit = off;"
        " ALTER SYSTEM SET full_page_writes = off;"
        " SELECT pg_reload_conf();"
    )
    return Databases(srv)


@pytest.fixture(scope="session")
def pg_server() -> Databases:
    """This test process's server (started on first use) and its databases."""
    return databases()


async def _use(dbs: Databases, made: Future[str]) -> AsyncIterator[str]:
    name = await asyncio.wrap_future(made)
    try:
        yield dbs.srv.get_uri(name)
    finally:
        await _execute(dbs.srv.get_uri(), f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
async def postgres_url(pg_server: Databases) -> AsyncIterator[str]:
    """The URL of a new database holding the current schema and no data."""
    async for url in _use(pg_server, pg_server.take()):
        yield url


@pytest.fixture
async def empty_postgres_url(pg_server: Databases) -> AsyncIterator[str]:
    """The URL of a new, empty database (no schema yet)."""
    async for url in _use(pg_server, pg_server.empty()):
        yield url
