"""Photo messages: what the fake Bot API refuses (as Telegram does), and how the sender shows a
`Photo` content: uploaded once, then sent by file id; one call per update; text where a photo
cannot go, and back from what a restart forgot."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer
from PIL import Image

from bot.telegram.pictures import CAPTION_LIMIT, Photo, fits_caption, utf16_length
from bot.telegram.sender import Keyboard, Sender, Slot
from bot.telegram.session import BotSession
from tests.telegram.fake_bot_api import FakeBotAPI, FakeUser

KEYBOARD = Keyboard('{"inline_keyboard":[[{"text":"🟥 7","callback_data":"h:1:1:play r7"}]]}')


def png(width: int, height: int, color: str = "red") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, format="PNG")
    return buffer.getvalue()


def photo(caption: str, name: str = "a", *, prefer_text: bool = False) -> Photo:
    colors = {"a": "red", "b": "blue", "c": "green"}
    return Photo(caption, name, lambda: png(300, 200, colors[name]), prefer_text=prefer_text)


@pytest.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[Bot]:
    bot = Bot(api.token, session=BotSession(api=TelegramAPIServer.from_base(api.base_url)))
    yield bot
    await bot.session.close()


@pytest.fixture
def user(api: FakeBotAPI) -> FakeUser:
    user = api.new_user("Соня")
    api.user_starts_bot(user)
    return user


async def post(api: FakeBotAPI, method: str, data: aiohttp.FormData) -> dict[str, object]:
    url = f"{api.base_url}/bot{api.token}/{method}"
    async with aiohttp.ClientSession() as http, http.post(url, data=data) as resp:
        body: dict[str, object] = await resp.json()
        return body


def form(chat: int, **fields: str) -> aiohttp.FormData:
    data = aiohttp.FormData()
    data.add_field("chat_id", str(chat))
    for key, value in fields.items():
        data.add_field(key, value)
    return data


def with_file(data: aiohttp.FormData, name: str, content: bytes) -> aiohttp.FormData:
    data.add_field(name, content, filename="p.png", content_type="image/png")
    return data


# ---------------------------------------------------------------------- the fake


async def test_the_fake_refuses_what_telegram_refuses_for_photos(
    api: FakeBotAPI, user: FakeUser
) -> None:
    async def send(content: bytes, caption: str = "") -> dict[str, object]:
        return await post(
            api, "sendPhoto", with_file(form(user.id, caption=caption), "photo", content)
        )

    sent = await send(png(300, 200), "рука")
    assert sent["ok"] is True
    result = sent["result"]
    assert isinstance(result, dict)
    sizes = result["photo"]
    assert isinstance(sizes, list) and sizes[-1]["width"] == 300 and result["caption"] == "рука"
    file_id = sizes[-1]["file_id"]
    msg = api.last_message(user.id)
    assert api.picture(msg) == png(300, 200) and msg.plain_text == "рука"

    too_long = await send(png(300, 200), "к" * (CAPTION_LIMIT + 1))
    assert too_long["description"] == "Bad Request: message caption is too long"
    assert (await send(png(300, 200), "🟥" * (CAPTION_LIMIT // 2)))["ok"] is True  # UTF-16
    assert not (await send(png(300, 200), "🟥" * (CAPTION_LIMIT // 2 + 1)))["ok"]
    for width, height in ((10, 300), (6000, 4500)):  # a side ratio over 20, sides over 10000
        refused = await send(png(width, height))
        assert refused["description"] == "Bad Request: PHOTO_INVALID_DIMENSIONS"
    assert (await send(b"not a picture"))["description"] == "Bad Request: IMAGE_PROCESS_FAILED"
    unknown = await post(api, "sendPhoto", form(user.id, photo="AgACnever"))
    assert unknown["description"] == "Bad Request: wrong file identifier/HTTP URL specified"
    again = await post(api, "sendPhoto", form(user.id, photo=str(file_id)))
    assert again["ok"] is True  # a file id sends the same picture, no bytes

    mid = str(msg.message_id)
    no_text = await post(api, "editMessageText", form(user.id, message_id=mid, text="x"))
    assert no_text["description"] == "Bad Request: there is no text in the message to edit"
    same = f'{{"type":"photo","media":"{file_id}","caption":"рука"}}'
    unchanged = await post(api, "editMessageMedia", form(user.id, message_id=mid, media=same))
    assert "message is not modified" in str(unchanged["description"])
    caption = await post(api, "editMessageCaption", form(user.id, message_id=mid, caption="ход"))
    assert caption["ok"] is True and api.message(user.id, msg.message_id).caption == "ход"
    bad_id = '{"type":"photo","media":"AgACnever"}'
    refused = await post(api, "editMessageMedia", form(user.id, message_id=mid, media=bad_id))
    assert refused["description"] == "Bad Request: wrong file identifier/HTTP URL specified"
    upload = '{"type":"photo","media":"attach://pic","caption":"новая"}'
    edited = await post(
        api,
        "editMessageMedia",
        with_file(form(user.id, message_id=mid, media=upload), "pic", png(200, 300, "blue")),
    )
    assert edited["ok"] is True
    assert api.picture(api.message(user.id, msg.message_id)) == png(200, 300, "blue")


async def test_a_text_message_becomes_a_photo_but_never_back(
    api: FakeBotAPI, user: FakeUser, bot: Bot
) -> None:
    text = await bot.send_message(user.id, "карты")
    mid = str(text.message_id)
    no_caption = await post(api, "editMessageCaption", form(user.id, message_id=mid, caption="x"))
    assert no_caption["ok"] is False
    upload = '{"type":"photo","media":"attach://pic","caption":"карты"}'
    data = with_file(form(user.id, message_id=mid, media=upload), "pic", png(300, 200))
    assert (await post(api, "editMessageMedia", data))["ok"] is True
    msg = api.message(user.id, text.message_id)
    assert msg.text is None and msg.photo is not None and msg.plain_text == "карты"
    back = await post(api, "editMessageText", form(user.id, message_id=mid, text="карты"))
    assert back["ok"] is False


# ---------------------------------------------------------------------- the sender


def methods(api: FakeBotAPI, chat: int, since: int = 0) -> list[str]:
    return [c.method for c in api.calls(chat_id=chat)[since:] if c.ok]


def uploads(api: FakeBotAPI, chat: int) -> int:
    """Calls that carried a picture's bytes (multipart), not a file id."""
    count = 0
    for call in api.calls(chat_id=chat):
        media = call.params.get("media")
        value = media.get("media") if isinstance(media, dict) else call.params.get("photo")
        count += isinstance(value, str) and (value.startswith("attach://") or value[:1] == "<")
    return count


async def test_a_photo_is_uploaded_once_and_updated_by_one_call(
    api: FakeBotAPI, user: FakeUser, bot: Bot
) -> None:
    sender = Sender(bot, group_limit=None)
    slot = Slot(user.id)
    await sender.update(slot, lambda: (photo("ход 1"), KEYBOARD), 1)
    await sender.update(slot, lambda: (photo("ход 2"), KEYBOARD), 2)  # the caption only
    await sender.update(slot, lambda: (photo("ход 3", "b"), None), 3)  # another picture
    await sender.update(slot, lambda: (photo("ход 4"), KEYBOARD), 4)  # the first one again
    assert await sender.update(slot, lambda: (photo("ход 4"), KEYBOARD), 5) is True  # no call
    assert methods(api, user.id) == ["sendPhoto"] + ["editMessageMedia"] * 3
    assert uploads(api, user.id) == 2  # "a" and "b", each once
    msg = api.last_message(user.id)
    assert msg.plain_text == "ход 4" and msg.buttons and api.picture(msg) == png(300, 200)
    # A turn begins: the photo moves down as a new message, the old one is deleted.
    await sender.update(slot, lambda: (photo("ход 5"), KEYBOARD), 6, fresh=True)
    await sender.drain(5)
    assert methods(api, user.id)[-2:] == ["sendPhoto", "deleteMessage"]
    assert uploads(api, user.id) == 2
    await sender.close()


async def test_a_photo_gives_way_to_text_with_a_new_silent_message(
    api: FakeBotAPI, user: FakeUser, bot: Bot
) -> None:
    sender = Sender(bot, group_limit=None)
    slot = Slot(user.id)
    await sender.update(slot, lambda: (photo("рука"), KEYBOARD), 1)
    first = slot.message_id
    since = len(api.calls(chat_id=user.id))
    long_text = "🟥 7  " * 300
    assert not fits_caption(long_text) and utf16_length(long_text) > CAPTION_LIMIT
    with pytest.raises(ValueError):
        photo(long_text)
    await sender.update(slot, lambda: (long_text, KEYBOARD), 2)
    await sender.drain(5)
    assert methods(api, user.id, since) == ["sendMessage", "deleteMessage"]
    sent = api.calls("sendMessage", chat_id=user.id)[-1]
    assert sent.params.get("disable_notification") is True  # not a turn: no notification
    assert api.message(user.id, first or 0).deleted and slot.message_id != first
    # Back under the limit, a picture wanted: the text message becomes a photo in place.
    since = len(api.calls(chat_id=user.id))
    await sender.update(slot, lambda: (photo("рука", "c"), KEYBOARD), 3)
    assert methods(api, user.id, since) == ["editMessageMedia"]
    await sender.close()


async def test_a_small_hand_keeps_its_photo_but_a_new_message_is_text(
    api: FakeBotAPI, user: FakeUser, bot: Bot
) -> None:
    sender = Sender(bot, group_limit=None)
    slot = Slot(user.id)
    await sender.update(slot, lambda: (photo("8 карт"), KEYBOARD), 1)
    await sender.update(slot, lambda: (photo("7 карт", "b", prefer_text=True), KEYBOARD), 2)
    assert methods(api, user.id) == ["sendPhoto", "editMessageMedia"]
    await sender.update(slot, lambda: (photo("6 карт", prefer_text=True), None), 3, fresh=True)
    await sender.drain(5)
    assert methods(api, user.id)[-2:] == ["sendMessage", "deleteMessage"]
    assert api.last_message(user.id).plain_text == "6 карт"
    await sender.update(slot, lambda: (photo("5 карт", prefer_text=True), None), 4)
    assert methods(api, user.id)[-1] == "editMessageText"
    await sender.close()


async def test_after_a_restart_the_kind_of_message_is_learnt_from_telegram(
    api: FakeBotAPI, user: FakeUser, bot: Bot
) -> None:
    sender = Sender(bot, group_limit=None)
    slot = Slot(user.id)
    await sender.update(slot, lambda: (photo("рука"), KEYBOARD), 1)
    # A new process knows the message's id only (the game's refs), not that it is a photo.
    restarted = Sender(bot, group_limit=None)
    again = Slot(user.id, slot.message_id)
    since = len(api.calls(chat_id=user.id))
    await restarted.update(again, lambda: (photo("ход", prefer_text=True), KEYBOARD), 2)
    assert methods(api, user.id, since) == ["editMessageMedia"]  # after a refused text edit
    assert api.last_message(user.id).plain_text == "ход"
    other = Slot(user.id, again.message_id)
    since = len(api.calls(chat_id=user.id))
    await restarted.update(other, lambda: ("текст", KEYBOARD), 3)
    await restarted.drain(5)
    assert methods(api, user.id, since) == ["sendMessage", "deleteMessage"]
    await sender.close()
    await restarted.close()


async def test_a_message_taken_over_is_of_an_unknown_kind(
    api: FakeBotAPI, user: FakeUser, bot: Bot
) -> None:
    """Another process sent the hand new as text (a small hand); this one knew the old message
    as a photo. Taking the new one over, it must not keep the old one's kind: a small hand
    would be turned into a picture (or, as text, sent new a second time in place of a photo
    that never was)."""
    sender = Sender(bot, group_limit=None)
    slot = Slot(user.id)
    await sender.update(slot, lambda: (photo("8 карт"), KEYBOARD), 1)
    assert slot.photo
    other = Sender(bot, group_limit=None)  # the other process sends the turn new, as text
    theirs = Slot(user.id)
    await other.update(theirs, lambda: (photo("7 карт", prefer_text=True), KEYBOARD), 2)
    assert api.last_message(user.id).photo is None
    assert theirs.message_id is not None
    slot.take_over(theirs.message_id)
    since = len(api.calls(chat_id=user.id))
    await sender.update(slot, lambda: (photo("6 карт", prefer_text=True), None), 3)
    await sender.update(slot, lambda: ("5 карт", None), 4)
    await sender.drain(5)
    assert methods(api, user.id, since) == ["editMessageText"] * 2
    msg = api.last_message(user.id)
    assert msg.photo is None and msg.plain_text == "5 карт"
    await sender.close()
    await other.close()


async def test_a_file_id_telegram_refuses_is_uploaded_again(
    api: FakeBotAPI, user: FakeUser, bot: Bot
) -> None:
    sender = Sender(bot, group_limit=None)
    slot = Slot(user.id)
    await sender.update(slot, lambda: (photo("рука"), None), 1)
    sender.pictures._ids["a"] = "AgACforgotten"  # as if Telegram no longer knew it
    await sender.update(slot, lambda: (photo("ход"), None), 2)
    assert methods(api, user.id) == ["sendPhoto", "editMessageMedia"]
    assert uploads(api, user.id) == 2 and api.last_message(user.id).plain_text == "ход"
    await sender.close()
