"""A whole match in a terminal, through the same service, storage and locales as the chats.

The console is just another adapter: it turns numbered choices into service calls and renders
the same views. Input and output are injectable so a test can play a match to the end. After a
match it offers a rematch (`LobbyCases.rematch`: the same computer players, the chat's settings).

A turn is shown compactly so that it fits an 80x24 terminal: the moves since the player's last
turn, the table once, the hand once and the choices, several to a line. A choice that needs a
second step (a wild card's color, or any other actions the engine lists under one card) asks
for it with a title and a way back.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Mapping

from bot.console import menu
from bot.console.layout import COLUMNS, ROWS, flow, wrap
from bot.console.screen import Screen
from bot.console.stdin import StdinLines
from bot.presentation.render import Renderer
from bot.service import Outcome, Service, User
from bot.service.views import HandView, TableView
from core.actions import Action
from core.rules import Rules

CHAT = "console:local"
HUMAN = "human"
Ask = Callable[[str], Awaitable[str | None]]
QUIT_WORDS = frozenset({"q", "quit", "exit"})  # and the locale's `console-quit-keys`
SETTINGS_WORDS = frozenset({"s"})  # and `console-settings-keys`
RULES_WORDS = frozenset({"r"})  # and `console-rules-keys`
# What `_number` answers when the settings or the rules were shown at its prompt: the caller
# shows its question again (the screen has scrolled, and the language may have changed).
SHOWN_MENU = -1


class ConsoleTable:
    def __init__(
        self,
        service: Service,
        renderer: Renderer,
        *,
        lang: str | None = None,
        preset: str | None = None,
        bots: int = 3,
        new: bool = False,
        colorblind: bool | None = None,
        ask: Ask | None = None,
        say: Callable[[str], None] = print,
        columns: int = COLUMNS,
        rows: int = ROWS,
    ) -> None:
        """`lang` and `colorblind` change the table at once (None: as saved); `preset` and
        `bots` are for a new match (preset None: the table's saved rules); `new` starts one
        without asking about a saved match."""
        if not 1 <= bots <= 9:
            raise ValueError("1-9 computer players")
        self.service = service
        self.r = renderer
        self.wanted_lang = lang
        self.lang = lang or "ru"
        self.preset = preset
        self.bots = bots
        self.new = new
        self.colorblind = colorblind
        self.ask = ask or StdinLines()
        self.say = say
        self.columns = columns
        self.screen = Screen(renderer, columns)
        self.rows = rows
        self.user = self._player(self.lang)
        self.in_match = False  # a match is running: leaving keeps it saved
        self.colorblind_on = bool(colorblind)  # the table's mode, as last seen
        self._moves: list[str] = []  # what happened since the player last chose

    def _player(self, lang: str) -> User:
        """The person at the keyboard, named in the table's language."""
        return User(HUMAN, self.r.t(lang, "console-you"), lang)

    def names(self, names: Mapping[str, str]) -> dict[str, str]:
        """The game's names with the player's own in the table's current language."""
        return {**names, self.user.id: self.user.name}

    # ------------------------------------------------------------------ the match

    async def run(self) -> bool:
        """Play until a match ends and no rematch is wanted (True), or the player leaves during
        a match (False; the match stays saved and they are told so, on Ctrl-C too)."""
        try:
            finished = await self._play()
        except asyncio.CancelledError:
            self.say("")
            if self.in_match:
                self.say(self.r.t(self.lang, "console-saved"))
            raise
        if not finished and self.in_match:
            self.say(self.r.t(self.lang, "console-saved"))
        return finished

    async def _play(self) -> bool:
        outcomes = await self._resume_or_start()
        if outcomes is None:
            return False
        while True:
            for out in outcomes:
                self.show(out)
            current = await self.service.queries.table(CHAT)
            table = current.table
            if table is None or table.status != "running":
                self.in_match = False
                self.say("")
                self.flush()
                rows = await self.service.statistics.leaderboard(CHAT)
                self.say(self.r.stats(self.lang, rows))
                again = await self._rematch()
                if again is None:
                    return True
                outcomes = again
                continue
            self.in_match = True
            hand_out = await self.service.queries.hand(self.user, chat_key=CHAT)
            view = hand_out.hands.get(self.user.id)
            if view is not None and view.choices:
                step = await self._turn(table, view, hand_out.names)
                if step is None:
                    return False
                outcomes = step
            else:
                outcomes = await self.service.clock.run_due(math.inf)
                if not outcomes and view is None:
                    return False

    async def _resume_or_start(self) -> list[Outcome] | None:
        """Continue the saved match or start a new one; None: the player left at the question."""
        admin = {"is_admin": True}
        settings = await self.service.settings.settings(CHAT)
        self.lang = self.wanted_lang or settings.lang or "ru"
        self.user = self._player(self.lang)
        changes = [("lang", self.lang), ("timer", "off")]
        if self.colorblind is not None:
            changes.append(("colorblind", "on" if self.colorblind else "off"))
        for key, value in changes:
            await self.service.settings.change_setting(CHAT, self.user, key, value, **admin)
        self.colorblind_on = (await self.service.settings.settings(CHAT)).colorblind
        current = await self.service.queries.table(CHAT)
        saved = current.table
        if saved is not None and saved.status == "running":
            self.in_match = True
            if not self.new:
                go_on = await self._continue_saved(saved)
                if go_on is None:
                    return None
                if go_on:
                    self.say(self.r.t(self.lang, "console-resumed"))
                    return [current]
        if saved is not None:
            await self.service.lobby.kill(CHAT, self.user, is_admin=True)
        if self.preset is not None:
            await self.service.settings.change_setting(
                CHAT, self.user, "preset", self.preset, **admin
            )
        await self.service.lobby.new_game(CHAT, self.user)
        for _ in range(self.bots):
            await self.service.lobby.add_bot(CHAT, self.user)
        self.in_match = True
        return [await self.service.lobby.start_game(CHAT, self.user)]

    async def _continue_saved(self, saved: TableView) -> bool | None:
        """Ask whether to continue the saved match (True) or start afresh (False)."""
        lang = self.lang
        settings = await self.service.settings.settings(CHAT)
        new_rules = Rules.preset(self.preset) if self.preset else settings.rules()
        bots = sum(seat.is_bot for seat in saved.seats)
        number: int | None = SHOWN_MENU
        while number == SHOWN_MENU:
            lang = self.lang
            self.say(
                self.r.t(
                    lang,
                    "console-saved-match",
                    rules=self.r.rules_name(lang, saved.rules),
                    bots=bots,
                    round=saved.round_no,
                )
            )
            self.say(f"  1. {self.r.t(lang, 'console-continue')}")
            new_match = self.r.t(
                lang, "console-start-new", rules=self.r.rules_name(lang, new_rules), bots=self.bots
            )
            self.say(f"  2. {new_match}")
            number = await self._number(1, 2)
        return None if number is None else number == 1

    async def _rematch(self) -> list[Outcome] | None:
        """Offer another match against the same computer players; None: the player is done."""
        number: int | None = SHOWN_MENU
        while number == SHOWN_MENU:
            self.say("")
            self.say(self.r.t(self.lang, "console-again"))
            self.say(f"  1. {self.r.t(self.lang, 'btn-rematch')}")
            self.say(f"  0. {self.r.t(self.lang, 'console-quit')}")
            number = await self._number(0, 1)
        if not number:
            return None
        lobby = await self.service.lobby.rematch(CHAT, self.user)
        if not lobby.ok:  # the last game was stopped, not finished: nothing to repeat
            self.show(lobby)
            self.flush()
            return None
        self.in_match = True
        return [await self.service.lobby.start_game(CHAT, self.user)]

    # ------------------------------------------------------------------ output

    def show(self, out: Outcome) -> None:
        """Note an outcome's lines (a refusal, the events, the notices) for the next screen."""
        if out.error is not None:
            self._moves.append("⚠️ " + self.r.notice(out.lang, out.error))
        if out.table is not None:
            self.colorblind_on = out.table.colorblind
        colorblind = self.colorblind_on
        texts = self.r.events(
            out.lang,
            out.events,
            self.names(out.names),
            colorblind,
            viewer=self.user.id,
            scoring=out.scoring,
            score_once=True,
        )
        texts += [self.r.notice(out.lang, notice) for notice in out.notices]
        self._moves.extend("• " + text for text in texts)

    def flush(self, room: int | None = None) -> None:
        """Print what happened since the last screen. With `room` (the lines left on the
        screen for it), moves that will not stay in sight are followed by a line saying how
        many are above, so that the last screen still shows where its moves begin."""
        moves = [line for move in self._moves for line in wrap(move, self.columns)]
        self._moves = []
        if room is not None and 1 + len(moves) > room > 1:
            hidden = len(moves) - (room - 1)
            note = self.r.t(self.lang, "console-more-moves", count=hidden)
            moves = [*moves[:hidden], note, *moves[hidden:]]
        for line in moves:
            self.say(line)

    # ------------------------------------------------------------------ a turn

    async def _turn(
        self, table: TableView, view: HandView, game_names: dict[str, str]
    ) -> list[Outcome] | None:
        names = self.names(game_names)
        groups = self.screen.menu(view)
        screen = self.screen.turn_lines(table, view, names)
        screen += self.screen.menu_lines(view, groups)
        self.say("")
        self.flush(room=self.rows - len(screen) - 1)  # the prompt takes the last line
        for line in screen:
            self.say(line)
        first = 1 if view.is_turn else 0
        while True:
            number = await self._number(first, len(groups))
            if number is None:
                return None
            if number == SHOWN_MENU:
                return []  # the turn is shown again, fresh
            if number == 0:
                return await self.service.clock.run_due(math.inf)
            group = groups[number - 1]
            action: Action | None = group[0]
            if len(group) > 1:
                action = await self._second_step(view, group, names)
                if action is None:  # back: the same choices again
                    for line in self.screen.menu_lines(view, groups):
                        self.say(line)
                    continue
            assert action is not None
            out = await self.service.play.act(
                self.user, action, chat_key=CHAT, version=view.version
            )
            return [out]

    async def _second_step(
        self, view: HandView, group: list[Action], names: Mapping[str, str]
    ) -> Action | None:
        """Which of a card's actions: its color, or another choice; None: back (`0` or `q`)."""
        lang, colorblind = view.lang, view.colorblind
        first = group[0]
        card = self.r.card(lang, first.card, colorblind) if first.card is not None else ""
        colors = all(a.color is not None for a in group)
        self.say(
            self.r.t(lang, "console-choose-color" if colors else "console-choose-option", card=card)
        )
        items = [
            f"{i}. {self.screen.variant(lang, action, colorblind, names)}"
            for i, action in enumerate(group, 1)
        ]
        items.append(f"0. {self.r.t(lang, 'btn-back')}")
        for line in flow(items, self.columns, "  "):
            self.say(line)
        picked = await self._number(0, len(group), back=True)
        if picked is None or picked == 0:
            return None
        return group[picked - 1]

    async def _number(self, low: int, high: int, *, back: bool = False) -> int | None:
        """A number typed in [low, high]. `q` leaves (None), or with `back` goes back (0);
        the input's end (Ctrl-D) always leaves. Without `back`, `s` opens the settings and `r`
        shows the rules, as /settings and /rules do in a chat; then the answer is SHOWN_MENU."""
        key = "console-prompt-back" if back else "console-prompt"
        while True:
            text = await self.ask(self.r.t(self.lang, key, low=low, high=high))
            if text is None:
                self.say("")
                return None
            word = text.strip().lower()
            if word in self._words(QUIT_WORDS, "console-quit-keys"):
                return 0 if back else None
            if not back and word in self._words(SETTINGS_WORDS, "console-settings-keys"):
                return SHOWN_MENU if await self._settings() else None
            if not back and word in self._words(RULES_WORDS, "console-rules-keys"):
                return SHOWN_MENU if await self._rules() else None
            try:
                number = int(text.strip())
            except ValueError:
                number = -1
            if low <= number <= high:
                return number
            self.say(self.r.t(self.lang, "console-bad-number", low=low, high=high))

    def _words(self, latin: frozenset[str], key: str) -> frozenset[str]:
        """What may be typed for a letter command: the letter, and the key it is on in the
        keyboard's Cyrillic layout (from the locale)."""
        return latin | frozenset(self.r.t(self.lang, key).split())

    # ------------------------------------------------------------------ settings and rules

    async def _settings(self) -> bool:
        """The table's settings, one numbered line each (`bot.console.menu`), until `0` or `q`
        goes back (True); False: the input ended."""
        while True:
            settings = await self.service.settings.settings(CHAT)  # as the last change left them
            self.lang = settings.lang or self.lang
            self.user = self._player(self.lang)
            self.colorblind_on = settings.colorblind
            entries = menu.entries(self.r, self.lang, settings)
            self.say("")
            for line in wrap(self.r.t(self.lang, "console-settings-title"), self.columns):
                self.say(line)
            for number, entry in enumerate(entries, 1):
                self.say(f"{number:>3}. {entry.label}")
            self.say(f"  0. {self.r.t(self.lang, 'btn-back')}")
            picked = await self._number(0, len(entries), back=True)
            if picked is None:
                return False
            if picked == 0:
                return True
            entry = entries[picked - 1]
            admin = {"is_admin": True}  # the person at the keyboard owns the table
            if entry.value is None:
                out = await self.service.settings.toggle_setting(
                    CHAT, self.user, entry.key, **admin
                )
            else:
                out = await self.service.settings.change_setting(
                    CHAT, self.user, entry.key, entry.value, **admin
                )
            if not out.ok:  # a storage failure: said, and nothing changed
                self.show(out)
                self.flush()

    async def _rules(self) -> bool:
        """The rules of a new match, as /rules words them, until Enter (True); False: the input
        ended."""
        settings = await self.service.settings.settings(CHAT)
        self.say("")
        for paragraph in self.r.rules_text(self.lang, settings).split("\n"):
            for line in wrap(paragraph, self.columns) if paragraph else [""]:
                self.say(line)
        return await self.ask(self.r.t(self.lang, "console-rules-back")) is not None
