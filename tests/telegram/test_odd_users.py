"""Hostile users at the Telegram edge: an id Telegram cannot give is answered as a stale button
and reaches nothing; a name or a group title with characters no storage keeps (a lone
surrogate, a NUL) is shown with them replaced. Nothing is logged as an error."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.service.identity import REPLACEMENT
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import FakeChat, FakeUser


@pytest.fixture(autouse=True)
def no_errors(caplog: pytest.LogCaptureFixture) -> Any:
    yield
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


@pytest.mark.parametrize("number", [0, -7, 2**52, 2**62])
async def test_a_press_from_an_id_telegram_cannot_give_is_a_stale_button(
    harness: Harness, number: int
) -> None:
    h = harness
    await h.new_game(players=2)
    game = await h.game()
    calls = h.api.call_count
    stranger = FakeUser(number, "Чужой")
    lobby = (await h.table()).message_id
    query = h.api.press(stranger, h.group, lobby, "l:1:join", strict=False)
    h.api.send_message(stranger, h.group, "/join")
    h.api.send_message(stranger, h.group, "/kill")
    await h.settle()
    [answer] = h.api.callback_answers(query)
    assert answer.text == h.r.t("ru", "tg-stale-button-group") and answer.show_alert
    assert [c.method for c in h.api.calls()[calls:] if c.method != "getUpdates"] == [
        "answerCallbackQuery"
    ]  # nothing else: no message, no edit
    assert (await h.game()).to_dict() == game.to_dict()


@pytest.mark.parametrize(
    "name", ["Ал\ud800иса", "\udc00", "Бо\x00рис"], ids=["surrogate", "low", "nul"]
)
async def test_a_name_that_cannot_be_kept_is_shown_with_the_character_replaced(
    harness: Harness, name: str
) -> None:
    h = harness
    odd = FakeUser(1_000_500, name)
    h.api.user_starts_bot(odd)
    await h.say(h.users[0], "/new")
    await h.say(odd, "/join")
    lobby = h.api.last_message(h.group.id).plain_text
    shown = name.replace("\ud800", REPLACEMENT).replace("\udc00", REPLACEMENT)
    shown = shown.replace("\x00", REPLACEMENT)
    assert shown in lobby
    await h.say(h.users[0], "/start")
    assert sorted((await h.game()).players) == sorted([str(h.users[0].id), str(odd.id)])


async def test_a_group_title_that_cannot_be_kept_is_shown_with_the_character_replaced(
    harness: Harness,
) -> None:
    h = harness
    group = FakeChat(-1_001_000_000_777, "supergroup", "Вечер\ud800")
    a, b = h.users[:2]
    h.api.chats[group.id] = group
    await h.say(a, "/new", chat=group)
    await h.say(b, "/join", chat=group)
    await h.say(a, "/start", chat=group)
    hand = h.api.last_message(a.id).plain_text
    assert "Вечер" + REPLACEMENT in hand
