"""Outcomes of the service into Telegram messages: one table per game, one hand per player.

Every path that changes a game (a command, a button, the timer loop) ends in `publish`, so the
group and the private chats look the same whoever moved.

The hands are `bot.telegram.hands`; what is remembered of each game is `bot.telegram.games`;
the rules for several processes showing one game are `bot.delivery.publisher`'s.

A dealt table is a photo: a wide banner of the top card, the color in play and the direction
(`bot.telegram.table_picture`) with the table's text as its caption, one call per update as the
text was; the chat's /settings turn it off (`ChatSettings.table_picture`).

The order of a publication, the look for a newer state with other processes (`converge`:
webhook workers over one database) and the outbox's settling are `bot.delivery.publishing`'s;
this class gives it Telegram's message operations, each a send queued per chat whose future
completes when Telegram took it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Mapping
from functools import partial
from typing import Any

from bot.delivery.outbox_loop import Delivery
from bot.delivery.publisher import read_again
from bot.delivery.publishing import Publisher, done, with_hands
from bot.presentation import notes
from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, Service, User
from bot.service.chat_settings import ChatSettings
from bot.service.views import HandView, TableView
from bot.telegram.common import chat_id_of
from bot.telegram.games import LOBBY, TABLE, Games
from bot.telegram.hands import Hands
from bot.telegram.keyboards import lobby_keyboard, rematch_keyboard
from bot.telegram.mentions import mentioning
from bot.telegram.play_modes import PlayModes, table_markup
from bot.telegram.sender import Content, Keyboard, Sender, Slot
from bot.telegram.table_picture import table_content
from bot.telegram.web_table import WebTable

log = logging.getLogger(__name__)


class TelegramUI:
    def __init__(
        self,
        service: Service,
        renderer: Renderer,
        sender: Sender,
        username: str,
        *,
        wait: float = 2.0,
        inline: bool = False,
        web: WebTable | None = None,
    ) -> None:
        self.service = service
        self.web = web  # the web table's buttons (None: WEBAPP_URL is not set)
        self.modes = PlayModes(
            service.settings, inline=inline
        )  # private chat, group (inline), both
        self.r = renderer
        self.sender = sender
        self.username = username
        self.wait = wait  # how long a handler waits for its messages before answering
        self.games = Games(service, sender)
        self.hands = Hands(service, renderer, sender, self.games, self.link, web)
        self.publisher = Publisher(self, service, wait=wait)
        self._messages: dict[tuple[int, int], Slot] = {}
        self._tasks = self.publisher.tasks  # the looks for a newer state under way

    @property
    def delivery(self) -> Delivery | None:
        """Settles the outbox entries of what is published."""
        return self.publisher.delivery

    @delivery.setter
    def delivery(self, value: Delivery | None) -> None:
        self.publisher.delivery = value

    @property
    def converge(self) -> bool:
        """Other processes edit the same messages (webhook workers over one database): after
        each show, look whether a newer state was committed meanwhile (`Publisher.converge`)."""
        return self.games.converge

    @converge.setter
    def converge(self, value: bool) -> None:
        self.games.converge = value

    @property
    def picture_from(self) -> int:
        """A hand of this many cards is shown as a picture."""
        return self.hands.picture_from

    @picture_from.setter
    def picture_from(self, value: int) -> None:
        self.hands.picture_from = value

    def link(self, game_id: int) -> str:
        """The deep link that opens the private chat and shows the player's hand."""
        return f"https://t.me/{self.username}?start=g{game_id}"

    async def remember_title(self, game_id: int, title: str | None) -> None:
        await self.games.remember_title(game_id, title)

    def chat_key_of(self, game_id: int) -> str | None:
        """The service's chat key of a game this adapter has shown (None: not known yet)."""
        return self.games.chat_key_of(game_id)

    async def show_hand(
        self,
        view: HandView,
        names: Mapping[str, str],
        *,
        fresh: bool = False,
        own: Mapping[str, Any] | None = None,
    ) -> asyncio.Future[Any]:
        """Edit the player's hand message, or (`fresh`) send it new at the bottom (`own`: the
        player's switches, as the outcome carries them)."""
        shown = await self.hands.show(view, names, fresh=fresh, own=own)
        if shown is None:
            return done()
        if self.converge:
            return self.publisher.converge(None, {view.player: view}, [shown])
        return shown

    async def redeliver(self, out: Outcome) -> None:
        """An outbox entry that another process (or this one, earlier) left unfinished: it may
        have been killed after its edits reached Telegram and before it looked for a newer
        state (`Publisher.converge`), so its messages may show an older state than this process
        remembers showing. What they show is forgotten first: each is edited again, not
        skipped as unchanged (a finished game's table, or a hand with its turn's buttons, left
        one move behind for good)."""
        game_id = None if out.outbox is None else out.outbox.game_id
        game = None if game_id is None else self.games.known(game_id)
        if game_id is not None and game is not None:
            await self.games.reread(game_id, game)
        await self.publish(out, wait=False)

    # ------------------------------------------------------------------ publishing

    async def publish(self, out: Outcome, *, wait: bool = True) -> None:
        """Show an outcome: the table, announcements, the changed hands, private texts; then
        hand what was sent to the delivery, which settles the outcome's outbox entries."""
        await self.publisher.publish(out, wait=wait)

    async def show_open_games(self, prefix: str) -> int:
        """After a start: every running game's table, and the hand of every person who can act
        in it, shown again from the stored state. Returns how many games were shown."""
        return await self.publisher.show_open_games(prefix)

    # the message operations of `bot.delivery.publishing.Platform`

    @property
    def awaited(self) -> bool:
        return False  # sends are queued per chat (`bot.telegram.sender`)

    @property
    def shared(self) -> bool:
        return self.games.converge

    def ours(self, out: Outcome) -> bool:
        return chat_id_of(out.chat_key) is not None

    async def catch_up(self, out: Outcome) -> None:
        if out.table is not None:
            await self.games.catch_up(out.table.game_id, out.table.version)

    async def present_table(
        self, out: Outcome, view: TableView, *, opens: bool, strict: bool
    ) -> asyncio.Future[Any]:
        return await self.show_table(
            view, out.names, strict=strict, opens=opens, settings=out.settings
        )

    async def present_results(
        self, out: Outcome, *, strict: bool, reply: Any
    ) -> asyncio.Future[Any] | None:
        texts = self.r.announcements(out)
        chat_id = chat_id_of(out.chat_key)
        if not texts or chat_id is None:
            return None
        markup = None
        if out.match_finished and out.table is not None:  # the result: offer a rematch
            markup = rematch_keyboard(self.r, out.lang, out.table.game_id)
        return self.sender.send(chat_id, "\n\n".join(texts), markup, strict=strict)

    async def private_hands(self, out: Outcome) -> bool:
        private = self.modes.private_hands(await self.modes.of(out.chat_key, out.settings))
        chat_id = chat_id_of(out.chat_key)
        if private and out.hands and chat_id is not None:
            await self.games.learn_title(chat_id, next(iter(out.hands.values())).game_id)
        return private

    async def present_hand(
        self, out: Outcome, view: HandView, *, strict: bool, opens: bool
    ) -> asyncio.Future[Any] | None:
        player = view.player
        return await self.hands.show(
            view,
            out.names,
            notes=notes.drawn(self.r, out, player, view.colorblind),
            strict=strict,
            began=out.turn_began == player,
            opens=opens,
            own=out.switches.get(player),
        )

    def reveals(self, out: Outcome) -> Mapping[str, str]:
        # The challenged hand: to the challenger's private chat only.
        shown = notes.revealed(self.r, out, self.r.colorblind(out))
        return {viewer: text for viewer, text in shown.items() if viewer.isdigit()}

    def present_reveal(self, viewer: str, text: str, *, strict: bool) -> asyncio.Future[Any]:
        return self.sender.send(int(viewer), text, strict=strict)

    async def after_hands(
        self, out: Outcome, shown: Collection[str], skip: Collection[str]
    ) -> None:
        """Nothing: a turn is told by the hand itself, sent new (`bot.telegram.hands`)."""

    async def hands_again(self, out: Outcome) -> Outcome:
        """Every person who can act: the hand of each, read from the stored state. No
        notification: a turn the stopped process began and did not show is in its outbox
        entry, re-delivered (and notified) before this."""
        view = out.table
        assert view is not None
        hands: dict[str, HandView] = {}
        switches: dict[str, Mapping[str, Any]] = {}
        private = await self.private_hands(out)  # (no hands yet: no title asked for)
        for seat in view.seats if private else ():
            if seat.is_bot:
                continue
            user = User(seat.id, seat.name)
            mine = await read_again(partial(self.service.queries.hand, user, game_id=view.game_id))
            hand = mine.hands.get(seat.id)
            if hand is not None and hand.choices:
                hands[seat.id] = hand
                switches.update(mine.switches)
        return with_hands(out, hands, switches)

    def forget(self, game_id: int) -> None:
        self.games.forget(game_id)

    async def settle(self, future: asyncio.Future[Any]) -> None:
        """Wait (a little) until a private chat shows what was just submitted."""
        await asyncio.wait([future], timeout=self.wait)

    async def show_table(
        self,
        view: TableView,
        names: Mapping[str, str],
        *,
        strict: bool = False,
        opens: bool = True,
        settings: ChatSettings | None = None,
    ) -> asyncio.Future[Any]:
        """Edit the game's lobby or table message, or send it.

        `opens`: the outcome that brings the message into being (the lobby's creation, the
        deal); with other processes publishing too (`converge`), only that one sends it new.
        `settings`: the chat's, as the outcome carries them (None: read here).
        """
        chat_id = chat_id_of(view.chat_key)
        assert chat_id is not None
        game = await self.games.get(view.game_id)
        game.names, game.lang, game.chat_id = dict(names), view.lang, chat_id
        names = game.names
        r = self.r
        if view.top is None:  # a lobby, or a lobby that was cancelled
            slot = self.games.slot(view.game_id, game, LOBBY, chat_id)
            slot.on_new_id = partial(self.games.lobby_sent, view.game_id)
            markup = lobby_keyboard(r, view) if view.status == "lobby" else None

            def render() -> Content:
                # A rematch's invited people are mentioned: Telegram notifies them when the
                # lobby is sent, and edits keep the mentions without notifying anyone again.
                return mentioning(r.lobby_marked(view, names)), markup

        else:
            slot = self.games.slot(view.game_id, game, TABLE, chat_id)
            game.started = True
            if slot.message_id is None and not game.lobby_retired:  # the lobby gives way
                lobby = game.refs.get(LOBBY)
                if lobby is None and self.converge:  # another process may have sent it since
                    found = await self.games.stored_id(view.game_id, LOBBY)
                    lobby = None if found is None else str(found)
                if lobby:
                    self.games.retire_lobby(game, int(lobby))
            markup = None
            if settings is None:
                settings = await self.service.settings.settings(view.chat_key)
            if view.status == "running":
                mode = await self.modes.of(view.chat_key, settings)
                link = self.link(view.game_id)
                web = None if self.web is None else self.web.group_link(self.username, view.game_id)
                markup = table_markup(r, view.lang, view.game_id, link, mode, web)
            picture = settings.table_picture

            def render() -> Content:
                return table_content(view, r.table(view, names), wanted=picture), markup

        unknown = self.converge and slot.message_id is None and not opens
        if unknown and await slot.take_over_stored() is None:  # (one given up here: sent new)
            # The worker that opened it is sending it (perhaps waiting for the group's budget):
            # a second one here would show it twice. That worker follows its send with the
            # newest state (`Publisher.converge`).
            return done()
        # The lobby's edits spend the group's budget last (the table and results first).
        low = view.top is None and view.status == "lobby" and slot.message_id is not None
        return self.sender.update(slot, render, view.version, low=low, strict=strict)

    # ------------------------------------------------------------------ plain messages

    def notice(self, lang: str, notice: Notice) -> str:
        return self.r.notice(lang, notice)

    def say(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        *,
        reply_to: int | None = None,
    ) -> asyncio.Future[Any]:
        return self.sender.send(chat_id, text, markup, reply_to=reply_to)

    def edit(
        self, chat_id: int, message_id: int, text: str, markup: Keyboard | None
    ) -> asyncio.Future[Any]:
        """Edit a message that is not a game's (the settings message), coalesced like one."""
        key = (chat_id, message_id)
        slot = self._messages.get(key)
        if slot is None:
            if len(self._messages) > 1000:
                self._messages.clear()
            slot = self._messages[key] = Slot(chat_id, message_id)
        content: Content = (text, markup)
        return self.sender.update(slot, lambda: content, slot.version)
