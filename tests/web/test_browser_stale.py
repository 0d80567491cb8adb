"""A real page that fell behind: its press from a past state is refused with the chat's stale
notice and the page shows the current state; a page whose socket the server dropped reconnects
by itself and catches up with the moves made while it was away."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import expect

from bot.presentation.i18n import get_i18n
from bot.web.hub import Page as Seat
from core.game import Game
from core.rules import Rules
from tests.web.browser import at_version, chromium, needs_chromium, open_page, telegram_url, version
from tests.web.tables import ANNA, BORIS, GROUP, group_game, init_data, install, rig

pytestmark = needs_chromium
T = get_i18n().t


def position(anna: str, current: str = ANNA.id) -> Game:
    return Game.from_position(
        players=[ANNA.id, BORIS.id],
        hands={ANNA.id: anna, BORIS.id: "b5 y1 y2"},
        discard="r1",
        draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
        rules=Rules.preset("classic"),
        current=current,
    )


async def test_a_stale_pages_press_is_refused_and_the_page_shows_the_current_state(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r, chromium() as browser:
        game = await group_game(r.service, ANNA, BORIS)
        await install(r.storage, GROUP, position("r5 r7 wild g2"))
        page = await open_page(browser, telegram_url(r.url, init_data(ANNA, start_param=str(game))))
        await page.wait_for_selector('#hand .card.playable[data-card="r5"]')
        shown = await version(page)
        # The game moves on where the page does not hear it (a position written straight to
        # storage publishes nothing): the page still offers r5 under its old version.
        await install(r.storage, GROUP, position("r5 g2 g3", current=BORIS.id))
        now = await r.storage.active_game(GROUP)
        assert now is not None and now.version == shown + 1
        assert await page.locator("#hand .card").count() == 4

        await page.locator('#hand .card[data-card="r5"]').click()
        await expect(page.locator("#notice")).to_have_text(T("ru", "error-stale"))
        await at_version(page, shown + 1)
        await expect(page.locator("#hand .card")).to_have_count(3)
        assert await page.locator("#hand .card.playable").count() == 0  # Boris's turn now
        assert await r.storage.active_game(GROUP) == now  # the refused press changed nothing
        assert page.errors == []  # type: ignore[attr-defined]


async def test_a_dropped_page_reconnects_and_catches_up(tmp_path: Path) -> None:
    async with rig(tmp_path) as r, chromium() as browser:
        game = await group_game(r.service, ANNA, BORIS)
        await install(r.storage, GROUP, position("r5 r7 wild g2"))
        page = await open_page(browser, telegram_url(r.url, init_data(ANNA, start_param=str(game))))
        await page.wait_for_selector('#hand .card.playable[data-card="r7"]')
        shown = await version(page)

        # While the page is away, its reconnect is held until two moves are committed.
        moved = asyncio.Event()
        add = r.hub.add

        async def held(seat: Seat) -> None:
            await moved.wait()
            await add(seat)

        r.hub.add = held  # type: ignore[method-assign]
        await r.hub.drop_all()
        await page.wait_for_selector("body.offline")
        await expect(page.locator("#notice")).to_have_text(T("ru", "web-reconnecting"))
        assert r.hub.pages == 0
        assert (await r.service.play.act(ANNA, "play r7", chat_key=GROUP)).ok
        assert (await r.service.play.act(BORIS, "draw", chat_key=GROUP)).ok
        moved.set()

        await at_version(page, shown + 2)
        await page.wait_for_selector("body:not(.offline)")
        await expect(page.locator("#top")).to_have_class("card c-r7")
        await expect(page.locator("#hand .card")).to_have_count(3)
        count = page.locator(f'#seats li[data-player="{BORIS.id}"] .count')
        await expect(count).to_have_text(T("ru", "cards-count", count=4))
        assert r.hub.pages == 1
        assert page.errors == []  # type: ignore[attr-defined]
