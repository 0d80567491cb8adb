"""Playing: a move from a chat command or a private button, /uno and /challenge."""

from __future__ import annotations

from collections.abc import Callable

from bot.service import projection
from bot.service.outcome import Outcome, User
from bot.service.unit_of_work import UnitOfWork, Work
from bot.storage import LogEntry
from core import actions as A
from core.actions import Action
from core.errors import IllegalAction
from core.game import Game

# What a move may be: an action, its text, or a rule that decides it on the current state.
Move = Action | str | Callable[[Game, str], Action]


class PlayCases:
    def __init__(self, uow: UnitOfWork) -> None:
        self.uow = uow

    async def act(
        self,
        user: User,
        action: Move,
        *,
        chat_key: str | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Outcome:
        """A player's move, from a chat command (by chat) or a private button (by game id).

        `version` is the hand view's version the button was drawn for: a press on an outdated
        keyboard is refused with a fresh hand, so nobody acts on a state they never saw. A
        `game_id` comes from user data: one that cannot name a game is refused like a game
        that is over.
        """
        if chat_key is None and game_id is None:
            raise ValueError("act needs a chat or a game")

        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            match = await work.active()
            if match is None or match.status != "running" or game_id not in (None, match.id):
                return work.refuse("error-no-game")
            game = match.game
            assert game is not None
            if user.id not in game.hands:
                return projection.refused(match, settings, "error-not-in-game")
            if version is not None and version != match.hand_version(user.id):
                out = projection.refused(match, settings, "error-stale")
                out.hands[user.id] = projection.hand_view(match, settings, user.id)
                return out
            try:
                if isinstance(action, Action):
                    parsed = action
                elif isinstance(action, str):
                    parsed = Action.parse(action)
                else:
                    parsed = action(game, user.id)
                events = match.table.apply(game, user.id, parsed)
            except ValueError as exc:
                # The engine left the game as it was: show a fresh hand with the reason.
                key = (
                    "reason-" + exc.reason.replace("_", "-")
                    if isinstance(exc, IllegalAction)
                    else "error-bad-action"
                )
                out = projection.refused(match, settings, key)
                out.hands[user.id] = projection.hand_view(match, settings, user.id)
                return out
            match.lobby.names[user.id] = user.name
            return await work.commit(match, events, [LogEntry(user.id, str(parsed))])

        if chat_key is None:
            assert game_id is not None
            return await self.uow.run_for_game(game_id, user.lang, use_case, user=user)
        return await self.uow.run(chat_key, user.lang, use_case, user=user)

    async def uno(self, chat_key: str, user: User) -> Outcome:
        """`/uno`: catch whoever forgot, or call one's own UNO (RULES.md section 5).

        What the command means is decided under the lock, on the state the move applies to, so
        two racing `/uno`s are judged in the order they arrive.
        """
        return await self.act(user, uno_meaning, chat_key=chat_key)

    async def challenge(self, chat_key: str, user: User) -> Outcome:
        return await self.act(user, A.CHALLENGE, chat_key=chat_key)


def uno_meaning(game: Game, player: str) -> Action:
    """`/uno` by anyone else while someone is catchable catches them; otherwise it is a call.

    Catching comes first: a player about to call their own UNO must not let the forgetter off.
    With nothing to do it is refused as a call from a short hand, as a false catch otherwise.
    """
    legal = game.legal_actions(player)
    if A.CATCH in legal:
        return A.CATCH
    if A.UNO in legal:
        return A.UNO
    return A.UNO if len(game.hands[player]) <= 2 else A.CATCH
