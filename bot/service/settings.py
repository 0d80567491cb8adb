"""Settings use cases: a chat's settings (rules, language, timer, accessibility) and a person's
own switches. Reads go through the settings cache (`bot.service.settings_store`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.service import computer, projection
from bot.service.chat_settings import ChatSettings
from bot.service.deadlines import fresh_turn
from bot.service.match import Match
from bot.service.outcome import Notice, Outcome, User, lang_of
from bot.service.unit_of_work import UnitOfWork, Work


class SettingsCases:
    def __init__(self, uow: UnitOfWork) -> None:
        self.uow = uow
        self.store = uow.settings

    async def settings(self, chat_key: str) -> ChatSettings:
        return await self.store.chat(chat_key)

    async def lang(self, chat_key: str, hint: str | None = None) -> str:
        return (await self.store.chat(chat_key)).lang or lang_of(hint)

    async def personal(self, user_key: str) -> dict[str, Any]:
        """A person's own choices (e.g. hands by DM), stored apart from any chat's settings."""
        return await self.store.personal(user_key)

    async def set_personal(self, user_key: str, **values: Any) -> None:
        async with self.uow.lock(f"user:{user_key}"):
            data = {**await self.store.personal(user_key, fresh=True), **values}
            await self.store.put_personal(user_key, data)

    async def toggle_personal(self, user_key: str, key: str, *, default: bool) -> bool:
        """Flip one of a person's own switches and return its new value.

        Read and write happen under that person's lock, so two quick presses are two flips.
        `default` is what the switch means while they never chose (the chat's setting).
        """
        async with self.uow.lock(f"user:{user_key}"):
            data = await self.store.personal(user_key, fresh=True)
            own = data.get(key)
            value = not (default if own is None else bool(own))
            await self.store.put_personal(user_key, {**data, key: value})
            return value

    async def change_setting(
        self, chat_key: str, user: User, key: str, value: str, *, is_admin: bool = False
    ) -> Outcome:
        """Set one setting to `value` (its text form, see `ChatSettings.changed`)."""
        return await self._update(chat_key, user, lambda s: s.changed(key, value), is_admin)

    async def toggle_setting(
        self, chat_key: str, user: User, key: str, *, is_admin: bool = False
    ) -> Outcome:
        """Flip one switch (see `ChatSettings.toggled`); `Outcome.settings` holds the result.

        The current value is read under the chat's lock, next to the write: an adapter that
        read it itself and sent the opposite could lose one of two quick presses.
        """
        return await self._update(chat_key, user, lambda s: s.toggled(key), is_admin)

    async def _update(
        self,
        chat_key: str,
        user: User,
        change: Callable[[ChatSettings], ChatSettings],
        is_admin: bool,
    ) -> Outcome:
        """Load, `change` (a ValueError refuses) and store the settings, under the chat's lock.

        A settings change does not decide a new chat's language: only the first game does
        (`Work.create`), so that it is the language of whoever actually plays there.
        """

        async def use_case(work: Work) -> Outcome:
            settings = await work.settings(fresh=True)
            match = await work.active()
            if not (is_admin or match is None or match.lobby.creator == user.id):
                return work.refuse("error-not-allowed")
            try:
                new = change(settings)
            except ValueError:
                return work.refuse("error-bad-setting")
            # The game is stored before the settings, with its outbox entry: a process that
            # dies before the chat was shown the change leaves it to a delivery loop, which
            # shows the game with whatever settings were stored by then.
            if match is not None and match.status == "running":
                if new.timer != settings.timer:
                    await self._restart_turn_timer(work, match, new.timer)
                else:  # its table may show the change (the language, the colorblind marks)
                    await work.restart_turn(match, match.deadline)
            if match is not None and match.status == "lobby":
                await work.save_lobby(match)  # someone is still here: the idle time restarts
            await work.put_settings(new)
            out = Outcome(chat_key, work.lang, info=Notice("info-settings-saved"), settings=new)
            if match is not None:
                out.table = projection.table_view(match, new)
                out.names = dict(match.names)
            return out

        return await self.uow.run(chat_key, user.lang, use_case, user=user)

    async def _restart_turn_timer(self, work: Work, match: Match, timer: int | None) -> None:
        """The chat's turn timer changed mid-game: the player to act gets a fresh full timer.

        Their stored deadline was set under the old timer (see `bot.service.deadlines.fresh_turn`
        for why it cannot stay). Computer players about to move keep their own, earlier deadline;
        the new turn deadline is stored with the turn and takes over after them.
        """
        game = match.game
        assert game is not None
        turn = fresh_turn(game, timer, self.uow.clock())
        match.table.turn = turn
        bots_first = computer.want_to_act(game, match.table) and match.deadline is not None
        await work.restart_turn(match, match.deadline if bots_first else turn.deadline)
