"""Match statistics: one ``matches`` row per recorded game, totals per player and chat."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Final

from bot.storage import codec
from bot.storage.codec import match_results, match_totals
from bot.storage.port import GameNotFound, GameRecord, PlayerResult, StatisticsStorage, StatRow
from bot.storage.ranking import leaderboard_order
from bot.storage.sqlite.base import GAME, SqliteBase
from core.rules import Scoring

_COLUMNS: Final = "user_id, name, games, wins, points, tally_games, tally_points"

# A finished game is recorded when a matches row names it.
UNRECORDED_FINISHED: Final = (
    f"SELECT {GAME} FROM games WHERE status = 'finished'"
    " AND NOT EXISTS (SELECT 1 FROM matches WHERE matches.game_id = games.id) ORDER BY id"
)

_PLAYER: Final = f"SELECT {_COLUMNS} FROM player_stats WHERE chat_key = ? AND user_id = ?"


def _leaderboard_sql(scoring: Scoring) -> str:
    """The chat's top players in :func:`bot.storage.ranking.leaderboard_order`."""
    return (
        f"SELECT {_COLUMNS} FROM player_stats WHERE chat_key = ?"
        f" ORDER BY {leaderboard_order(scoring)} LIMIT ?"
    )


def _decode(row: sqlite3.Row) -> StatRow:
    return StatRow(*row)


def recorder(
    game_id: int, results: Sequence[PlayerResult], scoring: Scoring, recorded_at: float
) -> Callable[[sqlite3.Connection, str], None]:
    """What recording a match writes, checked and serialised before any transaction.

    The returned function adds the match to the chat's statistics unless the game already has
    a ``matches`` row: that row is what makes recording idempotent, and what tells a finished
    game whose statistics are recorded.
    """
    payload = match_results(game_id, results)
    totals = match_totals(results, scoring)

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
            [(chat_key, *t) for t in totals],
        )

    return record


class Statistics(SqliteBase, StatisticsStorage):
    """The statistics concern of `SqliteStorage`."""

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
        record = recorder(game_id, results, scoring, recorded_at=self._clock())
        await self._write(lambda conn: record(conn, chat_key))

    async def unrecorded_finished_games(self) -> list[GameRecord]:
        """Finished games whose match statistics were never recorded, oldest first.

        A finished game is recorded when a ``matches`` row names it (:meth:`commit` with
        ``match=`` or :meth:`record_match`, even with no results).  Start-up recovers the
        statistics of a match whose last move was committed without them.
        """
        return await self._games(UNRECORDED_FINISHED)

    async def leaderboard(
        self, chat_key: str, limit: int = 10, *, scoring: Scoring = Scoring.WINNER
    ) -> list[StatRow]:
        """Top players of a chat whose games may have been scored both ways (see
        :func:`bot.storage.ranking.leaderboard_order` for the order)."""
        rows = await self._rows(_leaderboard_sql(scoring), (chat_key, limit))
        return [_decode(r) for r in rows]

    async def player_stats(self, chat_key: str, user_id: str) -> StatRow | None:
        row = await self._row(_PLAYER, (chat_key, user_id))
        return None if row is None else _decode(row)
