"""The views a live page shows: a game's table as last committed and the hands of its viewers.

One read for everyone watching a game (the web table reads it after each change of the feed,
`bot.service.changes`), under the chat's lock like every use case, so it never sees a move that
is being applied. Only the hands of the players asked for are built; a caller asks only for
those it has authenticated, and sends each hand to its owner alone.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.service import projection
from bot.service.outcome import Outcome
from bot.service.unit_of_work import UnitOfWork, Work


class LiveViews:
    def __init__(self, uow: UnitOfWork) -> None:
        self.uow = uow

    async def views(self, game_id: int, players: Collection[str]) -> Outcome:
        """The table of `game_id`, whatever its status, and the hand of each of `players` who
        was dealt in (refused as "no game" for an id that names none)."""

        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            match = await work.stored(game_id)
            if match is None:
                return work.refuse("error-no-game")
            out = projection.shown(match, settings)
            if match.game is not None:
                for player in players:
                    if player in match.game.players:
                        out.hands[player] = projection.hand_view(match, settings, player)
            return out

        return await self.uow.run_for_game(game_id, None, use_case)
