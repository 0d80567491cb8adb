"""The web table's buttons in Telegram: the group's table links to the bot's Mini App with the
game as its start parameter, the private hand opens the page itself; the fake Bot API refuses
any other kind (a `web_app` button in a group, a link that is not http(s) or tg://)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from bot.presentation.i18n import get_i18n
from bot.telegram.web_table import WebTable
from tests.telegram.conftest import Harness

WEB = WebTable("https://uno.example/table/", "table")
T = get_i18n().t


def web_buttons(markup: object) -> list[dict[str, object]]:
    rows = (markup or {}).get("inline_keyboard", []) if isinstance(markup, dict) else []
    return [b for row in rows for b in row if "web_app" in b or "startapp" in b.get("url", "")]


@pytest.mark.parametrize(
    "harness", [{"players": 2, "app_options": {"web_table": WEB}}], indirect=True
)
async def test_the_table_and_the_hand_open_the_web_table(harness: Harness) -> None:
    h = harness
    game_id = await h.new_game(players=2)
    await h.settle()
    table = await h.table()
    (link,) = web_buttons(table.reply_markup)
    assert link["text"] == T("ru", "web-open-table")
    assert link["url"] == f"https://t.me/{h.api.bot.username}/table?startapp={game_id}"
    for user in h.users:
        (button,) = web_buttons((await h.hand(user)).reply_markup)
        url = button["web_app"]["url"]  # type: ignore[index]
        assert urlsplit(url).netloc == "uno.example"
        assert parse_qs(urlsplit(url).query) == {"game": [str(game_id)]}
    refused = [c.response for c in h.api.calls() if "BUTTON" in str(c.response.get("description"))]
    assert refused == []


@pytest.mark.parametrize("harness", [{"players": 2, "lang": "uk"}], indirect=True)
async def test_without_webapp_url_no_button(harness: Harness) -> None:
    h = harness
    await h.new_game(players=2)
    await h.settle()
    assert web_buttons((await h.table()).reply_markup) == []
    for user in h.users:
        assert web_buttons((await h.hand(user)).reply_markup) == []


def test_the_links() -> None:
    assert WebTable("https://uno.example/?v=2", "t").page(7) == "https://uno.example/?v=2&game=7"
    assert WebTable("https://uno.example/").group_link("uno_bot", 7) == None  # noqa: E711
    assert WebTable("https://uno.example/", "t").group_link("uno_bot", 7) == (
        "https://t.me/uno_bot/t?startapp=7"
    )
