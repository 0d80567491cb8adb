"""Real pages in Debian's headless Chromium, driven by Playwright (never its own browser
download): the fixture, and what the tests do on a page.

Every wait is on the page's own state: a selector, or the count of frames it received
(`body[data-frames]`), never a sleep. Screenshots go to `tests/web/screenshots/` (git-ignored).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 360, "height": 640}
# A page in the background gets no animation frames, so waits poll on a timer (ms) instead.
POLL = 20
TIMEOUT = 15_000  # ms a page may take to show what a test waits for

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no Chromium at {CHROMIUM}: `make test` installs Debian's chromium as root; "
    "without it the browser tests cannot run here",
)


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM))
        try:
            yield browser
        finally:
            await browser.close()


async def open_page(
    browser: Browser, url: str, *, scheme: str = "light", viewport: dict[str, int] = PHONE
) -> Page:
    """A new page at `url` in a context of its own (a phone's screen, `scheme` colors); nothing
    leaves 127.0.0.1 (Telegram's script is refused)."""
    context: BrowserContext = await browser.new_context(
        viewport=viewport,
        color_scheme=scheme,  # type: ignore[arg-type]
    )
    await context.route("https://telegram.org/**", lambda route: route.abort())
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    await page.goto(url)
    return page


def local_url(base: str, secret: str, game: int) -> str:
    return f"{base}#local={secret}&game={game}"


def telegram_url(base: str, init_data: str, theme: str | None = None) -> str:
    """What Telegram opens: the launch data in the fragment (as its clients pass it)."""
    url = f"{base}#tgWebAppData={quote(init_data, safe='')}&tgWebAppVersion=8.0"
    return url + (f"&tgWebAppThemeParams={quote(theme, safe='')}" if theme else "")


async def frames(page: Page) -> int:
    return int(await page.evaluate("Number(document.body.dataset.frames || 0)"))


async def next_frame(page: Page, seen: int) -> None:
    """Wait until the page received a frame after the `seen`th."""
    await page.wait_for_function(
        "n => Number(document.body.dataset.frames || 0) > n", arg=seen, polling=POLL
    )


async def version(page: Page) -> int:
    return int(await page.evaluate("Number(document.body.dataset.version || -1)"))


async def at_version(page: Page, wanted: int) -> None:
    await page.wait_for_function(
        "v => Number(document.body.dataset.version || -1) >= v", arg=wanted, polling=POLL
    )


async def press(page: Page, selector: str) -> None:
    """Click the first element matching `selector` and wait for the answer (any frame)."""
    seen = await frames(page)
    await page.locator(selector).first.click()
    await next_frame(page, seen)


# What a player presses next, in this order: a second step's option, a playable card, UNO or
# catch, any other move (draw, pass, accept, challenge). None: nothing to press now.
NEXT = """() => {
  for (const s of ['#step:not([hidden]) #step-options button:not(.back)', '#hand .card.playable',
                   '#actions button[data-key$=":uno"]', '#actions button[data-key$=":catch"]',
                   '#actions button']) {
    const found = document.querySelector(s);
    if (found) return s;
  }
  return null;
}"""


async def play_to_the_end(page: Page, *, name: str = "page", most: int = 2000) -> int:
    """Press what there is to press until the match is over; the number of presses.

    After each press the page is waited on until it drew a new state (every press is answered
    by one: the move's, the second step's, or the current state after a refusal), so the next
    look never sees the state the press was made on; a notice alone is not that answer."""
    presses = 0
    while presses < most:
        try:
            await page.wait_for_function(
                f"() => document.body.dataset.status === 'finished'"
                f" || document.body.classList.contains('closed') || ({NEXT})() !== null",
                polling=POLL,
            )
        except Exception:
            await screenshot(page, f"stuck-{name}")  # what it showed when it had nothing to do
            raise AssertionError(f"{name}: nothing to press; page {await told(page)}") from None
        if await page.evaluate("document.body.classList.contains('closed')"):
            raise AssertionError(f"{name}: the server closed the page: {await told(page)}")
        if await page.evaluate("document.body.dataset.status") == "finished":
            return presses
        selector = await page.evaluate(f"({NEXT})()")
        if selector is None:
            continue
        target = await page.query_selector(selector)
        if target is None:
            continue
        try:
            await target.click(timeout=2000)
        except Exception:  # the button went away as a new state arrived: look again
            continue
        presses += 1
        try:  # a state frame draws the hand anew and hides a closed step: the button goes
            await page.wait_for_function(
                "b => !b.isConnected || b.closest('[hidden]') !== null", arg=target, polling=POLL
            )
        except Exception:
            await screenshot(page, f"unanswered-{name}")
            raise AssertionError(f"{name}: no answer to a press of {selector}") from None
    raise AssertionError(f"the match did not end in {most} presses")


async def told(page: Page) -> list[str]:
    """What a page shows of itself: its classes, its notice, its version and whose turn."""
    return list(
        await page.evaluate(
            "[document.body.className, document.getElementById('notice').textContent,"
            " document.body.dataset.version, document.getElementById('turn').textContent]"
        )
    )


async def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path))
    return path


def text_of(items: list[Any]) -> str:
    return " ".join(str(i) for i in items)
