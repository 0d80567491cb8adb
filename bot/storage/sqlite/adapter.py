"""The SQLite adapter of the storage port: the embedded default, one bot process per file.

How it keeps the port's promises (:mod:`bot.storage.port`):

* **No double moves.**  :meth:`SqliteStorage.commit` runs ``UPDATE ... WHERE id=? AND
  version=?`` inside a ``BEGIN IMMEDIATE`` transaction and checks the row count, so two
  writers can never both apply a move on top of the same version.
* **Durable before visible.**  ``synchronous=FULL`` makes SQLite fsync the WAL on every commit
  (with ``NORMAL`` the last commits may roll back in a power loss, which would desynchronise
  the chat and the state), and a caller learns its outcome only after ``COMMIT`` returned.
  Group commit (:mod:`.group_commit`) shares one fsync among all the writes that queued up
  meanwhile, each still succeeding or failing alone.
* **Waiting, not failing.**  A busy timeout makes a write wait for another connection's lock
  rather than fail at once; past it, the write fails with :class:`StorageError`.
* **Reads never wait behind a writer.**  Writes run on one connection with a thread of its own
  (:class:`ConnectionThread`); while any write is queued or running, reads run on a second
  connection with its own thread.  In WAL mode a reader sees the last committed state and is
  never blocked by a writer, so a slow or lock-waiting transaction never delays a read for
  another chat.  When no write is queued or running, a read goes to the idle write connection
  instead: its page cache is still warm, while another connection must re-read every page it
  needs after each commit (SQLite drops a connection's whole cache when the database changed),
  which cost about a fifth more CPU per move when one game plays alone.  Either way nothing
  queues ahead of the read.  Every read is one statement (one consistent snapshot), never
  inside a transaction, and a caller that reads after its write returned sees that write (it
  was committed before the write returned).  A ``:memory:`` database exists only inside its
  one connection, so there every read queues on the write connection's thread, between
  transactions.
* **One process per file.**  An exclusive lock beside the database (:mod:`.file_lock`) makes a
  second process fail at :meth:`SqliteStorage.open` with :class:`DatabaseInUse`.  So a claim
  on a deadline found when the file is opened with the lock was left by a process that is
  gone: it is taken back at once, and its game moves now rather than when the lease runs out.

Schema changes are ``.sql`` files applied when the database is opened (:mod:`.migrate`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from bot.storage import codec
from bot.storage.port import (
    GameNotFound,
    GameRecord,
    LogEntry,
    MatchRecord,
    OutboxEntry,
    PlayerResult,
    SendSlot,
    StatRow,
    StorageError,
    StoragePort,
)
from bot.storage.sqlite import game_log, games, refs, stats
from bot.storage.sqlite import outbox as outbox_table
from bot.storage.sqlite import settings as chat_settings
from bot.storage.sqlite.connection import ConnectionThread
from bot.storage.sqlite.file_lock import FileLock
from bot.storage.sqlite.group_commit import (
    DEFAULT_MAX_BATCH,
    GroupCommit,
    WriteStats,
    backend_failure,
)
from bot.storage.sqlite.migrate import migrate
from core.rules import Scoring

_T = TypeVar("_T")

MEMORY = ":memory:"

Params = Sequence[Any] | Mapping[str, Any]


class SqliteStorage(StoragePort):
    """All persistence for the bot in one SQLite file.  Create with ``await .open(path)``."""

    def __init__(
        self,
        writer: ConnectionThread,
        reader: ConnectionThread,
        clock: Callable[[], float],
        *,
        max_batch: int = DEFAULT_MAX_BATCH,
        lock: FileLock | None = None,
    ) -> None:
        """Use :meth:`open`; this only wires connections already configured and migrated."""
        self._writer = writer
        self._reader = reader
        self._group = GroupCommit(writer, max_batch=max_batch)
        self._clock = clock
        self._lock = lock
        self._closed = False

    # -- lifecycle ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        busy_timeout: float = 10.0,
        max_batch: int = DEFAULT_MAX_BATCH,
        exclusive: bool = True,
    ) -> SqliteStorage:
        """Open (creating if needed) and migrate the database at ``path``.

        ``busy_timeout`` is how long, in seconds, to wait for another connection's write lock
        before giving up; it is generous because giving up means refusing a player's move.
        ``max_batch`` caps how many write requests share one transaction.  ``exclusive=False``
        skips the one-process lock: only for tools and tests that share a file on purpose
        (moves stay safe through the version check).  Raises :class:`DatabaseInUse` if another
        process holds the database, :class:`StorageError` if it cannot be opened.
        """
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        memory = str(path) == MEMORY
        lock = None
        if not memory:
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            if exclusive:
                lock = FileLock.beside(path)
        opened: list[ConnectionThread] = []
        try:
            writer = await ConnectionThread.open(
                path, name="storage-write", busy_timeout=busy_timeout, setup=_setup_writer
            )
            opened.append(writer)
            reader = writer
            if not memory:
                reader = await ConnectionThread.open(
                    path, name="storage-read", busy_timeout=busy_timeout, setup=_setup_reader
                )
                opened.append(reader)
            if lock is not None:  # alone on the file: every claim found was a dead process's
                await writer.run(games.release_claims)
        except BaseException as exc:
            for connection in opened:
                await connection.close()
            if lock is not None:
                lock.release()
            if isinstance(exc, sqlite3.Error):
                raise backend_failure(exc) from exc
            raise
        return cls(writer, reader, clock, max_batch=max_batch, lock=lock)

    async def close(self) -> None:
        """Commit the writes already queued, then close the connections and release the
        database; idempotent.  Calls made once closing has begun raise :class:`StorageError`."""
        await self._group.close()
        if not self._closed:
            self._closed = True
            try:
                await self._reader.close()
                await self._writer.close()
            finally:
                if self._lock is not None:
                    self._lock.release()

    async def __aenter__(self) -> SqliteStorage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def sole_process(self) -> bool:
        """True while this storage holds the file's lock (or the database is in memory):
        no other process can use the database."""
        return self._lock is not None or self._reader is self._writer

    @property
    def write_stats(self) -> WriteStats:
        """How many transactions the writes took so far (see :class:`WriteStats`)."""
        return self._group.stats

    # -- plumbing -------------------------------------------------------------------------

    async def _write(self, apply: Callable[[sqlite3.Connection], _T]) -> _T:
        return await self._group.write(apply)

    async def _rows(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """One read statement: one snapshot of committed data, on a connection where nothing
        is queued ahead of it (see the module docstring)."""
        if self._closed:
            raise StorageError("storage is closed")
        connection = self._writer if self._group.idle else self._reader
        try:
            return await connection.run(partial(_fetchall, sql=sql, params=params))
        except sqlite3.Error as exc:
            raise backend_failure(exc) from exc

    async def _row(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

    async def _game(self, sql: str, params: Params = ()) -> GameRecord | None:
        row = await self._row(sql, params)
        return None if row is None else codec.game_record(row)

    async def _games(self, sql: str) -> list[GameRecord]:
        return [codec.game_record(row) for row in await self._rows(sql)]

    # -- settings -------------------------------------------------------------------------

    async def get_settings(self, chat_key: str) -> dict[str, Any] | None:
        return chat_settings.decode(await self._row(chat_settings.GET, (chat_key,)))

    async def put_settings(self, chat_key: str, settings: dict[str, Any]) -> None:
        """Replace the chat's settings wholesale (the caller merges if it wants to)."""
        await self._write(chat_settings.put(chat_key, codec.dumps(settings), self._clock()))

    # -- games ----------------------------------------------------------------------------

    async def create_game(
        self,
        chat_key: str,
        meta: dict[str, Any],
        *,
        deadline: float | None = None,
        outbox: Sequence[dict[str, Any]] = (),
        claim: float = 0.0,
    ) -> GameRecord:
        """Open a lobby (version 0, no engine state yet), due to expire at ``deadline``.

        Raises :class:`GameExists` if the chat already has a lobby or running game; the partial
        unique index decides, so this is race-free across processes.  Each ``outbox`` payload
        becomes an outbox entry of the new game in the same transaction, claimed until
        ``claim``; the returned record's ``outbox`` holds their ids.
        """
        meta_text = codec.dumps(meta)
        now = self._clock()
        payloads = [codec.dumps(payload) for payload in outbox]
        create = games.create(chat_key, meta_text, deadline, now)

        def apply(conn: sqlite3.Connection) -> tuple[int, list[int]]:
            game_id = create(conn)
            assert game_id is not None
            c = codec.Commit(
                game_id, "lobby", 0, None, meta_text, deadline, now, [], payloads, claim
            )
            return game_id, outbox_table.append(conn, chat_key, c)

        game_id, ids = await self._write(apply)
        return GameRecord(
            game_id, chat_key, "lobby", 0, None, codec.json_object(meta_text) or {},
            deadline, now, now, outbox=tuple(ids),
        )  # fmt: skip

    async def get_game(self, game_id: int) -> GameRecord | None:
        if not codec.known_id(game_id):
            return None
        return await self._game(games.BY_ID, (game_id,))

    async def active_game(self, chat_key: str) -> GameRecord | None:
        """The chat's lobby or running game, if any."""
        return await self._game(games.ACTIVE_GAME, (chat_key,))

    async def last_game(self, chat_key: str) -> GameRecord | None:
        """The chat's newest game, whatever its status (None if it never had one)."""
        return await self._game(games.LAST_GAME, (chat_key,))

    async def active_games(self) -> list[GameRecord]:
        """Every running game in every chat, oldest first.

        Lobbies are deliberately excluded: they carry no engine state (`open_games` has both).
        """
        return await self._games(games.RUNNING)

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first: the deadlines to re-arm after a restart.

        A lobby's deadline is when it expires unstarted, a running game's when its computer
        players move or its turn times out.  A corrupt row is listed (``corrupt=True``), never
        raised, so the bot starts with every good game.
        """
        return await self._games(games.OPEN)

    async def unrecorded_finished_games(self) -> list[GameRecord]:
        """Finished games whose match statistics were never recorded, oldest first.

        A finished game is recorded when a ``matches`` row names it (:meth:`commit` with
        ``match=`` or :meth:`record_match`, even with no results).  Start-up recovers the
        statistics of a match whose last move was committed without them.
        """
        return await self._games(games.UNRECORDED_FINISHED)

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
        outbox: Sequence[dict[str, Any]] = (),
        claim: float = 0.0,
    ) -> GameRecord:
        """Atomically replace the game's row and append ``log``, producing version + 1.

        With ``match``, the finished match's statistics are recorded in the same transaction,
        exactly as :meth:`record_match` would (at most once per game), so the last move and its
        statistics are stored together or not at all.

        Raises :class:`VersionConflict` -- and changes nothing -- if the stored version is not
        ``expected_version``, i.e. another coroutine or process committed since the caller
        loaded the game.  Raises :class:`GameNotFound` for an unknown id and :class:`GameExists`
        if re-opening a finished game would give its chat two open games.

        Each ``outbox`` payload becomes an outbox entry in the same transaction, claimed until
        ``claim``; the returned record's ``outbox`` holds their ids.

        Concurrent calls share transactions (group commit): the call returns once the
        transaction holding it has committed, and fails alone if it fails.
        """
        # Checked and serialised before queueing: a bad state fails fast, not in a transaction.
        c = codec.prepare_commit(
            game_id, expected_version, state=state, meta=meta, status=status, log=log,
            deadline=deadline, now=self._clock(), outbox=outbox, claim=claim,
        )  # fmt: skip
        record = (
            None
            if match is None
            else stats.recorder(game_id, match.results, match.scoring, recorded_at=c.now)
        )
        update = games.update(
            game_id, expected_version, status=status, state=c.state, meta=c.meta,
            deadline=deadline, now=c.now,
        )  # fmt: skip

        def apply(conn: sqlite3.Connection) -> tuple[sqlite3.Row, list[int]]:
            row: sqlite3.Row = update(conn)
            game_log.append(conn, c.log)
            if record is not None:
                record(conn, row["chat_key"])
            return row, outbox_table.append(conn, row["chat_key"], c)

        row, ids = await self._write(apply)
        return c.record(row["chat_key"], row["created_at"], ids)

    async def mark_broken(self, game_id: int) -> None:
        """Set a game aside whose stored state cannot be loaded; its chat may start a new one.

        The status becomes ``broken`` and the deadline is cleared; state, meta and log stay as
        they were, for the operator to inspect.  No version check: whatever the row holds, it
        is not playable (the version still moves on, so a move loaded before is refused).
        Raises :class:`GameNotFound` for an unknown id.
        """
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        await self._write(games.mark_broken(game_id, self._clock()))

    async def log(self, game_id: int) -> list[LogEntry]:
        """The game's applied actions in the order they were committed."""
        if not codec.known_id(game_id):
            return []
        return game_log.decode(await self._rows(game_log.BY_GAME, (game_id,)))

    # -- the outbox ---------------------------------------------------------------------

    async def claim_outbox(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[OutboxEntry]:
        """Unsent entries of the chats whose key starts with ``prefix`` whose claim ran out,
        oldest first, each claimed until ``now + lease`` (see :mod:`.outbox`)."""
        return await self._write(outbox_table.claim(prefix, now, lease, limit))

    async def extend_outbox(self, entry_ids: Sequence[int], until: float) -> None:
        """Keep the claims of entries still being delivered until at least ``until``."""
        known = [i for i in entry_ids if codec.known_id(i)]
        if known:
            await self._write(outbox_table.extend(known, until))

    async def finish_outbox(self, entry_id: int, now: float) -> None:
        """Mark an entry sent; idempotent (the first time is kept)."""
        if codec.known_id(entry_id):
            await self._write(outbox_table.finish(entry_id, now))

    async def retry_outbox(self, entry_id: int, at: float) -> None:
        """Count a failed delivery; the entry may be claimed again from ``at``."""
        if codec.known_id(entry_id):
            await self._write(outbox_table.retry(entry_id, at))

    async def take_send_slot(
        self, chat_key: str, clock: Callable[[], float], count: int, period: float, flight: float
    ) -> SendSlot | float:
        """One send of the chat's shared budget: taken and recorded in flight, or the seconds
        to wait (see the port)."""
        return await self._write(outbox_table.take_slot(chat_key, clock, count, period, flight))

    async def land_send_slot(self, slot: SendSlot, at: float) -> None:
        """The slot's call completed at ``at``: its send is recorded then."""
        await self._write(outbox_table.land_slot(slot, at))

    # -- deadlines claimed across processes ----------------------------------------------

    async def claim_deadlines(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[tuple[str, float]]:
        """(chat key, deadline) of the open games of chats whose key starts with ``prefix``
        whose deadline is due (``<= now``) and not claimed (its claim ran out by ``now``),
        earliest first, each claimed until ``now + lease``.

        One write transaction, so two claimers -- coroutines or processes on the file -- never
        get the same deadline while its claim runs.  Any commit of the game clears its claim.
        """
        return await self._write(games.claim_deadlines(prefix, now, now + lease, limit))

    async def next_deadline(self, prefix: str) -> float | None:
        """When the earliest deadline of the open games of chats whose key starts with
        ``prefix`` can be claimed: its time, or for a claimed one when its claim runs out."""
        row = await self._row(games.NEXT_DEADLINE, {"prefix": prefix})
        return None if row is None or row[0] is None else float(row[0])

    # -- adapter refs ---------------------------------------------------------------------

    async def put_ref(self, game_id: int, key: str, value: str) -> None:
        """Store an adapter's fact about a game; :class:`GameNotFound` for an unknown game."""
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        await self._write(refs.put(game_id, key, value))

    async def get_ref(self, game_id: int, key: str) -> str | None:
        if not codec.known_id(game_id):
            return None
        row = await self._row(refs.ONE, (game_id, key))
        return None if row is None else str(row["value"])

    async def refs(self, game_id: int) -> dict[str, str]:
        if not codec.known_id(game_id):
            return {}
        return {r["key"]: r["value"] for r in await self._rows(refs.ALL, (game_id,))}

    async def claim_ref(
        self, game_id: int, key: str, value: str, *, replacing: str | None = None
    ) -> str | None:
        """Store ``value`` only if the ref is still ``replacing`` (None: absent); the value
        it holds afterwards. :class:`GameNotFound` for an unknown game."""
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        stored: str | None = await self._write(refs.claim(game_id, key, value, replacing))
        return stored

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

        Idempotent so that start-up may record a match whose last move was committed without
        its statistics (:meth:`commit` with ``match=`` does both at once).  A player's stored
        name is refreshed to the latest one seen.  `scoring` is how the game counted points:
        its points go to that mode's sum (see :class:`StatRow`).  Raises
        :class:`GameNotFound` for an unknown game.
        """
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        record = stats.recorder(game_id, results, scoring, recorded_at=self._clock())
        await self._write(lambda conn: record(conn, chat_key))

    async def leaderboard(
        self, chat_key: str, limit: int = 10, *, scoring: Scoring = Scoring.WINNER
    ) -> list[StatRow]:
        """Top players of a chat whose games may have been scored both ways (see
        :func:`bot.storage.sqlite.stats.leaderboard_sql` for the order)."""
        rows = await self._rows(stats.leaderboard_sql(scoring), (chat_key, limit))
        return [stats.decode(r) for r in rows]

    async def player_stats(self, chat_key: str, user_id: str) -> StatRow | None:
        row = await self._row(stats.PLAYER, (chat_key, user_id))
        return None if row is None else stats.decode(row)


Storage = SqliteStorage
"""The name the bot has always used for its (SQLite) storage."""


def _setup_writer(conn: sqlite3.Connection) -> None:
    # WAL: readers never block the writer and vice versa, and a commit is one sequential
    # append.  (":memory:" databases silently stay in "memory" mode.)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)


def _setup_reader(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA query_only = ON")  # this connection only ever reads


def _fetchall(conn: sqlite3.Connection, sql: str, params: Params) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()
