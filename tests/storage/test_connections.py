"""The PostgreSQL adapter's connections (`bot.storage.postgres.connections`): lent one at a time,
the most recently used first, and a connection whose session may be unclean is never lent
again."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage.postgres.connections import Connections


async def _pid(conn: asyncpg.Connection) -> int:
    return conn.get_server_pid()


async def _open(url: str, size: int, min_size: int = 1) -> Connections:
    return await Connections.open(lambda: asyncpg.connect(url), min_size=min_size, max_size=size)


async def test_the_most_recently_used_connection_is_lent_again(postgres_url: str) -> None:
    pool = await _open(postgres_url, 3, min_size=2)
    try:
        first = await pool.run(_pid)
        assert [await pool.run(_pid) for _ in range(3)] == [first] * 3
    finally:
        await pool.close()


async def test_callers_beyond_the_size_wait_their_turn_in_order(postgres_url: str) -> None:
    pool = await _open(postgres_url, 1)
    release = asyncio.Event()
    order: list[int] = []

    async def hold(conn: asyncpg.Connection) -> None:
        await release.wait()

    async def note(n: int) -> None:
        pids = await pool.run(_pid)
        order.append(n)
        assert pids == first

    try:
        first = await pool.run(_pid)
        holder = asyncio.create_task(pool.run(hold))
        waiting = [asyncio.create_task(note(n)) for n in range(3)]
        await asyncio.sleep(0)  # one turn of the loop: each has asked for the connection
        assert not order
        release.set()
        await asyncio.gather(holder, *waiting)
        assert order == [0, 1, 2]
    finally:
        await pool.close()


async def test_a_refused_statement_leaves_the_connection_to_be_lent_again(
    postgres_url: str,
) -> None:
    pool = await _open(postgres_url, 1)
    try:
        first = await pool.run(_pid)
        with pytest.raises(asyncpg.PostgresError):
            await pool.run(lambda conn: conn.execute("SELECT 1/0"))
        assert await pool.run(_pid) == first
    finally:
        await pool.close()


async def test_a_cancelled_or_open_session_is_dropped_and_another_opened(
    postgres_url: str,
) -> None:
    pool = await _open(postgres_url, 1)
    started = asyncio.Event()

    async def sleep_long(conn: asyncpg.Connection) -> None:
        started.set()
        await conn.execute("SELECT pg_sleep(5)")

    try:
        first = await pool.run(_pid)
        running = asyncio.create_task(pool.run(sleep_long))
        await started.wait()
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        second = await pool.run(_pid)
        assert second != first

        async def leave_open(conn: asyncpg.Connection) -> None:
            await conn.execute("BEGIN")

        await pool.run(leave_open)
        assert await pool.run(_pid) not in (first, second)
    finally:
        await pool.close()


async def test_expire_renews_every_session(postgres_url: str) -> None:
    pool = await _open(postgres_url, 2)
    lent = asyncio.Event()
    release = asyncio.Event()

    async def hold(conn: asyncpg.Connection) -> int:
        lent.set()
        await release.wait()
        return conn.get_server_pid()

    try:
        idle = await pool.run(_pid)
        holder = asyncio.create_task(pool.run(hold))
        await lent.wait()
        pool.expire()
        release.set()
        busy = await holder
        assert await pool.run(_pid) not in (idle, busy)
    finally:
        await pool.close()


async def test_a_caller_that_stops_waiting_is_forgotten(postgres_url: str) -> None:
    pool = await _open(postgres_url, 1)
    release = asyncio.Event()

    async def hold(conn: asyncpg.Connection) -> None:
        await release.wait()

    holder = asyncio.create_task(pool.run(hold))
    waiter = asyncio.create_task(pool.run(_pid))
    await asyncio.sleep(0)  # one turn of the loop: the waiter has asked for the connection
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    release.set()
    await holder
    async with asyncio.timeout(10):  # (a safeguard: close must not wait for the gone caller)
        await pool.close()
