"""Match statistics: one ``matches`` row per recorded game, totals per player and chat.

The ``matches`` row makes recording idempotent, so start-up may record a match whose last move
was committed without its statistics; `recorder` is also what a match's last commit runs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Final

import asyncpg

from bot.storage import codec
from bot.storage.port import (
    GameNotFound,
    GameRecord,
    PlayerResult,
    StatisticsStorage,
    StatRow,
)
from bot.storage.postgres.base import GAME, PostgresBase
from bot.storage.ranking import leaderboard_order
from core.rules import Scoring

_UNRECORDED: Final = (
    f"SELECT {GAME} FROM games WHERE status = 'finished'"
    " AND NOT EXISTS (SELECT 1 FROM matches WHERE matches.game_id = games.id) ORDER BY id"
)
_STATS: Final = "user_id, name, games, wins, points, tally_games, tally_points"


class Statistics(PostgresBase, StatisticsStorage):
    """The statistics concern of `PostgresStorage`."""

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
        record = recorder(game_id, results, scoring, recorded_at=self._clock())
        await self._write(lambda conn: record(conn, chat_key))

    async def unrecorded_finished_games(self) -> list[GameRecord]:
        return await self._games(_UNRECORDED)

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


def recorder(
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
