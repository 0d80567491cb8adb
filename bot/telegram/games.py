"""What the Telegram adapter remembers of each game it shows: the refs (stored message ids), a
`Slot` per message, the chat, its title and names, read again when another process may have
changed them (`catch_up`, the rule of `bot.delivery.publisher`).

Message ids live in the game's refs (`tg:lobby`, `tg:table`, `tg:hand:<user>`, plus
`tg:title`), so a restarted bot keeps editing the same messages.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from aiogram.exceptions import TelegramAPIError

from bot.delivery.publisher import HasRefs, behind, store_sent
from bot.service.identity import storable
from bot.telegram.common import chat_key
from bot.telegram.retry import retrying
from bot.telegram.sender import Sender, Slot

log = logging.getLogger(__name__)

LOBBY = "tg:lobby"
TABLE = "tg:table"
TITLE = "tg:title"
HAND = "tg:hand:"


def hand_ref(player: str) -> str:
    return HAND + player


@dataclass
class Game:
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
    title_asked: bool = False  # Telegram was asked for the chat's title (see `learn_title`)


class Games:
    """The games this process shows, by id. `converge`: other processes edit the same messages
    (webhook workers over one database), so what is stored is read again before it is trusted
    (and each show is followed by a look for a newer state: `bot.delivery.publishing`)."""

    def __init__(self, service: HasRefs, sender: Sender) -> None:
        self.service = service
        self.sender = sender
        self.converge = False
        self._games: dict[int, Game] = {}
        self._loading: dict[int, asyncio.Future[Game]] = {}

    def known(self, game_id: int) -> Game | None:
        """The game, if this process remembers it."""
        return self._games.get(game_id)

    async def get(self, game_id: int) -> Game:
        game = self._games.get(game_id)
        if game is not None:
            return game
        loading = self._loading.get(game_id)
        if loading is None:
            loading = asyncio.get_running_loop().create_future()
            self._loading[game_id] = loading
            try:
                refs = await self.service.refs.all(game_id)
                game = self._games.setdefault(game_id, Game(dict(refs)))
                loading.set_result(game)
            except BaseException as exc:
                loading.set_exception(exc)
                raise
            finally:
                del self._loading[game_id]
            return game
        return await loading

    async def put_ref(self, game_id: int, key: str, value: str) -> None:
        game = self._games.get(game_id)
        if game is not None:
            game.refs[key] = value
        await self.service.refs.put(game_id, key, value)

    async def sent(self, game_id: int, key: str, message_id: int) -> int | None:
        """Store the id of a message this process sent new for `key`; the id of the message
        that goes. With other processes publishing too (`converge`), that may be another one
        than this process replaced, or this one, when another process stored a newer one
        meanwhile (`bot.delivery.publisher.store_sent`): the sender deletes it, rather than
        leave it shown (with its buttons) beside the one kept."""
        value = str(message_id)
        game = self._games.get(game_id)
        if game is not None:
            game.refs[key] = value
        if not self.converge:
            await self.service.refs.put(game_id, key, value)
            return None
        stored = await store_sent(self.service.refs, game_id, key, value)
        return None if stored is None else int(stored)

    async def store_over(
        self, game_id: int, key: str, message_id: int, *, replacing: int | None
    ) -> int | None:
        """Store `message_id` for `key` unless another process stored another id than
        `replacing` since it was read; the id stored now."""
        value = str(message_id)
        old = None if replacing is None else str(replacing)
        stored = await self.service.refs.claim(game_id, key, value, replacing=old)
        return self._read_id(game_id, key, stored)

    def slot(self, game_id: int, game: Game, key: str, chat_id: int) -> Slot:
        slot = game.slots.get(key)
        if slot is None:
            stored = game.refs.get(key)
            slot = Slot(
                chat_id,
                int(stored) if stored else None,
                on_new_id=lambda mid: self.sent(game_id, key, mid),
                stored_id=lambda: self.stored_id(game_id, key),
            )
            game.slots[key] = slot
        return slot

    async def stored_id(self, game_id: int, key: str) -> int | None:
        """The message id another process stored for a slot since this one looked."""
        return self._read_id(game_id, key, await self.service.refs.get(game_id, key))

    def _read_id(self, game_id: int, key: str, stored: str | None) -> int | None:
        """A message id just read from the store, remembered with the game's refs."""
        game = self._games.get(game_id)
        if stored and game is not None:
            game.refs[key] = stored
        return int(stored) if stored else None

    async def remember_title(self, game_id: int, title: str | None) -> None:
        if title:
            title = storable(title)  # a group's title is anyone's text, as a name is
            game = await self.get(game_id)
            if game.refs.get(TITLE) != title:
                await self.put_ref(game_id, TITLE, title)

    async def learn_title(self, chat_id: int, game_id: int) -> None:
        """The group's title, for the first line of the game's hands, when no handler stored
        it: the process that opened the game died before it could, and the lobby came from
        the outbox. Telegram is asked once per game and process."""
        game = await self.get(game_id)
        if TITLE in game.refs or game.title_asked:
            return
        game.title_asked = True
        try:
            chat = await retrying(lambda: self.sender.bot.get_chat(chat_id))
        except TelegramAPIError as exc:  # the hands go without it
            log.warning("the title of chat %s is not known: %s", chat_id, exc)
            return
        await self.remember_title(game_id, chat.title)

    async def lobby_sent(self, game_id: int, message_id: int) -> None:
        """Store the lobby's message id, known once Telegram answered its send. A game dealt
        and shown before that (a quick /start, a computer player, a busy machine) found no
        lobby to take the buttons from: they go now, or they would stay, refused forever."""
        await self.put_ref(game_id, LOBBY, str(message_id))
        game = self.known(game_id)
        if game is not None and game.started:
            self.retire_lobby(game, message_id)

    def retire_lobby(self, game: Game, message_id: int) -> None:
        """Take the lobby's buttons away, once: a dealt game's lobby would only refuse them."""
        if not game.lobby_retired:
            game.lobby_retired = True
            self.sender.remove_keyboard(game.chat_id, message_id, low=True)

    def chat_key_of(self, game_id: int) -> str | None:
        """The service's chat key of a game this adapter has shown (None: not known yet)."""
        game = self._games.get(game_id)
        return chat_key(game.chat_id) if game is not None and game.chat_id else None

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    async def catch_up(self, game_id: int, version: int) -> None:
        """Before showing `version` of a game: if another process committed versions since
        this one last showed it (webhook workers behind a load balancer), what this process
        remembers of its messages is out of date. Their ids are read again from the refs (a
        table or hand another worker sent is edited, not sent twice), and what each message
        shows is forgotten (an edit is not skipped as unchanged; Telegram's "not modified"
        answers one that is). The same when this process has not shown a version of the game
        yet (it read the refs for a hand alone, perhaps long ago)."""
        game = self._games.get(game_id)
        if game is None:  # its refs are read now
            game = await self.get(game_id)
        elif behind(game.version, version):
            await self.reread(game_id, game)
        game.version = max(game.version, version)

    async def reread(self, game_id: int, game: Game) -> None:
        """The game's message ids read again from the refs, and what each message shows
        forgotten: other processes may have sent or edited them since this one did."""
        game.refs.update(await self.service.refs.all(game_id))
        for key, slot in game.slots.items():
            stored = game.refs.get(key)
            if stored:
                slot.take_over(int(stored))
            else:
                slot.shown = None
