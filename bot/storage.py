"""Durable storage for games, settings, adapter refs and statistics (SQLite via aiosqlite).

The storage layer knows nothing about UNO: a game is a row holding an opaque JSON blob (the
engine's ``to_dict()``), a ``meta`` blob, a status and a *version*.  The service above does
load -> lock -> apply -> :meth:`Storage.commit` -> send, so the guarantees that matter are:

* **No double moves.**  :meth:`Storage.commit` is an optimistic compare-and-swap: inside
  ``BEGIN IMMEDIATE`` it runs ``UPDATE ... WHERE id=? AND version=?`` and checks the row count.
  Two bot processes (or two :class:`Storage` objects) sharing one database can therefore never
  both apply a move on top of the same version; the loser gets :class:`VersionConflict` and
  nothing it tried to write is kept.  ``IMMEDIATE`` takes the write lock up front, so the
  transaction never has to upgrade a read snapshot to a write lock (in WAL mode such an upgrade
  fails with ``SQLITE_BUSY`` instead of waiting on the busy handler).
* **Atomic state + log.**  The state update and the action-log rows are one transaction.
* **Durable before visible.**  ``synchronous=FULL`` makes SQLite fsync the WAL on every commit,
  so a move whose messages were already sent to the chat cannot vanish in a power loss (with
  ``NORMAL`` the last commits may roll back, which would desynchronise the chat and the state).
  No caller learns the outcome of a write before the transaction holding it has committed.
* **Waiting, not failing.**  A busy timeout makes a second process wait for the write lock
  rather than raise ``database is locked``.

**Group commit.**  One fsync per transaction caps a process at a few hundred transactions per
second, so every write (:meth:`Storage.commit`, :meth:`~Storage.create_game`,
:meth:`~Storage.put_settings`, :meth:`~Storage.put_ref`, :meth:`~Storage.record_match`) is a
*request* appended to one queue, and a writer task turns the queue into transactions:

* It takes everything queued (at most ``max_batch`` requests) and runs ONE ``BEGIN IMMEDIATE``
  transaction holding a ``SAVEPOINT`` per request, then one ``COMMIT`` -- one fsync for the
  whole batch -- and only then resolves the callers' futures.  A request that fails (version
  conflict, unknown game, constraint, a bad value) is rolled back to its savepoint and fails
  alone; the others in the batch are unaffected.  If the transaction as a whole fails (busy
  timeout on ``BEGIN``, an I/O error, SQLite aborting the transaction) every request in it
  fails with that error and none of them is applied.
* There is no waiting for company: a lone write goes straight into its own transaction, and a
  batch holds exactly what queued up while the previous transaction was running.
* The optimistic check is per request, inside the write-locked transaction, so two processes
  still cannot both apply a move; two requests for one game in one batch see each other like
  two consecutive transactions would (the second gets :class:`VersionConflict`).
* A whole transaction -- ``BEGIN`` to ``COMMIT`` or ``ROLLBACK`` -- is a single call queued to
  aiosqlite's connection thread, which runs its queue in FIFO order.  Reads are single
  statements on the same queue, so a read runs before or after a transaction, never inside one
  (it cannot see an uncommitted batch), and a caller that reads after its write returned sees
  that write.  Nothing can interleave with a transaction, so no :class:`asyncio.Lock` is needed.
* **Cancellation.**  A caller cancelled while its request is still queued withdraws it: it is
  never applied.  Once the writer has taken the request into a transaction, cancelling the caller
  no longer withdraws it: the request is committed, atomically, exactly when its transaction
  commits, and never half.  So, as with any interrupted write, a cancelled caller does not know
  whether its write happened and must reload before deciding again.  Cancellation can never
  leave the connection inside a transaction: once queued to the connection thread, the
  transaction call runs to its ``COMMIT`` or ``ROLLBACK`` regardless of what happens to the
  coroutines waiting for it.
* :meth:`Storage.close` stops accepting writes (they raise ``ValueError``), lets the writer
  commit everything already queued, then closes the connection.

Schema changes are ordered migrations counted by ``PRAGMA user_version`` and applied in one
transaction when the database is opened; see :data:`MIGRATIONS`.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TypeVar, cast

import aiosqlite

from core.rules import Scoring

__all__ = [
    "DEFAULT_MAX_BATCH",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "STATUSES",
    "GameExists",
    "GameNotFound",
    "GameRecord",
    "LogEntry",
    "MatchRecord",
    "PlayerResult",
    "SchemaTooNew",
    "StatRow",
    "Storage",
    "StorageError",
    "VersionConflict",
    "WriteStats",
]

STATUSES: Final = frozenset({"lobby", "running", "finished", "killed", "broken"})

# SQLite stores signed 64-bit integers; a Python int outside this range cannot even be bound
# (sqlite3 raises OverflowError), so such a game id can only mean "no such game".
_MIN_ID: Final = -(2**63)
_MAX_ID: Final = 2**63 - 1

# --------------------------------------------------------------------------------------------
# Migrations
#
# MIGRATIONS[i] takes the schema from user_version i to i + 1.  A shipped migration must never be
# edited -- databases in the wild have already run it; append a new one instead.  Each one is a
# sequence of single SQL statements (not a script) because sqlite3's executescript() commits any
# open transaction first, which would break the "all pending migrations or none" guarantee.
# --------------------------------------------------------------------------------------------

Migration = tuple[str, ...]

_V1: Migration = (
    """
    CREATE TABLE settings (
        chat_key   TEXT PRIMARY KEY,
        data       TEXT NOT NULL,
        updated_at REAL NOT NULL
    )
    """,
    # AUTOINCREMENT: ids are never reused, so a stale ref/log/timer keyed by a game id can never
    # attach itself to a different, newer game.
    """
    CREATE TABLE games (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_key   TEXT    NOT NULL,
        status     TEXT    NOT NULL
                   CHECK (status IN ('lobby', 'running', 'finished', 'killed')),
        version    INTEGER NOT NULL DEFAULT 0,
        state      TEXT,
        meta       TEXT    NOT NULL,
        deadline   REAL,
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    )
    """,
    # The database, not a check-then-insert in Python, guarantees one open game per chat: two
    # processes racing to create a lobby cannot both succeed.
    """
    CREATE UNIQUE INDEX games_one_active_per_chat
        ON games (chat_key) WHERE status IN ('lobby', 'running')
    """,
    # seq orders several entries produced by one commit; the primary key also makes a duplicate
    # (game, version) application impossible at the database level.
    """
    CREATE TABLE game_log (
        game_id INTEGER NOT NULL REFERENCES games (id),
        version INTEGER NOT NULL,
        seq     INTEGER NOT NULL,
        actor   TEXT    NOT NULL,
        action  TEXT    NOT NULL,
        at      REAL    NOT NULL,
        PRIMARY KEY (game_id, version, seq)
    ) WITHOUT ROWID
    """,
)

_V2: Migration = (
    # Adapter bookkeeping (message ids etc.) that must survive a restart.
    """
    CREATE TABLE game_refs (
        game_id INTEGER NOT NULL REFERENCES games (id),
        key     TEXT    NOT NULL,
        value   TEXT    NOT NULL,
        PRIMARY KEY (game_id, key)
    ) WITHOUT ROWID
    """,
    # One row per recorded game makes record_match idempotent (INSERT OR IGNORE on game_id) and
    # keeps the raw results so the aggregate table can be rebuilt if scoring rules change.
    """
    CREATE TABLE matches (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id),
        chat_key    TEXT NOT NULL,
        results     TEXT NOT NULL,
        recorded_at REAL NOT NULL
    )
    """,
    """
    CREATE TABLE player_stats (
        chat_key TEXT    NOT NULL,
        user_id  TEXT    NOT NULL,
        name     TEXT    NOT NULL,
        games    INTEGER NOT NULL DEFAULT 0,
        wins     INTEGER NOT NULL DEFAULT 0,
        points   INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_key, user_id)
    ) WITHOUT ROWID
    """,
    """
    CREATE INDEX player_stats_rank
        ON player_stats (chat_key, wins DESC, points DESC, games, name)
    """,
    # Startup scans for running games to re-arm their timers.
    "CREATE INDEX games_status ON games (status)",
)

_V3: Migration = (
    # Statistics by scoring mode. `winner` points (the others' cards, more is better) and `tally`
    # points (your own cards, fewer is better) measure opposite things, so one sum of both is
    # meaningless: `points` keeps the winner-scored ones and the tally ones get columns of their
    # own. A match now records its mode; older matches get it from their game's stored rules.
    """
    ALTER TABLE matches ADD COLUMN scoring TEXT NOT NULL DEFAULT 'winner'
        CHECK (scoring IN ('winner', 'tally'))
    """,
    # CASE, not AND: SQL does not promise to stop an AND at its first false side, and
    # json_extract raises on text that is not JSON.
    """
    UPDATE matches SET scoring = 'tally' WHERE game_id IN (
        SELECT id FROM games
        WHERE CASE WHEN json_valid(state) THEN json_extract(state, '$.rules.scoring') END
              = 'tally'
    )
    """,
    "ALTER TABLE player_stats ADD COLUMN tally_games INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE player_stats ADD COLUMN tally_points INTEGER NOT NULL DEFAULT 0",
    """
    UPDATE player_stats SET
        tally_games = (
            SELECT count(*) FROM matches AS m, json_each(m.results) AS r
            WHERE m.scoring = 'tally' AND m.chat_key = player_stats.chat_key
              AND json_extract(r.value, '$.user_id') = player_stats.user_id
        ),
        tally_points = (
            SELECT coalesce(sum(json_extract(r.value, '$.points')), 0)
            FROM matches AS m, json_each(m.results) AS r
            WHERE m.scoring = 'tally' AND m.chat_key = player_stats.chat_key
              AND json_extract(r.value, '$.user_id') = player_stats.user_id
        )
    """,
    "UPDATE player_stats SET points = points - tally_points",
    # The ranking now depends on the chat's mode (see Storage.leaderboard), so no single index
    # order serves it; a chat's rows are found by the primary key.
    "DROP INDEX player_stats_rank",
)

_V4: Migration = (
    # A chat's games newest first (the rematch looks up the chat's last game). Without it that
    # lookup walks every game of every chat back to the chat's last one, or all of them for a
    # chat that never played.
    "CREATE INDEX games_by_chat ON games (chat_key, id)",
)

_V5: Migration = (
    # A game whose stored state cannot be loaded is set aside as 'broken' (Storage.mark_broken)
    # so that its chat can start a new one. The status CHECK is part of the table definition,
    # which SQLite cannot alter: the table is rebuilt as sqlite.org's "other kinds of table
    # schema changes" prescribes (foreign keys are switched off around the migration and
    # checked before it commits; see _migrate).
    """
    CREATE TABLE games_new (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_key   TEXT    NOT NULL,
        status     TEXT    NOT NULL
                   CHECK (status IN ('lobby', 'running', 'finished', 'killed', 'broken')),
        version    INTEGER NOT NULL DEFAULT 0,
        state      TEXT,
        meta       TEXT    NOT NULL,
        deadline   REAL,
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    )
    """,
    """
    INSERT INTO games_new (id, chat_key, status, version, state, meta, deadline, created_at,
                           updated_at)
    SELECT id, chat_key, status, version, state, meta, deadline, created_at, updated_at
    FROM games
    """,
    # Ids are never reused: carry over the highest id ever handed out, not just the highest kept.
    """
    UPDATE sqlite_sequence SET seq = max(seq, coalesce(
        (SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0))
    WHERE name = 'games_new'
    """,
    "DROP TABLE games",
    "ALTER TABLE games_new RENAME TO games",
    """
    CREATE UNIQUE INDEX games_one_active_per_chat
        ON games (chat_key) WHERE status IN ('lobby', 'running')
    """,
    "CREATE INDEX games_status ON games (status)",
    "CREATE INDEX games_by_chat ON games (chat_key, id)",
)

MIGRATIONS: tuple[Migration, ...] = (_V1, _V2, _V3, _V4, _V5)
SCHEMA_VERSION: Final = len(MIGRATIONS)


# --------------------------------------------------------------------------------------------
# Public data types and errors
# --------------------------------------------------------------------------------------------


class StorageError(Exception):
    """The database failed (locked past the busy timeout, full, read-only, I/O error, closed).

    Nothing of the failed call was stored.  The backend's own exception is ``__cause__``.  It is
    a fault of the machine, not of the request: the same call may succeed when retried later.
    """


class VersionConflict(Exception):
    """Someone else committed to this game first; reload it and decide again."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, found {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameExists(Exception):
    """The chat already has a lobby or running game (only one may be open per chat)."""

    def __init__(self, chat_key: str) -> None:
        super().__init__(f"chat {chat_key} already has an open game")
        self.chat_key = chat_key


class GameNotFound(LookupError):
    """No game with that id: a programming error, not a race (games are never deleted)."""


class SchemaTooNew(RuntimeError):
    """The database was migrated by newer code; refusing to run rather than corrupt it."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    chat_key: str
    status: str
    version: int
    state: dict[str, Any] | None
    meta: dict[str, Any]
    deadline: float | None
    created_at: float
    updated_at: float
    # True when the stored state or meta is not a JSON object: then ``state`` is None and
    # ``meta`` is {} -- the service sets the game aside (:meth:`Storage.mark_broken`).
    corrupt: bool = False


@dataclass(frozen=True)
class LogEntry:
    actor: str
    action: str
    version: int = 0  # the version this action produced; filled in by Storage.commit
    at: float = 0.0  # 0.0 means "now" (the storage clock at commit time)


@dataclass(frozen=True)
class PlayerResult:
    user_id: str
    name: str
    won: bool
    points: int


@dataclass(frozen=True)
class MatchRecord:
    """A finished match's statistics, recorded by :meth:`Storage.commit` with its last move."""

    results: tuple[PlayerResult, ...] | list[PlayerResult]
    scoring: Scoring = Scoring.WINNER


@dataclass(frozen=True)
class StatRow:
    """A player's totals in one chat.

    `points` sums the `winner`-scored games only; `tally_points` sums the `tally`-scored ones,
    of which there were `tally_games` (`_V3` says why the two are kept apart).
    """

    user_id: str
    name: str
    games: int
    wins: int
    points: int
    tally_games: int = 0
    tally_points: int = 0


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _dumps(value: Any) -> str:
    """Compact JSON; NaN/Infinity are rejected because other JSON readers cannot parse them."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _loads_obj(text: str) -> dict[str, Any]:
    return cast(dict[str, Any], json.loads(text))


def _known_id(game_id: int) -> bool:
    """Whether ``game_id`` can name a stored game at all (fits SQLite's INTEGER)."""
    return _MIN_ID <= game_id <= _MAX_ID


# state and meta are read as bytes: a value that is not valid UTF-8 would otherwise make
# sqlite3 raise while fetching, and one bad row would fail a whole listing.
_GAME_COLUMNS: Final = (
    "id, chat_key, status, version, CAST(state AS BLOB) AS state, CAST(meta AS BLOB) AS meta,"
    " deadline, created_at, updated_at"
)


# The status test is spelled exactly like the WHERE clause of games_one_active_per_chat: only then
# can SQLite use that partial unique index (one row per chat).  With bound parameters instead of
# literals it falls back to games_status and reads every running game's row on every call.
_ACTIVE_GAME_SQL: Final = (
    f"SELECT {_GAME_COLUMNS} FROM games WHERE chat_key = ? AND status IN ('lobby', 'running')"
)


# The chat's newest game of any status, through games_by_chat.
_LAST_GAME_SQL: Final = (
    f"SELECT {_GAME_COLUMNS} FROM games WHERE chat_key = ? ORDER BY id DESC LIMIT 1"
)


def _json_object(raw: bytes | None) -> dict[str, Any] | None:
    """The JSON object stored in ``raw``; raises ``ValueError`` if it is anything else."""
    if raw is None:
        return None
    value = json.loads(raw)  # bytes: JSONDecodeError or UnicodeDecodeError, both ValueErrors
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def _game(row: sqlite3.Row) -> GameRecord:
    """A record from a row; a row whose state or meta does not load comes back ``corrupt``."""
    try:
        state = _json_object(row["state"])
        meta = _json_object(row["meta"])
        if meta is None:
            raise ValueError("no meta")
        corrupt = False
    except ValueError:
        state, meta, corrupt = None, {}, True
    return GameRecord(
        id=row["id"],
        chat_key=row["chat_key"],
        status=row["status"],
        version=row["version"],
        state=state,
        meta=meta,
        deadline=row["deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        corrupt=corrupt,
    )


def _is_active_game_clash(exc: sqlite3.IntegrityError) -> bool:
    return "games.chat_key" in str(exc)


def _backend_failure(exc: BaseException) -> BaseException:
    """``exc`` as callers see it: sqlite3's own errors become :class:`StorageError`.

    The storage's own answers (:class:`VersionConflict`, :class:`GameNotFound`, ...) and bad
    values from the caller pass unchanged.
    """
    if not isinstance(exc, sqlite3.Error):
        return exc
    error = StorageError(f"database failure: {exc}")
    error.__cause__ = exc
    return error


# --------------------------------------------------------------------------------------------
# Group commit: requests, the transaction run on the connection thread, statistics
# --------------------------------------------------------------------------------------------

DEFAULT_MAX_BATCH: Final = 128
"""Most requests one transaction carries: bounds how long a transaction delays reads."""

_T = TypeVar("_T")

# One request's work inside the batch transaction, run on the connection thread inside the
# request's own savepoint.  It returns a value for its caller or raises to fail (alone).
_Apply = Callable[[sqlite3.Connection], Any]


@dataclass(eq=False)
class _Request:
    apply: _Apply
    future: asyncio.Future[Any]


@dataclass(frozen=True)
class WriteStats:
    """Counters of the group-commit writer, for tests and monitoring.

    ``transactions`` counts committed write transactions (each one fsync), ``requests`` the
    requests they carried (including ones that failed alone inside them) and ``largest_batch``
    the most requests one of them carried.  ``requests / transactions`` is the batching factor.
    """

    transactions: int = 0
    requests: int = 0
    largest_batch: int = 0


def _run_batch(conn: sqlite3.Connection, applies: Sequence[_Apply]) -> list[tuple[bool, Any]]:
    """Run one write transaction on the connection thread: ``(ok, value_or_exception)`` each.

    Either the transaction commits, with every request that succeeded in it, or this raises and
    nothing of it is kept.
    """
    outcomes: list[tuple[bool, Any]] = []
    try:
        conn.execute("BEGIN IMMEDIATE")
        for apply in applies:
            conn.execute("SAVEPOINT request")
            try:
                value = apply(conn)
            except Exception as exc:
                if not conn.in_transaction:
                    # Some errors (I/O, out of memory, ...) make SQLite roll back the whole
                    # transaction, taking the requests before this one with it: fail them all.
                    raise
                conn.execute("ROLLBACK TO request")
                conn.execute("RELEASE request")
                outcomes.append((False, exc))
            else:
                conn.execute("RELEASE request")
                outcomes.append((True, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    return outcomes


# --------------------------------------------------------------------------------------------
# Storage
# --------------------------------------------------------------------------------------------


class Storage:
    """All persistence for the bot.  Create with ``await Storage.open(path)``.

    One instance owns one connection.  Writes go through the group-commit queue described in
    the module docstring; reads are single statements on the connection's FIFO thread, so they
    never observe a transaction in progress.  Isolation between *processes* comes from SQLite
    itself.
    """

    def __init__(
        self,
        db: aiosqlite.Connection,
        clock: Callable[[], float],
        *,
        max_batch: int = DEFAULT_MAX_BATCH,
    ) -> None:
        """Use :meth:`open`; this only wires an already configured and migrated connection."""
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        self._db = db
        self._clock = clock
        self._max_batch = max_batch
        self._queue: deque[_Request] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._stats = WriteStats()
        self._closing = False  # no new writes accepted
        self._closed = False  # the connection is closed (or being closed)

    # -- lifecycle ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        busy_timeout: float = 10.0,
        max_batch: int = DEFAULT_MAX_BATCH,
    ) -> Storage:
        """Open (creating if needed) and migrate the database at ``path``.

        ``busy_timeout`` is how long, in seconds, to wait for another process's write lock before
        giving up; it is generous because giving up means dropping a player's move.
        ``max_batch`` caps how many write requests share one transaction.
        """
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module must not open transactions behind our back;
        # every transaction here is an explicit BEGIN IMMEDIATE.  timeout= is sqlite3's
        # busy_timeout: how long a statement waits for another connection's lock.
        db = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
        try:
            db.row_factory = sqlite3.Row
            # WAL: readers never block the writer and vice versa, and a commit is one
            # sequential append.  (":memory:" databases silently stay in "memory" mode.)
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            await _migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock, max_batch=max_batch)

    async def close(self) -> None:
        """Commit the writes already queued, then close the connection; idempotent.

        Calls made once closing has begun raise :class:`StorageError`.
        """
        self._closing = True
        writer = self._writer
        if writer is not None and not writer.done():
            # asyncio.wait, unlike awaiting the task, does not cancel the writer if this
            # close() is cancelled: the queued requests are still committed.
            await asyncio.wait([writer])
        if not self._closed:
            self._closed = True
            await self._db.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def write_stats(self) -> WriteStats:
        """How many transactions the writes took so far (see :class:`WriteStats`)."""
        return self._stats

    # -- plumbing -------------------------------------------------------------------------

    async def _write(self, apply: Callable[[sqlite3.Connection], _T]) -> _T:
        """Queue ``apply`` as one request of the next write transaction and await its outcome.

        Validation and serialisation belong before this call, so a bad value fails fast
        without ever reaching the queue.
        """
        if self._closing:
            raise StorageError("storage is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        self._queue.append(_Request(apply, future))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_loop(), name="storage-writer")
        # Cancelling this await cancels the future: a still-queued request is then dropped by
        # the writer, an already batched one is committed or not with its transaction.
        return await future

    async def _write_loop(self) -> None:
        """Turn the queue into transactions until it is empty (it is restarted on demand).

        Only ever awaits the connection thread, so a batch is whatever queued while the
        previous transaction was running -- never a wait for more requests to arrive.
        """
        queue = self._queue
        batch: list[_Request] = []
        try:
            while queue:
                batch = []
                while queue and len(batch) < self._max_batch:
                    request = queue.popleft()
                    if not request.future.done():  # else its caller was cancelled: withdrawn
                        batch.append(request)
                if batch:
                    await self._run(batch)
        except BaseException as exc:
            # Only the event loop shutting down cancels the writer (and nothing else should
            # escape _run).  A batch's transaction call still runs to COMMIT or ROLLBACK on the
            # connection thread, so its outcome is unknown -- what a cancelled caller is told --
            # and the requests still queued are withdrawn.  No caller is left waiting forever.
            for request in (*batch, *queue):
                if not request.future.done():
                    if isinstance(exc, asyncio.CancelledError):
                        request.future.cancel()
                    else:
                        request.future.set_exception(exc)
            queue.clear()
            raise

    async def _run(self, batch: list[_Request]) -> None:
        """Run one batch as one transaction, then tell each caller its own outcome."""
        applies = [r.apply for r in batch]
        try:
            outcomes = await self._on_connection(partial(_run_batch, applies=applies))
        except Exception as exc:  # the transaction failed as a whole: nothing was applied
            for request in batch:
                if not request.future.done():
                    request.future.set_exception(_backend_failure(exc))
            return
        s = self._stats
        self._stats = WriteStats(
            s.transactions + 1, s.requests + len(batch), max(s.largest_batch, len(batch))
        )
        for request, (ok, value) in zip(batch, outcomes, strict=True):
            if request.future.done():
                continue  # its caller was cancelled after the request was batched
            if ok:
                request.future.set_result(value)
            else:
                request.future.set_exception(_backend_failure(value))

    async def _on_connection(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``fn(connection)`` on aiosqlite's connection thread as ONE item of its FIFO queue.

        aiosqlite has no public call for this; ``_execute`` is the primitive that all of its own
        methods queue their work through, and ``_conn`` is the sqlite3 connection it owns.  (The
        test suite exercises this path on every write, so an aiosqlite change that breaks it
        cannot go unnoticed.)
        """
        db = self._db
        execute: Callable[[Callable[[], _T]], Awaitable[_T]] = db._execute
        return await execute(lambda: fn(db._conn))

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # One queue item: runs between write transactions, never inside one.
        if self._closed:
            raise StorageError("storage is closed")
        try:
            return list(await self._db.execute_fetchall(sql, params))
        except sqlite3.Error as exc:
            raise _backend_failure(exc) from exc

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    # -- settings -------------------------------------------------------------------------

    async def get_settings(self, chat_key: str) -> dict[str, Any] | None:
        row = await self._fetchone("SELECT data FROM settings WHERE chat_key = ?", (chat_key,))
        return None if row is None else _loads_obj(row["data"])

    async def put_settings(self, chat_key: str, settings: dict[str, Any]) -> None:
        """Replace the chat's settings wholesale (the caller merges if it wants to)."""
        params = (chat_key, _dumps(settings), self._clock())

        def apply(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO settings (chat_key, data, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (chat_key) DO UPDATE"
                " SET data = excluded.data, updated_at = excluded.updated_at",
                params,
            )

        await self._write(apply)

    # -- games ----------------------------------------------------------------------------

    async def create_game(
        self, chat_key: str, meta: dict[str, Any], *, deadline: float | None = None
    ) -> GameRecord:
        """Open a lobby (version 0, no engine state yet), due to expire at ``deadline``.

        Raises :class:`GameExists` if the chat already has a lobby or running game; the partial
        unique index decides, so this is race-free across processes.
        """
        meta_text = _dumps(meta)
        now = self._clock()

        def apply(conn: sqlite3.Connection) -> int | None:
            try:
                cur = conn.execute(
                    "INSERT INTO games (chat_key, status, version, state, meta, deadline,"
                    " created_at, updated_at) VALUES (?, 'lobby', 0, NULL, ?, ?, ?, ?)",
                    (chat_key, meta_text, deadline, now, now),
                )
            except sqlite3.IntegrityError as exc:
                if _is_active_game_clash(exc):
                    raise GameExists(chat_key) from exc
                raise
            return cur.lastrowid

        game_id = await self._write(apply)
        assert game_id is not None
        return GameRecord(
            id=game_id,
            chat_key=chat_key,
            status="lobby",
            version=0,
            state=None,
            meta=_loads_obj(meta_text),
            deadline=deadline,
            created_at=now,
            updated_at=now,
        )

    async def active_game(self, chat_key: str) -> GameRecord | None:
        """The chat's lobby or running game, if any."""
        row = await self._fetchone(_ACTIVE_GAME_SQL, (chat_key,))
        return None if row is None else _game(row)

    async def last_game(self, chat_key: str) -> GameRecord | None:
        """The chat's newest game, whatever its status (None if it never had one)."""
        row = await self._fetchone(_LAST_GAME_SQL, (chat_key,))
        return None if row is None else _game(row)

    async def get_game(self, game_id: int) -> GameRecord | None:
        if not _known_id(game_id):
            return None
        row = await self._fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def active_games(self) -> list[GameRecord]:
        """Every running game in every chat, oldest first.

        Lobbies are deliberately excluded: they carry no engine state (`open_games` has both).
        """
        rows = await self._fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'running' ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first: the deadlines to re-arm after a restart.

        A lobby's deadline is when it expires unstarted, a running game's when its computer
        players move or its turn times out.
        """
        rows = await self._fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'running') ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def unrecorded_finished_games(self) -> list[GameRecord]:
        """Finished games whose match statistics were never recorded, oldest first.

        A finished game is recorded when a ``matches`` row names it (:meth:`commit` with
        ``match=`` or :meth:`record_match`).  Start-up recovers the statistics of a match whose
        last move was committed without them, by recording them now.
        """
        rows = await self._fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM matches WHERE matches.game_id = games.id)"
            " ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def mark_broken(self, game_id: int) -> None:
        """Set a game aside whose stored state cannot be loaded; its chat may start a new one.

        The status becomes ``broken`` and the deadline is cleared; state, meta and log stay as
        they were, for the operator to inspect.  No version check: whatever the row holds, it
        is not playable.  Raises :class:`GameNotFound` for an unknown id.
        """
        if not _known_id(game_id):
            raise GameNotFound(game_id)
        now = self._clock()

        def apply(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                "UPDATE games SET status = 'broken', deadline = NULL, version = version + 1,"
                " updated_at = ? WHERE id = ?",
                (now, game_id),
            )
            if cur.rowcount != 1:
                raise GameNotFound(game_id)

        await self._write(apply)

    async def commit(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: dict[str, Any] | None,
        meta: dict[str, Any],
        status: str,
        log: Sequence[LogEntry] = (),
        deadline: float | None = None,
        match: MatchRecord | None = None,
    ) -> GameRecord:
        """Atomically replace the game's row and append ``log``, producing version + 1.

        With ``match``, the finished match's statistics are recorded in the same transaction,
        exactly as :meth:`record_match` would (at most once per game), so the last move and its
        statistics are stored together or not at all.

        Raises :class:`VersionConflict` -- and changes nothing -- if the stored version is not
        ``expected_version``, i.e. another coroutine or process committed since the caller
        loaded the game.  Raises :class:`GameNotFound` for an unknown id and :class:`GameExists`
        if re-opening a finished game would give its chat two open games.

        Concurrent calls share transactions (group commit; see the module docstring): the call
        returns once the transaction holding it has committed, and fails alone if it fails.
        """
        if status not in STATUSES:
            raise ValueError(f"unknown game status {status!r}")
        if not _known_id(game_id):
            raise GameNotFound(game_id)
        # Serialise before queueing: a bad state must fail fast, not inside a transaction.
        state_text = None if state is None else _dumps(state)
        meta_text = _dumps(meta)
        now = self._clock()
        record = (
            None if match is None else _match_writer(game_id, match.results, match.scoring, now)
        )
        new_version = expected_version + 1
        log_rows = [
            (game_id, new_version, seq, e.actor, e.action, e.at or now) for seq, e in enumerate(log)
        ]

        def apply(conn: sqlite3.Connection) -> sqlite3.Row:
            try:
                cur = conn.execute(
                    "UPDATE games SET version = version + 1, status = ?, state = ?, meta = ?,"
                    " deadline = ?, updated_at = ? WHERE id = ? AND version = ?",
                    (status, state_text, meta_text, deadline, now, game_id, expected_version),
                )
            except sqlite3.IntegrityError as exc:
                if _is_active_game_clash(exc):
                    raise GameExists(_chat_of(conn, game_id)) from exc
                raise
            if cur.rowcount != 1:
                found = conn.execute(
                    "SELECT version FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                if found is None:
                    raise GameNotFound(game_id)
                raise VersionConflict(game_id, expected_version, found["version"])
            conn.executemany(
                "INSERT INTO game_log (game_id, version, seq, actor, action, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                log_rows,
            )
            row: sqlite3.Row = conn.execute(
                "SELECT chat_key, created_at FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if record is not None:
                record(conn, row["chat_key"])
            return row

        row = await self._write(apply)
        return GameRecord(
            id=game_id,
            chat_key=row["chat_key"],
            status=status,
            version=new_version,
            state=None if state_text is None else _loads_obj(state_text),
            meta=_loads_obj(meta_text),
            deadline=deadline,
            created_at=row["created_at"],
            updated_at=now,
        )

    async def log(self, game_id: int) -> list[LogEntry]:
        """The game's applied actions in the order they were committed."""
        if not _known_id(game_id):
            return []
        rows = await self._fetchall(
            "SELECT actor, action, version, at FROM game_log WHERE game_id = ?"
            " ORDER BY version, seq",
            (game_id,),
        )
        return [LogEntry(r["actor"], r["action"], r["version"], r["at"]) for r in rows]

    # -- adapter refs ---------------------------------------------------------------------

    async def put_ref(self, game_id: int, key: str, value: str) -> None:
        """Store an adapter's fact about a game; :class:`GameNotFound` for an unknown game."""
        if not _known_id(game_id):
            raise GameNotFound(game_id)

        def apply(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(
                    "INSERT INTO game_refs (game_id, key, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                    (game_id, key, value),
                )
            except sqlite3.IntegrityError as exc:  # the foreign key: no such game
                raise GameNotFound(game_id) from exc

        await self._write(apply)

    async def get_ref(self, game_id: int, key: str) -> str | None:
        if not _known_id(game_id):
            return None
        row = await self._fetchone(
            "SELECT value FROM game_refs WHERE game_id = ? AND key = ?", (game_id, key)
        )
        return None if row is None else str(row["value"])

    async def refs(self, game_id: int) -> dict[str, str]:
        if not _known_id(game_id):
            return {}
        rows = await self._fetchall(
            "SELECT key, value FROM game_refs WHERE game_id = ? ORDER BY key", (game_id,)
        )
        return {r["key"]: r["value"] for r in rows}

    # -- statistics -----------------------------------------------------------------------

    async def record_match(
        self,
        chat_key: str,
        game_id: int,
        results: Sequence[PlayerResult],
        *,
        scoring: Scoring = Scoring.WINNER,
    ) -> None:
        """Add a finished game's results to the chat's statistics, at most once per game.

        Idempotent so the service may safely retry after a crash between finishing the game and
        recording it (:meth:`commit` with ``match=`` does both at once).  A player's stored name
        is refreshed to the latest one seen.  `scoring` is how the game counted points: its
        points go to that mode's sum (see :class:`StatRow`).  Raises :class:`GameNotFound` for
        an unknown game.
        """
        if not _known_id(game_id):
            raise GameNotFound(game_id)
        record = _match_writer(game_id, results, scoring, self._clock())
        await self._write(lambda conn: record(conn, chat_key))

    async def leaderboard(
        self, chat_key: str, limit: int = 10, *, scoring: Scoring = Scoring.WINNER
    ) -> list[StatRow]:
        """Top players of a chat whose games may have been scored both ways.

        Most wins first: a win means the same under both scorings, so wins are the one measure
        that compares a whole history.  Equal wins are settled by points, each sum in its own
        direction and the chat's current `scoring` first: most `winner` points, or fewest
        `tally` points among those who played tally games (no tally games is not a perfect tally
        score); then the other mode's points; then fewer games, name and id, so the order is
        total and stable.  A chat that only ever played one mode is thus ranked by wins, then
        by its own points in the direction its scoring counts them.
        """
        by_mode = {
            Scoring.WINNER: "points DESC",
            Scoring.TALLY: "tally_games = 0, tally_points ASC",
        }
        other = Scoring.TALLY if scoring is Scoring.WINNER else Scoring.WINNER
        rows = await self._fetchall(
            f"SELECT {_STAT_COLUMNS} FROM player_stats WHERE chat_key = ?"
            f" ORDER BY wins DESC, {by_mode[scoring]}, {by_mode[other]},"
            " games ASC, name ASC, user_id ASC LIMIT ?",
            (chat_key, limit),
        )
        return [_stat(r) for r in rows]

    async def player_stats(self, chat_key: str, user_id: str) -> StatRow | None:
        row = await self._fetchone(
            f"SELECT {_STAT_COLUMNS} FROM player_stats WHERE chat_key = ? AND user_id = ?",
            (chat_key, user_id),
        )
        return None if row is None else _stat(row)


def _match_writer(
    game_id: int, results: Sequence[PlayerResult], scoring: Scoring, recorded_at: float
) -> Callable[[sqlite3.Connection, str], None]:
    """What recording a match writes, checked and serialised before any transaction.

    The returned function adds the match to the chat's statistics unless the game already has
    a ``matches`` row (that row is what makes recording idempotent).
    """
    ids = [r.user_id for r in results]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate players in results of game {game_id}")
    payload = _dumps(
        [{"user_id": r.user_id, "name": r.name, "won": r.won, "points": r.points} for r in results]
    )
    tally = scoring is Scoring.TALLY

    def record(conn: sqlite3.Connection, chat_key: str) -> None:
        try:
            cur = conn.execute(
                "INSERT OR IGNORE INTO matches (game_id, chat_key, results, recorded_at, scoring)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, chat_key, payload, recorded_at, scoring.value),
            )
        except sqlite3.IntegrityError as exc:  # the foreign key: no such game
            raise GameNotFound(game_id) from exc
        if cur.rowcount == 0:
            return  # already recorded
        conn.executemany(
            "INSERT INTO player_stats"
            " (chat_key, user_id, name, games, wins, points, tally_games, tally_points)"
            " VALUES (?, ?, ?, 1, ?, ?, ?, ?)"
            " ON CONFLICT (chat_key, user_id) DO UPDATE SET name = excluded.name,"
            " games = games + 1, wins = wins + excluded.wins,"
            " points = points + excluded.points,"
            " tally_games = tally_games + excluded.tally_games,"
            " tally_points = tally_points + excluded.tally_points",
            [
                (
                    chat_key,
                    r.user_id,
                    r.name,
                    int(r.won),
                    0 if tally else r.points,
                    int(tally),
                    r.points if tally else 0,
                )
                for r in results
            ],
        )

    return record


def _chat_of(conn: sqlite3.Connection, game_id: int) -> str:
    row = conn.execute("SELECT chat_key FROM games WHERE id = ?", (game_id,)).fetchone()
    return "?" if row is None else str(row["chat_key"])


_STAT_COLUMNS: Final = "user_id, name, games, wins, points, tally_games, tally_points"


def _stat(row: sqlite3.Row) -> StatRow:
    return StatRow(
        row["user_id"],
        row["name"],
        row["games"],
        row["wins"],
        row["points"],
        row["tally_games"],
        row["tally_points"],
    )


async def _migrate(db: aiosqlite.Connection) -> None:
    """Bring the schema up to :data:`SCHEMA_VERSION`, all pending steps in one transaction.

    The up-to-date case only reads ``user_version`` and takes no write lock, so restarting one
    bot process never stalls behind another's commit.  Otherwise the version is re-read under
    ``BEGIN IMMEDIATE`` because another process may have migrated while we waited for the lock.
    """
    migrations = MIGRATIONS  # looked up at call time so tests can substitute a broken list
    target = len(migrations)
    if await _user_version(db) == target:
        return
    # A migration may rebuild a table others refer to (see _V5): foreign keys are off while it
    # runs (the pragma is a no-op inside a transaction) and checked as a whole before COMMIT.
    await db.execute("PRAGMA foreign_keys = OFF")
    try:
        await db.execute("BEGIN IMMEDIATE")
        current = await _user_version(db)
        if current > target:
            raise SchemaTooNew(
                f"database schema is version {current}, this code only knows {target}"
            )
        for migration in migrations[current:]:
            for statement in migration:
                await db.execute(statement)
        if list(await db.execute_fetchall("PRAGMA foreign_key_check")):
            raise sqlite3.IntegrityError("migration broke a foreign key")
        # PRAGMA does not accept bound parameters; target is an int we computed.
        await db.execute(f"PRAGMA user_version = {target:d}")
        await db.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.OperationalError):  # BEGIN itself may have failed (busy)
            await db.execute("ROLLBACK")
        raise
    finally:
        await db.execute("PRAGMA foreign_keys = ON")


async def _user_version(db: aiosqlite.Connection) -> int:
    rows = list(await db.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])
