"""What only the SQLite adapter does: its configuration, query plans, migrations from `.sql`
files (and from databases the older code created), the one-process lock, reads that never wait
behind a writer, and the version check across connections and processes."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.presentation.i18n import get_i18n
from bot.storage import (
    MIGRATIONS,
    SCHEMA_VERSION,
    DatabaseInUse,
    GameExists,
    GameNotFound,
    GameRecord,
    LogEntry,
    PlayerResult,
    SchemaTooNew,
    SqliteStorage,
    StatRow,
    Storage,
    StorageError,
    VersionConflict,
    open_storage,
    sqlite_path,
)
from bot.storage.sqlite import games, migrate
from bot.storage.sqlite.connection import ConnectionThread
from tests.storage.conftest import FakeClock
from tests.storage.legacy_migrations import LEGACY_MIGRATIONS
from tests.storage.test_group_commit import tracing

CHAT = "tg:-100123"
OTHER = "dc:9876"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStorage]:
    s = await Storage.open(db_path, clock=FakeClock())
    yield s
    await s.close()


async def _running(s: SqliteStorage, chat: str = CHAT) -> GameRecord:
    """A game that has had one commit (lobby -> running), i.e. is at version 1."""
    g = await s.create_game(chat, {"host": "u1"})
    return await s.commit(
        g.id, 0, state={"turn": 0}, meta={"host": "u1"}, status="running",
        log=[LogEntry("u1", "start")],
    )  # fmt: skip


def _raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None, timeout=5.0)


async def test_open_creates_parent_directories(db_path: Path, store: SqliteStorage) -> None:
    assert db_path.is_file()


async def test_memory_database_works() -> None:
    s = await Storage.open(":memory:")
    try:
        g = await s.create_game(CHAT, {})
        assert (await s.get_game(g.id)) == g
    finally:
        await s.close()
    await s.close()  # idempotent


async def test_json_is_compact_and_keeps_unicode(store: SqliteStorage, db_path: Path) -> None:
    await store.put_settings(CHAT, {"name": "Гра", "n": [1, 2]})
    with _raw(db_path) as raw:
        (text,) = raw.execute("SELECT data FROM settings").fetchone()
    assert text == '{"name":"Гра","n":[1,2]}'


async def test_two_instances_racing_on_one_file(db_path: Path) -> None:
    a = await Storage.open(db_path, exclusive=False)
    b = await Storage.open(db_path, exclusive=False)
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
        s = await Storage.open(path, exclusive=False)
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
    """Even without the one-process lock (which would refuse the second process), two
    processes on one file cannot both apply a move: the version check holds across them."""
    rounds = 25
    s = await Storage.open(db_path, exclusive=False)
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
    store: SqliteStorage, db_path: Path
) -> None:
    g = await _running(store)
    trace = await tracing(store)
    raw = _raw(db_path)
    try:
        raw.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        task = asyncio.create_task(store.commit(g.id, 1, state={}, meta={}, status="running"))
        await trace.begun()  # the commit's transaction waits for the lock
        assert not task.done(), "commit should wait for the lock, not fail or skip it"
        raw.execute("ROLLBACK")
        assert (await asyncio.wait_for(task, 5)).version == 2
    finally:
        raw.close()
    assert trace.statements.count("BEGIN IMMEDIATE") == 1  # waited, never failed and retried


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


async def test_wal_durability_and_busy_timeout_are_configured(
    store: SqliteStorage, db_path: Path
) -> None:
    with _raw(db_path) as raw:  # journal_mode=WAL is persistent, visible to any connection
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"

    # per-connection settings can only be read on the storage's own connections
    async def pragma(name: str, on: ConnectionThread = store._writer) -> Any:
        return await on.run(lambda conn: conn.execute(f"PRAGMA {name}").fetchone()[0])

    assert await pragma("journal_mode") == "wal"
    assert await pragma("synchronous") == 2  # FULL
    assert await pragma("busy_timeout") == 10_000
    assert await pragma("foreign_keys") == 1
    assert await pragma("query_only") == 0
    # reads have a connection (and a thread) of their own, which never writes
    assert store._reader is not store._writer
    assert await pragma("query_only", store._reader) == 1
    assert await pragma("busy_timeout", store._reader) == 10_000


async def test_active_game_lookup_uses_the_one_game_per_chat_index(
    store: SqliteStorage, db_path: Path
) -> None:
    """Not a scan over every running game: the service looks the active game up on every move."""
    with _raw(db_path) as raw:
        plan = raw.execute(f"EXPLAIN QUERY PLAN {games.ACTIVE_GAME}", (CHAT,)).fetchall()
    assert [row[3] for row in plan] == [
        "SEARCH games USING INDEX games_one_active_per_chat (chat_key=?)"
    ]


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


async def test_fresh_database_is_at_latest_version(store: SqliteStorage, db_path: Path) -> None:
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
    monkeypatch.setattr(migrate, "MIGRATIONS", (MIGRATIONS[0], broken))
    with pytest.raises(StorageError) as info:
        await Storage.open(db_path)
    assert isinstance(info.value.__cause__, sqlite3.OperationalError)
    assert _user_version(db_path) == 1
    assert _schema(db_path) == schema  # no half-created tables from migration 2


async def test_database_from_newer_code_is_refused(db_path: Path) -> None:
    await (await Storage.open(db_path)).close()
    with _raw(db_path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew):
        await Storage.open(db_path)
    assert _user_version(db_path) == SCHEMA_VERSION + 1


async def test_racing_create_game_from_two_instances(db_path: Path) -> None:
    a = await Storage.open(db_path, exclusive=False)
    b = await Storage.open(db_path, exclusive=False)
    try:
        results = await asyncio.gather(
            a.create_game(CHAT, {"by": "a"}), b.create_game(CHAT, {"by": "b"}),
            return_exceptions=True,
        )  # fmt: skip
        assert sorted(type(r).__name__ for r in results) == ["GameExists", "GameRecord"]
    finally:
        await a.close()
        await b.close()


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


# --------------------------------------------------------------------------------------------
# The URL
# --------------------------------------------------------------------------------------------


async def test_open_storage_chooses_by_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    urls: list[tuple[str | Path, Path]] = [
        (str(tmp_path / "a.db"), tmp_path / "a.db"),
        (tmp_path / "b.db", tmp_path / "b.db"),
        ("sqlite:///c.db", tmp_path / "c.db"),  # relative
        (f"sqlite:///{tmp_path}/d.db", tmp_path / "d.db"),  # sqlite:////abs/path
    ]
    for url, path in urls:
        s = await open_storage(url, clock=FakeClock())
        try:
            assert isinstance(s, SqliteStorage)
            await s.create_game(CHAT, {})
        finally:
            await s.close()
        assert path.is_file(), url
    memory = await open_storage(":memory:")
    await memory.close()
    for url in ("mysql://db/uno", "sqlite:///"):
        with pytest.raises(ValueError, match="database"):
            await open_storage(url)


def test_sqlite_path_names_the_file_of_a_sqlite_setting_only() -> None:
    """The console keeps its own file beside the bot's SQLite file, or in data/ when the bot's
    database is a server."""
    assert sqlite_path("data/uno.sqlite3") == Path("data/uno.sqlite3")
    assert sqlite_path(Path("/srv/uno.db")) == Path("/srv/uno.db")
    assert sqlite_path("sqlite:///data/uno.db") == Path("data/uno.db")
    assert sqlite_path("sqlite:////srv/uno.db") == Path("/srv/uno.db")
    for url in ("postgresql://bot@db/uno", "postgres://db/uno", ":memory:", "sqlite:///"):
        assert sqlite_path(url) is None, url


# --------------------------------------------------------------------------------------------
# One process per database
# --------------------------------------------------------------------------------------------

_OPENER = """
import asyncio, sys
from bot.storage import DatabaseInUse, Storage

async def main(path):
    try:
        s = await Storage.open(path)
    except DatabaseInUse as exc:
        print("refused:", exc, flush=True)
        sys.exit(3)
    print("opened", flush=True)
    if sys.argv[2] == "hold":
        sys.stdin.readline()  # hold the database until told (or killed)
    await s.close()

asyncio.run(main(sys.argv[1]))
"""


def _opener(db: Path, mode: str = "once") -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _OPENER, str(db), mode], cwd=ROOT, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def _finish(child: subprocess.Popen[str]) -> tuple[int, str]:
    out, err = child.communicate(timeout=60)
    return child.returncode, out + err


async def test_a_second_process_refuses_to_open_the_database_while_the_first_holds_it(
    db_path: Path,
) -> None:
    s = await Storage.open(db_path)
    try:
        code, out = await asyncio.to_thread(_finish, _opener(db_path))
        assert code == 3, out
        assert f"refused: the database {db_path} is already in use" in out
        assert f"process {os.getpid()}" in out
        with pytest.raises(DatabaseInUse) as info:  # a second storage in this process too
            await Storage.open(db_path)
        assert info.value.path == str(db_path)
        assert isinstance(info.value, StorageError)
    finally:
        await s.close()
    code, out = await asyncio.to_thread(_finish, _opener(db_path))
    assert (code, out.strip()) == (0, "opened")


async def test_a_killed_holder_leaves_no_stale_lock(db_path: Path) -> None:
    holder = _opener(db_path, "hold")
    try:
        assert holder.stdout is not None
        assert await asyncio.to_thread(holder.stdout.readline) == "opened\n"
        with pytest.raises(DatabaseInUse):
            await Storage.open(db_path)
        os.kill(holder.pid, signal.SIGKILL)
        await asyncio.to_thread(holder.wait, 60)
    finally:
        holder.kill()
    s = await Storage.open(db_path)
    await s.close()


async def test_memory_databases_take_no_lock(tmp_path: Path) -> None:
    a, b = await Storage.open(":memory:"), await Storage.open(":memory:")
    await a.create_game(CHAT, {})
    assert await b.active_game(CHAT) is None  # two separate databases
    await a.close()
    await b.close()
    assert not list(tmp_path.iterdir())


# --------------------------------------------------------------------------------------------
# Reads never wait behind a writer
# --------------------------------------------------------------------------------------------


async def test_a_read_answers_while_a_write_transaction_is_held_open(store: SqliteStorage) -> None:
    mine = await _running(store, CHAT)
    other = await _running(store, OTHER)
    entered, release = threading.Event(), threading.Event()

    def slow(conn: sqlite3.Connection) -> None:  # a write whose transaction stays open
        conn.execute("UPDATE games SET meta = '{\"slow\":1}' WHERE id = ?", (mine.id,))
        entered.set()
        release.wait(30)

    write = asyncio.create_task(store._write(slow))
    try:
        assert await asyncio.to_thread(entered.wait, 30)
        # The writer thread is now inside BEGIN IMMEDIATE ... and will not finish until released.
        assert await asyncio.wait_for(store.get_game(other.id), 10) == other
        assert await store.active_game(OTHER) == other
        assert await store.get_game(mine.id) == mine  # the uncommitted change is not visible
        assert not write.done()
    finally:
        release.set()
    await write
    assert (await store.get_game(mine.id)).meta == {"slow": 1}  # type: ignore[union-attr]


async def test_a_read_answers_while_another_process_holds_the_write_lock(
    store: SqliteStorage, db_path: Path
) -> None:
    g = await _running(store, CHAT)
    other = await _running(store, OTHER)
    raw = _raw(db_path)
    try:
        raw.execute("BEGIN IMMEDIATE")
        waiting = asyncio.create_task(store.commit(g.id, 1, state={}, meta={}, status="running"))
        assert await asyncio.wait_for(store.get_game(other.id), 10) == other
        assert not waiting.done()  # it cannot finish while the lock is held
        raw.execute("ROLLBACK")
        assert (await waiting).version == 2
    finally:
        raw.close()


async def test_a_read_after_a_write_returned_sees_it(store: SqliteStorage) -> None:
    g = await _running(store)
    for version in range(1, 40):
        r = await store.commit(g.id, version, state={"v": version}, meta={}, status="running")
        assert await store.get_game(g.id) == r


# --------------------------------------------------------------------------------------------
# Migrations as files
# --------------------------------------------------------------------------------------------


def _normal(statement: str) -> str:
    return " ".join(statement.split())


def test_the_migration_files_ship_as_package_data() -> None:
    from importlib.resources import files

    names = sorted(
        p.name for p in files("bot.storage").joinpath("migrations", "sqlite").iterdir()
        if p.name.endswith(".sql")
    )  # fmt: skip
    assert len(names) == SCHEMA_VERSION == len(MIGRATIONS) >= 5
    assert [n[:5] for n in names] == [f"{i:04d}_" for i in range(1, SCHEMA_VERSION + 1)]
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"bot.storage" = ["migrations/*/*.sql"]' in pyproject


def test_the_files_hold_the_statements_the_older_code_ran() -> None:
    """The first four files are the shipped in-code migrations, statement by statement (up to
    comments and whitespace), so they continue any database those created."""
    assert len(LEGACY_MIGRATIONS) == 4
    for old, new in zip(LEGACY_MIGRATIONS, MIGRATIONS, strict=False):
        assert [_normal(s) for s in old] == [_normal(s) for s in new]


def test_statements_are_split_where_sqlite_says_they_end() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (a TEXT DEFAULT 'x;y');
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN
        UPDATE t SET a = 'z;' WHERE a = new.a;
    END;
    /* block; comment */ INSERT INTO t VALUES (';');
    -- trailing comment
    """
    statements = migrate.split_statements(script)
    assert len(statements) == 3
    assert statements[0].endswith("DEFAULT 'x;y')")
    assert "UPDATE t SET a = 'z;'" in statements[1] and statements[1].endswith("END")
    conn = sqlite3.connect(":memory:")
    for statement in statements:
        conn.execute(statement)
    assert conn.execute("SELECT a FROM t").fetchall() == [("z;",)]
    with pytest.raises(ValueError, match="unterminated"):
        migrate.split_statements("CREATE TABLE u (a)")


def _make_legacy(path: Path) -> None:
    """A database as the code before `.sql` files left it (user_version 4), with data."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = _raw(path)
    try:
        raw.execute("PRAGMA journal_mode = WAL")
        raw.execute("BEGIN")
        for migration in LEGACY_MIGRATIONS:
            for stmt in migration:
                raw.execute(stmt)
        raw.execute("PRAGMA user_version = 4")
        raw.execute("INSERT INTO settings VALUES (?, ?, ?)", (CHAT, '{"lang":"uk"}', 1.0))
        raw.executemany(
            "INSERT INTO games (id, chat_key, status, version, state, meta, deadline,"
            " created_at, updated_at) VALUES (?, ?, ?, 2, ?, '{}', ?, 1.0, 2.0)",
            [(1, OTHER, "finished", '{"rules":{"scoring":"tally"}}', None),
             (2, CHAT, "running", '{"turn":2}', 50.0)],
        )  # fmt: skip
        raw.executemany(
            "INSERT INTO game_log VALUES (?, ?, 0, 'u1', ?, 1.0)",
            [(g, v, f"move {v}") for g in (1, 2) for v in (1, 2)],
        )
        raw.execute("INSERT INTO game_refs VALUES (2, 'table', '55')")
        raw.execute("INSERT INTO matches VALUES (1, ?, '[]', 1.0, 'tally')", (OTHER,))
        raw.execute("INSERT INTO player_stats VALUES (?, 'u1', 'Ann', 1, 1, 0, 1, 7)", (OTHER,))
        raw.execute("COMMIT")
    finally:
        raw.close()


async def test_a_database_from_the_older_code_opens_and_works(db_path: Path) -> None:
    _make_legacy(db_path)
    s = await Storage.open(db_path, clock=FakeClock())
    try:
        assert _user_version(db_path) == SCHEMA_VERSION
        g = await s.get_game(2)
        assert g == GameRecord(2, CHAT, "running", 2, {"turn": 2}, {}, 50.0, 1.0, 2.0)
        assert await s.open_games() == [g]
        assert await s.get_settings(CHAT) == {"lang": "uk"}
        assert [e.action for e in await s.log(2)] == ["move 1", "move 2"]
        assert await s.refs(2) == {"table": "55"}
        assert await s.player_stats(OTHER, "u1") == StatRow("u1", "Ann", 1, 1, 0, 1, 7)
        assert await s.unrecorded_finished_games() == []
        with pytest.raises(GameExists):
            await s.create_game(CHAT, {})
        assert (await s.commit(2, 2, state={}, meta={}, status="running")).version == 3
        await s.mark_broken(2)
        assert (await s.create_game(CHAT, {})).id == 3
    finally:
        await s.close()
    fresh = db_path.with_name("fresh.sqlite3")
    await (await Storage.open(fresh)).close()
    # the same schema a fresh database gets (the older code spaced its statements differently)
    normal = [(name, _normal(sql)) for name, sql in _schema(db_path)]
    assert normal == [(name, _normal(sql)) for name, sql in _schema(fresh)]


async def test_a_second_bot_refuses_to_start_with_a_clear_message(db_path: Path) -> None:
    s = await Storage.open(db_path)
    try:
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot", "--console", "--lang", "uk", "--db", str(db_path)],
            cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
            env={**os.environ, "TELEGRAM_TOKEN": "", "DISCORD_TOKEN": ""},
        )  # fmt: skip
    finally:
        await s.close()
    assert done.returncode == 1, done.stderr
    # The console is a player's window: they are told in their language, with the file named.
    assert done.stderr.strip() == get_i18n().t(
        "uk", "console-db-in-use", path=str(db_path), option="--db"
    )


async def test_a_second_chat_bot_refuses_to_start_with_a_clear_message(db_path: Path) -> None:
    s = await Storage.open(db_path)
    try:
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot"],
            cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
            env={**os.environ, "TELEGRAM_TOKEN": "123:fake", "DISCORD_TOKEN": "",
                 "DATABASE": str(db_path), "TELEGRAM_API_BASE": "http://127.0.0.1:9"},
        )  # fmt: skip
    finally:
        await s.close()
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().endswith(
        f"python -m bot: the database {db_path} is already in use by another bot process"
        f" (process {os.getpid()}); stop that process first, or give this one another database"
    )


async def test_reads_use_the_write_connection_only_while_it_has_nothing_to_do(
    store: SqliteStorage,
) -> None:
    g = await _running(store)
    used: list[str] = []
    for name, connection in (("writer", store._writer), ("reader", store._reader)):
        await connection.run(
            lambda conn, name=name: conn.set_trace_callback(
                lambda sql: used.append(name) if sql.startswith("SELECT id") else None
            )
        )
    await store.get_game(g.id)  # nothing written meanwhile: the warm write connection
    assert used == ["writer"]
    write = asyncio.create_task(store.commit(g.id, 1, state={}, meta={}, status="running"))
    await asyncio.sleep(0)  # the write is queued
    assert not store._group.idle
    await store.get_game(g.id)  # a write is under way: the read connection
    assert used == ["writer", "reader"]
    await write
