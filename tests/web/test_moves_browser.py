"""UNO called and a forgotten UNO caught, on two real pages in headless Chromium: the buttons
come from the hand view (the page holds no rule), and each page sees the other's move."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page

from bot.presentation.i18n import get_i18n
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
from tests.web.tables import ANNA, BORIS, GROUP, Rig, group_game, init_data, install, rig

pytestmark = needs_chromium
T = get_i18n().t
UNO = '#actions button[data-key$=":uno"]'
CATCH = '#actions button[data-key$=":catch"]'


def two_cards_left() -> Game:
    """Anna's turn, two red cards in her hand: one play leaves her one."""
    return Game.from_position(
        players=[ANNA.id, BORIS.id],
        hands={ANNA.id: "r5 r7", BORIS.id: "y1 y2 b3"},
        discard="r1",
        draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
        rules=Rules.preset("classic"),
        current=ANNA.id,
    )


async def pages(r: Rig, browser: Browser, *, dark: bool = False) -> tuple[Page, Page]:
    """Anna's and Boris's pages at that position, opened from the group's Mini App link
    (Boris's in the dark theme with `dark`)."""
    game = str(await group_game(r.service, ANNA, BORIS))
    await install(r.storage, GROUP, two_cards_left())
    anna = await open_page(browser, telegram_url(r.url, init_data(ANNA, start_param=game)))
    scheme = "dark" if dark else "light"
    url = telegram_url(r.url, init_data(BORIS, start_param=game))
    return anna, await open_page(browser, url, scheme=scheme)


async def test_uno_called_on_the_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r, chromium() as browser:
        anna, boris = await pages(r, browser)
        await anna.wait_for_selector(UNO)
        await boris.wait_for_selector("#seats li")
        first = await version(anna)
        await press(anna, UNO)
        await at_version(anna, first + 1)
        await press(anna, '#hand .card[data-card="r7"]')
        await at_version(boris, first + 2)
        mark = boris.locator(f'#seats li[data-player="{ANNA.id}"] .uno')
        assert await mark.inner_text() == T("ru", "table-uno-mark")
        assert await boris.locator(CATCH).count() == 0  # a called UNO cannot be caught
        await screenshot(boris, "uno-called-light")
        assert anna.errors == [] and boris.errors == []  # type: ignore[attr-defined]


async def test_a_forgotten_uno_caught_on_the_page(tmp_path: Path) -> None:
    async with rig(tmp_path) as r, chromium() as browser:
        anna, boris = await pages(r, browser, dark=True)
        await anna.wait_for_selector("#hand .card.playable")
        await boris.wait_for_selector("#seats li")
        first = await version(anna)
        await press(anna, '#hand .card[data-card="r7"]')  # and no UNO
        await boris.wait_for_selector(CATCH)
        await screenshot(boris, "catch-offered-dark")
        await press(boris, CATCH)
        await at_version(anna, first + 2)
        count = anna.locator(f'#seats li[data-player="{ANNA.id}"] .count')
        assert await count.inner_text() == T("ru", "cards-count", count=3)
        assert await anna.locator("#hand .card").count() == 3
        assert await boris.locator(CATCH).count() == 0
        assert anna.errors == [] and boris.errors == []  # type: ignore[attr-defined]
