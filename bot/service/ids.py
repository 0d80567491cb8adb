"""Ids that arrive in user data (button payloads, deep links) are checked before any lookup.

A forged payload can carry any integer; the storage holds signed 64-bit ids, and an id outside
that range would fail inside the database driver instead of being "no such game".
"""

from __future__ import annotations

MAX_GAME_ID = 2**63 - 1


def valid_game_id(game_id: int) -> bool:
    """Whether `game_id` can name a stored game at all (ids start at 1)."""
    return 0 < game_id <= MAX_GAME_ID
