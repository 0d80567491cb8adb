"""A player's hand in their private chat with the bot, kept up to date by edits.

Turns are notified without a word in the group: when a person's turn begins, their hand moves to
the bottom of the private chat as a new message (Telegram notifies new messages, never edits)
and the previous one is deleted. A person can turn this off (`/notify`, `TURN_PING` among their
own switches); their hand is then edited in place. With other processes publishing too, the
hand is sent new by the one that claims the turn first (`bot.delivery.publisher.claim_turn`);
the new message replaces the one stored in the refs, not the one this process remembers.

A waiting hand shows only what stays true while the player waits (its cards and "not your
turn"); a hand that can act is re-sent whenever the turn or the top card changes. A hand of
`picture_from` cards or more is a photo of the cards with the text as its caption
(`bot.telegram.pictures.hand_content`); `/pictures` turns it off for a person (`PICTURES`).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from bot.delivery.publisher import claim_turn
from bot.presentation import notes, steps
from bot.presentation.mentions import fill, marker
from bot.presentation.render import Renderer
from bot.service import Service
from bot.service.views import HandView
from bot.telegram.common import chat_id_of, personal_key
from bot.telegram.games import TITLE, Game, Games, hand_ref
from bot.telegram.keyboards import hand_keyboard, link_keyboard, step_keyboard
from bot.telegram.mentions import mentioning
from bot.telegram.pictures import PICTURE_FROM, PICTURES, Photo, hand_content
from bot.telegram.sender import Content, Sender, Slot
from bot.telegram.web_table import WebTable

log = logging.getLogger(__name__)

TURN = "tg:turn:"  # + user: the hand version whose turn was sent new, and by which process
TURN_PING = "turn_ping"  # a person's own switch: a new message when their turn begins


class Hands:
    def __init__(
        self,
        service: Service,
        renderer: Renderer,
        sender: Sender,
        games: Games,
        link: Callable[[int], str],
        web: WebTable | None = None,
    ) -> None:
        self.service = service
        self.r = renderer
        self.sender = sender
        self.games = games
        self.link = link  # the deep link that opens the private chat on a game's hand
        self.web = web  # the web table's page, a button under the hand (None: no WEBAPP_URL)
        self.picture_from = PICTURE_FROM  # a hand of this many cards is shown as a picture
        self.token = uuid.uuid4().hex  # this process, in the claims it makes (`claim_turn`)

    def _hand_text(self, game: Game, view: HandView, names: Mapping[str, str]) -> str:
        parts = []
        title = game.refs.get(TITLE)
        if title:
            parts.append(self.r.t(view.lang, "tg-hand-chat", chat=title))
        parts.append(self.r.hand(view, names))
        return "\n\n".join(parts)

    async def _hand_slot(self, view: HandView, names: Mapping[str, str]) -> tuple[Game, Slot]:
        game = await self.games.get(view.game_id)
        if not game.chat_id:  # a hand shown before any table (after a restart)
            game.chat_id, game.lang, game.names = (
                chat_id_of(view.chat_key) or 0,
                view.lang,
                dict(names),
            )
        slot = self.games.slot(view.game_id, game, hand_ref(view.player), int(view.player))
        slot.on_forbidden = partial(self._dm_forbidden, view.game_id, view.player)
        return game, slot

    async def show(
        self,
        view: HandView,
        names: Mapping[str, str],
        *,
        notes: list[str] | None = None,
        fresh: bool = False,
        strict: bool = False,
        began: bool = False,
        opens: bool = True,
        own: Mapping[str, Any] | None = None,
    ) -> asyncio.Future[Any] | None:
        """Edit the player's hand message (or send it: `fresh` sends a new one at the bottom);
        `strict`: the future raises if the send was given up for a reason that may pass. None:
        not shown (the private chat is closed, or another process sends it).

        `began`: the player's turn began with this change (`Outcome.turn_began`): the hand
        then moves to the bottom of the private chat as a new message, which Telegram notifies.
        `opens`: the outcome that deals the hand; with other processes publishing too
        (`converge`), a later one that finds no stored hand message leaves it to that one.
        `own`: the player's own switches, as the outcome carries them (None: read here).
        """
        game, slot = await self._hand_slot(view, names)
        unknown = self.games.converge and slot.message_id is None and not fresh and not opens
        if unknown and await slot.take_over_stored() is None:  # (one given up here: sent new)
            return None  # the dealing worker sends it, then the newest state
        if fresh:
            game.dm_closed.discard(view.player)
            if slot.message_id is not None:
                self.sender.remove_keyboard(slot.chat_id, slot.message_id)
                slot.dropped.add(slot.message_id)
                slot.message_id, slot.shown = None, None
        elif view.player in game.dm_closed:
            return None
        if own is None:
            own = await self.own(view.player)
        # A turn begins: the hand as a new message, if the player wants it, by one process.
        ping = began and view.is_turn and not fresh and _switch(own, TURN_PING)
        elsewhere = False  # another process sends this turn's hand new
        if ping and self.games.converge:  # other processes publish too (webhook workers)
            ping = await claim_turn(self.service.refs, TURN + view.player, view, self.token)
            elsewhere = not ping
        if ping and self.games.converge:
            # The message it replaces is the stored one: another process may have sent the hand
            # new since this one looked (an earlier turn), and that one must go, not stay.
            await slot.take_over_stored()
        pictures = _switch(own, PICTURES)
        names = dict(names)
        lines = list(notes or ())

        def render() -> Content:
            text = self._hand_text(game, view, names)
            if lines:
                text = "\n".join(lines) + "\n\n" + text
            return self._hand_content(view, text, pictures), hand_keyboard(self.r, view, self.web)

        return self.sender.update(
            slot, render, view.version, fresh=ping, sent_elsewhere=elsewhere, strict=strict
        )

    def _hand_content(self, view: HandView, text: str, wanted: bool) -> str | Photo:
        return hand_content(view, text, wanted=wanted, picture_from=self.picture_from)

    async def own(self, player: str) -> Mapping[str, Any]:
        """A person's own switches, for a hand shown without an outcome that carries them."""
        return await self.service.settings.personal(personal_key(player))

    async def show_step(
        self,
        view: HandView,
        names: Mapping[str, str],
        head: str,
        own: Mapping[str, Any] | None = None,
    ) -> asyncio.Future[Any]:
        """The second step of a move (a wild's colors, a 7's players) in place of the hand's
        keyboard (`own`: the player's switches, if the outcome carries them)."""
        game, slot = await self._hand_slot(view, names)
        names = dict(names)
        pictures = _switch(own if own is not None else await self.own(view.player), PICTURES)

        def render() -> Content:
            title = steps.step_title(self.r, view, head)
            text = self._hand_text(game, view, names) + "\n\n" + title
            content = self._hand_content(view, text, pictures)
            return content, step_keyboard(self.r, view, head, names)

        return self.sender.update(slot, render, view.version)

    async def hand_pressed(self, game_id: int, player: str, message_id: int) -> None:
        """A press on the hand message `message_id` that shows the hand again, not a new state
        of the game: a refused move (stale, out of turn), a step (a wild's colors, back, a
        page), a step's stale button. Make sure the hand shown next is shown on the message
        pressed or a newer one, and that no older message is pressed in vain again.

        A message older than the hand loses its buttons. With other processes publishing too
        (`converge`), this process's memory may be behind, so the hand is read from the store,
        and the newest of the pressed, the stored and the remembered message is the hand (a
        newer one than the stored is a hand another process sent new and has not stored yet,
        or never will: it was killed in between). It is stored, this process edits it from now
        on, and what it shows is forgotten, so the show that follows edits it; the older ones
        lose their buttons. What it shows is not known: another process may have edited it
        since this one did (its step, or its older state landing late), and a show skipped as
        unchanged left a stale hand pressed and refused until the turn timer ran out."""
        key = hand_ref(player)
        if not self.games.converge:
            current = self.hand_message_id(game_id, player)
            if current is not None and message_id < current:
                self.sender.remove_keyboard(int(player), message_id)
            return
        game = await self.games.get(game_id)
        stored = await self.games.stored_id(game_id, key)
        slot = game.slots.get(key)
        known = None if slot is None else slot.message_id
        ids = {i for i in (message_id, stored, known) if i is not None}
        hand = max(ids)
        while hand != stored:  # stored only over what was read: another may store a newer one
            stored = await self.games.store_over(game_id, key, hand, replacing=stored)
            ids.add(stored or hand)
            hand = max(ids)
        for old in ids - {hand}:
            self.sender.remove_keyboard(int(player), old)
            if slot is not None:
                slot.dropped.add(old)
        if slot is not None:
            slot.take_over(hand)
            slot.version = -1  # what it shows is not known: the next state is shown, even older

    def hand_message_id(self, game_id: int, player: str) -> int | None:
        game = self.games.known(game_id)
        slot = None if game is None else game.slots.get(hand_ref(player))
        if slot is not None:
            return slot.message_id
        stored = None if game is None else game.refs.get(hand_ref(player))
        return int(stored) if stored else None

    async def _dm_forbidden(self, game_id: int, player: str, _chat_id: int) -> None:
        """A player never opened the private chat: tell the group once (even across restarts),
        with a deep link. Until they open it, their hand is not sent again."""
        game = await self.games.get(game_id)
        if player in game.dm_closed or not game.chat_id:
            return
        game.dm_closed.add(player)
        if not await notes.first_dm_closed(self.service.refs, game_id, player):
            return
        lang = game.lang
        # The player is mentioned: Telegram notifies them of the message.
        name = self.r.name(lang, player, game.names)
        template = self.r.t(lang, "error-dm-closed", name=marker(0))
        text = mentioning(fill(template, [player], [name]))
        markup = link_keyboard(self.r.t(lang, "btn-open-dm"), self.link(game_id))
        self.sender.send(game.chat_id, text, markup)


def _switch(own: Mapping[str, Any], key: str) -> bool:
    """One of a person's own switches (`TURN_PING`, `PICTURES`): on unless they turned it off."""
    return own.get(key) is not False
