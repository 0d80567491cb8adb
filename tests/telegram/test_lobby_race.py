"""A game that starts before the bot knows its lobby's message id still takes the lobby's
buttons away.

The lobby's id is known only when Telegram answers its sendMessage; a fast /start (or a loaded
machine) can deal the game and show the table before that. The lobby must not keep its join /
start buttons then: they would only be refused from now on. Here the answer is held by the fake
Bot API until the game has been shown, instead of hoping that a busy machine orders it so."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.service import Outcome, Service, User
from bot.storage import Storage
from bot.telegram.common import chat_key
from bot.telegram.sender import Sender
from bot.telegram.ui import TelegramUI
from tests.telegram.conftest import SETTLE_TIMEOUT, Harness, renderer
from tests.telegram.fake_bot_api import FakeBotAPI, FakeChat, FakeUser

HAND_SENDS = ("sendMessage", "sendPhoto")  # a hand: text, or from 8 cards a photo


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_a_game_started_before_the_lobby_message_is_known(harness: Harness) -> None:
    h = harness
    a, b, c = h.users
    # The lobby's sendMessage reaches Telegram, whose answer (the message id) is held.
    held = h.api.hold(["sendMessage"], [h.group.id])
    h.api.send_message(a, h.group, "/new")
    await asyncio.wait_for(held.wait(), SETTLE_TIMEOUT)
    since = h.api.call_count
    for user in (b, c):
        h.api.send_message(user, h.group, "/join")
    h.api.send_message(a, h.group, "/start")
    # The game is dealt and shown (the table is queued behind the lobby; the hands, published
    # after it, go to the private chats, which are not held) before the lobby's id is known.
    await h.api.wait_for(
        lambda call: call.ok and call.method in HAND_SENDS and call.chat_id in (a.id, b.id, c.id),
        SETTLE_TIMEOUT,
        since=since,
    )
    assert await h.ref("tg:lobby") is None
    h.api.resume_holds()
    await h.settle()

    title = h.r.t("ru", "lobby-title")
    [lobby] = [m for m in h.api.messages(h.group.id) if m.plain_text.startswith(title)]
    assert await h.ref("tg:lobby") == lobby.message_id
    assert lobby.buttons == []  # taken away once its id was known
    table = await h.table()
    assert h.r.t("ru", "table-title", round=1) in table.plain_text
    assert table.buttons  # the table's own buttons stay
    # A button of the lobby pressed before it went away: refused, and nothing changes.
    game = await h.game()
    late = await h.press(c, h.group, lobby.message_id, f"l:{await h.game_id()}:join", strict=False)
    assert late.show_alert and late.text == h.r.t("ru", "error-game-running")
    assert (await h.game()).to_dict() == game.to_dict()


class Worker:
    """What one of several bot processes over one database keeps: its own `TelegramUI` (the
    message ids it read, what it showed) and its own send queues. Both share the service here,
    which only stands for the shared database: every fact crosses through it."""

    def __init__(self, api: FakeBotAPI, service: Service) -> None:
        self.api = api
        self.sender = Sender(api.make_bot(), group_limit=None)
        self.ui = TelegramUI(service, renderer(), self.sender, api.bot.username or "")
        self.ui.converge = True  # as with other processes over one database

    async def publish(self, out: Outcome) -> None:
        assert out.error is None, out.error
        await self.ui.publish(out, wait=False)

    async def deal_for_two(self, service: Service) -> tuple[FakeChat, dict[str, FakeUser]]:
        """A group where two people (both opened the private chat) play a game this process
        opened and dealt; the people by their service ids."""
        api = self.api
        group = api.new_group("Вечер карт")
        a, b = (api.new_user(name) for name in ("Алиса", "Борис"))
        for user in (a, b):
            api.user_starts_bot(user)
        chat = chat_key(group.id)
        await self.publish(await service.lobby.new_game(chat, User(str(a.id), a.first_name)))
        await self.publish(await service.lobby.join(chat, User(str(b.id), b.first_name)))
        await self.publish(await service.lobby.start_game(chat, User(str(a.id), a.first_name)))
        await self.settle()
        return group, {str(a.id): a, str(b.id): b}

    async def settle(self) -> None:
        """Until its queues are empty and its looks for a newer state (`converge`) are done."""
        async with asyncio.timeout(SETTLE_TIMEOUT):
            while self.sender.busy() or self.ui._tasks:
                await self.sender.drain()
                await asyncio.gather(*self.ui._tasks)

    async def close(self) -> None:
        await self.sender.close()
        await self.sender.bot.session.close()


async def test_another_process_stores_the_lobby_id_before_this_one_deals(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    storage = await Storage.open(tmp_path / "uno.sqlite3")
    service = Service(storage, seed=lambda: 1)
    group = api.new_group("Вечер карт")
    a, b, c = (api.new_user(name) for name in ("Алиса", "Борис", "Дина"))
    for user in (a, b, c):
        api.user_starts_bot(user)
    chat = chat_key(group.id)
    first, second = Worker(api, service), Worker(api, service)
    try:
        # The first process opens the lobby; Telegram's answer to its sendMessage is held.
        held = api.hold(["sendMessage"], [group.id])
        await first.publish(await service.lobby.new_game(chat, User(str(a.id), a.first_name)))
        await asyncio.wait_for(held.wait(), SETTLE_TIMEOUT)
        # The second one shows the joins meanwhile: it reads the game's refs, no lobby id yet.
        for user in (b, c):
            await second.publish(
                await service.lobby.join(chat, User(str(user.id), user.first_name))
            )
        api.resume_holds()
        await first.settle()
        lobby = await service.refs.get(await _game_id(storage, chat), "tg:lobby")
        assert lobby is not None and api.message(group.id, int(lobby)).buttons
        # The first process has shown the newest state it found (the joins): no deal yet.
        # The second deals, and its first table must find the lobby's id the first one stored.
        await second.publish(await service.lobby.start_game(chat, User(str(a.id), a.first_name)))
        for worker in (first, second):
            await worker.settle()
        assert api.message(group.id, int(lobby)).buttons == []
    finally:
        for worker in (first, second):
            await worker.close()
        await storage.close()


async def _game_id(storage: Storage, chat: str) -> int:
    record = await storage.active_game(chat)
    assert record is not None
    return record.id
