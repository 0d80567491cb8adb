"""Outcomes of the service into Telegram messages: one table per game, one hand per player.

Every path that changes a game (a command, a button, the timer loop) ends in `publish`, so the
group and the private chats look the same whoever moved.

Turns are notified without a word in the group: when a person's turn begins, their hand moves to
the bottom of the private chat as a new message (Telegram notifies new messages, never edits)
and the previous one is deleted -- two calls where an edit is one, and the hand itself is what
the notification opens. A person can turn this off for themselves (`/notify` in the private
chat, `TURN_PING` among their own switches); their hand is then edited in place.

A waiting hand shows only what stays true while the player waits: the service re-sends a hand
when its cards or its moves change, so a hand with no move shows its cards and "not your turn",
never a name or a top card that the next move would make wrong (the table, in the group, shows
those). A hand that can act (its turn, or a move out of turn) is re-sent whenever the turn or
the top card changes, so it shows them.

A hand of `picture_from` cards or more (8 unless changed) is a photo of the cards with the hand's
text as its caption (`bot.telegram.pictures.hand_content`, drawn by `bot.art.hand`): updated by
one `editMessageMedia`, so it costs the calls a text hand costs. `/pictures` turns it off for a
person (`PICTURES` among their own switches).

A dealt table is a photo too: a wide banner of the top card, the color in play and the direction
(`bot.telegram.table_picture`) with the table's text as its caption, one call per update as the
text was; the chat's /settings turn it off (`ChatSettings.table_picture`).

Message ids live in the game's refs (`service.refs`: `tg:lobby`, `tg:table`, `tg:hand:<user>`,
plus `tg:title`), so a restarted bot keeps editing the same messages.

With other processes publishing too (`converge`: webhook workers over one database), several may
publish the same turn's beginning (the committing one, and a re-delivery of its outbox entry):
the hand is sent new by the one that claims the turn first (`tg:turn:<user>`, a claim in the
database holding the hand's version), every other one only edits (a process killed between its
claim and its send leaves that turn's hand edited, not notified). The new message replaces the
hand message stored in the refs, not the one this process remembers: another process may have
sent the hand new since (an earlier turn), and that one would stay shown beside the new one.

An outcome committed with outbox entries is settled by `delivery` (`bot.delivery.outbox_loop`): its
entries are finished once every send went out, or come back later if one failed. The table and the
hands are edits of stored messages, safe to repeat; the results (`ANNOUNCED`) and a challenged hand
are recorded once sent, and an outcome delivered again skips what it lists as delivered.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from aiogram.exceptions import TelegramAPIError

from bot.delivery.outbox_loop import Delivery, Send, Undelivered
from bot.presentation import notes, steps
from bot.presentation.mentions import fill, marker
from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, Service, User
from bot.service.identity import storable
from bot.service.views import HandView, TableView
from bot.telegram.common import chat_id_of, chat_key
from bot.telegram.keyboards import (
    hand_keyboard,
    link_keyboard,
    lobby_keyboard,
    rematch_keyboard,
    step_keyboard,
)
from bot.telegram.mentions import mentioning
from bot.telegram.pictures import PICTURE_FROM, PICTURES, Photo, hand_content
from bot.telegram.play_modes import PlayModes, table_markup
from bot.telegram.retry import retrying
from bot.telegram.sender import Content, Keyboard, Sender, Slot
from bot.telegram.table_picture import table_content
from core.events import DealerChosen

log = logging.getLogger(__name__)

LOBBY = "tg:lobby"
TABLE = "tg:table"
TITLE = "tg:title"
HAND = "tg:hand:"
TURN = "tg:turn:"  # + user: the hand version whose turn was sent new, and by which process
TURN_PING = "turn_ping"  # a person's own switch: a new message when their turn begins
ENDED = ("finished", "killed")
RESULTS = "results"  # the item of an outcome's announcements (see `bot.delivery.outbox_loop`)
REVEALED = "revealed:"  # + viewer: the item of a challenged hand shown to the challenger


def hand_ref(player: str) -> str:
    return HAND + player


@dataclass
class _Game:
    """What the adapter remembers of one game between updates."""

    refs: dict[str, str]
    slots: dict[str, Slot] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    lang: str = "ru"
    chat_id: int = 0
    dm_closed: set[str] = field(default_factory=set)  # players told to open the private chat
    started: bool = False  # this process showed the game dealt: its lobby keeps no buttons
    lobby_retired: bool = False  # the lobby's buttons were taken away
    version: int = -1  # the newest version of the game this process showed
    title_asked: bool = False  # Telegram was asked for the chat's title (see `_learn_title`)


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
    ) -> None:
        self.service = service
        self.modes = PlayModes(
            service.settings, inline=inline
        )  # private chat, group (inline), both
        self.r = renderer
        self.sender = sender
        self.username = username
        self.wait = wait  # how long a handler waits for its messages before answering
        self.picture_from = PICTURE_FROM  # a hand of this many cards is shown as a picture
        self.delivery: Delivery | None = None  # settles the outbox entries of what is published
        self._games: dict[int, _Game] = {}
        self._loading: dict[int, asyncio.Future[_Game]] = {}
        self._messages: dict[tuple[int, int], Slot] = {}
        # Other processes edit the same tables (webhook workers over one database): after each
        # table edit, look whether a newer state was committed meanwhile (see `_converge`).
        self.converge = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self.token = uuid.uuid4().hex  # this process, in the claims it makes (see `_claim_turn`)

    # ------------------------------------------------------------------ refs and slots

    def link(self, game_id: int) -> str:
        """The deep link that opens the private chat and shows the player's hand."""
        return f"https://t.me/{self.username}?start=g{game_id}"

    async def _game(self, game_id: int) -> _Game:
        game = self._games.get(game_id)
        if game is not None:
            return game
        loading = self._loading.get(game_id)
        if loading is None:
            loading = asyncio.get_running_loop().create_future()
            self._loading[game_id] = loading
            try:
                refs = await self.service.refs.all(game_id)
                game = self._games.setdefault(game_id, _Game(dict(refs)))
                loading.set_result(game)
            except BaseException as exc:
                loading.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
            return game
        return await loading

    async def _put_ref(self, game_id: int, key: str, value: str) -> None:
        game = self._games.get(game_id)
        if game is not None:
            game.refs[key] = value
        await self.service.refs.put(game_id, key, value)

    async def _sent(self, game_id: int, key: str, message_id: int) -> int | None:
        """Store the id of a message this process sent new for `key`; the id it replaced in
        the store. With other processes publishing too (`converge`), that may be another one
        than this process replaced: one sent new by another process since this one read the
        store (two turns of one player published by two processes at once). The ids are
        swapped, not overwritten, so the sender learns of that message and deletes it, rather
        than leave it shown (with its buttons) beside this one."""
        value = str(message_id)
        game = self._games.get(game_id)
        if game is not None:
            game.refs[key] = value
        if not self.converge:
            await self.service.refs.put(game_id, key, value)
            return None
        stored = await self.service.refs.get(game_id, key)
        while True:  # (another process may store its own in between: then over that one)
            now = await self.service.refs.claim(game_id, key, value, replacing=stored)
            if now == value:
                return None if stored is None else int(stored)
            stored = now

    def _slot(self, game_id: int, game: _Game, key: str, chat_id: int) -> Slot:
        slot = game.slots.get(key)
        if slot is None:
            stored = game.refs.get(key)
            slot = Slot(
                chat_id,
                int(stored) if stored else None,
                on_new_id=lambda mid: self._sent(game_id, key, mid),
                stored_id=lambda: self._stored_id(game_id, key),
            )
            game.slots[key] = slot
        return slot

    async def _stored_id(self, game_id: int, key: str) -> int | None:
        """The message id another process stored for a slot since this one looked."""
        stored = await self.service.refs.get(game_id, key)
        game = self._games.get(game_id)
        if stored and game is not None:
            game.refs[key] = stored
        return int(stored) if stored else None

    async def remember_title(self, game_id: int, title: str | None) -> None:
        if title:
            title = storable(title)  # a group's title is anyone's text, as a name is
            game = await self._game(game_id)
            if game.refs.get(TITLE) != title:
                await self._put_ref(game_id, TITLE, title)

    async def _learn_title(self, chat_id: int, game_id: int) -> None:
        """The group's title, for the first line of the game's hands, when no handler stored
        it: the process that opened the game died before it could, and the lobby came from
        the outbox. Telegram is asked once per game and process."""
        game = await self._game(game_id)
        if TITLE in game.refs or game.title_asked:
            return
        game.title_asked = True
        try:
            chat = await retrying(lambda: self.sender.bot.get_chat(chat_id))
        except TelegramAPIError as exc:  # the hands go without it
            log.warning("the title of chat %s is not known: %s", chat_id, exc)
            return
        await self.remember_title(game_id, chat.title)

    def chat_key_of(self, game_id: int) -> str | None:
        """The service's chat key of a game this adapter has shown (None: not known yet)."""
        game = self._games.get(game_id)
        return chat_key(game.chat_id) if game is not None and game.chat_id else None

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    async def _catch_up(self, game_id: int, version: int) -> None:
        """Before showing `version` of a game: if another process committed versions since
        this one last showed it (webhook workers behind a load balancer), what this process
        remembers of its messages is out of date. Their ids are read again from the refs (a
        table or hand another worker sent is edited, not sent twice), and what each message
        shows is forgotten (an edit is not skipped as unchanged; Telegram's "not modified"
        answers one that is). The same when this process has not shown a version of the game
        yet (it read the refs for a hand alone, perhaps long ago)."""
        game = self._games.get(game_id)
        if game is None:  # its refs are read now
            game = await self._game(game_id)
        elif game.version < 0 or version > game.version + 1:  # (< 0: read for a hand alone)
            await self._reread(game_id, game)
        game.version = max(game.version, version)

    async def _reread(self, game_id: int, game: _Game) -> None:
        """The game's message ids read again from the refs, and what each message shows
        forgotten: other processes may have sent or edited them since this one did."""
        game.refs.update(await self.service.refs.all(game_id))
        for key, slot in game.slots.items():
            stored = game.refs.get(key)
            if stored:
                slot.take_over(int(stored))
            else:
                slot.shown = None

    async def redeliver(self, out: Outcome) -> None:
        """An outbox entry that another process (or this one, earlier) left unfinished: it may
        have been killed after its edits reached Telegram and before it looked for a newer
        state (`_converge`), so its messages may show an older state than this process
        remembers showing. What they show is forgotten first: each is edited again, not
        skipped as unchanged (a finished game's table, or a hand with its turn's buttons, left
        one move behind for good)."""
        game_id = None if out.outbox is None else out.outbox.game_id
        if game_id is not None and game_id in self._games:
            await self._reread(game_id, self._games[game_id])
        await self.publish(out, wait=False)

    # ------------------------------------------------------------------ publishing

    async def publish(self, out: Outcome, *, wait: bool = True) -> None:
        """Show an outcome: the table, the changed hands, announcements, private texts; then
        hand what was sent to the delivery, which settles the outcome's outbox entries."""
        sends: list[Send] = []
        failure: BaseException | None = None
        try:
            await self._publish(out, sends, wait=wait)
        except BaseException as exc:
            failure = exc
            raise
        finally:
            if self.delivery is not None and out.outbox is not None:
                self.delivery.track(out, sends, failure)

    async def _publish(self, out: Outcome, sends: list[Send], *, wait: bool) -> None:
        chat_id = chat_id_of(out.chat_key)
        if chat_id is None:
            return
        strict = out.outbox is not None and self.delivery is not None
        done = set() if out.outbox is None else out.outbox.delivered
        # Only the private chats are waited for: a group edit may wait for the group's rate
        # limit, and nobody should see a spinning button because of it.
        futures: list[asyncio.Future[Any]] = []
        dealt = any(isinstance(e, DealerChosen) for e in out.events) or (
            out.outbox is not None and out.outbox.dealt
        )
        if out.table is not None:
            await self._catch_up(out.table.game_id, out.table.version)
            opened = out.outbox is not None and out.outbox.opened  # a lobby's creation
            opens = (out.table.version == 0 or opened) if out.table.top is None else dealt
            shown = await self.show_table(out.table, out.names, strict=strict, opens=opens)
            sends.append((None, shown))
        private = self.modes.private_hands(await self.modes.of(out.chat_key))
        if private and out.hands:
            await self._learn_title(chat_id, next(iter(out.hands.values())).game_id)
        for player, view in out.hands.items() if private else ():
            drawn = notes.drawn(self.r, out, player, view.colorblind)
            began = out.turn_began == player
            futures.append(
                await self.show_hand(
                    view, out.names, notes=drawn, strict=strict, began=began, opens=dealt
                )
            )
            sends.append((None, futures[-1]))
        for viewer, text in notes.revealed(self.r, out, self.r.colorblind(out)).items():
            # The challenged hand: to the challenger's private chat only.
            if viewer.isdigit() and REVEALED + viewer not in done:
                futures.append(self.sender.send(int(viewer), text, strict=strict))
                sends.append((REVEALED + viewer, futures[-1]))
        texts = self.r.announcements(out)
        if texts and RESULTS not in done:
            markup = None
            if out.match_finished and out.table is not None:  # the result: offer a rematch
                markup = rematch_keyboard(self.r, out.lang, out.table.game_id)
            results = self.sender.send(chat_id, "\n\n".join(texts), markup, strict=strict)
            sends.append((RESULTS, results))
        if wait and futures:
            await asyncio.wait(futures, timeout=self.wait)

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
    ) -> asyncio.Future[Any]:
        """Edit the game's lobby or table message, or send it.

        `opens`: the outcome that brings the message into being (the lobby's creation, the
        deal); with other processes publishing too (`converge`), only that one sends it new.
        """
        chat_id = chat_id_of(view.chat_key)
        assert chat_id is not None
        game = await self._game(view.game_id)
        game.names, game.lang, game.chat_id = dict(names), view.lang, chat_id
        names = game.names
        r = self.r
        if view.top is None:  # a lobby, or a lobby that was cancelled
            slot = self._slot(view.game_id, game, LOBBY, chat_id)
            slot.on_new_id = partial(self._lobby_sent, view.game_id)
            markup = lobby_keyboard(r, view) if view.status == "lobby" else None

            def render() -> Content:
                # A rematch's invited people are mentioned: Telegram notifies them when the
                # lobby is sent, and edits keep the mentions without notifying anyone again.
                return mentioning(r.lobby_marked(view, names)), markup

        else:
            slot = self._slot(view.game_id, game, TABLE, chat_id)
            game.started = True
            if slot.message_id is None and not game.lobby_retired:  # the lobby gives way
                lobby = game.refs.get(LOBBY)
                if lobby is None and self.converge:  # another process may have sent it since
                    found = await self._stored_id(view.game_id, LOBBY)
                    lobby = None if found is None else str(found)
                if lobby:
                    self._retire_lobby(game, int(lobby))
            markup = None
            if view.status == "running":
                mode = await self.modes.of(view.chat_key)
                markup = table_markup(r, view.lang, view.game_id, self.link(view.game_id), mode)
            picture = (await self.service.settings.settings(view.chat_key)).table_picture

            def render() -> Content:
                return table_content(view, r.table(view, names), wanted=picture), markup

        if self.converge and slot.message_id is None and not opens:
            found = None if slot.stored_id is None else await slot.stored_id()
            if found is None or found in slot.dropped:
                # The worker that opened it is sending it (perhaps waiting for the group's
                # budget): a second one here would show it twice. That worker follows its
                # send with the newest state (`_converge`).
                return _done()
            slot.take_over(found)
        # The lobby's edits spend the group's budget last (the table and results first).
        low = view.top is None and view.status == "lobby" and slot.message_id is not None
        future = self.sender.update(slot, render, view.version, low=low, strict=strict)
        if view.status in ENDED:
            future.add_done_callback(lambda _: self.forget(view.game_id))
        if self.converge:
            return self._then_converge(future, partial(self._converge, view))
        return future

    async def _lobby_sent(self, game_id: int, message_id: int) -> None:
        """Store the lobby's message id, known once Telegram answered its send. A game dealt
        and shown before that (a quick /start, a computer player, a busy machine) found no
        lobby to take the buttons from: they go now, or they would stay, refused forever."""
        await self._put_ref(game_id, LOBBY, str(message_id))
        game = self._games.get(game_id)
        if game is not None and game.started:
            self._retire_lobby(game, message_id)

    def _retire_lobby(self, game: _Game, message_id: int) -> None:
        """Take the lobby's buttons away, once: a dealt game's lobby would only refuse them."""
        if not game.lobby_retired:
            game.lobby_retired = True
            self.sender.remove_keyboard(game.chat_id, message_id, low=True)

    def _then_converge(
        self, shown: asyncio.Future[Any], converge: Callable[[], Awaitable[None]]
    ) -> asyncio.Future[Any]:
        """With other processes editing the same messages: `shown`, done only once the look for
        a newer committed state that follows it (`_converge`) is done too, and that state shown.

        The outcome's outbox entry is finished then and no sooner. A process killed after its
        edit of an older state landed over a newer one, and before it looked, leaves the entry
        unfinished, and another process delivers it again from the latest state; finished with
        the edit, it would leave the message stale for good (a finished game's table, which
        nothing edits again)."""

        async def then() -> Any:
            result = await shown
            await converge()
            return result

        task = asyncio.get_running_loop().create_task(then())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_retrieved)
        return task

    async def _converge(self, shown: TableView) -> None:
        """After a table edit: if a newer state of the game was committed meanwhile, show it.

        Two processes edit one table message; the older state's edit (say, one that waited for
        the group's budget) may reach Telegram after the newer one and overwrite it. Whichever
        process sent last looks here, and the newest state wins in the end."""
        try:
            out = await self.service.queries.game_table(shown.game_id)
        except Exception as exc:  # the outcome's entry comes back, and looks again
            log.exception("looking for a newer table of game %s failed", shown.game_id)
            raise Undelivered(f"no look for a newer table: {exc}") from exc
        if out.table is not None and out.table.version > shown.version:
            # Never a new message: a lobby edit converging on the dealt table while the dealing
            # process is still sending it would show the table twice (that one converges too).
            await (await self.show_table(out.table, out.names, opens=False))

    def _hand_text(self, game: _Game, view: HandView, names: Mapping[str, str]) -> str:
        parts = []
        title = game.refs.get(TITLE)
        if title:
            parts.append(self.r.t(view.lang, "tg-hand-chat", chat=title))
        parts.append(self.r.hand(view, names))
        return "\n\n".join(parts)

    async def _hand_slot(self, view: HandView, names: Mapping[str, str]) -> tuple[_Game, Slot]:
        game = await self._game(view.game_id)
        if not game.chat_id:  # a hand shown before any table (after a restart)
            game.chat_id, game.lang, game.names = (
                chat_id_of(view.chat_key) or 0,
                view.lang,
                dict(names),
            )
        slot = self._slot(view.game_id, game, hand_ref(view.player), int(view.player))
        slot.on_forbidden = partial(self._dm_forbidden, view.game_id, view.player)
        return game, slot

    async def show_hand(
        self,
        view: HandView,
        names: Mapping[str, str],
        *,
        notes: list[str] | None = None,
        fresh: bool = False,
        strict: bool = False,
        began: bool = False,
        opens: bool = True,
    ) -> asyncio.Future[Any]:
        """Edit the player's hand message (or send it: `fresh` sends a new one at the bottom);
        `strict`: the future raises if the send was given up for a reason that may pass.

        `began`: the player's turn began with this change (`Outcome.turn_began`): the hand
        then moves to the bottom of the private chat as a new message, which Telegram notifies.
        `opens`: the outcome that deals the hand; with other processes publishing too
        (`converge`), a later one that finds no stored hand message leaves it to that one.
        """
        game, slot = await self._hand_slot(view, names)
        if self.converge and slot.message_id is None and not fresh and not opens:
            found = None if slot.stored_id is None else await slot.stored_id()
            if found is None or found in slot.dropped:
                return _done()  # the dealing worker sends it, then the newest state
            slot.take_over(found)
        if fresh:
            game.dm_closed.discard(view.player)
            if slot.message_id is not None:
                self.sender.remove_keyboard(slot.chat_id, slot.message_id)
                slot.dropped.add(slot.message_id)
                slot.message_id, slot.shown = None, None
        elif view.player in game.dm_closed:
            return _done()
        own = await self.service.settings.personal(chat_key(int(view.player)))
        # A turn begins: the hand as a new message, if the player wants it, by one process.
        ping = began and view.is_turn and not fresh and _switch(own, TURN_PING)
        elsewhere = False  # another process sends this turn's hand new
        if ping and self.converge:  # other processes publish too (webhook workers)
            ping = await self._claim_turn(view)
            elsewhere = not ping
        if ping and self.converge and slot.stored_id is not None:
            # The message it replaces is the stored one: another process may have sent the hand
            # new since this one looked (an earlier turn), and that one must go, not stay.
            found = await slot.stored_id()
            if found is not None and found not in slot.dropped:
                slot.take_over(found)
        pictures = _switch(own, PICTURES)
        names = dict(names)
        lines = list(notes or ())

        def render() -> Content:
            text = self._hand_text(game, view, names)
            if lines:
                text = "\n".join(lines) + "\n\n" + text
            return self._hand_content(view, text, pictures), hand_keyboard(self.r, view)

        future = self.sender.update(
            slot, render, view.version, fresh=ping, sent_elsewhere=elsewhere, strict=strict
        )
        if self.converge:
            return self._then_converge(future, partial(self._converge_hand, view))
        return future

    async def _claim_turn(self, view: HandView) -> bool:
        """Whether this process sends the hand new for the turn that `view` began: the first to
        claim that hand version does; another process publishing the same turn (a re-delivery
        of the commit's outbox entry, a converging update) only edits the hand."""
        key = TURN + view.player
        mine = f"{view.version}:{self.token}"
        stored = await self.service.refs.get(view.game_id, key)
        if stored is not None and int(stored.partition(":")[0]) >= view.version:
            return stored == mine
        return await self.service.refs.claim(view.game_id, key, mine, replacing=stored) == mine

    async def _converge_hand(self, shown: HandView) -> None:
        """After a hand's update: if a newer one was committed meanwhile, show it (another
        process's newer hand may have gone out before this older one, see `_converge`)."""
        try:
            out = await self.service.queries.hand(User(shown.player, ""), game_id=shown.game_id)
        except Exception as exc:
            log.exception("looking for a newer hand in game %s failed", shown.game_id)
            raise Undelivered(f"no look for a newer hand: {exc}") from exc
        latest = out.hands.get(shown.player)
        if latest is not None and latest.version > shown.version:
            # Never a new message either (a second hand message, left stale, would be the
            # newest one in the private chat).
            await (await self.show_hand(latest, out.names, opens=False))

    async def turn_ping(self, player: str) -> bool:
        """Whether `player` is notified when their turn begins (their own switch, on unless
        they turned it off)."""
        return _switch(await self.service.settings.personal(chat_key(int(player))), TURN_PING)

    def _hand_content(self, view: HandView, text: str, wanted: bool) -> str | Photo:
        return hand_content(view, text, wanted=wanted, picture_from=self.picture_from)

    async def show_step(
        self, view: HandView, names: Mapping[str, str], head: str
    ) -> asyncio.Future[Any]:
        """The second step of a move (a wild's colors, a 7's players) in place of the hand's
        keyboard."""
        game, slot = await self._hand_slot(view, names)
        names = dict(names)
        own = await self.service.settings.personal(chat_key(int(view.player)))
        pictures = _switch(own, PICTURES)

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
        if not self.converge:
            current = self.hand_message_id(game_id, player)
            if current is not None and message_id < current:
                self.sender.remove_keyboard(int(player), message_id)
            return
        game = await self._game(game_id)
        stored = await self._stored_id(game_id, key)
        slot = game.slots.get(key)
        known = None if slot is None else slot.message_id
        ids = {i for i in (message_id, stored, known) if i is not None}
        hand = max(ids)
        if hand != stored:
            await self._sent(game_id, key, hand)
        for old in ids - {hand}:
            self.sender.remove_keyboard(int(player), old)
            if slot is not None:
                slot.dropped.add(old)
        if slot is not None:
            slot.take_over(hand)

    def hand_message_id(self, game_id: int, player: str) -> int | None:
        game = self._games.get(game_id)
        slot = None if game is None else game.slots.get(hand_ref(player))
        if slot is not None:
            return slot.message_id
        stored = None if game is None else game.refs.get(hand_ref(player))
        return int(stored) if stored else None

    async def _dm_forbidden(self, game_id: int, player: str, _chat_id: int) -> None:
        """A player never opened the private chat: tell the group once (even across restarts),
        with a deep link. Until they open it, their hand is not sent again."""
        game = await self._game(game_id)
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

    async def show_open_games(self, prefix: str) -> int:
        """After a start: every running game's table, and the hand of every person who can act
        in it, shown again from the stored state (what a stopped process had not sent yet is
        sent now; what it had sent is not modified). Returns how many games were shown."""
        shown = 0
        for record in await self.service.queries.running_games():
            if not record.chat_key.startswith(prefix):
                continue
            try:
                out = await self.service.queries.table(record.chat_key)
                view = out.table
                if view is None or view.game_id != record.id or view.status != "running":
                    continue
                await self.show_table(view, out.names)
                private = self.modes.private_hands(await self.modes.of(record.chat_key))
                for seat in view.seats:
                    if seat.is_bot or not private:
                        continue
                    mine = await self.service.queries.hand(
                        User(seat.id, seat.name), game_id=view.game_id
                    )
                    hand = mine.hands.get(seat.id)
                    if hand is not None and hand.choices:
                        # No notification: a turn the stopped process began and did not show
                        # is in its outbox entry, re-delivered (and notified) before this.
                        await self.show_hand(hand, mine.names)
                shown += 1
            except Exception:  # one broken game must not keep the others hidden
                log.exception("showing game %s again failed", record.id)
        return shown

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


def _switch(own: Mapping[str, Any], key: str) -> bool:
    """One of a person's own switches (`TURN_PING`, `PICTURES`): on unless they turned it off."""
    return own.get(key) is not False


def _retrieved(task: asyncio.Task[Any]) -> None:
    """A failed show is the delivery's to act on, if one tracks it; nobody's else (asyncio
    would log it as never retrieved)."""
    if not task.cancelled():
        task.exception()


def _done() -> asyncio.Future[Any]:
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    future.set_result(None)
    return future
