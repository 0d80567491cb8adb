"""The web table in a real headless Chromium: whole matches, two-step moves, UNO and a catch, a
stale page, a reconnect, Telegram's launch data, both languages, color-blind mode, and
screenshots of a phone's screen in light and dark."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

from bot.presentation.i18n import get_i18n
from bot.service import User
from core.game import Game
from core.rules import Rules
from tests.web.browser import (
    at_version,
    chromium,
    needs_chromium,
    open_page,
    press,
    screenshot,
    telegram_url,
    version,
)
from tests.web.tables import (
    ANNA,
    BORIS,
    GROUP,
    OTHER_TOKEN,
    VERA,
    group_game,
    init_data,
    install,
    rig,
)

pytestmark = needs_chromium
T = get_i18n().t
TABLE = "web:test"
ONE = User("local:1", "Olha", "uk")
TWO = User("local:2", "Petro", "uk")
DARK_THEME = json.dumps({"bg_color": "#17212b", "text_color": "#f5f5f5", "button_color": "#5288c1"})


def position(rules: Rules | None = None, **kwargs: object) -> Game:
    defaults: dict[str, object] = dict(
        players=[ANNA.id, BORIS.id],
        hands={ANNA.id: "r5 r7 wild g2", BORIS.id: "b5 y1 y2"},
        discard="r1",
        draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
        rules=rules or Rules.preset("classic"),
        current=ANNA.id,
    )
    defaults.update(kwargs)
    return Game.from_position(**defaults)  # type: ignore[arg-type]


async def test_a_wilds_color_and_a_sevens_partner_chosen_on_the_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r, chromium() as browser:
        game = await group_game(r.service, ANNA, BORIS)
        seven_zero = dataclasses.replace(Rules.preset("classic"), seven_zero=True)
        await install(r.storage, GROUP, position(seven_zero))
        page = await open_page(browser, telegram_url(r.url, init_data(ANNA, start_param=str(game))))
        await page.wait_for_selector("#hand .card.playable")
        start = await version(page)
        await press(page, '#hand .card[data-card="r7"]')
        swap = page.locator("#step-options button:not(.back)")
        assert await swap.count() == 1
        assert await page.locator("#step-title").inner_text() != ""
        await screenshot(page, "seven-partner-light")
        await swap.first.click()
        await at_version(page, start + 1)
        # Anna's hand and Boris's swapped: she now holds his three cards.
        assert await page.locator("#hand .card").count() == 3
        seats = page.locator("#seats li .count")
        assert [await seats.nth(i).inner_text() for i in range(2)] == [
            T("ru", "cards-count", count=3),
            T("ru", "cards-count", count=3),
        ]


async def test_a_wild_color_on_the_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r, chromium() as browser:
        game = await group_game(r.service, ANNA, BORIS)
        await install(r.storage, GROUP, position())
        page = await open_page(
            browser, telegram_url(r.url, init_data(ANNA), None) + f"&game={game}"
        )
        await page.wait_for_selector("#hand .card.playable")
        start = await version(page)
        await press(page, '#hand .card[data-card="wild"]')
        colors = page.locator("#step-options button.color")
        assert await colors.count() == 4
        await page.locator("#step-options button.color.b").click()
        await at_version(page, start + 1)
        assert await page.locator("#top").get_attribute("class") == "card c-wild"
        assert "b" in (await page.locator("#color").get_attribute("class") or "")


async def test_launch_data_languages_color_blind_mode_and_screenshots(tmp_path: Path) -> None:
    async with rig(tmp_path) as r, chromium() as browser:
        game = await group_game(r.service, ANNA, BORIS)
        for key, value in (("lang", "uk"), ("colorblind", "on")):
            assert (
                await r.service.settings.change_setting(GROUP, ANNA, key, value, is_admin=True)
            ).ok
        await install(r.storage, GROUP, position())
        start = str(game)
        refused = {
            "web-refused-auth": init_data(ANNA, token=OTHER_TOKEN, start_param=start),
            "web-refused-expired": init_data(ANNA, auth_date=time.time() - 7200, start_param=start),
            "web-refused-not-in-game": init_data(VERA, start_param=start),
        }
        for key, data in refused.items():
            page = await open_page(browser, telegram_url(r.url, data))
            await page.wait_for_selector("body.closed #notice:not([hidden])")
            # Unproven: the browser's language (not Ukrainian here); a seat refused: the chat's.
            lang = "uk" if key == "web-refused-not-in-game" else "ru"
            assert await page.locator("#notice").inner_text() == T(lang, key)
        for scheme, theme in (("light", None), ("dark", DARK_THEME)):
            url = telegram_url(r.url, init_data(ANNA, start_param=start), theme)
            page = await open_page(browser, url, scheme=scheme)
            await page.wait_for_selector("#hand .card.playable")
            assert await page.evaluate("document.documentElement.lang") == "uk"
            assert await page.locator("#leave").inner_text() == T("uk", "web-leave")
            # Color-blind mode: the color in play is named with its shape and letter too.
            chip = await page.locator("#color").inner_text()
            assert T("uk", "color-red-shape") in chip and T("uk", "color-red-letter") in chip
            await screenshot(page, f"table-360x640-{scheme}")
            assert page.errors == []  # type: ignore[attr-defined]
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 33, 43)"  # Telegram's dark theme, from its launch data
