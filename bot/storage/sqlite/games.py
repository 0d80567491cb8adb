"""Games: the row the optimistic version check guards, the queries that find it, and the commit.

A commit replaces the row only if it is still at the version its caller loaded, inside one
transaction of the group commit, so two writers -- coroutines or processes on the file -- can
never both apply a move on top of the same version.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, Final

from bot.storage import codec
from bot.storage.port import (
    GameExists,
    GameNotFound,
    GameRecord,
    GameStorage,
    LogEntry,
    MatchRecord,
    VersionConflict,
)
from bot.storage.sqlite import game_log
from bot.storage.sqlite.base import GAME, SqliteBase
from bot.storage.sqlite.group_commit import Apply
from bot.storage.sqlite.outbox import append as append_outbox
from bot.storage.sqlite.statistics import recorder

BY_ID: Final = f"SELECT {GAME} FROM games WHERE id = ?"

# The status test is spelled exactly like the WHERE clause of games_one_active_per_chat: only then
# can SQLite use that partial unique index (one row per chat).  With bound parameters instead of
# literals it falls back to games_status and reads every running game's row on every call.
ACTIVE_GAME: Final = (
    f"SELECT {GAME} FROM games WHERE chat_key = ? AND status IN ('lobby', 'running')"
)

# The chat's newest game of any status, through games_by_chat.
LAST_GAME: Final = f"SELECT {GAME} FROM games WHERE chat_key = ? ORDER BY id DESC LIMIT 1"

RUNNING: Final = f"SELECT {GAME} FROM games WHERE status = 'running' ORDER BY id"

OPEN: Final = f"SELECT {GAME} FROM games WHERE status IN ('lobby', 'running') ORDER BY id"


def _insert(chat_key: str, meta: str, deadline: float | None, now: float) -> Apply:
    def apply(conn: sqlite3.Connection) -> int | None:
        try:
            cur = conn.execute(
                "INSERT INTO games (chat_key, status, version, state, meta, deadline,"
                " created_at, updated_at) VALUES (?, 'lobby', 0, NULL, ?, ?, ?, ?)",
                (chat_key, meta, deadline, now, now),
            )
        except sqlite3.IntegrityError as exc:
            if _is_active_game_clash(exc):
                raise GameExists(chat_key) from exc
            raise
        return cur.lastrowid

    return apply


def _update(
    game_id: int,
    expected_version: int,
    *,
    status: str,
    state: str | None,
    meta: str,
    deadline: float | None,
    now: float,
) -> Apply:
    """The compare-and-swap: replace the row only if it is still at ``expected_version``.

    Returns the row's ``(chat_key, created_at)``.
    """

    def apply(conn: sqlite3.Connection) -> sqlite3.Row:
        try:
            cur = conn.execute(
                "UPDATE games SET version = version + 1, status = ?, state = ?, meta = ?,"
                " deadline = ?, deadline_claimed_until = 0, updated_at = ?"
                " WHERE id = ? AND version = ?",
                (status, state, meta, deadline, now, game_id, expected_version),
            )
        except sqlite3.IntegrityError as exc:
            if _is_active_game_clash(exc):
                raise GameExists(_chat_of(conn, game_id)) from exc
            raise
        if cur.rowcount != 1:
            found = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
            if found is None:
                raise GameNotFound(game_id)
            raise VersionConflict(game_id, expected_version, found["version"])
        row: sqlite3.Row = conn.execute(
            "SELECT chat_key, created_at FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return row

    return apply


def _mark_broken(game_id: int, now: float) -> Apply:
    """Set the game aside whatever its version; the version still moves on, so a move loaded
    before cannot be committed on top of it."""

    def apply(conn: sqlite3.Connection) -> None:
        cur = conn.execute(
            "UPDATE games SET status = 'broken', deadline = NULL, version = version + 1,"
            " updated_at = ? WHERE id = ?",
            (now, game_id),
        )
        if cur.rowcount != 1:
            raise GameNotFound(game_id)

    return apply


def _is_active_game_clash(exc: sqlite3.IntegrityError) -> bool:
    return "games.chat_key" in str(exc)


def _chat_of(conn: sqlite3.Connection, game_id: int) -> str:
    row: Sequence[str] | None = conn.execute(
        "SELECT chat_key FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    return "?" if row is None else str(row[0])


class Games(SqliteBase, GameStorage):
    """The game concern of `SqliteStorage`."""

    async def create_game(
        self,
        chat_key: str,
        meta: dict[str, Any],
        *,
        deadline: float | None = None,
        outbox: Sequence[dict[str, Any]] = (),
        claim: float = 0.0,
    ) -> GameRecord:
        meta_text = codec.dumps(meta)
        now = self._clock()
        payloads = [codec.dumps(payload) for payload in outbox]
        create = _insert(chat_key, meta_text, deadline, now)

        def apply(conn: sqlite3.Connection) -> tuple[int, list[int]]:
            game_id = create(conn)
            assert game_id is not None
            c = codec.Commit(
                game_id, "lobby", 0, None, meta_text, deadline, now, [], payloads, claim
            )
            return game_id, append_outbox(conn, chat_key, c)

        game_id, ids = await self._write(apply)
        return GameRecord(
            game_id, chat_key, "lobby", 0, None, codec.json_object(meta_text) or {},
            deadline, now, now, outbox=tuple(ids),
        )  # fmt: skip

    async def get_game(self, game_id: int) -> GameRecord | None:
        if not codec.known_id(game_id):
            return None
        return await self._game(BY_ID, (game_id,))

    async def active_game(self, chat_key: str) -> GameRecord | None:
        return await self._game(ACTIVE_GAME, (chat_key,))

    async def last_game(self, chat_key: str) -> GameRecord | None:
        return await self._game(LAST_GAME, (chat_key,))

    async def active_games(self) -> list[GameRecord]:
        """Every running game in every chat, oldest first.

        Lobbies are deliberately excluded: they carry no engine state (`open_games` has both).
        """
        return await self._games(RUNNING)

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first: the deadlines to re-arm after a restart.

        A lobby's deadline is when it expires unstarted, a running game's when its computer
        players move or its turn times out.  A corrupt row is listed (``corrupt=True``), never
        raised, so the bot starts with every good game.
        """
        return await self._games(OPEN)

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
            else recorder(game_id, match.results, match.scoring, recorded_at=c.now)
        )
        update = _update(
            game_id, expected_version, status=status, state=c.state, meta=c.meta,
            deadline=deadline, now=c.now,
        )  # fmt: skip

        def apply(conn: sqlite3.Connection) -> tuple[sqlite3.Row, list[int]]:
            row: sqlite3.Row = update(conn)
            game_log.append(conn, c.log)
            if record is not None:
                record(conn, row["chat_key"])
            return row, append_outbox(conn, row["chat_key"], c)

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
        await self._write(_mark_broken(game_id, self._clock()))

    async def log(self, game_id: int) -> list[LogEntry]:
        if not codec.known_id(game_id):
            return []
        return game_log.decode(await self._rows(game_log.BY_GAME, (game_id,)))
