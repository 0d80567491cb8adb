"""Telegram's launch data in a real page: data signed for one player and altered to name another
(a forgery: the signature no longer matches) is refused with the localized reason and shows no
hand; the same data unaltered opens that player's table. (Other-bot and expired data in a page:
`test_browser.py`; every refusal over the socket: `test_protocol.py`.)"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from bot.presentation.i18n import get_i18n
from tests.web.browser import chromium, needs_chromium, open_page, telegram_url
from tests.web.tables import ANNA, BORIS, GROUP, group_game, init_data, rig

pytestmark = needs_chromium
T = get_i18n().t


def as_someone_else(data: str, old: str, new: str) -> str:
    """`data` with its user's id replaced, its signature kept."""
    return urlencode([(k, v.replace(f'"id":{old}', f'"id":{new}')) for k, v in parse_qsl(data)])


async def test_forged_launch_data_is_refused_and_the_signed_one_opens_the_table(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r, chromium() as browser:
        game = await group_game(r.service, ANNA, BORIS)
        before = await r.storage.active_game(GROUP)
        signed = init_data(ANNA, start_param=str(game))
        forged = as_someone_else(signed, ANNA.id, BORIS.id)
        assert forged != signed and f'"id":{BORIS.id}' in dict(parse_qsl(forged))["user"]

        page = await open_page(browser, telegram_url(r.url, forged))
        await page.wait_for_selector("body.closed #notice:not([hidden])")
        assert await page.locator("#notice").inner_text() == T("ru", "web-refused-auth")
        assert await page.locator("#hand .card").count() == 0
        assert await r.storage.active_game(GROUP) == before

        page = await open_page(browser, telegram_url(r.url, signed))
        await page.wait_for_selector("#hand .card")
        mine = page.locator(f'#seats li.me[data-player="{ANNA.id}"]')
        assert await mine.count() == 1
        assert page.errors == []  # type: ignore[attr-defined]
