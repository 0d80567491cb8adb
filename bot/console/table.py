"""A whole match in a terminal, through the same service, storage and locales as the chats.

The console is just another adapter: it turns numbered choices into service calls and renders
the same views. Input and output are injectable so a test can play a match to the end. After a
match it offers a rematch (`UnoService.rematch`: the same computer players, the chat's settings).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable

from bot.render import Renderer
from bot.service import Outcome, UnoService, User
from bot.views import HandView

CHAT = "console:local"
Ask = Callable[[str], Awaitable[str | None]]


async def ask_stdin(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


class ConsoleTable:
    def __init__(
        self,
        service: UnoService,
        renderer: Renderer,
        *,
        lang: str = "ru",
        preset: str = "classic",
        bots: int = 3,
        ask: Ask = ask_stdin,
        say: Callable[[str], None] = print,
    ) -> None:
        if not 1 <= bots <= 9:
            raise ValueError("1-9 computer players")
        self.service = service
        self.r = renderer
        self.lang = lang
        self.preset = preset
        self.bots = bots
        self.ask = ask
        self.say = say
        self.user = User("human", renderer.t(lang, "console-you"), lang)

    async def run(self) -> bool:
        """Play until a match ends and no rematch is wanted (True), or the input ends during a
        match (False; the match stays saved)."""
        outcomes = await self._resume_or_start()
        while True:
            for out in outcomes:
                self.show(out)
            table = (await self.service.table(CHAT)).table
            if table is None or table.status != "running":
                if table is not None:
                    self.say(self.r.table(table, (await self.service.table(CHAT)).names))
                rows = await self.service.leaderboard(CHAT)
                self.say(self.r.stats(self.lang, rows))
                again = await self._rematch()
                if again is None:
                    return True
                outcomes = again
                continue
            hand_out = await self.service.hand(self.user, chat_key=CHAT)
            view = hand_out.hands.get(self.user.id)
            if view is not None and view.choices:
                step = await self._turn(view, hand_out.names)
                if step is None:
                    return False
                outcomes = step
            else:
                outcomes = await self.service.run_due(math.inf)
                if not outcomes and view is None:
                    return False

    async def _resume_or_start(self) -> list[Outcome]:
        admin = {"is_admin": True}
        for key, value in (("lang", self.lang), ("timer", "off")):
            await self.service.change_setting(CHAT, self.user, key, value, **admin)
        current = await self.service.table(CHAT)
        if current.table is not None and current.table.status == "running":
            self.say(self.r.t(self.lang, "console-resumed"))
            return [current]
        if current.table is not None:
            await self.service.kill(CHAT, self.user, is_admin=True)
        await self.service.change_setting(CHAT, self.user, "preset", self.preset, **admin)
        await self.service.new_game(CHAT, self.user)
        for _ in range(self.bots):
            await self.service.add_bot(CHAT, self.user)
        return [await self.service.start_game(CHAT, self.user)]

    async def _rematch(self) -> list[Outcome] | None:
        """Offer another match against the same computer players; None: the player is done."""
        self.say("")
        self.say(self.r.t(self.lang, "console-again"))
        self.say(f"  1. {self.r.t(self.lang, 'btn-rematch')}")
        self.say(f"  0. {self.r.t(self.lang, 'console-quit')}")
        if not await self._number(0, 1):
            return None
        lobby = await self.service.rematch(CHAT, self.user)
        if not lobby.ok:  # the last game was stopped, not finished: nothing to repeat
            self.show(lobby)
            return None
        return [await self.service.start_game(CHAT, self.user)]

    def show(self, out: Outcome) -> None:
        """Print an outcome, a move's or a timer's: the refusal, the events, the chat notices."""
        if out.error is not None:
            self.say("⚠️ " + self.r.notice(out.lang, out.error))
        for event in out.events:
            text = self.r.event(
                out.lang, event, out.names, viewer=self.user.id, scoring=out.scoring
            )
            if text:
                self.say("• " + text)
        for notice in out.notices:
            self.say("• " + self.r.notice(out.lang, notice))

    async def _turn(self, view: HandView, names: dict[str, str]) -> list[Outcome] | None:
        table = await self.service.table(CHAT)
        assert table.table is not None
        self.say("")
        self.say(self.r.table(table.table, table.names, recent=False))
        self.say("")
        self.say(self.r.hand(view, names))
        labels = [
            self.r.choice(self.lang, c, view.colorblind, view.pending_amount) for c in view.choices
        ]
        first = 1
        if not view.is_turn:
            labels.insert(0, self.r.t(self.lang, "console-wait"))
            first = 0
        for i, label in enumerate(labels, first):
            self.say(f"  {i}. {label}")
        number = await self._number(first, first + len(labels) - 1)
        if number is None:
            return None
        if number == 0:
            return await self.service.run_due(math.inf)
        choice = view.choices[number - 1]
        action = choice.action
        if choice.colors:
            for i, color_action in enumerate(choice.colors, 1):
                self.say(f"  {i}. {self.r.action(self.lang, color_action, view.colorblind)}")
            picked = await self._number(1, len(choice.colors))
            if picked is None:
                return None
            action = choice.colors[picked - 1]
        return [await self.service.act(self.user, action, chat_key=CHAT, version=view.version)]

    async def _number(self, low: int, high: int) -> int | None:
        prompt = self.r.t(self.lang, "console-prompt", low=low, high=high) + " "
        while True:
            text = await self.ask(prompt)
            if text is None or text.strip().lower() in ("q", "quit", "exit"):
                return None
            try:
                number = int(text.strip())
            except ValueError:
                number = -1
            if low <= number <= high:
                return number
            self.say(self.r.t(self.lang, "console-bad-number", low=low, high=high))
