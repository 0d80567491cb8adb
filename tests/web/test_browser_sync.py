"""The page and the chats are one game: a move pressed on the page shows in the group's table and
the player's DM hand (the real aiogram stack against the fake Bot API), and a move pressed in the
DM shows on the page. Every wait is on an event: the fake's calls, the page's own state."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp.test_utils import TestServer
from playwright.async_api import Page, expect

from bot.service import User
from bot.web.app import make_app
from bot.web.auth import Auth
from core.game import Game
from core.rules import Rules
from tests.telegram.conftest import Harness, privacy_violations
from tests.telegram.fake_bot_api import FakeBotAPI, FakeUser
from tests.telegram.players import hand_acts
from tests.web.browser import at_version, chromium, needs_chromium, open_page, telegram_url
from tests.web.tables import init_data

pytestmark = needs_chromium


def person(user: FakeUser) -> User:
    return User(str(user.id), user.first_name, user.language_code)


@contextlib.asynccontextmanager
async def bot_and_web(tmp_path: Path) -> AsyncIterator[tuple[Harness, str]]:
    """The Telegram bot polling the fake Bot API, and the web table beside it on one service."""
    async with FakeBotAPI() as api:
        h = Harness(api, tmp_path / "uno.sqlite3", players=2, bot_delay=0)
        await h.start()
        assert h.app is not None
        auth = Auth(token=api.token, max_age=3600)
        # The page's moves handed to the Telegram bot, as `bot.__main__` wires them.
        server = TestServer(make_app(h.svc, h.r, auth, publish=h.app.publish))
        await server.start_server()
        try:
            yield h, str(server.make_url("/"))
        finally:
            await server.close()
            await h.stop()
        assert privacy_violations(api) == []


@contextlib.asynccontextmanager
async def anna_to_play(tmp_path: Path) -> AsyncIterator[tuple[Harness, Page, int]]:
    """Anna (to play r7 on r1) and Boris in the group; Anna's page open; its version."""
    async with bot_and_web(tmp_path) as (h, url), chromium() as browser:
        anna, boris = h.users
        game = await h.new_game(players=2)
        await h.install(
            Game.from_position(
                players=[str(anna.id), str(boris.id)],
                hands={str(anna.id): "r5 r7 g2", str(boris.id): "b5 y1 y2"},
                discard="r1",
                draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
                rules=Rules.preset("classic"),
                current=str(anna.id),
            )
        )
        await h.settle()
        assert "play r7" in await h.acts(anna)
        page = await open_page(
            browser, telegram_url(url, init_data(person(anna), token=h.api.token)) + f"&game={game}"
        )
        await page.wait_for_selector('#hand .card.playable[data-card="r7"]')
        start = int(await page.evaluate("document.body.dataset.version"))

        yield h, page, start


async def test_a_move_on_the_page_shows_in_the_group_table_and_the_dm_hand(tmp_path: Path) -> None:
    async with anna_to_play(tmp_path) as (h, page, start):
        anna, boris = h.users
        # Played on the page: the group's table and Anna's DM hand follow.
        sent = h.api.call_count
        await page.locator('#hand .card[data-card="r7"]').click()
        await at_version(page, start + 1)
        await h.api.wait_for(
            lambda c: c.method.startswith("edit") and c.chat_id == h.group.id, since=sent
        )
        await h.settle()
        now = await h.svc.queries.table(f"tg:{h.group.id}")
        assert now.table is not None and now.table.version == start + 1
        assert now.table.top is not None and str(now.table.top) == "r7"
        assert (await h.table()).plain_text == h.r.table(now.table, now.names)
        mine = await h.acts(anna)
        assert not any(act.startswith("play") for act in mine)
        assert hand_acts(await h.hand(boris)).get("draw") is not None  # Boris's turn now


async def test_a_move_in_the_dm_shows_on_the_page(tmp_path: Path) -> None:
    async with anna_to_play(tmp_path) as (h, page, start):
        anna, boris = h.users
        await h.play(anna, "r7")  # Anna's own DM: her page follows
        await at_version(page, start + 1)
        await expect(page.locator("#top")).to_have_class("card c-r7")
        await expect(page.locator("#hand .card")).to_have_count(2)
        await h.act(boris, "draw")  # Boris's DM: Anna's page shows his fourth card
        await at_version(page, start + 2)
        count = page.locator(f'#seats li[data-player="{boris.id}"] .count')
        await expect(count).to_have_text(h.r.t("ru", "cards-count", count=4))
        assert page.errors == []  # type: ignore[attr-defined]
