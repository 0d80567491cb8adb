"""Match statistics: one ``matches`` row per recorded game, totals per player and chat."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Final

from bot.storage.codec import match_results, match_totals
from bot.storage.port import GameNotFound, PlayerResult, StatRow
from bot.storage.ranking import leaderboard_order
from core.rules import Scoring

COLUMNS: Final = "user_id, name, games, wins, points, tally_games, tally_points"

PLAYER: Final = f"SELECT {COLUMNS} FROM player_stats WHERE chat_key = ? AND user_id = ?"


def leaderboard_sql(scoring: Scoring) -> str:
    """The chat's top players in :func:`bot.storage.ranking.leaderboard_order`."""
    return (
        f"SELECT {COLUMNS} FROM player_stats WHERE chat_key = ?"
        f" ORDER BY {leaderboard_order(scoring)} LIMIT ?"
    )


def decode(row: sqlite3.Row) -> StatRow:
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
