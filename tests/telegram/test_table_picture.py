"""The group's table as a photo, end to end against the fake Bot API: a wide banner of the top
card, the color in play and the direction (`bot.art.table`) with the table's text as caption,
one call per update as the text table, each banner uploaded once and then sent by file id; text
where a caption cannot hold the table, where Telegram refuses the photo, and when the chat's
/settings turn the banner off."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from bot.art.table import HEIGHT, WIDTH, TablePicture, table_png
from bot.service.views import TableView
from bot.telegram.common import chat_key
from bot.telegram.pictures import fits_caption
from core.cards import Card, Color
from tests.telegram.conftest import Harness, press_turn
from tests.telegram.fake_bot_api import ApiCall, Upload
from tests.telegram.test_play import group_calls, position

PHOTO_CALLS = ("sendPhoto", "editMessageMedia")


async def table_view(h: Harness) -> tuple[TableView, dict[str, str]]:
    out = await h.svc.queries.table(chat_key(h.group.id))
    assert out.table is not None
    return out.table, dict(out.names)


def banner(view: TableView) -> bytes:
    assert view.top is not None
    return table_png(TablePicture.of(view.top, view.color, view.direction, view.lang))


def is_upload(call: ApiCall) -> bool:
    """A photo call that carried the picture's bytes, not a file id."""
    media = call.params.get("media")
    value = media.get("media") if isinstance(media, dict) else call.params.get("photo")
    if isinstance(value, str) and value.startswith("attach://"):
        value = call.params.get(value.removeprefix("attach://"))
    return isinstance(value, Upload)


def shown_bytes(h: Harness, call: ApiCall) -> bytes:
    """The picture a successful photo call left on its message."""
    return h.api.photos[call.result["photo"][-1]["file_id"]]


def photo_calls(h: Harness, since: int = 0) -> list[ApiCall]:
    return [c for c in h.api.calls(chat_id=h.group.id)[since:] if c.ok and c.method in PHOTO_CALLS]


async def one_move(h: Harness) -> bool:
    """Whoever can act presses their hand's button by `policy`; False when the match is over."""
    assert h.storage is not None
    if await h.storage.active_game(chat_key(h.group.id)) is None:
        return False
    if await press_turn(h, h.users) is None:
        raise AssertionError("nobody can act")
    await h.settle()
    return True


async def short_target(h: Harness) -> None:
    await h.set_setting(h.users[0], "target", "1000")  # the button goes round: 500, 1000, 100
    await h.set_setting(h.users[0], "target", "100")


# ---------------------------------------------------------------------- a whole match


@pytest.mark.parametrize("harness", [{"players": 2, "seed": 4}], indirect=True)
async def test_a_match_played_to_its_end_under_the_banner(harness: Harness) -> None:
    h = harness
    await short_target(h)
    game_id = await h.new_game(players=2)
    lobby = await h.ref("tg:lobby")
    assert lobby is not None and h.api.message(h.group.id, lobby).photo is None  # still text
    table = await h.table()
    table_id = table.message_id
    view, names = await table_view(h)
    assert table.photo is not None and table.text is None
    assert table.plain_text == h.r.table(view, names)
    assert [b["text"] for b in table.buttons] == [h.r.t("ru", "btn-my-cards")]
    with Image.open(io.BytesIO(h.api.picture(table))) as image:
        assert image.size == (WIDTH, HEIGHT) and image.mode == "P"  # 256 colors
    assert h.api.picture(table) == banner(view)
    seen = {banner(view)}
    moves = 0
    while await one_move(h):
        moves += 1
        assert moves < 800
        out = await h.svc.queries.table(chat_key(h.group.id))
        now = out.table  # None once the match is over
        if now is not None and now.game_id == game_id and now.status == "running":
            view, names = now, dict(out.names)
            table = await h.table()
            assert table.message_id == table_id  # one table message, edited in place
            assert table.plain_text == h.r.table(view, names)
            assert h.api.picture(table) == banner(view)  # the top card, color and direction
            seen.add(banner(view))
    assert moves > 10 and len(seen) > 5
    assert h.storage is not None
    rec = await h.storage.get_game(game_id)
    assert rec is not None and rec.status == "finished"
    final = h.api.message(h.group.id, table_id)
    assert final.photo is not None and final.buttons == []
    assert h.r.t("ru", "table-finished", names="", count=1).split(":")[0] in final.plain_text
    # One call per table update; a banner's bytes went up once, then only its file id.
    calls = [c for c in photo_calls(h) if c.result["message_id"] == table_id]
    assert Counter(c.method for c in calls)["sendPhoto"] == 1
    shown = [shown_bytes(h, c) for c in calls]
    uploads = [shown_bytes(h, c) for c in calls if is_upload(c)]
    assert sorted(uploads) == sorted(set(shown))  # every banner once, and only once
    assert len(calls) > len(uploads)
    table_texts = [c for c in h.api.calls("editMessageText", chat_id=h.group.id) if c.ok]
    assert all(c.params["message_id"] != table_id for c in table_texts)


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_the_banner_shows_a_wilds_color_and_the_direction(harness: Harness) -> None:
    h = harness
    await h.new_game(players=3)
    a, b, _ = h.users
    await h.install(position(h, ["wild r5 g2", "grev y1 y2", "g9 g8 g7"]))
    await h.play(a, "wild", "g")
    await h.settle()
    wild_green = TablePicture.of(Card.parse("wild"), Color.GREEN, 1, "ru")
    shown = h.api.picture(await h.table())
    assert shown == table_png(wild_green)
    assert shown != table_png(TablePicture.of(Card.parse("wild"), Color.BLUE, 1, "ru"))
    await h.play(b, "grev")
    await h.settle()
    view, _ = await table_view(h)
    assert view.direction == -1
    reverse = TablePicture.of(Card.parse("grev"), Color.GREEN, -1, "ru")
    assert h.api.picture(await h.table()) == table_png(reverse)
    assert table_png(reverse) != table_png(TablePicture.of(Card.parse("grev"), Color.GREEN, 1))


# ---------------------------------------------------------------------- calls per move


async def _group_calls_per_move(h: Harness, picture: bool, moves: int) -> tuple[int, Counter[str]]:
    await h.start()
    try:
        if not picture:
            answer = await h.set_setting(h.users[0], "table_picture", "off")
            assert answer.text == h.r.t("ru", "info-settings-saved")
        await h.new_game(players=3)
        before = len(group_calls(h))
        for _ in range(moves):
            assert await one_move(h)
        await h.settle()
        calls = group_calls(h)[before:]
        return len(calls), Counter(c.method for c in calls)
    finally:
        await h.stop()


async def test_the_banner_costs_the_group_no_more_calls_than_text(
    make_harness: Callable[..., Harness],
) -> None:
    moves = 30
    photo, photo_kinds = await _group_calls_per_move(make_harness(players=3, seed=6), True, moves)
    text, text_kinds = await _group_calls_per_move(make_harness(players=3, seed=6), False, moves)
    assert photo == text and moves - 2 <= photo <= moves + 3  # a table edit per move, a result
    assert photo_kinds["editMessageMedia"] == text_kinds["editMessageText"] > moves // 2
    assert text_kinds["editMessageMedia"] == text_kinds["sendPhoto"] == 0
    assert photo_kinds["editMessageText"] == 0


# ---------------------------------------------------------------------- text instead


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_the_setting_turns_the_banner_off_and_on(harness: Harness) -> None:
    h = harness
    await h.say(h.users[0], "/settings")
    menu = h.api.last_message(h.group.id)
    on = h.r.t("ru", "tg-settings-table-picture", value=h.r.t("ru", "value-on"))
    assert on in menu.plain_text
    label = h.r.t("ru", "tg-set-table-picture", value=h.r.t("ru", "value-on"))
    assert {"text": label, "callback_data": "s:table_picture:off"} in menu.buttons
    answer = await h.press(h.users[0], h.group, menu.message_id, "s:table_picture:off")
    assert answer.text == h.r.t("ru", "info-settings-saved")
    await h.settle()
    off = h.r.t("ru", "tg-settings-table-picture", value=h.r.t("ru", "value-off"))
    assert off in h.api.message(h.group.id, menu.message_id).plain_text
    assert not (await h.svc.settings.settings(chat_key(h.group.id))).table_picture
    # Off: today's text table.
    await h.new_game(players=3)
    table = await h.table()
    view, names = await table_view(h)
    assert table.photo is None and table.text == h.r.table(view, names)
    start = h.api.call_count
    assert await one_move(h)
    assert photo_calls(h, start) == [] and (await h.table()).message_id == table.message_id
    # On again mid-game: the text message becomes the photo in place.
    since = len(h.api.calls(chat_id=h.group.id))
    await h.press(h.users[0], h.group, menu.message_id, "s:table_picture:on")
    await h.settle()
    table = await h.table()
    view, names = await table_view(h)
    assert table.photo is not None and h.api.picture(table) == banner(view)
    kinds = [c.method for c in h.api.calls(chat_id=h.group.id)[since:] if c.ok]
    assert "editMessageMedia" in kinds and "sendPhoto" not in kinds
    # Off again: a photo never becomes text, so the text comes as a new message.
    await h.press(h.users[0], h.group, menu.message_id, "s:table_picture:off")
    await h.settle()
    new_table = await h.table()
    assert new_table.message_id != table.message_id and new_table.photo is None
    assert h.api.message(h.group.id, table.message_id).deleted


LONG = "🦊" * 60  # 120 UTF-16 units: names that make a table outgrow a caption


@pytest.mark.parametrize(
    "harness",
    [{"players": 4, "names": [LONG + n for n in ("Аня", "Боря", "Вика", "Гена")]}],
    indirect=True,
)
async def test_a_table_longer_than_a_caption_is_text(harness: Harness) -> None:
    h = harness
    await h.new_game(players=4)
    view, names = await table_view(h)
    text = h.r.table(view, names)
    assert not fits_caption(text)
    table = await h.table()
    assert table.photo is None and table.text == text
    assert photo_calls(h) == []


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_a_group_that_refuses_photos_gets_the_text_table(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    refusal = "Bad Request: not enough rights to send photos to the chat"
    h.api.fail_next("sendPhoto", 400, description=refusal, chat_id=h.group.id)
    await h.new_game(players=3)
    table = await h.table()
    view, names = await table_view(h)
    assert table.photo is None and table.text == h.r.table(view, names)
    start = len(h.api.calls(chat_id=h.group.id))
    for _ in range(3):
        assert await one_move(h)
    later: list[Any] = [c.method for c in h.api.calls(chat_id=h.group.id)[start:]]
    assert "editMessageText" in later and not set(later) & set(PHOTO_CALLS)  # not tried again
    assert (await h.table()).message_id == table.message_id
    assert sum("refused a photo" in r.getMessage() for r in caplog.records) == 1
