"""The open pages by game, and the push of a game's state to them after each change.

The hub listens to the service's feed of committed changes (`bot.service.changes`). A change of
a game that pages show marks it; one task per game then reads the current views through the
service (`LiveViews.views`: the table once, each viewer's hand) and sends each page its frame.
Changes that arrive while it reads are folded into one more read, and a version the pages have
already been shown is ignored (PostgreSQL delivers this process's own commits twice).

One page per player and game: a second tab takes the place of the first, which is told why and
closed (both would press the same hand; the older one would only be refused as stale).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.presentation.render import Renderer
from bot.service import Service, User
from bot.web import frames

logger = logging.getLogger(__name__)

CLOSE_REPLACED = 4409  # another tab of the same player took this page's place
CLOSE_RESTART = 1012  # the server drops the page for now: it reconnects


@dataclass(eq=False)
class Page:
    """One open socket of one player at one game."""

    ws: web.WebSocketResponse
    user: User
    game: int
    lang: str
    step: str | None = None  # the second step the player opened (`pick <first part>`)
    step_version: int = -1  # the hand version it was opened at
    version: int = -1  # the newest table version sent: an older read is never sent after it
    tap: Callable[[dict[str, Any]], None] | None = field(default=None, repr=False)  # tests

    async def send(self, frame: dict[str, Any]) -> None:
        if self.tap is not None:
            self.tap(frame)
        if self.ws.closed:
            return
        text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
        with contextlib.suppress(ConnectionError, RuntimeError):  # the page went away meanwhile
            await self.ws.send_str(text)

    async def close(self, r: Renderer, key: str, code: int) -> None:
        await self.send(frames.closing(r, self.lang, key))
        await self.ws.close(code=code, message=key.encode())


class Hub:
    def __init__(self, service: Service, renderer: Renderer) -> None:
        self.service = service
        self.r = renderer
        self._pages: dict[int, dict[str, Page]] = {}
        self._shown: dict[int, int] = {}  # game -> the newest version pushed
        self._again: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._stop = service.changes.subscribe(self.changed)
        self._stop_gap = service.changes.on_gap(self.refresh_all)
        self.tap: Callable[[Page, dict[str, Any]], None] | None = None  # every frame (tests)

    @property
    def pages(self) -> int:
        return sum(len(p) for p in self._pages.values())

    def pages_of(self, game: int) -> list[Page]:
        return list(self._pages.get(game, {}).values())

    async def add(self, page: Page) -> None:
        """Seat `page`; the same player's older page of this game is closed."""
        if self.tap is not None:
            tap = self.tap
            page.tap = lambda frame: tap(page, frame)
        old = self._pages.setdefault(page.game, {}).get(page.user.id)
        self._pages[page.game][page.user.id] = page
        if old is not None:
            await old.close(self.r, "web-closed-other-tab", CLOSE_REPLACED)

    def remove(self, page: Page) -> None:
        pages = self._pages.get(page.game, {})
        if pages.get(page.user.id) is page:
            del pages[page.user.id]
        if not pages:
            self._pages.pop(page.game, None)
            self._shown.pop(page.game, None)

    # ------------------------------------------------------------------ pushing

    def changed(self, game: int, version: int) -> None:
        """The feed's listener: schedule a push when a shown game moved past what was shown."""
        if game not in self._pages or version <= self._shown.get(game, -1):
            return
        self._again.add(game)
        if game not in self._tasks:
            self._tasks[game] = asyncio.get_running_loop().create_task(self._refresh(game))

    def refresh_all(self) -> None:
        """Changes may have been missed (the feed's listener reconnected): read every game."""
        for game in list(self._pages):
            self._shown.pop(game, None)
            self.changed(game, 0)

    async def _refresh(self, game: int) -> None:
        try:
            while game in self._again:
                self._again.discard(game)
                await self.push(game)
        except Exception:
            logger.exception("pushing game %d to its pages failed", game)
        finally:
            del self._tasks[game]

    async def push(self, game: int, only: Page | None = None) -> bool:
        """Send the current state to the pages of `game` (or to `only`); False when the game
        cannot be read now (the pages keep what they show)."""
        pages = [only] if only is not None else self.pages_of(game)
        if not pages:
            return True
        out = await self.service.live.views(game, {p.user.id for p in pages})
        if out.table is None:
            return False
        if only is None:
            self._shown[game] = max(self._shown.get(game, -1), out.table.version)
        shared = frames.table(self.r, out)
        sends = []
        for page in pages:
            if out.table.version < page.version:  # a read that a newer one overtook
                continue
            page.version = out.table.version
            view = out.hands.get(page.user.id)
            if view is None or view.version != page.step_version:
                page.step = None
            sends.append(page.send(frames.state(self.r, out, shared, page.user.id, page.step)))
        await asyncio.gather(*sends)
        return True

    async def drop_all(self) -> None:
        """Close every page as a restarting server would: they reconnect and catch up."""
        for pages in list(self._pages.values()):
            for page in list(pages.values()):
                await page.ws.close(code=CLOSE_RESTART, message=b"restart")

    async def close(self) -> None:
        self._stop()
        self._stop_gap()
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        await self.drop_all()
