"""A private PostgreSQL server for the tests, and a fresh database for each test.

``pgserver`` (a dev dependency) ships the PostgreSQL 16 binaries and runs ``initdb`` and
``pg_ctl`` in a temporary folder as the current user: no system package, no root, no network
(it listens on a Unix socket in that folder).  Each test process -- each pytest-xdist worker --
starts ONE server of its own, on first use, in its own folder, so workers never share or
race over a data directory; it is stopped and deleted when the process exits.  If it cannot
start, the fixture raises and every PostgreSQL test errors: the run fails, it never skips.

Every test gets a database of its own, copied from a template that was migrated once
(``CREATE DATABASE ... TEMPLATE``), and dropped afterwards, so tests are independent.  The
server runs without fsync: the tests check behaviour, not durability against power loss.
"""

from __future__ import annotations

import functools
import itertools
import tempfile
from collections.abc import AsyncIterator

import asyncpg
import pgserver
import pytest

from bot.storage.postgres import PostgresStorage

TEMPLATE = "uno_template"

_names = itertools.count(1)
_template_ready = False


@functools.cache
def server() -> pgserver.PostgresServer:
    # A short folder under /tmp: the server's Unix socket path must stay under ~100 bytes.
    folder = tempfile.mkdtemp(prefix="uno-pg-")
    srv = pgserver.get_server(folder, cleanup_mode="delete")
    srv.psql(
        "ALTER SYSTEM SET fsync = off;"
        " ALTER SYSTEM SET synchronous_commit = off;"
        " ALTER SYSTEM SET full_page_writes = off;"
        " SELECT pg_reload_conf();"
    )
    return srv


@pytest.fixture(scope="session")
def pg_server() -> pgserver.PostgresServer:
    return server()


async def _make_template(admin: asyncpg.Connection, srv: pgserver.PostgresServer) -> None:
    global _template_ready
    if _template_ready:
        return
    await admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
    await admin.execute(f"CREATE DATABASE {TEMPLATE}")
    await (await PostgresStorage.open(srv.get_uri(TEMPLATE))).close()  # migrated once
    _template_ready = True


@pytest.fixture
async def postgres_url(pg_server: pgserver.PostgresServer) -> AsyncIterator[str]:
    """The URL of a new database holding the current schema and no data."""
    admin = await asyncpg.connect(pg_server.get_uri())
    try:
        await _make_template(admin, pg_server)
        name = f"test_{next(_names)}"
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        try:
            yield pg_server.get_uri(name)
        finally:
            await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()


@pytest.fixture
async def empty_postgres_url(pg_server: pgserver.PostgresServer) -> AsyncIterator[str]:
    """The URL of a new, empty database (no schema yet)."""
    admin = await asyncpg.connect(pg_server.get_uri())
    try:
        name = f"empty_{next(_names)}"
        await admin.execute(f"CREATE DATABASE {name}")
        try:
            yield pg_server.get_uri(name)
        finally:
            await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()
