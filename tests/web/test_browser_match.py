"""A whole match on real pages: two people, each on a page of their own in headless Chromium,
against two computer players, to the match's result shown on both pages.

Deterministic: the deal is seeded, computer players move as soon as it is their turn (no delay,
no turn timer), and each page presses whatever it offers (`browser.play_to_the_end`), waiting on
the page's own state, never on time.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.events import GameEnded
from tests.web.browser import chromium, needs_chromium, open_page, play_to_the_end, telegram_url
from tests.web.tables import ANNA, BORIS, GROUP, group_game, init_data, rig

pytestmark = needs_chromium
SEED = 29


async def test_two_pages_play_a_whole_match_against_computer_players(tmp_path: Path) -> None:
    async with rig(tmp_path, timers=True, seed=SEED) as r, chromium() as browser:
        for key, value in (("timer", "off"), ("target", "100")):
            assert (
                await r.service.settings.change_setting(GROUP, ANNA, key, value, is_admin=True)
            ).ok
        game = await group_game(r.service, ANNA, BORIS, bots=2)
        pages = [
            await open_page(browser, telegram_url(r.url, init_data(p, start_param=str(game))))
            for p in (ANNA, BORIS)
        ]
        presses = await asyncio.gather(
            *(play_to_the_end(page, name=f"match-{i}") for i, page in enumerate(pages))
        )
        assert all(n > 0 for n in presses)  # both people played

        out = await r.service.live.views(game, [])
        view = out.table
        assert view is not None and view.status == "finished" and view.winners
        assert any(isinstance(e, GameEnded) for e in view.recent)
        shown = []
        for page in pages:
            await page.wait_for_selector("#result:not([hidden])")
            shown.append(await page.locator("#result").inner_text())
            assert await page.evaluate("document.body.dataset.version") == str(view.version)
            assert page.errors == []  # type: ignore[attr-defined]
        # The same result on both pages, naming the winner.
        assert shown[0] == shown[1] != ""
        assert all(out.names[w] in shown[0] for w in view.winners)
