"""The PostgreSQL adapter of the storage port: several bot processes over one database.

How it keeps the port's promises (:mod:`bot.storage.port`):

* **No double moves, from any process.**  :meth:`PostgresStorage.commit` is one transaction
  -- one statement, one round trip (:mod:`.commit`) -- that locks the game's row, checks the
  version and writes state, meta, status, deadline, the log rows, the outbox entries and --
  with ``match=`` -- the statistics.  A second
  writer of the same game, in this process or another, waits for the row lock, then reads the
  new version and gets :class:`VersionConflict`.  The database itself serialises each game, so
  any process may apply any move and none can apply one twice; other games never wait.
* **Durable before visible.**  A caller learns its outcome only after ``COMMIT`` returned,
  and PostgreSQL's default ``synchronous_commit = on`` flushes the WAL before it does.  There
  is no hand-made group commit as in the SQLite adapter: PostgreSQL already shares one WAL
  flush among the transactions that commit together, and each transaction runs on its own
  pooled connection, so concurrent moves do not queue behind one another in this process.
* **Waiting, not failing.**  ``lock_timeout`` bounds how long a statement waits for another
  connection's lock (the SQLite busy timeout's twin); past it the call fails with
  :class:`StorageError`.
* **One open game per chat** through the partial unique index ``games_one_active_per_chat``.
* **Faults are StorageError.**  Every asyncpg or connection failure becomes a
  :class:`StorageError` whose ``__cause__`` is the original; a value the driver cannot encode
  is the caller's and raises ``ValueError`` (:func:`backend_failure`).
* **Cancellation.**  A write, once started, runs to its ``COMMIT`` or ``ROLLBACK`` in a task of
  its own; a cancelled caller gets its ``CancelledError`` only after that, so the write is all
  or nothing and a reload afterwards sees which.  :meth:`close` waits for such writes.

Unlike SQLite, any number of processes may open the same database at once.  Schema changes are
``.sql`` files applied when the storage opens (:mod:`.migrate`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from types import TracebackType
from typing import Any, Final, TypeVar

import asyncpg

from bot.storage import codec
from bot.storage.port import (
    KEEP_SENT,
    GameExists,
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
from bot.storage.postgres import listen
from bot.storage.postgres.commit import ONE_ACTIVE, moved
from bot.storage.postgres.migrate import migrate
from bot.storage.postgres.presence import GONE, Presence
from bot.storage.ranking import leaderboard_order
from core.rules import Scoring

_T = TypeVar("_T")

Work = Callable[[asyncpg.Connection], Awaitable[_T]]

_GAME: Final = "id, chat_key, status, version, state, meta, deadline, created_at, updated_at"
_BY_ID: Final = f"SELECT {_GAME} FROM games WHERE id = $1"
# Spelled like the partial unique index's predicate, so the planner can use that index.
_ACTIVE: Final = f"SELECT {_GAME} FROM games WHERE chat_key = $1 AND status IN ('lobby', 'running')"
_LAST: Final = f"SELECT {_GAME} FROM games WHERE chat_key = $1 ORDER BY id DESC LIMIT 1"
_RUNNING: Final = f"SELECT {_GAME} FROM games WHERE status = 'running' ORDER BY id"
_OPEN: Final = f"SELECT {_GAME} FROM games WHERE status IN ('lobby', 'running') ORDER BY id"
_UNRECORDED: Final = (
    f"SELECT {_GAME} FROM games WHERE status = 'finished'"
    " AND NOT EXISTS (SELECT 1 FROM matches WHERE matches.game_id = games.id) ORDER BY id"
)
# "Open games of the chats whose key starts with $1", the status spelled like the partial index.
_OPEN_OF_PREFIX: Final = "status IN ('lobby', 'running') AND starts_with(chat_key, $1)"
_STATS: Final = "user_id, name, games, wins, points, tally_games, tally_points"
_ENTRY: Final = "id, chat_key, game_id, version, payload, created_at, attempts"
# Unsent, unclaimed entries of the chats with a key prefix, oldest first, locked so that a
# concurrent claimer skips them; an entry waits while an older unsent entry of its game is still
# claimed (being delivered, or backing off).
_CLAIMABLE: Final = (
    f"SELECT {_ENTRY} FROM outbox AS o WHERE sent_at IS NULL AND claimed_until <= $2"
    " AND starts_with(chat_key, $1)"
    " AND NOT (game_id IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS e"
    " WHERE e.game_id = o.game_id AND e.id < o.id AND e.sent_at IS NULL"
    " AND e.claimed_until > $2))"
    " ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED"
)

_FAILURES: Final = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What the pool does to a connection handed back, beyond rolling back an open
    transaction: nothing. Its default (RESET ALL, CLOSE ALL, UNLISTEN *, and unlocking every
    advisory lock) costs a round trip per use, and the storage leaves none of those behind:
    its settings are the connection's own from the start, its advisory locks end with their
    transaction, it opens no cursor, and the one connection that listens (`listen.follow`)
    stops listening before it goes back."""


def backend_failure(exc: BaseException) -> BaseException:
    """``exc`` as callers see it: a database or connection failure becomes StorageError.

    A value the database cannot hold is the caller's, not a fault of the machine, and raises
    ``ValueError`` like the codec's own checks: asyncpg reports one it cannot encode (a lone
    surrogate) as a ``DataError`` before sending anything, and PostgreSQL refuses others (a NUL
    character in text, a number past ``bigint``) with a data exception, SQLSTATE class 22,
    which asyncpg also raises as ``DataError``.  Either way the transaction is rolled back.
    The storage's answers (``VersionConflict``, ``GameNotFound``, ...) pass unchanged.
    """
    if isinstance(exc, asyncpg.DataError):
        refused = ValueError(f"a value cannot be stored: {exc}")
        refused.__cause__ = exc
        return refused
    if not isinstance(exc, _FAILURES):
        return exc
    error = StorageError(f"database failure: {exc}")
    error.__cause__ = exc
    return error


class PostgresStorage(StoragePort):
    """All persistence for the bot in one PostgreSQL database.  Create with ``await .open(url)``."""

    def __init__(
        self, pool: asyncpg.Pool, clock: Callable[[], float], presence: Presence | None = None
    ) -> None:
        """Use :meth:`open`; this only wires a pool over a migrated database (and the session
        that tells the others this process lives, `bot.storage.postgres.presence`)."""
        self._pool = pool
        self._clock = clock
        self._presence = presence
        self._writes: set[asyncio.Task[Any]] = set()
        self._closed = False

    # -- lifecycle ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        lock_timeout: float | None = 10.0,
        min_size: int = 1,
        max_size: int = 10,
    ) -> PostgresStorage:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``), migrate.

        ``lock_timeout`` is how long, in seconds, a statement waits for another connection's
        lock before the call fails; it is generous because failing means refusing a player's
        move.  None keeps the server's own setting (for the database or role).  ``min_size``
        and ``max_size`` bound the connection pool: at most ``max_size`` transactions of this
        process run at once, the others wait for a connection.  Raises :class:`StorageError`
        if the database cannot be reached, :class:`SchemaTooNew` if newer code migrated it.
        """
        settings = {"application_name": "uno-bot"}
        if lock_timeout is not None:
            settings["lock_timeout"] = str(max(1, round(lock_timeout * 1000)))
        try:
            pool = await asyncpg.create_pool(
                url, min_size=min_size, max_size=max_size, server_settings=settings,
                reset=_keep_session,
            )  # fmt: skip
        except _FAILURES as exc:
            raise backend_failure(exc) from exc
        try:
            async with pool.acquire() as conn:
                await migrate(conn)
            presence = await Presence.open(url)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, _FAILURES):
                raise backend_failure(exc) from exc
            raise
        return cls(pool, clock, presence)

    async def close(self) -> None:
        """Let the writes already started finish, then close the pool; idempotent.  Calls made
        once closing has begun raise :class:`StorageError`."""
        if self._closed:
            return
        self._closed = True
        if self._writes:
            await asyncio.wait(set(self._writes))
        await self._pool.close()
        if self._presence is not None:
            await self._presence.close()

    async def __aenter__(self) -> PostgresStorage:
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
        """Never: any number of processes may share the database."""
        return False

    async def listen_changes(
        self, publish: Callable[[int, int], None], gap: Callable[[], None]
    ) -> None:
        """Hand every process's commits to `publish` until cancelled (`bot.storage.postgres.
        listen`); cancel it before `close`, which waits for its connection."""
        await listen.follow(self._pool, publish, gap)

    # -- plumbing -------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("storage is closed")

    async def _read(self, work: Work[_T]) -> _T:
        """One read on a pooled connection, outside any explicit transaction: each statement
        sees everything committed before it started."""
        self._check_open()
        try:
            async with self._pool.acquire() as conn:
                return await work(conn)
        except _FAILURES as exc:
            raise backend_failure(exc) from exc

    async def _write(self, work: Work[_T], *, alone: bool = False) -> _T:
        """``work`` in one transaction, run to its end even if the caller is cancelled.
        ``alone``: the work is one statement, its own transaction (no BEGIN and COMMIT to
        send: two round trips fewer)."""
        self._check_open()
        task = asyncio.ensure_future(self._transaction(work, alone=alone))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            # The transaction goes on to COMMIT or ROLLBACK; tell the caller once it has.
            await asyncio.wait([task])
            if not task.cancelled():
                task.exception()  # retrieved: the caller was cancelled, not told
            raise

    async def _transaction(self, work: Work[_T], *, alone: bool = False) -> _T:
        try:
            async with self._pool.acquire() as conn:
                if alone:
                    return await work(conn)
                async with conn.transaction():
                    return await work(conn)
        except _FAILURES as exc:
            raise backend_failure(exc) from exc

    async def _rows(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return await self._read(lambda conn: conn.fetch(sql, *args))

    async def _row(self, sql: str, *args: Any) -> asyncpg.Record | None:
        rows = await self._rows(sql, *args)
        return rows[0] if rows else None

    async def _game(self, sql: str, *args: Any) -> GameRecord | None:
        row = await self._row(sql, *args)
        return None if row is None else codec.game_record(row)

    async def _games(self, sql: str) -> list[GameRecord]:
        return [codec.game_record(row) for row in await self._rows(sql)]

    # -- settings -------------------------------------------------------------------------

    async def get_settings(self, chat_key: str) -> dict[str, Any] | None:
        row = await self._row("SELECT data FROM settings WHERE chat_key = $1", chat_key)
        return None if row is None else codec.settings_object(row[0])

    async def put_settings(self, chat_key: str, settings: dict[str, Any]) -> None:
        """Replace the chat's settings wholesale (the caller merges if it wants to)."""
        data, now = codec.dumps(settings), self._clock()
        await self._write(
            lambda conn: conn.execute(
                "INSERT INTO settings (chat_key, data, updated_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (chat_key) DO UPDATE"
                " SET data = excluded.data, updated_at = excluded.updated_at",
                chat_key, data, now,
            ),
            alone=True,
        )  # fmt: skip

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
        meta_text, now = codec.dumps(meta), self._clock()
        payloads = [codec.dumps(payload) for payload in outbox]

        async def insert(conn: asyncpg.Connection) -> tuple[int, list[int]]:
            try:
                game_id: int = await conn.fetchval(
                    "INSERT INTO games (chat_key, status, version, state, meta, deadline,"
                    " created_at, updated_at) VALUES ($1, 'lobby', 0, NULL, $2, $3, $4, $4)"
                    " RETURNING id",
                    chat_key, meta_text, deadline, now,
                )  # fmt: skip
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == ONE_ACTIVE:
                    raise GameExists(chat_key) from exc
                raise
            c = codec.Commit(
                game_id, "lobby", 0, None, meta_text, deadline, now, [], payloads, claim
            )
            await listen.notify(conn, game_id, 0)
            return game_id, await _append_outbox(conn, chat_key, c)

        game_id, ids = await self._write(insert)
        return GameRecord(
            game_id, chat_key, "lobby", 0, None, codec.json_object(meta_text) or {},
            deadline, now, now, outbox=tuple(ids),
        )  # fmt: skip

    async def get_game(self, game_id: int) -> GameRecord | None:
        if not codec.known_id(game_id):
            return None
        return await self._game(_BY_ID, game_id)

    async def active_game(self, chat_key: str) -> GameRecord | None:
        """The chat's lobby or running game, if any."""
        return await self._game(_ACTIVE, chat_key)

    async def last_game(self, chat_key: str) -> GameRecord | None:
        """The chat's newest game, whatever its status (None if it never had one)."""
        return await self._game(_LAST, chat_key)

    async def active_games(self) -> list[GameRecord]:
        """Every running game in every chat, oldest first (lobbies excluded)."""
        return await self._games(_RUNNING)

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first: the deadlines to re-arm after a restart.
        A corrupt row is listed (``corrupt=True``), never raised."""
        return await self._games(_OPEN)

    async def unrecorded_finished_games(self) -> list[GameRecord]:
        """Finished games whose match statistics were never recorded, oldest first."""
        return await self._games(_UNRECORDED)

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

        Each ``outbox`` payload becomes an outbox entry in the same transaction, claimed until
        ``claim``; the returned record's ``outbox`` holds their ids. One statement
        (`bot.storage.postgres.commit`) locks the game's row, so writers of one game -- in any
        process -- take turns, and checks the version under that lock: :class:`VersionConflict`
        (and nothing changed) if another writer committed since the caller loaded the game.
        With ``match``, the match's statistics are recorded in the same transaction, at most
        once per game. Raises :class:`GameNotFound` for an unknown id and :class:`GameExists` if
        re-opening a finished game would give its chat two open games.
        """
        # Checked and serialised before the transaction: a bad state fails fast, holding no lock.
        c = codec.prepare_commit(
            game_id, expected_version, state=state, meta=meta, status=status, log=log,
            deadline=deadline, now=self._clock(), outbox=outbox, claim=claim,
        )  # fmt: skip
        record = (
            None
            if match is None
            else _recorder(game_id, match.results, match.scoring, recorded_at=c.now)
        )

        row: asyncpg.Record
        if record is None:  # one statement, one round trip (`bot.storage.postgres.commit`)
            row = await self._write(lambda conn: moved(conn, c, expected_version), alone=True)
        else:  # the match's last move: its statistics in the same transaction

            async def apply(conn: asyncpg.Connection) -> asyncpg.Record:
                row = await moved(conn, c, expected_version)
                await record(conn, row["chat_key"])
                return row

            row = await self._write(apply)
        return c.record(row["chat_key"], row["created_at"], list(row["outbox"]))

    async def mark_broken(self, game_id: int) -> None:
        """Set a game aside whose stored state cannot be loaded; its chat may start a new one.

        No version check, but the version still moves on, so a move loaded before is refused.
        """
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        now = self._clock()
        done = await self._write(
            lambda conn: conn.execute(
                "UPDATE games SET status = 'broken', deadline = NULL, version = version + 1,"
                " updated_at = $2 WHERE id = $1",
                game_id, now,
            ),
            alone=True,
        )  # fmt: skip
        if done != "UPDATE 1":
            raise GameNotFound(game_id)

    async def log(self, game_id: int) -> list[LogEntry]:
        """The game's applied actions in the order they were committed."""
        if not codec.known_id(game_id):
            return []
        rows = await self._rows(
            "SELECT actor, action, version, at FROM game_log WHERE game_id = $1"
            " ORDER BY version, seq",
            game_id,
        )
        return [LogEntry(r["actor"], r["action"], r["version"], r["at"]) for r in rows]

    # -- the outbox ---------------------------------------------------------------------

    async def claim_outbox(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[OutboxEntry]:
        """Unsent entries of the chats whose key starts with ``prefix`` whose claim ran out,
        oldest first, each claimed until ``now + lease``.  ``FOR UPDATE SKIP LOCKED``: a
        concurrent claimer passes over the rows this one is taking, never waits for them and
        never gets them."""

        async def take(conn: asyncpg.Connection) -> list[OutboxEntry]:
            # Rows another claimer is deleting are skipped, not waited for.
            await conn.execute(
                "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE sent_at < $1"
                " FOR UPDATE SKIP LOCKED)",
                now - KEEP_SENT,
            )
            rows = await conn.fetch(_CLAIMABLE, prefix, now, limit)
            if rows:
                await conn.execute(
                    "UPDATE outbox SET claimed_until = $1 WHERE id = ANY($2::bigint[])",
                    now + lease, [r["id"] for r in rows],
                )  # fmt: skip
            return [codec.outbox_entry(r) for r in rows]

        return await self._write(take)

    async def extend_outbox(self, entry_ids: Sequence[int], until: float) -> None:
        """Keep the claims of entries still being delivered until at least ``until``."""
        known = [i for i in entry_ids if codec.known_id(i)]
        if known:
            await self._write(
                lambda conn: conn.execute(
                    "UPDATE outbox SET claimed_until = greatest(claimed_until, $1)"
                    " WHERE id = ANY($2::bigint[]) AND sent_at IS NULL",
                    until, known,
                ),
                alone=True,
            )  # fmt: skip

    async def finish_outbox(self, entry_id: int, now: float) -> None:
        """Mark an entry sent; idempotent (the first time is kept)."""
        if codec.known_id(entry_id):
            await self._write(
                lambda conn: conn.execute(
                    "UPDATE outbox SET sent_at = $2 WHERE id = $1 AND sent_at IS NULL",
                    entry_id, now,
                ),
                alone=True,
            )  # fmt: skip

    async def retry_outbox(self, entry_id: int, at: float) -> None:
        """Count a failed delivery; the entry may be claimed again from ``at``."""
        if codec.known_id(entry_id):
            await self._write(
                lambda conn: conn.execute(
                    "UPDATE outbox SET attempts = attempts + 1, claimed_until = $2"
                    " WHERE id = $1 AND sent_at IS NULL",
                    entry_id, at,
                ),
                alone=True,
            )  # fmt: skip

    async def take_send_slot(
        self, chat_key: str, clock: Callable[[], float], count: int, period: float, flight: float
    ) -> SendSlot | float:
        """One send of the chat's shared budget: taken and recorded in flight, or the seconds
        to wait (see the port).

        The chat's sends are counted under a transaction-scoped advisory lock on its key, so
        two processes taking the last slot at once take turns and the second finds it gone;
        the time is read once the lock is held, after any wait for it.
        """

        async def take(conn: asyncpg.Connection) -> SendSlot | float:
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", chat_key)
            now = clock()
            since = now - period
            # Only sends older than two periods go: a taker whose clock is behind still counts
            # its own window's (see the SQLite adapter).
            await conn.execute(
                "DELETE FROM send_log WHERE chat_key = $1 AND at <= $2", chat_key, since - period
            )
            oldest: float | None = await conn.fetchval(
                "SELECT at FROM send_log WHERE chat_key = $1 AND at > $2"
                " ORDER BY at DESC LIMIT 1 OFFSET $3",
                chat_key, since, count - 1,
            )  # fmt: skip
            if oldest is not None:  # (one still in flight lands no earlier than now)
                return max(min(oldest, now) - since, 1e-3)
            slot = SendSlot(chat_key, now + flight)
            await conn.execute(
                "INSERT INTO send_log (chat_key, at) VALUES ($1, $2)", chat_key, slot.mark
            )
            return slot

        return await self._write(take)

    async def land_send_slot(self, slot: SendSlot, at: float) -> None:
        """The slot's call completed at ``at``: its send is recorded then.  One row of the
        slot's mark moves (rows of one chat and one time are alike), under the chat's lock: two
        landing at once do not both pick the same row."""

        async def land(conn: asyncpg.Connection) -> None:
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", slot.chat_key)
            await conn.execute(
                "UPDATE send_log SET at = $3 WHERE ctid = (SELECT ctid FROM send_log"
                " WHERE chat_key = $1 AND at = $2 LIMIT 1)",
                slot.chat_key, slot.mark, at,
            )  # fmt: skip

        await self._write(land)

    # -- deadlines claimed across processes ----------------------------------------------

    async def claim_deadlines(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[tuple[str, float]]:
        """(chat key, deadline) of the open games of chats whose key starts with ``prefix``
        whose deadline is due (``<= now``) and not claimed (its claim ran out by ``now``, or
        the process that claimed it is gone: `bot.storage.postgres.presence`), earliest first,
        each claimed until ``now + lease`` by this process.

        ``FOR UPDATE SKIP LOCKED``: a row another process is claiming or committing right now
        is skipped, not waited for, and one claimed meanwhile no longer matches once locked
        (PostgreSQL re-checks the condition on the row's newest version), so two claimers never
        get the same deadline while its claim runs.  Any commit of the game clears its claim.
        """
        owner = None if self._presence is None else self._presence.owner
        rows = await self._write(
            lambda conn: conn.fetch(
                "UPDATE games SET deadline_claimed_until = $3, deadline_claimed_by = $5"
                " WHERE id IN (SELECT id FROM games WHERE deadline <= $2"
                f" AND (deadline_claimed_until <= $2 OR {GONE})"
                f" AND {_OPEN_OF_PREFIX} ORDER BY deadline, id LIMIT $4"
                " FOR UPDATE SKIP LOCKED) RETURNING id, chat_key, deadline",
                prefix, now, now + lease, limit, owner,
            ),
            alone=True,
        )  # fmt: skip
        ordered = sorted(rows, key=lambda r: (r["deadline"], r["id"]))
        return [(r["chat_key"], r["deadline"]) for r in ordered]

    async def next_deadline(self, prefix: str) -> float | None:
        """When the earliest deadline of the open games of chats whose key starts with
        ``prefix`` can be claimed: its time, or for one claimed by a live process when its
        claim runs out."""
        row = await self._row(
            # (GONE, which reads pg_locks, only for a deadline still claimed after it is due)
            "SELECT min(CASE WHEN deadline_claimed_until <= deadline THEN deadline"
            f" WHEN {GONE} THEN deadline ELSE deadline_claimed_until END) FROM games"
            f" WHERE deadline IS NOT NULL AND {_OPEN_OF_PREFIX}",
            prefix,
        )
        return None if row is None or row[0] is None else float(row[0])

    # -- adapter refs ---------------------------------------------------------------------

    async def put_ref(self, game_id: int, key: str, value: str) -> None:
        """Store an adapter's fact about a game; :class:`GameNotFound` for an unknown game."""
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)

        async def upsert(conn: asyncpg.Connection) -> None:
            try:
                await conn.execute(
                    "INSERT INTO game_refs (game_id, key, value) VALUES ($1, $2, $3)"
                    " ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                    game_id, key, value,
                )  # fmt: skip
            except asyncpg.ForeignKeyViolationError as exc:
                raise GameNotFound(game_id) from exc

        await self._write(upsert)

    async def get_ref(self, game_id: int, key: str) -> str | None:
        if not codec.known_id(game_id):
            return None
        row = await self._row(
            "SELECT value FROM game_refs WHERE game_id = $1 AND key = $2", game_id, key
        )
        return None if row is None else str(row[0])

    async def refs(self, game_id: int) -> dict[str, str]:
        if not codec.known_id(game_id):
            return {}
        rows = await self._rows(
            "SELECT key, value FROM game_refs WHERE game_id = $1 ORDER BY key", game_id
        )
        return {r["key"]: r["value"] for r in rows}

    async def claim_ref(
        self, game_id: int, key: str, value: str, *, replacing: str | None = None
    ) -> str | None:
        """Store ``value`` only if the ref is still ``replacing`` (None: absent); the value
        it holds afterwards. A concurrent claim's row is waited for (its insert or update
        commits or rolls back first), so of two claims of an absent ref exactly one stores.
        :class:`GameNotFound` for an unknown game."""
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)

        async def claim(conn: asyncpg.Connection) -> str | None:
            try:
                if replacing is None:
                    await conn.execute(
                        "INSERT INTO game_refs (game_id, key, value) VALUES ($1, $2, $3)"
                        " ON CONFLICT (game_id, key) DO NOTHING",
                        game_id, key, value,
                    )  # fmt: skip
                else:
                    await conn.execute(
                        "UPDATE game_refs SET value = $3"
                        " WHERE game_id = $1 AND key = $2 AND value = $4",
                        game_id, key, value, replacing,
                    )  # fmt: skip
            except asyncpg.ForeignKeyViolationError as exc:
                raise GameNotFound(game_id) from exc
            row = await conn.fetchrow(
                "SELECT value FROM game_refs WHERE game_id = $1 AND key = $2", game_id, key
            )
            return None if row is None else str(row[0])

        return await self._write(claim)

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
        its statistics.  Raises :class:`GameNotFound` for an unknown game.
        """
        if not codec.known_id(game_id):
            raise GameNotFound(game_id)
        record = _recorder(game_id, results, scoring, recorded_at=self._clock())
        await self._write(lambda conn: record(conn, chat_key))

    async def leaderboard(
        self, chat_key: str, limit: int = 10, *, scoring: Scoring = Scoring.WINNER
    ) -> list[StatRow]:
        """Top players of a chat (see :func:`bot.storage.ranking.leaderboard_order`)."""
        rows = await self._rows(
            f"SELECT {_STATS} FROM player_stats WHERE chat_key = $1"
            f" ORDER BY {leaderboard_order(scoring)} LIMIT $2",
            chat_key, limit,
        )  # fmt: skip
        return [StatRow(*r) for r in rows]

    async def player_stats(self, chat_key: str, user_id: str) -> StatRow | None:
        row = await self._row(
            f"SELECT {_STATS} FROM player_stats WHERE chat_key = $1 AND user_id = $2",
            chat_key, user_id,
        )  # fmt: skip
        return None if row is None else StatRow(*row)


def _recorder(
    game_id: int, results: Sequence[PlayerResult], scoring: Scoring, recorded_at: float
) -> Callable[[asyncpg.Connection, str], Awaitable[None]]:
    """What recording a match writes, checked and serialised before any transaction.

    The ``matches`` row makes recording idempotent: the totals are added only when it was new.
    """
    payload = codec.match_results(game_id, results)
    totals = codec.match_totals(results, scoring)

    async def record(conn: asyncpg.Connection, chat_key: str) -> None:
        try:
            new = await conn.fetchval(
                "INSERT INTO matches (game_id, chat_key, results, recorded_at, scoring)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO NOTHING RETURNING true",
                game_id, chat_key, payload, recorded_at, scoring.value,
            )  # fmt: skip
        except asyncpg.ForeignKeyViolationError as exc:
            raise GameNotFound(game_id) from exc
        if not new or not totals:
            return  # already recorded, or nobody to count
        await conn.executemany(
            "INSERT INTO player_stats"
            " (chat_key, user_id, name, games, wins, points, tally_games, tally_points)"
            " VALUES ($1, $2, $3, 1, $4, $5, $6, $7)"
            " ON CONFLICT (chat_key, user_id) DO UPDATE SET name = excluded.name,"
            " games = player_stats.games + 1, wins = player_stats.wins + excluded.wins,"
            " points = player_stats.points + excluded.points,"
            " tally_games = player_stats.tally_games + excluded.tally_games,"
            " tally_points = player_stats.tally_points + excluded.tally_points",
            [(chat_key, *t) for t in totals],
        )

    return record


async def _append_outbox(conn: asyncpg.Connection, chat_key: str, c: codec.Commit) -> list[int]:
    """Insert the commit's payloads as entries of its chat, game and version; their ids."""
    ids = []
    for payload in c.outbox:
        entry_id: int = await conn.fetchval(
            "INSERT INTO outbox (chat_key, game_id, version, payload, created_at,"
            " claimed_until) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            chat_key, c.game_id, c.version, payload, c.now, c.claim,
        )  # fmt: skip
        ids.append(entry_id)
    return ids
