"""Self-test of the fake Bot API, driven through the real aiogram stack."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramRetryAfter
from aiogram.filters import Command, CommandStart
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    WebAppInfo,
)
from pydantic import ValidationError

from tests.telegram.fake_bot_api import FakeBotAPI

KEYBOARD = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Play", callback_data="play:1")]]
)


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    async with FakeBotAPI() as fake:
        yield fake


@pytest.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[Bot]:
    bot = api.make_bot()
    yield bot
    await bot.session.close()


def make_router() -> Router:
    router = Router()

    @router.message(CommandStart())
    async def start(message: Message) -> None:
        await message.answer("Welcome to <b>UNO</b>", reply_markup=KEYBOARD)

    @router.message(Command("ping"))
    async def ping(message: Message) -> None:
        await message.reply("pong")

    @router.callback_query(F.data.startswith("play:"))
    async def play(callback: CallbackQuery) -> None:
        assert isinstance(callback.message, Message)  # not InaccessibleMessage
        await callback.message.edit_text(f"{callback.from_user.first_name} plays")
        await callback.answer("Good luck", show_alert=True)

    return router


@asynccontextmanager
async def polling(api: FakeBotAPI, bot: Bot, router: Router) -> AsyncIterator[Dispatcher]:
    """Run real aiogram polling; stopping must be instant: the long poll it interrupts (aiogram
    asks for 10 s) is dropped, never waited out to its answer."""
    dp = Dispatcher()
    dp.include_router(router)
    task = asyncio.create_task(dp.start_polling(bot, handle_signals=False))
    try:
        yield dp
    finally:
        await api.wait_until(lambda: api.waiting_polls > 0)
        answered = len(api.calls("getUpdates"))
        await dp.stop_polling()
        await task
        await bot.session.close()
        assert len(api.calls("getUpdates")) == answered


async def test_start_keyboard_and_callback_roundtrip(api: FakeBotAPI) -> None:
    # The plain aiogram session, exactly as production code would build it.
    session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
    bot = Bot("123:ABC", session=session, default=DefaultBotProperties(parse_mode="HTML"))
    alice = api.new_user("Alice", username="alice")
    async with polling(api, bot, make_router()):
        api.send_message(alice, alice.id, "/start")
        await api.idle()

        welcome = api.last_message(alice.id)
        assert welcome.text == "Welcome to <b>UNO</b>"
        assert (welcome.plain_text, welcome.parse_mode) == ("Welcome to UNO", "HTML")
        assert welcome.buttons == [{"text": "Play", "callback_data": "play:1"}]
        assert api.find_button(alice.id, "Play") == "play:1"

        query_id = api.press(alice, alice.id, welcome.message_id, "play:1")
        await api.idle()

    edited = api.message(alice.id, welcome.message_id)
    assert edited.text == "Alice plays"
    assert edited.reply_markup is None  # editMessageText without markup drops the keyboard
    assert edited.edit_date is not None
    answer = api.callback_answer(query_id)
    assert answer is not None
    assert (answer.text, answer.show_alert) == ("Good luck", True)
    assert api.sent_texts(alice.id) == ["Welcome to <b>UNO</b>", "Alice plays"]
    assert [c.method for c in api.calls() if c.method != "getUpdates"] == [
        "getMe",
        "sendMessage",
        "editMessageText",
        "answerCallbackQuery",
    ]
    assert api.pending_updates == 0


async def test_group_command_with_mention_and_reply(api: FakeBotAPI, bot: Bot) -> None:
    group = api.new_group("UNO night")
    bob = api.new_user("Bob")
    async with polling(api, bot, make_router()):
        sent = api.send_message(bob, group, f"/ping@{api.bot.username}")
        api.send_message(bob, group, "/ping@some_other_bot")  # aiogram must ignore this one
        call = await api.wait_for(lambda c: c.is_("sendMessage") and c.ok)
        await api.idle()

    assert call.params["reply_parameters"]["message_id"] == sent.message_id
    assert api.sent_texts(group.id) == ["pong"]
    reply = api.last_message(group.id)
    assert reply.reply_to == sent.message_id
    assert [m.message_id for m in api.messages(group.id)] == [1, 2, 3]


async def test_press_with_button_text_and_repeat_answer_rejected(api: FakeBotAPI, bot: Bot) -> None:
    group = api.new_group()
    carol = api.new_user("Carol")
    await bot.send_message(group.id, "Lobby", reply_markup=KEYBOARD)
    query_id = api.press_button(carol, group, "Play")
    assert await bot.answer_callback_query(query_id, text="first")
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(query_id, text="second")
    assert [a.ok for a in api.callback_answers(query_id)] == [True, False]
    with pytest.raises(ValueError, match="no button"):
        api.press(carol, group, 1, "nope")
    with pytest.raises(LookupError):
        api.find_button(group.id, "Missing")


async def test_retry_after_reaches_bot(api: FakeBotAPI, bot: Bot) -> None:
    group = api.new_group()
    api.fail_next("sendMessage", status=429, retry_after=7, chat_id=group.id)
    with pytest.raises(TelegramRetryAfter) as excinfo:
        await bot.send_message(group.id, "flood")
    assert excinfo.value.retry_after == 7
    assert api.calls("sendMessage")[0].response == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 7",
        "parameters": {"retry_after": 7},
    }
    await bot.send_message(group.id, "flood")  # only the next call failed
    assert api.sent_texts(group.id) == ["flood"]


async def test_forbidden_until_user_starts_bot(api: FakeBotAPI, bot: Bot) -> None:
    dave = api.new_user("Dave")
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await bot.send_message(dave.id, "your hand")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(424242, "who?")
    api.user_starts_bot(dave)
    await bot.send_message(dave.id, "your hand")
    api.user_blocks_bot(dave)
    with pytest.raises(TelegramForbiddenError, match="blocked"):
        await bot.send_message(dave.id, "your hand")


async def test_edit_errors(api: FakeBotAPI, bot: Bot) -> None:
    group = api.new_group()
    msg = await bot.send_message(group.id, "Top card: red 5", reply_markup=KEYBOARD)
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(
            "Top card: red 5", chat_id=group.id, message_id=msg.message_id, reply_markup=KEYBOARD
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=group.id, message_id=msg.message_id, reply_markup=KEYBOARD
        )
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=group.id, message_id=999)
    await bot.edit_message_text(
        "Top card: red 5", chat_id=group.id, message_id=msg.message_id
    )  # same text, keyboard removed: a real change
    assert await bot.delete_message(group.id, msg.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("y", chat_id=group.id, message_id=msg.message_id)
    assert api.messages(group.id) == []


async def test_malformed_update_rejected_at_injection(api: FakeBotAPI) -> None:
    with pytest.raises(ValidationError):
        api.inject({"message": {"message_id": 1, "text": "no chat, no date"}})
    with pytest.raises(ValueError, match="no known event type"):
        api.inject({})
    assert api.pending_updates == 0


async def test_long_poll_honours_timeout_offset_and_shutdown() -> None:
    api = FakeBotAPI()
    await api.start()
    url = f"{api.base_url}/bot{api.token}/getUpdates"
    async with aiohttp.ClientSession() as http:
        # A poll with timeout 0 answers at once: it never parks.
        instant = asyncio.create_task(http.post(url, data={"timeout": "0"}))
        await api.wait_until(lambda: bool(api.calls("getUpdates")) or api.waiting_polls > 0)
        assert not api.waiting_polls
        async with await instant as resp:
            assert (await resp.json())["result"] == []

        # A parked poll is answered by the update that arrives, not by its timeout.
        user = api.new_user("Eve")
        waiting = asyncio.create_task(http.post(url, json={"timeout": 30}))
        await api.wait_until(lambda: api.waiting_polls > 0)
        api.send_message(user, user.id, "hello")
        async with await waiting as resp:
            updates = (await resp.json())["result"]
        assert [u["message"]["text"] for u in updates] == ["hello"]
        assert updates[0]["message"]["date"] > 1_600_000_000

        offset = updates[0]["update_id"] + 1
        async with http.post(url, data={"offset": str(offset), "timeout": "0"}) as resp:
            assert (await resp.json())["result"] == []
        assert api.pending_updates == 0  # the offset confirmed the update

        # Stopping answers a parked poll (an unanswered one would be cut off by the shutdown).
        pending = asyncio.create_task(http.post(url, data={"offset": str(offset), "timeout": "30"}))
        await api.wait_until(lambda: api.waiting_polls > 0)
        await api.stop()
        async with await pending as resp:
            assert (await resp.json()) == {"ok": True, "result": []}


async def test_raw_requests_unknown_method_json_body_and_commands(
    api: FakeBotAPI, bot: Bot
) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{api.base_url}/bot1:x/sendVenue", json={"chat_id": 1}) as resp:
            assert resp.status == 404
            assert await resp.json() == {
                "ok": False,
                "error_code": 404,
                "description": "Not Found: method not found",
            }
        group = api.new_group()
        body = {"chat_id": str(group.id), "text": "123"}
        async with http.post(f"{api.base_url}/bot1:x/sendMessage", json=body) as resp:
            assert (await resp.json())["result"]["text"] == "123"
    assert api.calls("sendvenue")[0].params == {"chat_id": 1}
    assert api.last_message(group.id).text == "123"  # not decoded into an int

    scope = BotCommandScopeAllGroupChats()
    commands = [BotCommand(command="new", description="Новая игра")]
    await bot.set_my_commands(commands, scope=scope, language_code="ru")
    assert api.my_commands("all_group_chats", "ru") == [
        {"command": "new", "description": "Новая игра"}
    ]
    fetched = await bot.get_my_commands(scope=scope, language_code="ru")
    assert [c.command for c in fetched] == ["new"]
    assert await bot.get_my_commands() == []
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="New-Game", description="x")])


async def test_admins_and_chat_info(api: FakeBotAPI, bot: Bot) -> None:
    group = api.new_group("UNO night")
    owner, admin, player = api.new_user("O"), api.new_user("A"), api.new_user("P")
    api.set_admins(group, [admin, api.bot], owner=owner)
    statuses = [(m.user.id, m.status) for m in await bot.get_chat_administrators(group.id)]
    assert statuses == [
        (owner.id, "creator"),
        (admin.id, "administrator"),
        (api.bot.id, "administrator"),
    ]
    assert (await bot.get_chat_member(group.id, player.id)).status == "member"
    assert (await bot.get_chat(group.id)).title == "UNO night"
    assert (await bot.get_me()).username == api.bot.username


async def test_wait_for_times_out_and_idle_notices_missing_poller(api: FakeBotAPI) -> None:
    with pytest.raises(TimeoutError, match="no matching API call"):
        await api.wait_for("sendMessage", timeout=0.05)
    user = api.new_user("Zed")
    api.send_message(user, user.id, "/start")
    with pytest.raises(TimeoutError, match="is the bot polling"):
        await api.idle(timeout=0.1)


async def test_buttons_telegram_refuses_are_refused(api: FakeBotAPI, bot: Bot) -> None:
    """A Mini App button only in a private chat; links only to http(s) or tg://."""
    group = api.new_group()
    user = api.new_user("Anna")
    api.user_starts_bot(user)

    def markup(**button: object) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="Table", **button)]]  # type: ignore[arg-type]
        )

    web_app = markup(web_app=WebAppInfo(url="https://uno.example/?game=1"))
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.send_message(group.id, "Top card: red 5", reply_markup=web_app)
    sent = await bot.send_message(group.id, "Top card: red 5", reply_markup=KEYBOARD)
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.edit_message_reply_markup(
            chat_id=group.id, message_id=sent.message_id, reply_markup=web_app
        )
    for url in ("ftp://uno.example/", "javascript:alert(1)", "uno.example", "https://"):
        with pytest.raises(TelegramBadRequest, match="BUTTON_URL_INVALID"):
            await bot.send_message(group.id, "Top card: red 5", reply_markup=markup(url=url))
    with pytest.raises(TelegramBadRequest, match="BUTTON_URL_INVALID"):  # a Mini App: HTTPS
        plain = markup(web_app=WebAppInfo(url="http://uno.example/"))
        await bot.send_message(user.id, "Your cards", reply_markup=plain)
    assert [m.message_id for m in api.messages(group.id)] == [sent.message_id]
    # What Telegram takes: a Mini App in the private chat, t.me and tg:// links in the group.
    await bot.send_message(user.id, "Your cards", reply_markup=web_app)
    for url in ("https://t.me/uno_bot/table?startapp=1", "http://uno.example/", "tg://user?id=1"):
        await bot.send_message(group.id, "Top card: red 5", reply_markup=markup(url=url))
