"""Read-only use cases: the table, a player's hand on demand, the running games.

They take the chat's lock like every use case, so that they read a committed state and never
one a move is being applied to, and a game that cannot be loaded is set aside here too.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service import projection
from bot.service.match import meta_from_dict
from bot.service.outcome import Notice, Outcome, User, lang_of
from bot.service.unit_of_work import UnitOfWork, Work


@dataclass(frozen=True)
class RunningGame:
    """A running game as the adapters list it (to show it again after a start)."""

    id: int
    chat_key: str


class Queries:
    def __init__(self, uow: UnitOfWork) -> None:
        self.uow = uow

    async def table(self, chat_key: str) -> Outcome:
        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            match = await work.active(take=False)
            if match is None:
                return work.refuse("error-no-game")
            return projection.shown(match, settings)

        return await self.uow.run(chat_key, None, use_case)

    async def game_table(self, game_id: int) -> Outcome:
        """A game's table as last committed, whatever its status: what its chat should show
        now (an adapter whose edit may have landed after another process's newer one)."""

        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            match = await work.stored(game_id)
            if match is None:
                return work.refuse("error-no-game")
            return projection.shown(match, settings)

        return await self.uow.run_for_game(game_id, None, use_case)

    async def hand(
        self, user: User, *, chat_key: str | None = None, game_id: int | None = None
    ) -> Outcome:
        """A player's private view on demand (the "my cards" button, /start in a DM).

        By `game_id` (from user data: a forged one is "no game"; an ended one shows how the
        hand ended) or the chat's open game.
        """
        if chat_key is None and game_id is None:
            return Outcome("", lang_of(user.lang), error=Notice("error-no-game"))

        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            match = await work.active(take=False)
            if game_id is not None and (match is None or match.id != game_id):
                match = await work.stored(game_id)  # an ended game: its last hand, no buttons
            if match is None or match.game is None:
                return work.refuse("error-no-game")
            if user.id not in match.game.hands:
                return projection.refused(match, settings, "error-not-in-game")
            out = Outcome(match.chat_key, settings.lang or "ru", names=dict(match.names))
            out.hands[user.id] = projection.hand_view(match, settings, user.id)
            return out

        if game_id is not None:
            return await self.uow.run_for_game(game_id, user.lang, use_case, user=user)
        assert chat_key is not None
        return await self.uow.run(chat_key, user.lang, use_case, user=user)

    async def running_games(self) -> list[RunningGame]:
        records = await self.uow.storage.active_games()
        return [RunningGame(r.id, r.chat_key) for r in records if r.status == "running"]

    async def games_of(self, user_id: str) -> list[int]:
        """The running games `user_id` was dealt into, oldest first (a DM's /start finds the
        player's hands with it, without reading any stored meta itself)."""
        ids = []
        for rec in await self.uow.storage.active_games():
            if rec.status != "running" or rec.corrupt:
                continue
            try:
                lobby, _ = meta_from_dict(rec.meta)
            except (KeyError, TypeError, ValueError):
                continue
            if user_id in lobby.players:
                ids.append(rec.id)
        return ids
