"""What only the PostgreSQL adapter does: several processes at once, migrations under a lock,
the lock timeout, the URL.  The port's contract itself runs in ``test_contract.py``."""

from __future__ import annotations

import asyncio
import inspect

import asyncpg
import pytest

from bot.storage import (
    GameRecord,
    LogEntry,
    PlayerResult,
    SchemaTooNew,
    StorageError,
    StoragePort,
    VersionConflict,
    open_storage,
)
from bot.storage.postgres import MIGRATIONS, SCHEMA_VERSION, PostgresStorage
from bot.storage.postgres import migrate as migrate_module

CHAT = "tg:-100123"


async def test_two_processes_racing_on_one_game_apply_each_version_once(
    postgres_url: str,
) -> None:
    """Two storages with pools of their own, as two bot processes would have, each try to
    apply a move on every version of one game: exactly one wins each version, the loser gets
    VersionConflict, and no version is applied twice."""
    a = await PostgresStorage.open(postgres_url, max_size=3)
    b = await PostgresStorage.open(postgres_url, max_size=3)
    try:
        game = await a.create_game(CHAT, {})
        wins = {"a": 0, "b": 0}
        versions = 40
        for version in range(versions):
            # each process tries twice (two updates for the same chat), four writers in all
            attempts = [
                (name, s.commit(game.id, version, state={"v": version + 1, "by": f"{name}{i}"},
                                meta={}, status="running",
                                log=[LogEntry(f"{name}{i}", f"move {version}")]))
                for name, s in (("a", a), ("b", b)) for i in range(2)
            ]  # fmt: skip
            outcomes = await asyncio.gather(*(c for _, c in attempts), return_exceptions=True)
            won = [(n, r) for (n, _), r in zip(attempts, outcomes, strict=True)
                   if isinstance(r, GameRecord)]  # fmt: skip
            assert len(won) == 1, outcomes
            assert all(
                isinstance(r, VersionConflict) and r.actual == version + 1
                for r in outcomes if not isinstance(r, GameRecord)
            ), outcomes  # fmt: skip
            wins[won[0][0]] += 1
        stored = await b.get_game(game.id)
        assert stored is not None and stored.version == versions
        log = await a.log(game.id)
        assert [e.version for e in log] == list(range(1, versions + 1))  # once each, in order
        assert stored.state == {"v": versions, "by": log[-1].actor}
        assert wins["a"] + wins["b"] == versions
    finally:
        await a.close()
        await b.close()


async def test_a_writer_waits_for_the_row_lock_of_another_process(postgres_url: str) -> None:
    """The game's row lock is held by another transaction: the commit waits for it, then
    sees the version that transaction committed (never a lost update)."""
    s = await PostgresStorage.open(postgres_url)
    other = await asyncpg.connect(postgres_url)
    try:
        game = await s.create_game(CHAT, {})
        async with other.transaction():
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            waiting = asyncio.create_task(s.commit(game.id, 0, state={}, meta={}, status="running"))
            # wait until the commit is really blocked on the lock (an event, not a sleep)
            while not await other.fetchval(
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'"
            ):
                assert not waiting.done(), waiting
                await asyncio.sleep(0.01)
            await other.execute("UPDATE games SET version = 1 WHERE id = $1", game.id)
        with pytest.raises(VersionConflict) as info:
            await waiting
        assert info.value.actual == 1
    finally:
        await other.close()
        await s.close()


async def test_lock_timeout_turns_a_long_wait_into_a_storage_error(postgres_url: str) -> None:
    s = await PostgresStorage.open(postgres_url, lock_timeout=0.05)
    other = await asyncpg.connect(postgres_url)
    try:
        game = await s.create_game(CHAT, {})
        async with other.transaction():
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            with pytest.raises(StorageError) as info:
                await s.commit(game.id, 0, state={}, meta={}, status="running")
            assert isinstance(info.value.__cause__, asyncpg.LockNotAvailableError)
        assert (await s.commit(game.id, 0, state={}, meta={}, status="running")).version == 1
    finally:
        await other.close()
        await s.close()


async def test_a_value_postgres_cannot_hold_is_a_value_error(postgres_url: str) -> None:
    """PostgreSQL text holds no NUL character and bigint ends at 2**63 - 1: the caller's value
    is refused with ValueError (not a StorageError to retry), and nothing is stored."""
    s = await PostgresStorage.open(postgres_url)
    try:
        game = await s.create_game(CHAT, {})
        g = await s.commit(game.id, 0, state={}, meta={}, status="running")
        for bad in (
            lambda: s.commit(g.id, 1, state={}, meta={}, status="running",
                             log=[LogEntry("u1", "play\x00r5")]),
            lambda: s.put_ref(g.id, "table", "1\x002"),
            lambda: s.record_match(CHAT, g.id, [PlayerResult("u1", "A", True, 2**63)]),
        ):  # fmt: skip
            with pytest.raises(ValueError) as info:
                await bad()
            assert isinstance(info.value.__cause__, asyncpg.DataError)
        assert await s.get_game(g.id) == g
        assert await s.refs(g.id) == {} and await s.player_stats(CHAT, "u1") is None
        assert (await s.commit(g.id, 1, state={}, meta={}, status="running")).version == 2
    finally:
        await s.close()


async def _applied(url: str) -> list[int]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT version FROM schema_version ORDER BY version")
        return [r[0] for r in rows]
    finally:
        await conn.close()


async def test_two_processes_starting_at_once_migrate_once(empty_postgres_url: str) -> None:
    opened = await asyncio.gather(
        *(PostgresStorage.open(empty_postgres_url) for _ in range(3))
    )  # three pools: three processes starting together
    try:
        assert await _applied(empty_postgres_url) == list(range(1, SCHEMA_VERSION + 1))
        game = await opened[0].create_game(CHAT, {})
        assert await opened[2].get_game(game.id) == game
    finally:
        for s in opened:
            await s.close()


async def test_a_failing_migration_leaves_nothing(
    empty_postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = (*MIGRATIONS, "CREATE TABLE extra (x int); SELECT no_such_function();")
    monkeypatch.setattr(migrate_module, "MIGRATIONS", broken)
    with pytest.raises(StorageError) as info:
        await PostgresStorage.open(empty_postgres_url)
    assert isinstance(info.value.__cause__, asyncpg.UndefinedFunctionError)
    conn = await asyncpg.connect(empty_postgres_url)
    try:  # all pending files are one transaction: not even the first one stayed
        assert await conn.fetchval("SELECT to_regclass('games')") is None
    finally:
        await conn.close()
    monkeypatch.undo()
    await (await PostgresStorage.open(empty_postgres_url)).close()
    assert await _applied(empty_postgres_url) == list(range(1, SCHEMA_VERSION + 1))


async def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", SCHEMA_VERSION + 1)
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew):
        await PostgresStorage.open(postgres_url)


async def test_an_unreachable_database_is_a_storage_error(postgres_url: str) -> None:
    with pytest.raises(StorageError) as info:
        await PostgresStorage.open(postgres_url.replace("/test_", "/no_such_db_"))
    assert isinstance(info.value.__cause__, asyncpg.InvalidCatalogNameError)


async def test_open_storage_chooses_postgres_by_url(postgres_url: str) -> None:
    for url in (postgres_url, postgres_url.replace("postgresql://", "postgres://", 1)):
        s: StoragePort = await open_storage(url)
        try:
            assert isinstance(s, PostgresStorage)
            game = await s.create_game(CHAT, {"n": 1})
            assert await s.active_game(CHAT) == game
            await s.commit(game.id, 0, state=None, meta={}, status="killed")
        finally:
            await s.close()


def test_the_adapter_has_the_ports_signatures() -> None:
    members = [
        name for name, value in inspect.getmembers(StoragePort)
        if inspect.iscoroutinefunction(value) and not name.startswith("__")
    ]  # fmt: skip
    assert len(members) >= 18
    for name in members:
        port, adapter = getattr(StoragePort, name), getattr(PostgresStorage, name)
        assert inspect.signature(adapter) == inspect.signature(port), name


async def test_a_move_costs_two_round_trips_the_load_and_the_commit(postgres_url: str) -> None:
    """Issue 31, item 2: the load of a game and the commit of a move (the row, its log and its
    outbox entry) are one statement each, and handing a connection back to the pool sends
    nothing. Counted on the pool's one connection once it has prepared its statements."""
    storage = await PostgresStorage.open(postgres_url, min_size=1, max_size=1)
    sent: list[str] = []
    try:

        async def log(conn: asyncpg.Connection) -> None:  # the pool's only connection
            conn.add_query_logger(lambda query: sent.append(query.query))

        await storage._pool.run(log)
        game = await storage.create_game(CHAT, {})
        for version in range(3):
            sent.clear()
            rec = await storage.active_game(CHAT)
            assert rec is not None and rec.version == version
            await storage.commit(
                game.id, version, state={"v": version}, meta={}, status="running",
                log=[LogEntry("1", "draw"), LogEntry("ai:1", "pass")], deadline=5.0,
                outbox=[{"n": version}], claim=1.0,
            )  # fmt: skip
        assert len(sent) == 2, sent
        assert [(e.version, e.actor) for e in await storage.log(game.id)][-2:] == [
            (3, "1"), (3, "ai:1"),
        ]  # fmt: skip
    finally:
        await storage.close()
