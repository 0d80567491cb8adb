"""Each chat's statistics: what a finished match adds to them, and the standings they make.

A match's statistics are committed with its last move (`Work.commit`); `recover` records those
of a finished match that has none (see `StatisticsStorage.unrecorded_finished_games`).
`StatRow`, a player's line of the standings, is what `leaderboard` answers.
"""

from __future__ import annotations

import logging

from bot.service.identity import is_key
from bot.service.match import Match
from bot.service.settings_store import SettingsStore
from bot.service.views import is_bot
from bot.storage import MatchRecord, PlayerResult, StatisticsStorage, StatRow
from core.game import Game

__all__ = ["StatRow", "Statistics", "match_record"]

logger = logging.getLogger("bot.service")


def match_record(match: Match) -> MatchRecord:
    """The statistics of a finished match: every person dealt in, with their points."""
    game = match.game
    assert game is not None
    scores = game.scores
    results = [
        PlayerResult(p, match.names.get(p, p), p in game.game_winners, scores.get(p, 0))
        for p in match.lobby.players
        if not is_bot(p)
    ]
    return MatchRecord(results, game.rules.scoring)


class Statistics:
    def __init__(self, storage: StatisticsStorage, settings: SettingsStore) -> None:
        self.storage = storage
        self.settings = settings

    async def leaderboard(self, chat_key: str, limit: int = 10) -> list[StatRow]:
        """The chat's best players, ties on wins settled the way its scoring counts points."""
        if not is_key(chat_key):
            return []
        scoring = (await self.settings.chat(chat_key)).rules().scoring
        return await self.storage.leaderboard(chat_key, limit, scoring=scoring)

    async def recover(self) -> None:
        """Record the finished matches whose statistics are missing (at start-up); one that
        cannot be read is logged and left."""
        for rec in await self.storage.unrecorded_finished_games():
            try:
                if rec.corrupt or rec.state is None:
                    raise ValueError("no engine state")
                record = match_record(Match.from_record(rec, Game.from_dict(rec.state)))
                await self.storage.record_match(
                    rec.chat_key, rec.id, record.results, scoring=record.scoring
                )
            except Exception:
                logger.exception("chat %s: recording finished game %d failed", rec.chat_key, rec.id)
