"""Tests for bot.storage: round trips, the optimistic version check (across coroutines, instances
and processes), migrations, SQLite configuration, and the per-chat invariants."""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot import storage as storage_mod
from bot.storage import (
    MIGRATIONS,
    SCHEMA_VERSION,
    STATUSES,
    GameExists,
    GameNotFound,
    GameRecord,
    LogEntry,
    MatchRecord,
    PlayerResult,
    SchemaTooNew,
    StatRow,
    Storage,
    StorageError,
    VersionConflict,
)
from core.rules import Scoring

CHAT = "tg:-100123"
OTHER = "dc:9876"


class FakeClock:
    """Deterministic, strictly increasing time so timestamps can be asserted exactly."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    s = await Storage.open(db_path, clock=clock)
    yield s
    await s.close()


async def _running(s: Storage, chat: str = CHAT) -> GameRecord:
    """A game that has had one commit (lobby -> running), i.e. is at version 1."""
    g = await s.create_game(chat, {"host": "u1"})
    return await s.commit(
        g.id,
        0,
        state={"turn": 0},
        meta={"host": "u1"},
        status="running",
        log=[LogEntry("u1", "start")],
    )


def _raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None, timeout=5.0)


# --------------------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------------------


async def test_open_creates_parent_directories(db_path: Path, store: Storage) -> None:
    assert db_path.is_file()


async def test_memory_database_works() -> None:
    s = await Storage.open(":memory:")
    try:
        g = await s.create_game(CHAT, {})
        assert (await s.get_game(g.id)) == g
    finally:
        await s.close()
    await s.close()  # idempotent


async def test_settings_round_trip(store: Storage) -> None:
    assert await store.get_settings(CHAT) is None
    await store.put_settings(CHAT, {"lang": "uk", "rules": {"stack": True, "seven_o": False}})
    assert await store.get_settings(CHAT) == {
        "lang": "uk",
        "rules": {"stack": True, "seven_o": False},
    }
    await store.put_settings(CHAT, {"lang": "ru"})  # replaced wholesale, not merged
    assert await store.get_settings(CHAT) == {"lang": "ru"}
    assert await store.get_settings(OTHER) is None


async def test_json_is_compact_and_keeps_unicode(store: Storage, db_path: Path) -> None:
    await store.put_settings(CHAT, {"name": "Гра", "n": [1, 2]})
    with _raw(db_path) as raw:
        (text,) = raw.execute("SELECT data FROM settings").fetchone()
    assert text == '{"name":"Гра","n":[1,2]}'


async def test_create_game(store: Storage, clock: FakeClock) -> None:
    g = await store.create_game(CHAT, {"host": "u1"})
    assert g == GameRecord(
        id=g.id,
        chat_key=CHAT,
        status="lobby",
        version=0,
        state=None,
        meta={"host": "u1"},
        deadline=None,
        created_at=clock.now,
        updated_at=clock.now,
    )
    assert await store.get_game(g.id) == g
    assert await store.active_game(CHAT) == g
    assert await store.active_game(OTHER) is None
    assert await store.get_game(g.id + 1000) is None


async def test_commit_round_trip(store: Storage, clock: FakeClock) -> None:
    g = await store.create_game(CHAT, {"host": "u1"})
    state: dict[str, Any] = {"hands": {"u1": ["r5", "wd4"]}, "dir": -1, "top": None}
    r1 = await store.commit(
        g.id,
        0,
        state=state,
        meta={"host": "u1", "players": ["u1", "u2"]},
        status="running",
        log=[LogEntry("u1", "start"), LogEntry("u2", "play r5", at=5.5)],
        deadline=1234.5,
    )
    t1 = clock.now
    assert r1 == GameRecord(
        id=g.id,
        chat_key=CHAT,
        status="running",
        version=1,
        state=state,
        meta={"host": "u1", "players": ["u1", "u2"]},
        deadline=1234.5,
        created_at=g.created_at,
        updated_at=t1,
    )
    assert await store.get_game(g.id) == r1

    r2 = await store.commit(
        g.id, 1, state={"done": True}, meta={}, status="finished", log=[LogEntry("u2", "win")]
    )
    assert r2.version == 2 and r2.deadline is None and r2.status == "finished"
    assert await store.get_game(g.id) == r2
    assert await store.log(g.id) == [
        LogEntry("u1", "start", 1, t1),
        LogEntry("u2", "play r5", 1, 5.5),  # an explicit timestamp is kept
        LogEntry("u2", "win", 2, clock.now),
    ]
    assert await store.active_game(CHAT) is None


async def test_commit_without_log_entries(store: Storage) -> None:
    g = await _running(store)
    r = await store.commit(g.id, 1, state=None, meta={}, status="running", deadline=9.0)
    assert (r.version, r.state, r.deadline) == (2, None, 9.0)
    assert [e.version for e in await store.log(g.id)] == [1]


async def test_everything_survives_reopen(db_path: Path) -> None:
    s = await Storage.open(db_path)
    g = await _running(s)
    await s.put_settings(CHAT, {"lang": "ru"})
    await s.put_ref(g.id, "table_msg", "42")
    await s.record_match(CHAT, g.id, [PlayerResult("u1", "Ann", True, 30)])
    before = (await s.get_game(g.id), await s.log(g.id))
    await s.close()

    s = await Storage.open(db_path)
    try:
        assert (await s.get_game(g.id), await s.log(g.id)) == before
        assert await s.get_settings(CHAT) == {"lang": "ru"}
        assert await s.refs(g.id) == {"table_msg": "42"}
        assert await s.player_stats(CHAT, "u1") == StatRow("u1", "Ann", 1, 1, 30)
        assert await s.active_games() == [before[0]]
    finally:
        await s.close()


async def test_active_games_lists_only_running_games_oldest_first(store: Storage) -> None:
    a = await _running(store, "tg:1")
    await store.create_game("tg:2", {})  # lobby: excluded
    b = await _running(store, "tg:3")
    c = await _running(store, "tg:4")
    await store.commit(c.id, 1, state=None, meta={}, status="finished")
    assert await store.active_games() == [a, b]


async def test_open_games_lists_lobbies_and_running_games_with_their_deadlines(
    store: Storage, clock: FakeClock
) -> None:
    a = await _running(store, "tg:1")
    due = clock() + 60
    lobby = await store.create_game("tg:2", {}, deadline=due)
    assert lobby.deadline == due
    done = await _running(store, "tg:3")
    await store.commit(done.id, 1, state=None, meta={}, status="finished")
    assert await store.open_games() == [a, lobby]
    assert [g.deadline for g in await store.open_games()] == [None, due]


# --------------------------------------------------------------------------------------------
# Optimistic concurrency
# --------------------------------------------------------------------------------------------


async def test_version_conflict_changes_nothing(store: Storage) -> None:
    g = await _running(store)
    row_before, log_before = await store.get_game(g.id), await store.log(g.id)
    for stale in (0, 2, 7):
        with pytest.raises(VersionConflict) as info:
            await store.commit(
                g.id,
                stale,
                state={"evil": True},
                meta={"evil": True},
                status="finished",
                log=[LogEntry("u2", "double move")],
                deadline=1.0,
            )
        assert (info.value.game_id, info.value.expected, info.value.actual) == (g.id, stale, 1)
        assert await store.get_game(g.id) == row_before
        assert await store.log(g.id) == log_before
    # ...and the storage is still usable (lock released, no transaction left open)
    assert (await store.commit(g.id, 1, state={}, meta={}, status="running")).version == 2


async def test_failure_after_the_update_rolls_back_and_is_never_visible(store: Storage) -> None:
    """The UPDATE succeeds, then appending the log fails: the whole commit must vanish, and
    concurrent readers on the same Storage must never observe the half-done transaction."""
    g = await _running(store)
    before, log_before = await store.get_game(g.id), await store.log(g.id)
    bad = asyncio.create_task(
        store.commit(
            g.id, 1, state={"x": 1}, meta={}, status="running",
            log=[LogEntry("u1", "ok"), LogEntry("u1", "\ud800")],  # unencodable: fails late
        )
    )  # fmt: skip

    seen: list[GameRecord | None] = []

    async def poll() -> None:  # keep reading for as long as the commit is in flight
        while not bad.done():
            seen.append(await store.get_game(g.id))

    await asyncio.gather(poll(), poll(), poll())
    with pytest.raises(UnicodeEncodeError):
        await bad
    assert all(r == before for r in seen), "a reader saw an uncommitted write"
    assert await store.get_game(g.id) == before
    assert await store.log(g.id) == log_before


async def test_commit_unknown_game(store: Storage) -> None:
    with pytest.raises(GameNotFound):
        await store.commit(999, 0, state=None, meta={}, status="running")


async def test_invalid_commits_are_rejected_without_side_effects(store: Storage) -> None:
    g = await _running(store)
    before = await store.get_game(g.id)
    with pytest.raises(ValueError):
        await store.commit(g.id, 1, state={}, meta={}, status="paused")
    with pytest.raises(ValueError):  # NaN is not JSON
        await store.commit(g.id, 1, state={"x": float("nan")}, meta={}, status="running")
    with pytest.raises(TypeError):
        await store.commit(g.id, 1, state={"x": {1, 2}}, meta={}, status="running")
    assert await store.get_game(g.id) == before
    assert (await store.commit(g.id, 1, state={}, meta={}, status="running")).version == 2


async def test_concurrent_commits_on_one_instance(store: Storage) -> None:
    g = await _running(store)
    results = await asyncio.gather(
        *(
            store.commit(
                g.id, 1, state={"by": i}, meta={}, status="running", log=[LogEntry(str(i), "m")]
            )
            for i in range(10)
        ),
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, GameRecord)]
    assert len(winners) == 1
    assert all(isinstance(r, VersionConflict) for r in results if r not in winners)
    assert await store.get_game(g.id) == winners[0]
    assert [(e.actor, e.version) for e in await store.log(g.id)][1:] == [
        (str(winners[0].state["by"]), 2)  # type: ignore[index]
    ]


async def test_two_instances_racing_on_one_file(db_path: Path) -> None:
    a = await Storage.open(db_path)
    b = await Storage.open(db_path)
    try:
        g = await a.create_game(CHAT, {})
        winners: list[str] = []
        for version in range(20):
            ra, rb = await asyncio.gather(
                a.commit(g.id, version, state={"by": "a"}, meta={}, status="running",
                         log=[LogEntry("a", f"m{version}")]),
                b.commit(g.id, version, state={"by": "b"}, meta={}, status="running",
                         log=[LogEntry("b", f"m{version}")]),
                return_exceptions=True,
            )  # fmt: skip
            outcomes = sorted(type(r).__name__ for r in (ra, rb))
            assert outcomes == ["GameRecord", "VersionConflict"], (ra, rb)
            winner = ra if isinstance(ra, GameRecord) else rb
            assert isinstance(winner, GameRecord)
            assert await a.get_game(g.id) == await b.get_game(g.id) == winner
            winners.append(winner.state["by"])  # type: ignore[index]
        log = await b.log(g.id)
        assert [(e.version, e.actor) for e in log] == list(zip(range(1, 21), winners, strict=True))
    finally:
        await a.close()
        await b.close()


def _process_worker(
    path: str, game_id: int, rounds: int, name: str, barrier: Any, out: Any
) -> None:
    """Child process: each round, read the game in lockstep with the rival, then both commit.

    Reports ``(name, wins)`` or ``(name, "error: ...")``; on error it breaks the barrier so the
    rival fails fast instead of waiting out the timeout.
    """

    async def run() -> int:
        s = await Storage.open(path)
        wins = 0
        try:
            for i in range(rounds):
                barrier.wait(timeout=10)
                g = await s.get_game(game_id)
                assert g is not None
                barrier.wait(timeout=10)  # both processes now hold the same version
                try:
                    await s.commit(
                        game_id,
                        g.version,
                        state={"by": name, "round": i},
                        meta={},
                        status="running",
                        log=[LogEntry(name, f"round {i}")],
                    )
                    wins += 1
                except VersionConflict:
                    pass
        finally:
            await s.close()
        return wins

    try:
        out.put((name, asyncio.run(run())))
    except BaseException as exc:
        barrier.abort()
        out.put((name, f"error: {exc!r}"))


async def test_two_processes_cannot_both_apply_a_move(db_path: Path) -> None:
    rounds = 25
    s = await Storage.open(db_path)
    try:
        g = await s.create_game(CHAT, {})
        ctx = multiprocessing.get_context("spawn")
        barrier, out = ctx.Barrier(2), ctx.Queue()
        procs = [
            ctx.Process(target=_process_worker, args=(str(db_path), g.id, rounds, n, barrier, out))
            for n in ("p1", "p2")
        ]
        for p in procs:
            p.start()
        loop = asyncio.get_running_loop()
        try:
            wins = dict([await loop.run_in_executor(None, out.get, True, 60) for _ in procs])
        finally:
            for p in procs:
                await loop.run_in_executor(None, p.join, 10)
                if p.is_alive():
                    p.kill()
        errors = {n: w for n, w in wins.items() if isinstance(w, str)}
        assert not errors, errors
        final = await s.get_game(g.id)
        log = await s.log(g.id)
    finally:
        await s.close()
    assert final is not None
    versions = [e.version for e in log]
    assert len(versions) == len(set(versions)), "a version was applied twice"
    assert final.version == sum(wins.values()) == len(log)
    # lockstep reads mean every round had exactly one winner
    assert final.version == rounds
    assert versions == list(range(1, rounds + 1))


async def test_writer_waits_for_another_process_instead_of_failing(
    store: Storage, db_path: Path
) -> None:
    g = await _running(store)
    raw = _raw(db_path)
    try:
        raw.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        task = asyncio.create_task(store.commit(g.id, 1, state={}, meta={}, status="running"))
        await asyncio.sleep(0.3)
        assert not task.done(), "commit should wait for the lock, not fail or skip it"
        raw.execute("ROLLBACK")
        assert (await asyncio.wait_for(task, 5)).version == 2
    finally:
        raw.close()


async def test_busy_timeout_expiry_raises_and_leaves_storage_usable(db_path: Path) -> None:
    s = await Storage.open(db_path, busy_timeout=0.1)
    raw = _raw(db_path)
    try:
        g = await _running(s)
        raw.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageError, match="locked") as info:
            await s.commit(g.id, 1, state={}, meta={}, status="running")
        assert isinstance(info.value.__cause__, sqlite3.OperationalError)
        raw.execute("ROLLBACK")
        assert (await s.commit(g.id, 1, state={}, meta={}, status="running")).version == 2
    finally:
        raw.close()
        await s.close()


@pytest.mark.parametrize("yields", range(8))
async def test_cancelled_commit_is_all_or_nothing(store: Storage, yields: int) -> None:
    g = await _running(store)
    task = asyncio.create_task(
        store.commit(
            g.id, 1, state={"x": 1}, meta={}, status="running",
            log=[LogEntry("u1", "a"), LogEntry("u1", "b")],
        )
    )  # fmt: skip
    for _ in range(yields):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    now = await store.get_game(g.id)
    assert now is not None
    log = await store.log(g.id)
    if now.version == 1:
        assert now == g and len(log) == 1
    else:
        assert now.version == 2 and [e.action for e in log] == ["start", "a", "b"]
    # the lock and the connection are free again
    after = await store.commit(g.id, now.version, state={}, meta={}, status="running")
    assert after.version == now.version + 1


# --------------------------------------------------------------------------------------------
# SQLite configuration
# --------------------------------------------------------------------------------------------


async def test_wal_durability_and_busy_timeout_are_configured(
    store: Storage, db_path: Path
) -> None:
    with _raw(db_path) as raw:  # journal_mode=WAL is persistent, visible to any connection
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn = store._db  # per-connection settings can only be read on the storage's own connection

    async def pragma(name: str) -> Any:
        (row,) = await conn.execute_fetchall(f"PRAGMA {name}")
        return row[0]

    assert await pragma("journal_mode") == "wal"
    assert await pragma("synchronous") == 2  # FULL
    assert await pragma("busy_timeout") == 10_000
    assert await pragma("foreign_keys") == 1


async def test_active_game_lookup_uses_the_one_game_per_chat_index(
    store: Storage, db_path: Path
) -> None:
    """Not a scan over every running game: the service looks the active game up on every move."""
    with _raw(db_path) as raw:
        plan = raw.execute(f"EXPLAIN QUERY PLAN {storage_mod._ACTIVE_GAME_SQL}", (CHAT,)).fetchall()
    assert [row[3] for row in plan] == [
        "SEARCH games USING INDEX games_one_active_per_chat (chat_key=?)"
    ]


async def test_last_game_is_the_chats_newest_of_any_status(store: Storage, db_path: Path) -> None:
    assert await store.last_game(CHAT) is None
    first = await store.create_game(CHAT, {"n": 1})
    await store.commit(first.id, 0, state={}, meta={"n": 1}, status="finished")
    other = await store.create_game("tg:-999", {"n": 2})  # another chat's newer game
    second = await store.create_game(CHAT, {"n": 3})
    last = await store.last_game(CHAT)
    assert last is not None and (last.id, last.status) == (second.id, "lobby")
    await store.commit(second.id, 0, state=None, meta={"n": 3}, status="killed")
    assert (await store.last_game(CHAT)).status == "killed"  # type: ignore[union-attr]
    assert (await store.last_game("tg:-999")).id == other.id  # type: ignore[union-attr]
    # Found through the chat's index, not by walking every game back to the chat's last one.
    with _raw(db_path) as raw:
        plan = raw.execute(f"EXPLAIN QUERY PLAN {storage_mod._LAST_GAME_SQL}", (CHAT,)).fetchall()
    assert [row[3] for row in plan] == ["SEARCH games USING INDEX games_by_chat (chat_key=?)"]


# --------------------------------------------------------------------------------------------
# Migrations
# --------------------------------------------------------------------------------------------


def _schema(path: Path) -> list[tuple[str, str]]:
    with _raw(path) as raw:
        return sorted(raw.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))


def _user_version(path: Path) -> int:
    with _raw(path) as raw:
        return int(raw.execute("PRAGMA user_version").fetchone()[0])


def _make_v1(path: Path) -> None:
    """A database as the first release left it: migration 1 only, with some data in it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = _raw(path)
    try:
        raw.execute("PRAGMA journal_mode = WAL")
        raw.execute("BEGIN")
        for stmt in MIGRATIONS[0]:
            raw.execute(stmt)
        raw.execute("PRAGMA user_version = 1")
        raw.execute("INSERT INTO settings VALUES (?, ?, ?)", (CHAT, '{"lang":"uk"}', 1.0))
        raw.execute(
            "INSERT INTO games (id, chat_key, status, version, state, meta, deadline,"
            " created_at, updated_at) VALUES (7, ?, 'running', 3, ?, '{}', 50.0, 1.0, 2.0)",
            (CHAT, '{"turn":2}'),
        )
        raw.executemany(
            "INSERT INTO game_log VALUES (7, ?, 0, 'u1', ?, ?)",
            [(v, f"move {v}", float(v)) for v in (1, 2, 3)],
        )
        raw.execute("COMMIT")
    finally:
        raw.close()


async def test_fresh_database_is_at_latest_version(store: Storage, db_path: Path) -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 2
    assert _user_version(db_path) == SCHEMA_VERSION


async def test_reopening_an_up_to_date_database_is_a_no_op(db_path: Path) -> None:
    await (await Storage.open(db_path)).close()
    schema = _schema(db_path)
    raw = _raw(db_path)
    try:
        # If open() tried to migrate again it would need the write lock and time out here.
        raw.execute("BEGIN IMMEDIATE")
        s = await Storage.open(db_path, busy_timeout=0.1)
        await s.close()
    finally:
        raw.execute("ROLLBACK")
        raw.close()
    assert _schema(db_path) == schema
    assert _user_version(db_path) == SCHEMA_VERSION


async def test_migration_from_v1_keeps_data_and_enables_new_features(db_path: Path) -> None:
    _make_v1(db_path)
    assert _user_version(db_path) == 1
    s = await Storage.open(db_path)
    try:
        assert _user_version(db_path) == SCHEMA_VERSION
        g = await s.get_game(7)
        assert g == GameRecord(7, CHAT, "running", 3, {"turn": 2}, {}, 50.0, 1.0, 2.0)
        assert await s.active_games() == [g]
        assert await s.get_settings(CHAT) == {"lang": "uk"}
        assert [(e.version, e.action) for e in await s.log(7)] == [
            (1, "move 1"),
            (2, "move 2"),
            (3, "move 3"),
        ]
        # tables added after v1 work, and the v1 invariants still hold
        await s.put_ref(7, "table", "100")
        assert await s.refs(7) == {"table": "100"}
        await s.record_match(CHAT, 7, [PlayerResult("u1", "Ann", True, 10)])
        assert await s.leaderboard(CHAT) == [StatRow("u1", "Ann", 1, 1, 10)]
        with pytest.raises(GameExists):
            await s.create_game(CHAT, {})
        assert (await s.commit(7, 3, state={}, meta={}, status="finished")).version == 4
    finally:
        await s.close()
    # and the result is the same schema a fresh database gets
    fresh = db_path.with_name("fresh.sqlite3")
    await (await Storage.open(fresh)).close()
    assert _schema(db_path) == _schema(fresh)


async def test_failed_migration_rolls_back_completely(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _make_v1(db_path)
    schema = _schema(db_path)
    broken = (*MIGRATIONS[1], "CREATE TABLE oops (")  # fails after the good statements ran
    monkeypatch.setattr(storage_mod, "MIGRATIONS", (MIGRATIONS[0], broken))
    with pytest.raises(sqlite3.OperationalError):
        await Storage.open(db_path)
    assert _user_version(db_path) == 1
    assert _schema(db_path) == schema  # no half-created tables from migration 2


async def test_database_from_newer_code_is_refused(db_path: Path) -> None:
    await (await Storage.open(db_path)).close()
    with _raw(db_path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew):
        await Storage.open(db_path)
    assert _user_version(db_path) == SCHEMA_VERSION + 1


# --------------------------------------------------------------------------------------------
# One open game per chat
# --------------------------------------------------------------------------------------------


async def test_only_one_lobby_or_running_game_per_chat(store: Storage) -> None:
    g = await store.create_game(CHAT, {})
    with pytest.raises(GameExists) as info:
        await store.create_game(CHAT, {})
    assert info.value.chat_key == CHAT
    await store.commit(g.id, 0, state={}, meta={}, status="running")
    with pytest.raises(GameExists):
        await store.create_game(CHAT, {})
    other = await store.create_game(OTHER, {})  # other chats are independent
    assert (await store.active_game(CHAT), await store.active_game(OTHER)) == (
        await store.get_game(g.id),
        other,
    )


@pytest.mark.parametrize("end", ["finished", "killed"])
async def test_ended_games_do_not_block_a_new_one(store: Storage, end: str) -> None:
    g = await _running(store)
    await store.commit(g.id, 1, state={}, meta={}, status=end)
    new = await store.create_game(CHAT, {"n": 2})
    assert new.id != g.id
    assert await store.active_game(CHAT) == new
    # reviving the old game would make two open games: refused, nothing changed
    old = await store.get_game(g.id)
    with pytest.raises(GameExists):
        await store.commit(g.id, 2, state={}, meta={}, status="running")
    assert await store.get_game(g.id) == old


async def test_racing_create_game_from_two_instances(db_path: Path) -> None:
    a, b = await Storage.open(db_path), await Storage.open(db_path)
    try:
        results = await asyncio.gather(
            a.create_game(CHAT, {"by": "a"}), b.create_game(CHAT, {"by": "b"}),
            return_exceptions=True,
        )  # fmt: skip
        assert sorted(type(r).__name__ for r in results) == ["GameExists", "GameRecord"]
    finally:
        await a.close()
        await b.close()


# --------------------------------------------------------------------------------------------
# Refs
# --------------------------------------------------------------------------------------------


async def test_refs(store: Storage) -> None:
    g1 = await store.create_game(CHAT, {})
    g2 = await store.create_game(OTHER, {})
    assert await store.get_ref(g1.id, "table") is None
    assert await store.refs(g1.id) == {}
    await store.put_ref(g1.id, "table", "111")
    await store.put_ref(g1.id, "hand:u1", "222")
    await store.put_ref(g2.id, "table", "999")
    await store.put_ref(g1.id, "table", "333")  # overwrite
    assert await store.get_ref(g1.id, "table") == "333"
    assert await store.refs(g1.id) == {"table": "333", "hand:u1": "222"}
    assert await store.refs(g2.id) == {"table": "999"}


async def test_ref_for_unknown_game_is_rejected(store: Storage) -> None:
    with pytest.raises(GameNotFound):
        await store.put_ref(12345, "table", "1")
    assert await store.refs(12345) == {}


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------


async def _finished(s: Storage, chat: str = CHAT) -> int:
    g = await _running(s, chat)
    await s.commit(g.id, 1, state={}, meta={}, status="finished")
    return g.id


async def test_record_match_is_idempotent(store: Storage) -> None:
    gid = await _finished(store)
    results = [PlayerResult("u1", "Ann", True, 50), PlayerResult("u2", "Bob", False, 0)]
    await store.record_match(CHAT, gid, results)
    await store.record_match(CHAT, gid, results)
    await store.record_match(CHAT, gid, [PlayerResult("u1", "Ann", True, 999)])
    assert await store.player_stats(CHAT, "u1") == StatRow("u1", "Ann", 1, 1, 50)
    assert await store.player_stats(CHAT, "u2") == StatRow("u2", "Bob", 1, 0, 0)

    gid2 = await _finished(store)
    await store.record_match(CHAT, gid2, [PlayerResult("u1", "Anna", False, 7)])
    assert await store.player_stats(CHAT, "u1") == StatRow("u1", "Anna", 2, 1, 57)
    assert await store.player_stats(CHAT, "nobody") is None
    assert await store.player_stats(OTHER, "u1") is None  # stats are per chat


async def test_record_match_rejects_duplicate_players(store: Storage) -> None:
    gid = await _finished(store)
    with pytest.raises(ValueError):
        await store.record_match(
            CHAT, gid, [PlayerResult("u1", "A", True, 1), PlayerResult("u1", "A", False, 0)]
        )
    assert await store.player_stats(CHAT, "u1") is None


async def test_leaderboard_order_and_limit(store: Storage) -> None:
    async def match(*results: tuple[str, str, bool, int], chat: str = CHAT) -> None:
        gid = await _finished(store, chat)
        await store.record_match(chat, gid, [PlayerResult(*r) for r in results])

    # final totals (games, wins, points):
    #   w: 2 games, 2 wins, 10   -> first: most wins despite fewest points
    #   p: 2 games, 1 win, 100   -> ties on wins with q, r, s; most points
    #   q: 1 game, 1 win, 40     -> ties with r and s on wins+points; fewest games, name "Q"
    #   s: 1 game, 1 win, 40     -> same as q, name "S" sorts after "Q"
    #   r: 2 games, 1 win, 40    -> more games than q and s
    #   z: 1 game, 0 wins, 0
    await match(("w", "W", True, 5), ("p", "P", False, 0))
    await match(("w", "W", True, 5), ("z", "Z", False, 0))
    await match(("p", "P", True, 100), ("r", "R", False, 0))
    await match(("r", "R", True, 40))
    await match(("s", "S", True, 40))
    await match(("q", "Q", True, 40))
    await match(("x", "X", True, 1000), chat=OTHER)  # another chat's champion is not ours

    board = await store.leaderboard(CHAT)
    assert [r.user_id for r in board] == ["w", "p", "q", "s", "r", "z"]
    assert board[0] == StatRow("w", "W", 2, 2, 10)
    assert [r.user_id for r in await store.leaderboard(CHAT, limit=3)] == ["w", "p", "q"]
    assert await store.leaderboard("tg:empty") == []


# --------------------------------------------------------------------------------------------
# Backend failures: StorageError, and nothing stored
# --------------------------------------------------------------------------------------------


async def _on_writer(s: Storage, sql: str) -> None:
    """Run one statement on the storage's own write connection (a per-connection fault)."""
    await s._on_connection(lambda conn: conn.execute(sql))


async def _snapshot(s: Storage, game_id: int) -> tuple[Any, ...]:
    return (
        await s.get_game(game_id),
        await s.log(game_id),
        await s.refs(game_id),
        await s.get_settings(CHAT),
        await s.leaderboard(CHAT),
    )


async def _every_write_fails(
    s: Storage, g: GameRecord, *, pad: str = "", in_place: bool = True
) -> list[BaseException]:
    """Try each kind of write on ``g`` (at version 1); return what each raised.

    ``pad`` makes every written value that long, so each write needs new pages; ``in_place``
    adds the writes that only rewrite a row (which a full disk does not stop).
    """
    who = [PlayerResult("u1", "Ann" + pad, True, 5)]
    attempts: list[Callable[[], Awaitable[Any]]] = [
        lambda: s.commit(g.id, 1, state={"x": pad}, meta={}, status="running",
                         log=[LogEntry("u1", "m" + pad)]),
        lambda: s.commit(g.id, 1, state={"x": pad}, meta={}, status="finished",
                         match=MatchRecord(who, Scoring.WINNER)),
        lambda: s.put_settings(CHAT, {"lang": "uk" + pad}),
        lambda: s.put_ref(g.id, "table", "9" + pad),
        lambda: s.record_match(CHAT, g.id, who),
        lambda: s.create_game(OTHER, {"m": pad}),
    ]  # fmt: skip
    if in_place:
        attempts.append(lambda: s.mark_broken(g.id))
    errors = []
    for attempt in attempts:
        with pytest.raises(StorageError) as info:
            await attempt()
        assert isinstance(info.value.__cause__, sqlite3.Error)
        errors.append(info.value)
    return errors


async def test_a_full_database_raises_storage_error_and_keeps_the_data(store: Storage) -> None:
    g = await _running(store)
    await store.put_settings(CHAT, {"lang": "ru"})
    before = await _snapshot(store, g.id)
    await _on_writer(store, "PRAGMA max_page_count = 1")  # clamps to the current page count
    errors = await _every_write_fails(store, g, pad="x" * 20_000, in_place=False)
    assert any("full" in str(e) for e in errors), errors
    assert await _snapshot(store, g.id) == before
    assert await store.active_game(OTHER) is None
    await _on_writer(store, "PRAGMA max_page_count = 1073741823")
    assert (await store.commit(g.id, 1, state={}, meta={}, status="running")).version == 2


async def test_a_read_only_database_raises_storage_error_and_keeps_the_data(
    store: Storage,
) -> None:
    g = await _running(store)
    await store.put_settings(CHAT, {"lang": "ru"})
    before = await _snapshot(store, g.id)
    await _on_writer(store, "PRAGMA query_only = 1")
    errors = await _every_write_fails(store, g)
    assert all("readonly" in str(e) or "read-only" in str(e) for e in errors), errors
    assert await _snapshot(store, g.id) == before  # reads still work
    await _on_writer(store, "PRAGMA query_only = 0")
    assert (await store.commit(g.id, 1, state={}, meta={}, status="running")).version == 2


async def test_a_database_locked_past_the_busy_timeout_raises_storage_error(
    db_path: Path,
) -> None:
    s = await Storage.open(db_path, busy_timeout=0.05)
    raw = _raw(db_path)
    try:
        g = await _running(s)
        await s.put_settings(CHAT, {"lang": "ru"})
        before = await _snapshot(s, g.id)
        raw.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
        errors = await _every_write_fails(s, g)
        assert all("locked" in str(e) for e in errors), errors
        raw.execute("ROLLBACK")
        assert await _snapshot(s, g.id) == before
    finally:
        raw.close()
        await s.close()


async def test_a_closed_storage_raises_storage_error_on_every_call(db_path: Path) -> None:
    s = await Storage.open(db_path)
    g = await _running(s)
    await s.close()
    calls = [
        s.get_game(g.id), s.active_game(CHAT), s.last_game(CHAT), s.open_games(),
        s.active_games(), s.unrecorded_finished_games(), s.log(g.id), s.refs(g.id),
        s.get_ref(g.id, "t"), s.get_settings(CHAT), s.leaderboard(CHAT),
        s.player_stats(CHAT, "u1"), s.put_settings(CHAT, {}), s.mark_broken(g.id),
        s.commit(g.id, 1, state={}, meta={}, status="running"),
    ]  # fmt: skip
    for call in calls:
        with pytest.raises(StorageError, match="closed"):
            await call


def test_storage_error_is_not_one_of_the_storage_answers() -> None:
    """Callers tell a fault (retry later) from an answer (reload, refuse): no shared base."""
    for answer in (VersionConflict, GameExists, GameNotFound):
        assert not issubclass(answer, StorageError)
        assert not issubclass(StorageError, answer)
    assert not issubclass(StorageError, (ValueError, sqlite3.Error))


# --------------------------------------------------------------------------------------------
# A match recorded with its last move
# --------------------------------------------------------------------------------------------


async def test_commit_with_a_match_records_it_in_the_same_transaction(store: Storage) -> None:
    g = await _running(store)
    match = MatchRecord((PlayerResult("u1", "Ann", True, 40), PlayerResult("u2", "Bob", False, 0)))
    done = await store.commit(
        g.id, 1, state={"over": True}, meta={}, status="finished", match=match
    )
    assert done.status == "finished"
    assert await store.leaderboard(CHAT) == [
        StatRow("u1", "Ann", 1, 1, 40),
        StatRow("u2", "Bob", 1, 0, 0),
    ]
    assert await store.unrecorded_finished_games() == []
    # idempotent per game: a later record_match (recovery) or commit adds nothing
    await store.record_match(CHAT, g.id, list(match.results))
    await store.commit(g.id, 2, state={}, meta={}, status="finished", match=match)
    assert (await store.player_stats(CHAT, "u1")) == StatRow("u1", "Ann", 1, 1, 40)


async def test_a_tally_match_goes_to_the_tally_columns(store: Storage) -> None:
    g = await _running(store)
    match = MatchRecord([PlayerResult("u1", "Ann", True, 12)], Scoring.TALLY)
    await store.commit(g.id, 1, state={}, meta={}, status="finished", match=match)
    assert await store.player_stats(CHAT, "u1") == StatRow("u1", "Ann", 1, 1, 0, 1, 12)


async def test_a_refused_commit_records_no_match(store: Storage) -> None:
    g = await _running(store)
    match = MatchRecord([PlayerResult("u1", "Ann", True, 40)])
    with pytest.raises(VersionConflict):
        await store.commit(g.id, 0, state={}, meta={}, status="finished", match=match)
    with pytest.raises(ValueError):  # duplicate players: refused before any transaction
        await store.commit(
            g.id, 1, state={}, meta={}, status="finished",
            match=MatchRecord([PlayerResult("u1", "A", True, 1), PlayerResult("u1", "A", True, 1)]),
        )  # fmt: skip
    assert await store.player_stats(CHAT, "u1") is None
    assert (await store.get_game(g.id)).version == 1  # type: ignore[union-attr]


async def test_a_failing_match_write_keeps_the_move_out_too(store: Storage, db_path: Path) -> None:
    """State and statistics are one transaction: if the statistics cannot be written, the last
    move is not stored either (and the caller may retry both)."""
    g = await _running(store)
    before = await _snapshot(store, g.id)
    with _raw(db_path) as raw:
        raw.execute(
            "CREATE TRIGGER no_stats BEFORE INSERT ON player_stats"
            " BEGIN SELECT RAISE(ABORT, 'stats refused'); END"
        )
    match = MatchRecord([PlayerResult("u1", "Ann", True, 40)])
    with pytest.raises(StorageError, match="stats refused"):
        await store.commit(
            g.id, 1, state={}, meta={}, status="finished", log=[LogEntry("u1", "win")], match=match
        )
    assert await _snapshot(store, g.id) == before
    assert await store.unrecorded_finished_games() == []
    with _raw(db_path) as raw:
        raw.execute("DROP TRIGGER no_stats")
    done = await store.commit(g.id, 1, state={}, meta={}, status="finished", match=match)
    assert done.version == 2 and await store.player_stats(CHAT, "u1") is not None


async def test_unrecorded_finished_games_are_the_ones_to_recover(store: Storage) -> None:
    recorded = await _running(store, "tg:1")
    await store.commit(recorded.id, 1, state={}, meta={}, status="finished",
                       match=MatchRecord([PlayerResult("u1", "A", True, 1)]))  # fmt: skip
    lost = await _running(store, "tg:2")
    lost_done = await store.commit(lost.id, 1, state={"s": 1}, meta={"m": 1}, status="finished")
    late = await _running(store, "tg:3")
    await store.commit(late.id, 1, state={}, meta={}, status="finished")
    await store.record_match("tg:3", late.id, [PlayerResult("u1", "A", True, 1)])
    await _running(store, "tg:4")  # running
    killed = await _running(store, "tg:5")
    await store.commit(killed.id, 1, state={}, meta={}, status="killed")
    assert await store.unrecorded_finished_games() == [lost_done]
    await store.record_match("tg:2", lost.id, [])  # recovery recorded it (even with no humans)
    assert await store.unrecorded_finished_games() == []


# --------------------------------------------------------------------------------------------
# Broken games and corrupt rows
# --------------------------------------------------------------------------------------------


async def test_mark_broken_sets_the_game_aside(store: Storage, clock: FakeClock) -> None:
    g = await _running(store)
    await store.commit(g.id, 1, state={"s": 1}, meta={"m": 1}, status="running", deadline=99.0)
    await store.mark_broken(g.id)
    broken = await store.get_game(g.id)
    assert broken is not None
    assert (broken.status, broken.deadline, broken.state, broken.meta) == (
        "broken", None, {"s": 1}, {"m": 1},
    )  # fmt: skip
    assert broken.updated_at == clock.now
    assert "broken" in STATUSES
    assert await store.active_game(CHAT) is None
    assert await store.open_games() == await store.active_games() == []
    assert await store.unrecorded_finished_games() == []
    assert await store.last_game(CHAT) == broken
    new = await store.create_game(CHAT, {})  # the chat can play again
    assert await store.active_game(CHAT) == new
    with pytest.raises(VersionConflict):  # a move loaded before it was set aside is refused
        await store.commit(g.id, 2, state={}, meta={}, status="running")
    await store.mark_broken(g.id)  # again: harmless
    with pytest.raises(GameNotFound):
        await store.mark_broken(g.id + 1000)


async def test_a_lobby_can_be_marked_broken(store: Storage) -> None:
    lobby = await store.create_game(CHAT, {}, deadline=5.0)
    await store.mark_broken(lobby.id)
    assert await store.open_games() == []


_BAD_ROWS = [
    ("state", "'not json'"),
    ("state", "'[1, 2]'"),
    ("state", "'null'"),
    ("state", "X'FFFE00'"),  # not UTF-8 at all
    ("meta", "'{\"cut'"),
    ("meta", "'\"text\"'"),
    ("meta", "X'C3'"),
]


@pytest.mark.parametrize(("column", "value"), _BAD_ROWS)
async def test_a_corrupt_row_reads_as_corrupt_and_never_raises(
    store: Storage, db_path: Path, column: str, value: str
) -> None:
    good_before = await _running(store, "tg:1")
    bad = await _running(store, CHAT)
    lobby = await store.create_game("tg:3", {"ok": True})
    good_after = await _running(store, "tg:4")
    with _raw(db_path) as raw:
        raw.execute(f"UPDATE games SET {column} = {value} WHERE id = ?", (bad.id,))
    expected = GameRecord(
        bad.id, CHAT, "running", 1, None, {}, None, bad.created_at, bad.updated_at, corrupt=True
    )
    assert await store.get_game(bad.id) == expected
    assert await store.active_game(CHAT) == expected
    assert await store.last_game(CHAT) == expected
    # one bad row does not stop the start-up listing from returning every good one
    assert await store.open_games() == [good_before, expected, lobby, good_after]
    assert await store.active_games() == [good_before, expected, good_after]
    assert not any(g.corrupt for g in (good_before, lobby, good_after))
    await store.mark_broken(bad.id)
    assert await store.active_game(CHAT) is None
    assert (await store.get_game(bad.id)).corrupt  # type: ignore[union-attr]


async def test_a_corrupt_finished_game_is_still_listed_for_recovery(
    store: Storage, db_path: Path
) -> None:
    g = await _running(store)
    await store.commit(g.id, 1, state={}, meta={}, status="finished")
    with _raw(db_path) as raw:
        raw.execute("UPDATE games SET state = 'oops' WHERE id = ?", (g.id,))
    [rec] = await store.unrecorded_finished_games()
    assert rec.corrupt and rec.id == g.id


# --------------------------------------------------------------------------------------------
# Game ids from outside
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", [2**63, -(2**63) - 1, 2**64 + 5, 10**30, -(10**30),
                                     2**63 - 1, -(2**63), 0, -1])  # fmt: skip
async def test_any_int_game_id_is_no_such_game(store: Storage, game_id: int) -> None:
    g = await _running(store)  # a real game, which none of these ids names
    await store.put_ref(g.id, "table", "1")
    assert await store.get_game(game_id) is None
    assert await store.log(game_id) == []
    assert await store.get_ref(game_id, "table") is None
    assert await store.refs(game_id) == {}
    with pytest.raises(GameNotFound):
        await store.commit(game_id, 0, state={}, meta={}, status="running")
    with pytest.raises(GameNotFound):
        await store.put_ref(game_id, "table", "2")
    with pytest.raises(GameNotFound):
        await store.record_match(CHAT, game_id, [PlayerResult("u1", "A", True, 1)])
    with pytest.raises(GameNotFound):
        await store.mark_broken(game_id)
    assert await store.player_stats(CHAT, "u1") is None
    assert await store.refs(g.id) == {"table": "1"}


async def test_the_broken_status_migration_keeps_games_ids_and_links(db_path: Path) -> None:
    """Migration 5 rebuilds `games` (a CHECK cannot be altered): rows, their log, refs and
    matches stay attached, and ids handed out before are never handed out again."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    raw = _raw(db_path)
    try:
        raw.execute("BEGIN")
        for migration in MIGRATIONS[:4]:
            for stmt in migration:
                raw.execute(stmt)
        raw.execute("PRAGMA user_version = 4")
        for gid, status in ((3, "finished"), (5, "running"), (9, "lobby")):
            raw.execute(
                "INSERT INTO games (id, chat_key, status, version, state, meta, deadline,"
                " created_at, updated_at) VALUES (?, ?, ?, 1, '{}', '{}', 7.0, 1.0, 2.0)",
                (gid, f"tg:{gid}", status),
            )
        raw.execute("INSERT INTO game_log VALUES (5, 1, 0, 'u1', 'start', 1.0)")
        raw.execute("INSERT INTO game_refs VALUES (5, 'table', '77')")
        raw.execute("INSERT INTO matches VALUES (3, 'tg:3', '[]', 1.0, 'winner')")
        raw.execute("DELETE FROM games WHERE id = 9")  # the highest id ever used is now gone
        raw.execute("COMMIT")
    finally:
        raw.close()
    s = await Storage.open(db_path)
    try:
        assert [g.id for g in await s.open_games()] == [5]
        assert await s.refs(5) == {"table": "77"}
        assert [e.action for e in await s.log(5)] == ["start"]
        assert await s.unrecorded_finished_games() == []
        await s.mark_broken(5)
        assert (await s.get_game(5)).status == "broken"  # type: ignore[union-attr]
        assert (await s.create_game("tg:new", {})).id == 10
        with pytest.raises(GameNotFound):  # foreign keys are enforced again
            await s.put_ref(9, "table", "1")
    finally:
        await s.close()
    with _raw(db_path) as raw:
        assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
