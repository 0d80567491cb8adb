"""A passing failure of Telegram -- a 5xx of the Bot API, a gateway's error page, a dropped
connection -- on each kind of call the bot makes: the call is made again and the bot goes on
as if nothing happened, with nothing logged as an error."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramServerError
from aiogram.types import BotCommand
from pydantic import SecretStr

from bot.config import Settings
from bot.telegram import retry
from bot.telegram.app import create_bot
from bot.telegram.retry import retrying
from bot.telegram.sender import Keyboard, Sender, Slot
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.test_inline import choose, offered
from tests.telegram.test_play import position

Fault = Callable[[FakeBotAPI, str], None]

FAULTS: dict[str, Fault] = {
    "502": lambda api, method: api.fail_next(method, 502, description="Bad Gateway"),
    "gateway 504": lambda api, method: api.fail_next(method, 504, gateway=True),
    "dropped": lambda api, method: api.drop_next(method),
}


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """The production schedule, ten times faster: the tests wait on the calls, not on time."""
    monkeypatch.setattr(retry, "FIRST_WAIT", retry.FIRST_WAIT / 10)


def failed_then_ok(api: FakeBotAPI, method: str, since: int = 0) -> bool:
    """The method's first call since the `since`-th call failed (the fault was hit) and a
    later one succeeded."""
    calls = [c for c in api.calls()[since:] if c.is_(method)]
    return bool(calls) and not calls[0].ok and any(c.ok for c in calls[1:])


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# ---------------------------------------------------------------------- a press's answer


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("harness", [{"players": 3, "seed": 7}], indirect=True)
async def test_a_press_is_answered_through_a_passing_failure(
    harness: Harness, fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    a, b, _ = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"]))
    await h.settle()
    since = h.api.call_count
    FAULTS[fault](h.api, "answerCallbackQuery")
    hand = await h.hand(a)
    query = h.api.press(a, a.id, hand.message_id, (await h.acts(a))["play r5"])
    await h.settle()
    assert (await h.game()).current_player == str(b.id)  # the move was applied once
    answers = h.api.callback_answers(query)
    assert [(x.ok, x.text) for x in answers] == [(True, None)]  # the button stopped spinning
    assert failed_then_ok(h.api, "answerCallbackQuery", since)
    assert errors(caplog) == []


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 7}], indirect=True)
async def test_a_press_delivered_twice_changes_nothing_and_logs_no_error(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The same press delivered again (Telegram re-sends an update whose delivery it thinks
    failed): the move is not made twice, and the second answer, refused because the query
    was answered already, is only a warning, not an update that failed."""
    h = harness
    a, b, _ = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"]))
    await h.settle()
    hand = await h.hand(a)
    query = h.api.press(a, a.id, hand.message_id, (await h.acts(a))["play r5"])
    await h.settle()
    assert (await h.game()).current_player == str(b.id)
    moved = (await h.game()).to_dict()
    since = h.api.call_count
    h.api.press_again(query)
    await h.api.wait_for(lambda c: c.is_("answerCallbackQuery"), since=since)
    await h.settle()
    assert (await h.game()).to_dict() == moved
    assert [x.ok for x in h.api.callback_answers(query)] == [True, False]
    assert errors(caplog) == []


@pytest.mark.parametrize("harness", [{"players": 3, "seed": 7}], indirect=True)
async def test_an_answer_that_keeps_failing_says_nothing_wrong(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the answer's budget the press stays unanswered: the move is done all the same, and
    nobody is told to try again (a second press would be refused as stale)."""
    monkeypatch.setattr(retry, "ANSWER_BUDGET", 0.2)
    h = harness
    a, b, _ = h.users
    await h.new_game(players=3)
    await h.install(position(h, ["r5 r7 g2", "b5 y1 y2", "g9 g8 g7"]))
    await h.settle()
    h.api.fail_next("answerCallbackQuery", 502, description="Bad Gateway", count=100)
    hand = await h.hand(a)
    query = h.api.press(a, a.id, hand.message_id, (await h.acts(a))["play r5"])
    await h.api.wait_for(lambda c: c.is_("answerCallbackQuery"))
    await h.settle()
    assert (await h.game()).current_player == str(b.id)
    assert len(h.api.calls("answerCallbackQuery")) > 1  # tried again within the budget
    assert [x.text for x in h.api.callback_answers(query)] == []
    assert not any(h.r.t("ru", "tg-error") in text for text in h.api.sent_texts())


# ---------------------------------------------------------------------- the handlers' calls


@pytest.mark.parametrize("fault", FAULTS)
async def test_an_admins_rights_are_read_through_a_passing_failure(
    harness: Harness, fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    a, b, _, g = h.users
    h.api.set_admins(h.group, [g])
    await h.say(a, "/new")
    await h.say(b, "/join")
    since = h.api.call_count
    FAULTS[fault](h.api, "getChatMember")
    await h.say(g, "/kill")  # not the creator: allowed as an admin
    assert h.api.last_message(h.group.id).plain_text == h.r.t("ru", "info-killed")
    assert failed_then_ok(h.api, "getChatMember", since)
    assert errors(caplog) == []


@pytest.fixture
async def inline(api: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Harness]:
    api.inline_mode = True
    h = Harness(api, tmp_path / "uno.sqlite3", players=3, seed=7)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


@pytest.mark.parametrize("fault", FAULTS)
async def test_inline_answers_and_edits_go_through_a_passing_failure(
    inline: Harness, fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    h = inline
    a = h.users[0]
    await h.new_game(players=3)
    await h.install(position(h, ["r5 wild g2", "b5 y1 y2", "g9 g8 g7"]))
    await h.settle()
    since = h.api.call_count
    FAULTS[fault](h.api, "answerInlineQuery")
    offer = await offered(h, a)  # the query answered after all
    assert "pick play wild" in offer[1]
    FAULTS[fault](h.api, "editMessageReplyMarkup")  # the wild's colors on the chosen message
    await choose(h, a, "pick play wild", offer)
    assert failed_then_ok(h.api, "answerInlineQuery", since)
    assert failed_then_ok(h.api, "editMessageReplyMarkup", since)
    assert errors(caplog) == []


@pytest.mark.parametrize("fault", FAULTS)
async def test_the_start_goes_through_a_passing_failure(
    make_harness: Callable[..., Harness], fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    h = make_harness(players=2)
    for method in ("getMe", "setMyCommands", "deleteWebhook"):
        FAULTS[fault](h.api, method)
    await h.start()
    try:
        for method in ("getMe", "setMyCommands", "deleteWebhook"):
            assert failed_then_ok(h.api, method), method
        await h.new_game(players=2)  # and the bot plays
        assert h.api.calls("answerCallbackQuery") or h.api.sent_texts(h.group.id)
        assert errors(caplog) == []
    finally:
        await h.stop()


# ---------------------------------------------------------------------- direct calls, one by one


@pytest.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[Bot]:
    """The production bot (its session) against the fake."""
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=SecretStr(api.token),
        telegram_api_base=api.base_url,
    )
    made = create_bot(settings)
    yield made
    await made.session.close()


COMMANDS = [BotCommand(command="new", description="a new game")]
DIRECT: dict[str, Callable[[Bot, FakeBotAPI], Awaitable[object]]] = {
    "getChat": lambda bot, api: bot.get_chat(api.new_group("Вечер").id),
    "setWebhook": lambda bot, api: bot.set_webhook("https://example.org/hook"),
    "setMyCommands": lambda bot, api: bot.set_my_commands(COMMANDS),
    "getStickerSet": lambda bot, api: bot.get_sticker_set(name="absent_by_uno_test_bot"),
}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("method", DIRECT)
async def test_a_direct_call_is_made_again(
    api: FakeBotAPI, bot: Bot, method: str, fault: str
) -> None:
    """Every call a handler or the start-up makes goes through `retrying` (the sticker sets'
    calls too): one failure that passes is not seen by the caller."""
    FAULTS[fault](api, method)
    try:
        await retrying(lambda: DIRECT[method](bot, api))
    except Exception as exc:  # a refusal of the call itself (a set that does not exist)
        assert not isinstance(exc, retry.TRANSIENT), exc
    assert [c.ok or c.status == 400 for c in api.calls(method)] == [False, True]


async def test_a_failure_that_does_not_pass_is_given_up_within_the_budget(
    api: FakeBotAPI, bot: Bot
) -> None:
    api.fail_next("getChat", 502, count=100)
    with pytest.raises(TelegramServerError):
        await retrying(lambda: bot.get_chat(api.new_group("Вечер").id), budget=0.2)
    assert 1 < len(api.calls("getChat")) < retry.MAX_ATTEMPTS


# ---------------------------------------------------------------------- the sender's calls


async def _send(sender: Sender, api: FakeBotAPI) -> None:
    await sender.send(api.new_group("Вечер").id, "итоги")


async def _edit(sender: Sender, api: FakeBotAPI) -> None:
    slot = Slot(api.new_group("Вечер").id)
    await sender.update(slot, lambda: ("стол", None), 1)
    await sender.update(slot, lambda: ("стол 2", None), 2)


async def _delete(sender: Sender, api: FakeBotAPI) -> None:
    slot = Slot(api.new_group("Вечер").id)
    await sender.update(slot, lambda: ("стол", None), 1)
    await sender.update(slot, lambda: ("стол 2", None), 2, fresh=True)


async def _remove_keyboard(sender: Sender, api: FakeBotAPI) -> None:
    group = api.new_group("Вечер")
    join = Keyboard(json.dumps({"inline_keyboard": [[{"text": "+", "callback_data": "j"}]]}))
    message = await sender.send(group.id, "лобби", join)
    assert message is not None
    await sender.remove_keyboard(group.id, message.message_id)


SENDS: dict[str, Callable[[Sender, FakeBotAPI], Awaitable[None]]] = {
    "sendMessage": _send,
    "editMessageText": _edit,
    "deleteMessage": _delete,
    "editMessageReplyMarkup": _remove_keyboard,
}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("method", SENDS)
async def test_the_senders_calls_are_made_again(
    api: FakeBotAPI, bot: Bot, method: str, fault: str
) -> None:
    """What the sender sends (texts, edits, deletions; pictures take the same way, see
    test_photos) outlives one failure that passes, with the same backoff."""
    sender = Sender(bot, group_limit=None)
    FAULTS[fault](api, method)
    await SENDS[method](sender, api)
    await sender.close()
    assert failed_then_ok(api, method)
