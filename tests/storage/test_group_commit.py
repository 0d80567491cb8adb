"""Group commit in the SQLite adapter: concurrent writes share one transaction (one fsync),
each request still succeeds or fails alone, durably, across coroutines and processes."""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import (
    GameExists,
    GameNotFound,
    GameRecord,
    LogEntry,
    PlayerResult,
    StatRow,
    Storage,
    StorageError,
    VersionConflict,
    WriteStats,
)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Storage]:
    s = await Storage.open(db_path)
    yield s
    await s.close()


class Trace:
    """Every statement the storage's write connection runs, via sqlite3's trace callback.

    The callback runs on the connection thread in execution order, so this is the exact sequence
    SQLite saw -- independent of the storage's own counters. It runs as a statement starts, so a
    ``BEGIN IMMEDIATE`` is seen while it still waits for another connection's lock.
    """

    def __init__(self) -> None:
        self.statements: list[str] = []
        self._seen = threading.Condition()

    def __call__(self, sql: str) -> None:
        with self._seen:
            self.statements.append(" ".join(sql.split()))
            self._seen.notify_all()

    async def begun(self, count: int = 1) -> None:
        """Until ``count`` write transactions have started (the last may be waiting for a lock)."""

        def wait() -> bool:
            with self._seen:
                return self._seen.wait_for(
                    lambda: self.statements.count("BEGIN IMMEDIATE") >= count, timeout=10
                )

        assert await asyncio.to_thread(wait), f"{count} transaction(s) never began"

    def transactions(self) -> list[list[str]]:
        """The statements of each write transaction that committed, BEGIN to COMMIT."""
        done: list[list[str]] = []
        current: list[str] | None = None
        for sql in self.statements:
            if sql == "BEGIN IMMEDIATE":
                current = [sql]
            elif current is not None:
                current.append(sql)
                if sql in ("COMMIT", "ROLLBACK"):
                    if sql == "COMMIT":
                        done.append(current)
                    current = None
        return done

    def batch_sizes(self) -> list[int]:
        return [t.count("SAVEPOINT request") for t in self.transactions()]


async def tracing(s: Storage) -> Trace:
    trace = Trace()
    await s._writer.run(lambda conn: conn.set_trace_callback(trace))
    return trace


def _raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None, timeout=5.0)


async def _running(s: Storage, chat: str) -> GameRecord:
    """A game at version 1 with one log entry."""
    g = await s.create_game(chat, {"host": "u1"})
    return await s.commit(
        g.id, 0, state={"turn": 0}, meta={}, status="running", log=[LogEntry("u1", "start")]
    )


async def _games(s: Storage, n: int) -> list[GameRecord]:
    return list(await asyncio.gather(*(_running(s, f"tg:{i}") for i in range(n))))


def _move(s: Storage, g: GameRecord, tag: str = "m", version: int | None = None) -> Any:
    """A commit of one move on top of ``version`` (default: the record's), not yet awaited."""
    v = g.version if version is None else version
    return s.commit(
        g.id, v, state={"by": tag, "v": v + 1}, meta={"tag": tag}, status="running",
        log=[LogEntry(tag, f"{tag} a"), LogEntry(tag, f"{tag} b")],
    )  # fmt: skip


async def _queued(s: Storage, count: int) -> None:
    """Let the tasks already created run until ``count`` requests wait in the write queue."""
    for _ in range(100):
        if len(s._group._queue) >= count:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{len(s._group._queue)} request(s) queued, not {count}")


async def _settle() -> None:
    """Let every task that can run without waiting for I/O or a thread run."""
    for _ in range(5):
        await asyncio.sleep(0)


async def _in_transaction(s: Storage) -> bool:
    return await s._writer.run(lambda conn: conn.in_transaction)


def _stats_delta(before: WriteStats, after: WriteStats) -> tuple[int, int]:
    return after.transactions - before.transactions, after.requests - before.requests


# --------------------------------------------------------------------------------------------
# Batching
# --------------------------------------------------------------------------------------------


async def test_concurrent_commits_share_one_transaction(store: Storage) -> None:
    games = await _games(store, 40)
    trace = await tracing(store)
    before = store.write_stats
    results = await asyncio.gather(*(_move(store, g, f"p{g.id}") for g in games))

    assert [(r.id, r.version) for r in results] == [(g.id, 2) for g in games]
    # Everything queued before the writer ran went into ONE transaction: one COMMIT, one fsync.
    assert trace.batch_sizes() == [40]
    assert trace.statements.count("COMMIT") == 1
    assert _stats_delta(before, store.write_stats) == (1, 40)
    assert store.write_stats.largest_batch == 40
    for g, r in zip(games, results, strict=True):
        assert await store.get_game(g.id) == r
        assert [(e.version, e.action) for e in await store.log(g.id)] == [
            (1, "start"),
            (2, f"p{g.id} a"),
            (2, f"p{g.id} b"),
        ]


async def test_lone_commit_goes_straight_through(store: Storage) -> None:
    (g,) = await _games(store, 1)
    trace = await tracing(store)
    before = store.write_stats
    r = await _move(store, g)
    assert r.version == 2
    assert _stats_delta(before, store.write_stats) == (1, 1)
    (tx,) = trace.transactions()
    assert [sql.split()[0] for sql in tx] == [
        "BEGIN", "SAVEPOINT", "UPDATE", "SELECT", "INSERT", "INSERT", "RELEASE", "COMMIT",
    ]  # fmt: skip
    # The writer only lives while there is work: nothing lingers between writes.
    assert store._group.idle


async def test_a_batch_holds_what_queued_while_the_previous_transaction_ran(
    store: Storage, db_path: Path
) -> None:
    """No waiting for company: the first commit is sent alone at once; the ones that arrive
    while its transaction runs (here: waits for another process's lock) form the next batch."""
    a, b, c, d = await _games(store, 4)
    trace = await tracing(store)
    raw = _raw(db_path)
    try:
        raw.execute("BEGIN IMMEDIATE")
        first = asyncio.create_task(_move(store, a))
        await trace.begun()  # first's transaction is now blocked in BEGIN IMMEDIATE
        rest = [asyncio.create_task(_move(store, g)) for g in (b, c, d)]
        await _queued(store, 3)
        assert not first.done() and not any(t.done() for t in rest)
        raw.execute("ROLLBACK")
        await asyncio.wait_for(asyncio.gather(first, *rest), 5)
    finally:
        raw.close()
    assert trace.batch_sizes() == [1, 3]


async def test_batches_are_capped(db_path: Path) -> None:
    s = await Storage.open(db_path, max_batch=3)
    try:
        games = await _games(s, 10)
        trace = await tracing(s)
        before = s.write_stats
        results = await asyncio.gather(*(_move(s, g) for g in games))
        assert all(r.version == 2 for r in results)
        assert trace.batch_sizes() == [3, 3, 3, 1]
        assert _stats_delta(before, s.write_stats) == (4, 10)
        assert s.write_stats.largest_batch == 3
    finally:
        await s.close()
    with pytest.raises(ValueError):
        await Storage.open(db_path, max_batch=0)


# --------------------------------------------------------------------------------------------
# Each request succeeds or fails alone
# --------------------------------------------------------------------------------------------


async def test_failures_inside_a_batch_fail_alone(store: Storage) -> None:
    g_ok, g_stale, g_late_error, g_double, g_ok2 = await _games(store, 5)
    before_rows = {g.id: (await store.get_game(g.id), await store.log(g.id)) for g in
                   (g_stale, g_late_error)}  # fmt: skip
    trace = await tracing(store)
    stats_before = store.write_stats

    results = await asyncio.gather(
        _move(store, g_ok, "ok"),
        _move(store, g_stale, "stale", version=0),  # someone else already moved
        store.commit(  # the UPDATE succeeds, then the log insert fails: savepoint rolled back
            g_late_error.id, 1, state={"x": 1}, meta={}, status="running",
            log=[LogEntry("u1", "fine"), LogEntry("u1", "\ud800")],
        ),
        _move(store, g_double, "first"),
        _move(store, g_double, "second"),  # same version as "first", in the same batch
        store.commit(424242, 0, state=None, meta={}, status="running"),
        store.create_game("tg:0", {}),  # that chat already has an open game
        store.put_ref(999_999, "table", "1"),  # foreign key violation
        store.put_ref(g_ok2.id, "table", "77"),
        store.create_game("tg:new", {"n": 1}),
        store.put_settings("tg:new", {"lang": "uk"}),
        _move(store, g_ok2, "ok2"),
        return_exceptions=True,
    )  # fmt: skip

    # one transaction carried all twelve requests
    assert trace.batch_sizes() == [12]
    assert _stats_delta(stats_before, store.write_stats) == (1, 12)

    ok, stale, late, first, second, unknown, exists, bad_ref, ref, new, settings, ok2 = results
    assert isinstance(ok, GameRecord) and ok.version == 2
    assert isinstance(stale, VersionConflict)
    assert (stale.game_id, stale.expected, stale.actual) == (g_stale.id, 0, 1)
    assert isinstance(late, UnicodeEncodeError)
    assert isinstance(first, GameRecord) and first.version == 2
    assert isinstance(second, VersionConflict) and (second.expected, second.actual) == (1, 2)
    assert isinstance(unknown, GameNotFound)
    assert isinstance(exists, GameExists) and exists.chat_key == "tg:0"
    assert isinstance(bad_ref, GameNotFound)
    assert ref is None and settings is None
    assert isinstance(new, GameRecord) and new.chat_key == "tg:new"
    assert isinstance(ok2, GameRecord) and ok2.version == 2

    # the failed requests left no trace...
    for gid, (row, log) in before_rows.items():
        assert await store.get_game(gid) == row
        assert await store.log(gid) == log
    assert await store.get_game(424242) is None
    assert await store.refs(999_999) == {}
    # ...and the successful ones are all there, state and log together
    assert await store.get_game(g_ok.id) == ok
    assert await store.get_game(g_double.id) == first
    assert [e.actor for e in await store.log(g_double.id)] == ["u1", "first", "first"]
    assert await store.get_game(g_ok2.id) == ok2
    assert await store.refs(g_ok2.id) == {"table": "77"}
    assert await store.active_game("tg:new") == new
    assert await store.get_settings("tg:new") == {"lang": "uk"}


async def test_a_failed_transaction_fails_every_request_in_it_and_applies_none(
    db_path: Path,
) -> None:
    s = await Storage.open(db_path, busy_timeout=0.1)
    raw = _raw(db_path)
    try:
        games = await _games(s, 5)
        raw.execute("BEGIN IMMEDIATE")  # another process keeps the write lock too long
        results = await asyncio.gather(*(_move(s, g) for g in games), return_exceptions=True)
        raw.execute("ROLLBACK")
        assert all(isinstance(r, StorageError) for r in results), results
        assert all(isinstance(r.__cause__, sqlite3.OperationalError) for r in results)
        assert all("locked" in str(r) for r in results)
        for g in games:
            assert await s.get_game(g.id) == g
            assert len(await s.log(g.id)) == 1
        assert not await _in_transaction(s)
        # the storage is usable again, and the same moves can be retried
        retried = await asyncio.gather(*(_move(s, g) for g in games))
        assert [r.version for r in retried] == [2] * 5
    finally:
        raw.close()
        await s.close()


async def test_reads_never_see_a_batch_half_done(store: Storage) -> None:
    """Reads see only committed batches (whatever version a reader sees comes with all of its
    log rows), and never run inside a write transaction."""
    games = await _games(store, 20)
    trace = await tracing(store)
    stop = False

    async def reader() -> None:
        while not stop:
            for g in games[:5]:
                rec = await store.get_game(g.id)
                assert rec is not None
                # whatever version a reader sees is complete: its log rows are there too
                logged = {e.version for e in await store.log(g.id)}
                assert logged >= set(range(1, rec.version + 1))

    async def writer(g: GameRecord) -> None:
        for _ in range(5):
            g = await _move(store, g)

    readers = [asyncio.create_task(reader()) for _ in range(3)]
    await asyncio.gather(*(writer(g) for g in games))
    stop = True
    await asyncio.gather(*readers)

    inside = False
    reads_inside = []
    for sql in trace.statements:
        if sql == "BEGIN IMMEDIATE":
            inside = True
        elif sql in ("COMMIT", "ROLLBACK"):
            inside = False
        elif inside and sql.startswith(("SELECT id, chat_key", "SELECT actor")):
            reads_inside.append(sql)
    assert not reads_inside  # a read on the write connection runs between transactions
    assert len(trace.transactions()) < 20 * 5  # and the writes were batched


# --------------------------------------------------------------------------------------------
# Cancellation and close
# --------------------------------------------------------------------------------------------


async def test_cancelled_while_queued_is_never_applied(store: Storage, db_path: Path) -> None:
    a, b, c = await _games(store, 3)
    trace = await tracing(store)
    raw = _raw(db_path)
    try:
        raw.execute("BEGIN IMMEDIATE")
        first = asyncio.create_task(_move(store, a))
        await trace.begun()  # first's transaction waits for the lock
        queued = asyncio.create_task(_move(store, b))
        kept = asyncio.create_task(_move(store, c))
        await _queued(store, 2)
        queued.cancel()
        with pytest.raises(asyncio.CancelledError):
            await queued
        raw.execute("ROLLBACK")
        assert (await first).version == 2
        assert (await kept).version == 2
    finally:
        raw.close()
    assert await store.get_game(b.id) == b
    assert len(await store.log(b.id)) == 1
    assert trace.batch_sizes() == [1, 1]  # the withdrawn request never reached a transaction


async def test_cancelled_after_batching_is_committed_whole(store: Storage, db_path: Path) -> None:
    """Documented choice: once batched, a request whose caller is cancelled is still committed
    with its transaction -- completely -- and the other callers of the batch get their results."""
    a, b = await _games(store, 2)
    trace = await tracing(store)
    raw = _raw(db_path)
    try:
        raw.execute("BEGIN IMMEDIATE")
        ta = asyncio.create_task(_move(store, a, "a"))
        tb = asyncio.create_task(_move(store, b, "b"))
        await trace.begun()  # both are in one transaction, blocked in BEGIN IMMEDIATE
        ta.cancel()
        await _settle()
        # The cancellation waits for the transaction to end, so that the caller's next read
        # sees its outcome.
        assert not ta.done()
        raw.execute("ROLLBACK")
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(ta, 5)
        rb = await asyncio.wait_for(tb, 5)
    finally:
        raw.close()
    assert rb.version == 2
    ra = await store.get_game(a.id)  # after the cancelled caller returned: sees the outcome
    assert ra is not None and ra.version == 2 and ra.state == {"by": "a", "v": 2}
    assert [e.action for e in await store.log(a.id)] == ["start", "a a", "a b"]
    assert not await _in_transaction(store)
    assert (await _move(store, ra)).version == 3


@pytest.mark.parametrize("yields", range(6))
async def test_cancelling_some_callers_of_a_batch_never_half_commits(
    store: Storage, yields: int
) -> None:
    games = await _games(store, 6)
    tasks = [asyncio.create_task(_move(store, g, f"p{g.id}")) for g in games]
    for _ in range(yields):
        await asyncio.sleep(0)
    for t in tasks[::2]:
        t.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for g, t, r in zip(games, tasks, results, strict=True):
        now = await store.get_game(g.id)
        log = await store.log(g.id)
        assert now is not None
        if isinstance(r, asyncio.CancelledError):
            assert t.cancelled()
        else:
            assert r == now
        if now.version == 1:
            assert now == g and len(log) == 1
        else:  # all of it, never half
            assert now.version == 2 and [e.action for e in log][1:] == [f"p{g.id} a", f"p{g.id} b"]
    assert not await _in_transaction(store)
    for g in games:  # and every game accepts its next move
        now = await store.get_game(g.id)
        assert now is not None
        assert (await _move(store, now)).version == now.version + 1


async def test_close_commits_what_is_queued_then_refuses_writes(db_path: Path) -> None:
    s = await Storage.open(db_path)
    games = await _games(s, 10)
    trace = await tracing(s)
    raw = _raw(db_path)
    try:
        raw.execute("BEGIN IMMEDIATE")
        tasks = [asyncio.create_task(_move(s, games[0]))]
        await trace.begun()  # the first transaction is waiting for the lock...
        tasks += [asyncio.create_task(_move(s, g)) for g in games[1:]]
        await _queued(s, 9)  # ...and the other nine are queued behind it
        closing = asyncio.create_task(s.close())
        await _settle()
        assert not closing.done()
        raw.execute("ROLLBACK")
        await asyncio.wait_for(closing, 5)
    finally:
        raw.close()
    assert trace.batch_sizes() == [1, 9]
    assert [(await t).version for t in tasks] == [2] * 10
    with pytest.raises(StorageError):
        await _move(s, games[0], version=2)
    await s.close()  # idempotent

    s = await Storage.open(db_path)
    try:
        for g in games:
            rec = await s.get_game(g.id)
            assert rec is not None and rec.version == 2
            assert len(await s.log(g.id)) == 3
    finally:
        await s.close()


# --------------------------------------------------------------------------------------------
# Durability and processes
# --------------------------------------------------------------------------------------------


async def test_every_committed_request_is_durable_after_reopening(db_path: Path) -> None:
    s = await Storage.open(db_path)
    committed: list[GameRecord] = []
    try:
        games = await _games(s, 30)

        async def play(g: GameRecord) -> None:
            for _ in range(4):
                g = await _move(s, g, f"u{g.id}")
                committed.append(g)

        await asyncio.gather(*(play(g) for g in games))
        await s.record_match("tg:0", games[0].id, [PlayerResult("u1", "Ann", True, 5)])
        batched = s.write_stats
    finally:
        await s.close()
    assert batched.largest_batch > 1

    with _raw(db_path) as raw:  # a plain connection, as another process would see it
        logged = set(raw.execute("SELECT game_id, version, actor, action FROM game_log"))
    s = await Storage.open(db_path)
    try:
        for rec in committed:
            tag = f"u{rec.id}"
            assert (rec.id, rec.version, tag, f"{tag} a") in logged
            assert (rec.id, rec.version, tag, f"{tag} b") in logged
        for g in games:
            assert (await s.get_game(g.id)).version == 5  # type: ignore[union-attr]
        assert await s.player_stats("tg:0", "u1") == StatRow("u1", "Ann", 1, 1, 5)
    finally:
        await s.close()


def _report_commits(path: str, game_ids: list[int], out: Any) -> None:
    """Child process: commit moves on many games concurrently, reporting each one only after
    its commit returned.  Runs until killed."""

    async def run() -> None:
        s = await Storage.open(path)

        async def play(game_id: int) -> None:
            g = await s.get_game(game_id)
            assert g is not None
            version = g.version
            while True:
                rec = await s.commit(
                    game_id, version, state={"v": version + 1}, meta={}, status="running",
                    log=[LogEntry("child", f"m{version + 1}")],
                )  # fmt: skip
                version = rec.version
                out.put((game_id, version, s.write_stats.largest_batch))

        await asyncio.gather(*(play(g) for g in game_ids))

    asyncio.run(run())


async def test_reported_commits_survive_sigkill(db_path: Path) -> None:
    s = await Storage.open(db_path)
    try:
        games = await _games(s, 20)
    finally:
        await s.close()
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    child = ctx.Process(target=_report_commits, args=(str(db_path), [g.id for g in games], out))
    child.start()
    loop = asyncio.get_running_loop()
    try:
        reported = [await loop.run_in_executor(None, out.get, True, 60) for _ in range(300)]
        child.kill()  # SIGKILL: no chance to flush or close anything
    finally:
        await loop.run_in_executor(None, child.join, 10)
        if child.is_alive():
            child.kill()
    assert max(batch for _, _, batch in reported) > 1, "the child's commits were not batched"

    s = await Storage.open(db_path)
    try:
        for game_id, version, _ in reported:
            actions = {(e.version, e.action) for e in await s.log(game_id)}
            assert (version, f"m{version}") in actions
        for g in games:
            rec = await s.get_game(g.id)
            assert rec is not None
            # state and log agree: every version up to the stored one is logged exactly once
            versions = [e.version for e in await s.log(g.id)]
            assert versions == list(range(1, rec.version + 1))
    finally:
        await s.close()


def _batch_worker(
    path: str, game_ids: list[int], rounds: int, name: str, barrier: Any, out: Any
) -> None:
    """Child process: each round, read every game in lockstep with the rival, then commit a move
    on all of them at once (one batch).  Reports ``(name, wins, transactions)`` or an error."""

    async def run() -> tuple[int, int]:
        s = await Storage.open(path, exclusive=False)  # two processes on purpose
        wins = 0
        try:
            for i in range(rounds):
                barrier.wait(timeout=20)
                games = [await s.get_game(gid) for gid in game_ids]
                barrier.wait(timeout=20)  # both processes now hold the same versions
                results = await asyncio.gather(
                    *(
                        s.commit(
                            g.id, g.version, state={"by": name, "round": i}, meta={},
                            status="running", log=[LogEntry(name, f"round {i}")],
                        )
                        for g in games
                        if g is not None
                    ),
                    return_exceptions=True,
                )  # fmt: skip
                for r in results:
                    if isinstance(r, GameRecord):
                        wins += 1
                    elif not isinstance(r, VersionConflict):
                        raise r
            return wins, s.write_stats.transactions
        finally:
            await s.close()

    try:
        wins, transactions = asyncio.run(run())
        out.put((name, wins, transactions))
    except BaseException as exc:
        barrier.abort()
        out.put((name, f"error: {exc!r}", 0))


async def test_two_processes_with_batches_cannot_both_apply_a_move(db_path: Path) -> None:
    rounds, n_games = 10, 8
    s = await Storage.open(db_path, exclusive=False)
    try:
        game_ids = [(await s.create_game(f"tg:{i}", {})).id for i in range(n_games)]
        ctx = multiprocessing.get_context("spawn")
        barrier, out = ctx.Barrier(2), ctx.Queue()
        procs = [
            ctx.Process(
                target=_batch_worker, args=(str(db_path), game_ids, rounds, n, barrier, out)
            )
            for n in ("p1", "p2")
        ]
        for p in procs:
            p.start()
        loop = asyncio.get_running_loop()
        try:
            reports = [await loop.run_in_executor(None, out.get, True, 120) for _ in procs]
        finally:
            for p in procs:
                await loop.run_in_executor(None, p.join, 10)
                if p.is_alive():
                    p.kill()
        errors = [r for r in reports if isinstance(r[1], str)]
        assert not errors, errors
        finals = {gid: await s.get_game(gid) for gid in game_ids}
        logs = {gid: await s.log(gid) for gid in game_ids}
    finally:
        await s.close()
    total_wins = sum(int(r[1]) for r in reports)
    # lockstep reads: every round, every game had exactly one winner
    assert total_wins == rounds * n_games
    for gid in game_ids:
        final = finals[gid]
        assert final is not None and final.version == rounds
        assert [e.version for e in logs[gid]] == list(range(1, rounds + 1))
    # and each process wrote its round's moves as one batch, not one transaction per move
    for _, _, transactions in reports:
        assert 0 < transactions < rounds * n_games
