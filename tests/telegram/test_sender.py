"""The per-chat sender against the fake Bot API, and the suite's own privacy and language checks
(they must be able to fail)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import partial

import pytest
from aiogram import Bot

from bot.telegram.sender import Bucket, RateLimit, Sender, Slot
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
