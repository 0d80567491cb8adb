"""The per-chat sender against the fake Bot API, and the suite's own privacy and language checks
(they must be able to fail)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import partial

import pytest
from aiogram import Bot

from bot.telegram.rate_limit import Bucket
from bot.telegram.sender import Keyboard, RateLimit, Sender, Slot
from tests.telegram.conftest import language_violations, privacy_violations
from tests.telegram.fake_bot_api import FakeBotAPI


@pytest.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[Bot]:
    bot = api.make_bot()
    yield bot
    await bot.session.close()


def edits(api: FakeBotAPI, chat_id: int) -> list[str]:
    return [
        str(c.params["text"])
        for c in api.calls(chat_id=chat_id)
        if c.ok and c.method in ("sendMessage", "editMessageText")
    ]


async def test_a_throttled_group_gets_only_the_latest_state(api: FakeBotAPI, bot: Bot) -> None:
    group = api.new_group("Группа")
    sender = Sender(bot, group_limit=RateLimit(count=2, period=0.3, burst=1))
    slot = Slot(group.id)
    renders: list[str] = []

    def content(text: str) -> tuple[str, None]:
        renders.append(text)
        return text, None

    await sender.update(slot, lambda: content("ход 1"), 1)
    futures = [sender.update(slot, partial(content, f"ход {n}"), n) for n in range(2, 6)]
    await asyncio.gather(*futures)
    assert edits(api, group.id) == ["ход 1", "ход 5"]
    assert "ход 3" not in renders  # rendered only when actually sent
    assert await sender.update(slot, lambda: ("ход 5", None), 5) is True  # nothing to change
    assert await sender.update(slot, lambda: ("ход 2", None), 2) is None  # older: ignored
    assert edits(api, group.id) == ["ход 1", "ход 5"]
    await sender.close()


async def test_not_modified_deleted_forbidden_and_retry_after(api: FakeBotAPI, bot: Bot) -> None:
    group, user = api.new_group("Группа"), api.new_user("Соня")
    sender = Sender(bot, group_limit=None)
    ids: list[int] = []

    async def remember(message_id: int) -> None:
        ids.append(message_id)

    slot = Slot(group.id, on_new_id=remember)
    await sender.update(slot, lambda: ("стол", None), 1)
    slot.shown = None  # forget what is shown: Telegram answers "message is not modified"
    assert await sender.update(slot, lambda: ("стол", None), 2) is True
    assert [c.status for c in api.calls("editMessageText")] == [400]
    await bot.delete_message(group.id, ids[0])
    await sender.update(slot, lambda: ("стол 2", None), 3)  # deleted: sent again
    assert len(ids) == 2 and api.message(group.id, ids[1]).plain_text == "стол 2"

    closed: list[int] = []

    async def forbidden(chat_id: int) -> None:
        closed.append(chat_id)

    hand = Slot(user.id, on_forbidden=forbidden)
    assert await sender.update(hand, lambda: ("карты", None), 1) is None
    assert closed == [user.id]

    api.fail_next("sendMessage", 429, retry_after=1, chat_id=group.id)
    started = asyncio.get_running_loop().time()
    message = await sender.send(group.id, "итоги")
    assert message is not None and message.text == "итоги"
    assert asyncio.get_running_loop().time() - started >= 1.0
    await sender.close()


def test_the_bucket_keeps_any_window_under_the_limit() -> None:
    now = [0.0]
    limit = RateLimit(count=20, period=60.0, burst=3)
    bucket = Bucket(limit, lambda: now[0])
    sent = []
    while now[0] < 600:
        wait = bucket.delay()
        if wait > 0:
            now[0] += wait
            continue
        bucket.take()
        sent.append(now[0])
    for i, t in enumerate(sent):
        assert len([x for x in sent[i:] if x < t + 60.0]) <= 20
    assert len(sent) >= 10 * 17  # and it is not much slower than the limit
    with pytest.raises(ValueError):
        RateLimit(count=3, burst=3)


async def test_the_checks_catch_leaks_and_foreign_words(api: FakeBotAPI, bot: Bot) -> None:
    group, user = api.new_group("Группа"), api.new_user("Соня")
    api.user_starts_bot(user)
    await bot.send_message(group.id, "Сверху: 🟥 7 · цвет: 🟥 красный\n• Соня сыграла 🟦 2")
    await bot.send_message(user.id, "🟥 7  🟦 2  🌈 +4")  # a hand, in the private chat: fine
    assert privacy_violations(api) == []
    assert language_violations(api, "ru", ["Соня"]) == []
    await bot.send_message(group.id, "Карты игрока Соня: 🟥 7, 🟦 2")
    await bot.send_message(group.id, "🌈")
    await bot.send_message(group.id, "🃏 Ваши карты (2 карты):")
    assert len(privacy_violations(api)) == 3
    for text in ("Привіт", "Hello", "tg-welcome", "Ходит { $name }"):
        await bot.send_message(user.id, text)
    problems = language_violations(api, "ru", ["Соня"])
    for text in ("Привіт", "Hello", "tg-welcome", "Ходит { $name }"):
        assert any(repr(text) in p for p in problems), text
    assert language_violations(api, "uk", ["Соня"])  # Russian texts are not Ukrainian


async def test_the_table_goes_before_the_lobby_and_the_lobby_leaves_a_reserve(
    api: FakeBotAPI, bot: Bot
) -> None:
    """Issue 14, item 6: with the group's budget spent, the first table is sent before the old
    lobby's keyboard is taken away and before the lobby's edits, and those only spend a token
    while another one is left."""
    group = api.new_group("Группа")
    limit = RateLimit(count=13, period=1.0, burst=3)  # a token every 0.1 s
    sender = Sender(bot, group_limit=limit)
    lobby = Slot(group.id)
    await sender.update(lobby, lambda: ("лобби 1", None), 1)
    await sender.send(group.id, "ответ 1")
    await sender.send(group.id, "ответ 2")  # the burst is spent
    assert lobby.message_id is not None
    edit = sender.update(lobby, lambda: ("лобби 2", None), 2, low=True)
    keyboard = sender.remove_keyboard(group.id, lobby.message_id, low=True)
    table = Slot(group.id)
    shown = sender.update(table, lambda: ("стол", None), 1)
    result = sender.send(group.id, "итог")
    await asyncio.gather(edit, keyboard, shown, result)
    texts = [
        str(c.params.get("text", "keyboard"))
        for c in api.calls(chat_id=group.id)
        if c.method in ("sendMessage", "editMessageText", "editMessageReplyMarkup")
    ]
    assert texts == ["лобби 1", "ответ 1", "ответ 2", "стол", "итог", "лобби 2", "keyboard"]
    await sender.close()
    # A `low` call leaves a token: with one left, the others may go and it may not.
    now = [0.0]
    bucket = Bucket(limit, lambda: now[0])
    bucket.take()
    bucket.take()
    assert bucket.delay() == 0
    assert bucket.delay(reserve=1) == pytest.approx(0.1)
    now[0] = 0.1
    assert bucket.delay(reserve=1) == pytest.approx(0.0, abs=1e-6)


async def test_fresh_moves_a_message_to_the_bottom(api: FakeBotAPI, bot: Bot) -> None:
    """A fresh update is a new message and the old one is deleted; one older than Telegram lets
    a bot delete only loses its buttons."""
    user = api.new_user("Соня")
    api.user_starts_bot(user)
    sender = Sender(bot, group_limit=None)
    slot = Slot(user.id)
    keyboard = Keyboard('{"inline_keyboard":[[{"text":"x","callback_data":"h:1:1:draw"}]]}')
    await sender.update(slot, lambda: ("рука 1", keyboard), 1)
    first = slot.message_id
    assert first is not None
    await sender.update(slot, lambda: ("рука 2", keyboard), 2, fresh=True)
    await sender.drain()
    second = slot.message_id
    assert second is not None and second > first
    assert [m.message_id for m in api.messages(user.id)] == [second]
    api.message(user.id, second).date -= 49 * 3600  # two days old
    await sender.update(slot, lambda: ("рука 3", keyboard), 3, fresh=True)
    await sender.drain()
    third = slot.message_id
    assert [m.message_id for m in api.messages(user.id)] == [second, third]
    assert api.message(user.id, second).buttons == []
    assert api.message(user.id, second).text == "рука 2"
    assert api.message(user.id, third).text == "рука 3"
    await sender.close()
