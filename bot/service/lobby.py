"""Lobby use cases: open (or rematch), join, add a computer player, choose the computer players'
level, close, start, leave, kick, stop. Each runs as one `Work` of its chat
(`bot.service.unit_of_work`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.service import projection
from bot.service import rematch as rematch_rules
from bot.service.ids import valid_game_id
from bot.service.match import Lobby, Match, TableState
from bot.service.outcome import Notice, Outcome, User
from bot.service.unit_of_work import UnitOfWork, Work
from bot.service.views import is_bot
from bot.storage import GameExists, LogEntry
from core.ai import Level
from core.game import Game
from core.rules import MAX_PLAYERS, MIN_PLAYERS


class LobbyCases:
    def __init__(self, uow: UnitOfWork, seed: Callable[[], int]) -> None:
        self.uow = uow
        self._seed = seed

    async def new_game(self, chat_key: str, user: User) -> Outcome:
        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            lobby = Lobby.opened_by(user.id, user.name)
            try:
                match = await work.create(lobby)
            except GameExists:
                # The chat's open game is shown; one that cannot be loaded is set aside, and
                # then the chat may have its new game after all.
                active = await work.active(take=False)
                if active is not None:
                    out = projection.refused(active, settings, "error-game-exists")
                    out.table = projection.table_view(active, settings)
                    return out
                try:
                    match = await work.create(lobby)
                except GameExists:  # another process opened one meanwhile
                    return work.refuse("error-game-exists")
            return projection.shown(match, await work.settings(), Notice("info-lobby-created"))

        return await self.uow.run(chat_key, user.lang, use_case, user=user)

    async def rematch(self, chat_key: str, user: User, *, game_id: int | None = None) -> Outcome:
        """A new lobby at the table of the chat's last match, which must have finished.

        The caller is joined, the computer players are back, the people are named but not
        joined (`bot.service.rematch` says why). `game_id` is the match a rematch button was shown
        under: a button of an older match, or one pressed once a lobby is open again, is
        refused and changes nothing (not even the chat's settings).
        """

        async def use_case(work: Work) -> Outcome:
            await work.settings()
            active = await work.active(take=False)
            last = None if active is not None else await work.last()
            # A forged id can name no game: it is never compared with storage, only refused.
            asked = game_id if game_id is None or valid_game_id(game_id) else 0
            refused = rematch_rules.refusal(active, last, asked)
            if refused is not None:
                return work.refuse(refused)
            assert last is not None
            try:
                match = await work.create(rematch_rules.lobby_for(last.lobby, user.id, user.name))
            except GameExists:  # another process opened one meanwhile
                return work.refuse("error-game-exists")
            return projection.shown(match, await work.settings(), Notice("info-rematch"))

        return await self.uow.run(chat_key, user.lang, use_case, user=user)

    async def _in_lobby(
        self, chat_key: str, user: User, change: Callable[[Work, Match], Awaitable[Outcome]]
    ) -> Outcome:
        """Run `change` on the chat's open lobby; refused when there is none."""

        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            match = await work.active(take=False)
            if match is None:
                return work.refuse("error-no-game")
            if match.status != "lobby":
                return projection.refused(match, settings, "error-game-running")
            return await change(work, match)

        return await self.uow.run(chat_key, user.lang, use_case, user=user)

    async def join(self, chat_key: str, user: User) -> Outcome:
        async def change(work: Work, match: Match) -> Outcome:
            settings = await work.settings()
            lobby = match.lobby
            if user.id in lobby.players:
                return projection.refused(match, settings, "error-already-joined")
            if lobby.closed:
                return projection.refused(match, settings, "error-lobby-closed")
            if len(lobby.players) >= MAX_PLAYERS:
                return projection.refused(match, settings, "error-lobby-full")
            lobby.join(user.id, user.name)
            await work.save_lobby(match)
            return projection.shown(match, settings, Notice("info-joined", {"name": user.name}))

        return await self._in_lobby(chat_key, user, change)

    async def add_bot(self, chat_key: str, user: User) -> Outcome:
        async def change(work: Work, match: Match) -> Outcome:
            settings = await work.settings()
            lobby = match.lobby
            if user.id not in lobby.players:
                return projection.refused(match, settings, "error-not-joined")
            if len(lobby.players) >= MAX_PLAYERS:
                return projection.refused(match, settings, "error-lobby-full")
            lobby.add_bot()
            await work.save_lobby(match)
            return projection.shown(match, settings, Notice("info-bot-added"))

        return await self._in_lobby(chat_key, user, change)

    async def set_bot_level(self, chat_key: str, user: User, level: Level) -> Outcome:
        """The level the lobby's computer players will play at, over the chat's setting.

        The button asks for a level, not for "the other one": asking for the level already in
        force (a second quick press, an older client's button) changes nothing and is answered
        as if it had set it."""

        async def change(work: Work, match: Match) -> Outcome:
            settings = await work.settings()
            if user.id not in match.lobby.players:
                return projection.refused(match, settings, "error-not-joined")
            notice = Notice("info-bot-level", {"level": level.value})
            if match.bot_level(settings.strong_bots) is not level:
                match.lobby.bot_level = level
                await work.save_lobby(match)
            return projection.shown(match, settings, notice)

        return await self._in_lobby(chat_key, user, change)

    async def set_closed(
        self, chat_key: str, user: User, closed: bool, *, is_admin: bool = False
    ) -> Outcome:
        async def change(work: Work, match: Match) -> Outcome:
            settings = await work.settings()
            if not (is_admin or match.lobby.creator == user.id):
                return projection.refused(match, settings, "error-not-allowed")
            match.lobby.closed = closed
            await work.save_lobby(match)
            key = "info-lobby-closed" if closed else "info-lobby-opened"
            return projection.shown(match, settings, Notice(key))

        return await self._in_lobby(chat_key, user, change)

    async def start_game(self, chat_key: str, user: User, *, is_admin: bool = False) -> Outcome:
        async def change(work: Work, match: Match) -> Outcome:
            settings = await work.settings()
            players = match.lobby.players
            if not (is_admin or user.id in players):
                return projection.refused(match, settings, "error-not-joined")
            if len(players) < MIN_PLAYERS or all(is_bot(p) for p in players):
                return projection.refused(
                    match, settings, "error-not-enough-players", min=MIN_PLAYERS
                )
            level = match.bot_level(settings.strong_bots)  # before the deal fixes it
            match.game = Game.new(players, settings.rules(), self._seed())
            match.table = TableState(bot_level=level)
            log = [LogEntry(user.id, "start")]
            return await work.commit(match, match.game.opening_events, log)

        return await self._in_lobby(chat_key, user, change)

    async def leave(self, chat_key: str, user: User) -> Outcome:
        return await self._remove(chat_key, user, user.id, kicked=False, is_admin=False)

    async def kick(
        self, chat_key: str, user: User, target: str, *, is_admin: bool = False
    ) -> Outcome:
        return await self._remove(chat_key, user, target, kicked=True, is_admin=is_admin)

    async def kick_seat(
        self, chat_key: str, user: User, seat: int, *, is_admin: bool = False
    ) -> Outcome:
        """Remove whoever sits in `seat`, counted from 1 as the table lists them."""
        return await self._remove(chat_key, user, seat, kicked=True, is_admin=is_admin)

    async def _remove(
        self, chat_key: str, user: User, target: str | int, *, kicked: bool, is_admin: bool
    ) -> Outcome:
        """/leave (the user themself), a kick by id or by seat number (counted from 1 as the
        table lists them: a computer player has no message to reply to and no member to pick).
        The seat is read under the chat's lock, from the state the kick changes, and only after
        the rights are checked, so both platforms refuse alike."""

        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            match = await work.active()
            if match is None:
                return work.refuse("error-no-game")
            lobby = match.lobby
            if kicked and not (is_admin or lobby.creator == user.id):
                return projection.refused(match, settings, "error-not-allowed")
            who = target
            if isinstance(who, int):
                seats = match.seated()
                if not 1 <= who <= len(seats):
                    return projection.refused(match, settings, "error-kick-seat")
                who = seats[who - 1]
            name = lobby.names.get(who, "")
            game = match.game
            if game is None:
                if who not in lobby.players:
                    missing = "error-kick-target" if kicked else "error-not-joined"
                    return projection.refused(match, settings, missing)
                lobby.remove(who)
                if not lobby.humans:
                    await work.close(match)
                    return projection.shown(match, settings, Notice("info-lobby-empty"))
                await work.save_lobby(match)
                if is_bot(who):  # no stored name: said like "info-bot-added"
                    return projection.shown(match, settings, Notice("info-bot-removed"))
                key = "info-kicked" if kicked else "info-left"
                return projection.shown(match, settings, Notice(key, {"name": name}))
            if who not in game.hands:
                missing = "error-kick-target" if kicked else "error-not-in-game"
                return projection.refused(match, settings, missing)
            events = game.remove_player(who)
            if lobby.creator == who:
                # The game's rights pass to the next person still playing.
                lobby.creator = next((p for p in game.players if not is_bot(p)), who)
            log = [LogEntry(who, "kicked" if kicked else "leave")]
            return await work.commit(match, events, log)

        return await self.uow.run(chat_key, user.lang, use_case, user=user)

    async def kill(self, chat_key: str, user: User, *, is_admin: bool = False) -> Outcome:
        async def use_case(work: Work) -> Outcome:
            settings = await work.settings()
            match = await work.active()
            if match is None:
                return work.refuse("error-no-game")
            if not (is_admin or match.lobby.creator == user.id):
                return projection.refused(match, settings, "error-not-allowed")
            await work.close(match)
            return projection.shown(match, settings, Notice("info-killed"))

        return await self.uow.run(chat_key, user.lang, use_case, user=user)
