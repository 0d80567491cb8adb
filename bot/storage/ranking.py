"""The order of a chat's leaderboard, the same in every backend's SQL."""

from __future__ import annotations

from typing import Final

from core.rules import Scoring

_ORDER: Final = {
    Scoring.WINNER: "points DESC",
    Scoring.TALLY: "tally_games = 0, tally_points ASC",
}


def leaderboard_order(scoring: Scoring) -> str:
    """The ``ORDER BY`` terms over ``player_stats`` columns for a chat scoring ``scoring``.

    Most wins first: a win means the same under both scorings, so wins are the one measure
    that compares a whole history.  Equal wins are settled by points, each sum in its own
    direction and the chat's current `scoring` first: most `winner` points, or fewest `tally`
    points among those who played tally games (no tally games is not a perfect tally score);
    then the other mode's points; then fewer games, name and id, so the order is total and
    stable.  A chat that only ever played one mode is thus ranked by wins, then by its own
    points in the direction its scoring counts them.  Names and ids compare byte by byte in
    every backend (PostgreSQL declares those columns ``COLLATE "C"``), so the order does not
    depend on the server's locale.
    """
    other = Scoring.TALLY if scoring is Scoring.WINNER else Scoring.WINNER
    return f"wins DESC, {_ORDER[scoring]}, {_ORDER[other]}, games ASC, name ASC, user_id ASC"
