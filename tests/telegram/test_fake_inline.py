"""The fake Bot API refuses what Telegram refuses in sticker sets and inline answers, through the
real aiogram stack."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    BufferedInputFile,
    InlineQueryResultArticle,
    InlineQueryResultCachedSticker,
    InputSticker,
    InputTextMessageContent,
)
from PIL import Image

from bot.art import sticker_png
from core.cards import Card
from tests.telegram.fake_bot_api import FakeBotAPI, FakeUser


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    async with FakeBotAPI() as fake:
        yield fake


@pytest.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[Bot]:
    bot = api.make_bot()
    yield bot
    await bot.session.close()


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (width, height)).save(out, format="PNG")
    return out.getvalue()


def sticker(data: bytes) -> InputSticker:
    return InputSticker(
        sticker=BufferedInputFile(data, "s.png"), format="static", emoji_list=["🟥"]
    )


GOOD = sticker_png(Card.parse("r7"))


async def make_set(api: FakeBotAPI, bot: Bot, owner: FakeUser, count: int = 1) -> str:
    name = f"cards_by_{api.bot.username}"
    stickers = [sticker(GOOD)] * count
    assert await bot.create_new_sticker_set(owner.id, name, "Cards", stickers)
    return name


async def test_a_set_name_must_end_with_the_bots_username(api: FakeBotAPI, bot: Bot) -> None:
    owner = api.new_user("Owner")
    for name in ("cards", "cards_by_other_bot", f"x__y_by_{api.bot.username}"):
        with pytest.raises(TelegramBadRequest, match="name"):
            await bot.create_new_sticker_set(owner.id, name, "Cards", [sticker(GOOD)])
    assert api.sticker_sets == {}
    await make_set(api, bot, owner)
    found = await bot.get_sticker_set(f"cards_by_{api.bot.username}")
    assert len(found.stickers) == 1 and found.stickers[0].height == 512


@pytest.mark.parametrize("size", [(512, 513), (511, 400), (256, 256), (1024, 512)])
async def test_a_sticker_must_be_512_px_on_one_side(
    api: FakeBotAPI, bot: Bot, size: tuple[int, int]
) -> None:
    owner = api.new_user("Owner")
    with pytest.raises(TelegramBadRequest, match="DIMENSIONS"):
        await bot.create_new_sticker_set(
            owner.id, f"cards_by_{api.bot.username}", "Cards", [sticker(png(*size))]
        )
    with pytest.raises(TelegramBadRequest, match="NOPNG"):
        await bot.create_new_sticker_set(
            owner.id, f"cards_by_{api.bot.username}", "Cards", [sticker(b"GIF89a" + GOOD)]
        )
    assert api.sticker_sets == {}
    # 512 x 300 and 300 x 512 are both fine.
    for n, good in enumerate((png(512, 300), png(300, 512))):
        assert await bot.create_new_sticker_set(
            owner.id, f"c{n}_by_{api.bot.username}", "Cards", [sticker(good)]
        )


async def test_the_limits_of_stickers_per_call_and_per_set(api: FakeBotAPI, bot: Bot) -> None:
    owner = api.new_user("Owner")
    small = png(512, 8)
    with pytest.raises(TelegramBadRequest, match="STICKERS_TOO_MUCH"):
        await bot.create_new_sticker_set(
            owner.id, f"cards_by_{api.bot.username}", "Cards", [sticker(small)] * 51
        )
    name = f"cards_by_{api.bot.username}"
    assert await bot.create_new_sticker_set(owner.id, name, "Cards", [sticker(small)] * 50)
    for _ in range(70):
        assert await bot.add_sticker_to_set(owner.id, name, sticker(small))
    with pytest.raises(TelegramBadRequest, match="STICKERS_TOO_MUCH"):
        await bot.add_sticker_to_set(owner.id, name, sticker(small))
    assert len((await bot.get_sticker_set(name)).stickers) == 120
    with pytest.raises(TelegramBadRequest, match="STICKERSET_INVALID"):
        await bot.get_sticker_set(f"nothing_by_{api.bot.username}")


async def test_inline_answers_are_checked(api: FakeBotAPI, bot: Bot) -> None:
    owner = api.new_user("Owner")
    name = await make_set(api, bot, owner)
    file_id = api.sticker_sets[name].stickers[0].file_id
    user = api.new_user("Alice")

    def article(rid: str) -> InlineQueryResultArticle:
        return InlineQueryResultArticle(
            id=rid, title="t", input_message_content=InputTextMessageContent(message_text="x")
        )

    refusals = {
        "RESULTS_TOO_MUCH": [article(str(i)) for i in range(51)],
        "RESULT_ID_DUPLICATE": [article("a"), article("a")],
        "RESULT_ID_INVALID": [article("x" * 65)],
        "wrong file identifier": [
            InlineQueryResultCachedSticker(id="s", sticker_file_id="CAACAgIAAxforged")
        ],
    }
    for error, results in refusals.items():
        query = api.inline_query(user, "g1")
        with pytest.raises(TelegramBadRequest, match=error):
            await bot.answer_inline_query(query, results)  # type: ignore[arg-type]
        assert api.inline_answer(query) is None
    query = api.inline_query(user, "g1")
    results = [
        *(article(str(i)) for i in range(49)),
        InlineQueryResultCachedSticker(id="é" * 32, sticker_file_id=file_id),  # 64 bytes
    ]
    assert await bot.answer_inline_query(query, results, cache_time=0, is_personal=True)  # type: ignore[arg-type]
    answer = api.inline_answer(query)
    assert answer is not None and len(answer.ids) == 50 and answer.is_personal
    with pytest.raises(TelegramBadRequest, match="query"):  # only one answer per query
        await bot.answer_inline_query(query, [article("b")])
