"""A page of the web table as a protocol-level client (no browser), for the tests of several
workers: its socket is kept as the page keeps it (`bot/web/static/socket.js`: the hello, then
frames; any close but a final one is followed by a reconnect), behind a proxy that, like
deploy/nginx.conf, hands each connection to the first of its workers that takes it.

Every frame the page is sent is kept (`frames`), so a test can read all of them; a test waits
on frames (`state_at`) or on the socket's loss (`lost`), and may hold a reconnect (`resume`)
to commit something while the page is away.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import ClientConnectorError, ClientSession, ClientWebSocketResponse, WSMsgType

from tests.scale.cluster import BOUND

FIRST_PAUSE, LONGEST_PAUSE = 0.3, 5.0  # socket.js: seconds between attempts while none answers
FINAL_CODES = range(4000, 5000)  # the server's refusals: socket.js does not reconnect after one
TOO_BIG = 1009

T = TypeVar("T")
Frame = dict[str, Any]


class Page:
    """One player's page at one game, connected through the proxy to `urls` (tried in order)."""

    def __init__(self, session: ClientSession, urls: list[str], hello: Frame) -> None:
        self.session = session
        self.urls = list(urls)  # the workers the proxy may hand the page to, in its order
        self.hello = {"t": "hello", **hello}
        self.frames: list[Frame] = []  # every frame sent to the page, over every connection
        self.connections: list[tuple[str, int]] = []  # (worker's URL, index of its first frame)
        self.lost = asyncio.Event()  # set when a connection ends and the page will reconnect
        self.resume = asyncio.Event()  # cleared: the next reconnect waits until it is set
        self.resume.set()
        self._ws: ClientWebSocketResponse | None = None
        self._changed = asyncio.Condition()
        self._task = asyncio.create_task(self._run())

    async def _connect(self) -> ClientWebSocketResponse:
        """The first worker that takes the socket; none: again after socket.js's pause."""
        pause = FIRST_PAUSE
        while True:
            for url in self.urls:
                with contextlib.suppress(ClientConnectorError):
                    ws = await self.session.ws_connect(url)
                    self.connections.append((url, len(self.frames)))
                    return ws
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)

    async def _run(self) -> None:
        try:
            while True:
                await self.resume.wait()
                ws = self._ws = await self._connect()
                await ws.send_json(self.hello)
                final = False
                async for msg in ws:
                    if msg.type is WSMsgType.TEXT:
                        frame = json.loads(msg.data)
                        final = final or frame["t"] == "closed"
                        self.frames.append(frame)
                        await self._tell()
                self._ws = None
                if final or ws.close_code in FINAL_CODES or ws.close_code == TOO_BIG:
                    return
                self.lost.set()
                await self._tell()
        finally:
            await self._tell()

    async def _tell(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def until(self, find: Callable[[], T | None], bound: float = BOUND) -> T:
        """What `find` finds, looked for again after every frame (AssertionError if the page
        has stopped: a final close, or a failure of its own)."""
        found: T | None = None

        def done() -> bool:
            nonlocal found
            found = find()
            return found is not None or self._task.done()

        try:
            async with asyncio.timeout(bound), self._changed:
                await self._changed.wait_for(done)
        except TimeoutError:
            raise TimeoutError(
                f"not within {bound} s; the page's last frames: {self.last()}"
            ) from None
        if found is None:
            error = self._task.exception() if not self._task.cancelled() else None
            raise AssertionError(f"the page stopped ({error!r}); its last frames: {self.last()}")
        return found

    def last(self, count: int = 3) -> str:
        """The page's last frames, short (for a wait that failed)."""
        return "; ".join(json.dumps(f, ensure_ascii=False)[:300] for f in self.frames[-count:])

    def states(self, since: int = 0) -> list[Frame]:
        return [f for f in self.frames[since:] if f["t"] == "state"]

    async def state_at(self, version: int, bound: float = BOUND) -> Frame:
        """The first state frame showing `version` or later."""
        return await self.until(
            lambda: next((f for f in self.states() if f["table"]["version"] >= version), None),
            bound,
        )

    async def press(self, key: str) -> None:
        assert self._ws is not None, "the page is not connected"
        await self._ws.send_json({"t": "press", "key": key})

    @property
    def url(self) -> str | None:
        """The worker the page is connected to now."""
        return self.connections[-1][0] if self._ws is not None else None

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self._ws is not None:
            await self._ws.close()
