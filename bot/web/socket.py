"""One page's WebSocket: who it is, which game, and what it presses.

The protocol, all JSON text messages:

- page -> server, first: `{"t": "hello", "init_data" | "local": ..., "game": "<id>",
  "lang": "<hint>"}`; then `{"t": "press", "key": "h:<game>:<version>:<act>"}` (a key the
  server sent) or `{"t": "leave"}`.
- server -> page: `{"t": "state", ...}` (`bot.web.frames.state`) after the hello and after every
  change of the game; `{"t": "notice", "text": ...}` for this page only; `{"t": "closed",
  "text": ...}` just before the server closes the socket for good (the page then does not
  reconnect; every other close is followed by a reconnect and a fresh state).

Whatever is refused here (no or bad credentials, no such game, not at this table, a malformed,
oversized or too frequent message) never reaches the service's use cases: nothing is stored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web
from aiolimiter import AsyncLimiter

from bot.presentation import notes
from bot.presentation.buttons import HandKey, parse
from bot.presentation.render import Renderer
from bot.presentation.steps import STALE, press
from bot.service import Notice, Service
from bot.service.chat_keys import TELEGRAM, prefix
from bot.service.outcome import lang_of
from bot.web import frames
from bot.web.auth import Auth, Refused
from bot.web.hub import Hub, Page

LOCAL_PREFIX = "web:"  # the chat keys of local tables (`bot.web.local`)
MAX_MESSAGE = 2048  # characters: a press is under 100
MAX_FRAME = 64 * 1024  # bytes aiohttp reads at most (past it: closed with 1009)
HELLO_TIMEOUT = 15.0
RATE, PERIOD = 12, 3.0  # messages a page may send in any PERIOD seconds
HEARTBEAT = 25.0

BAD_MESSAGE = Notice("web-bad-message")
CLOSE_AUTH = 4401
CLOSE_NOT_IN_GAME = 4403
CLOSE_NO_GAME = 4404
CLOSE_TOO_BIG = 4413
CLOSE_FLOOD = 4429


@dataclass
class Context:
    service: Service
    renderer: Renderer
    auth: Auth
    hub: Hub


WEB: web.AppKey[Context] = web.AppKey("web", Context)


async def handle(request: web.Request) -> web.WebSocketResponse:
    ctx = request.app[WEB]
    ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME)
    await ws.prepare(request)
    page = await _greet(ctx, ws)
    if page is None:
        return ws
    try:
        await _serve(ctx, page)
    finally:
        ctx.hub.remove(page)
    return ws


async def _refuse(ctx: Context, ws: web.WebSocketResponse, lang: str, key: str, code: int) -> None:
    text = json.dumps(frames.closing(ctx.renderer, lang, key), ensure_ascii=False)
    await ws.send_str(text)
    await ws.close(code=code, message=key.encode())


async def _greet(ctx: Context, ws: web.WebSocketResponse) -> Page | None:
    """The page's hello, checked; its page seated in the hub (None: refused and closed)."""
    try:
        msg = await ws.receive(timeout=HELLO_TIMEOUT)
    except TimeoutError:
        await _refuse(ctx, ws, "ru", "web-refused-auth", CLOSE_AUTH)
        return None
    hello = _json(msg.data) if msg.type is WSMsgType.TEXT and len(msg.data) <= MAX_MESSAGE else None
    if hello is None or hello.get("t") != "hello":
        if not ws.closed:
            await _refuse(ctx, ws, "ru", "web-refused-auth", CLOSE_AUTH)
        return None
    hint = hello.get("lang")
    lang = lang_of(hint if isinstance(hint, str) else None)
    try:
        who = ctx.auth.check(hello)
    except Refused as refused:
        await _refuse(ctx, ws, lang, refused.key, CLOSE_AUTH)
        return None
    lang = lang_of(who.user.lang) if who.user.lang else lang
    out = None if who.game is None else await ctx.service.live.views(who.game, [who.user.id])
    table = None if out is None else out.table
    platform = prefix(TELEGRAM) if who.telegram else LOCAL_PREFIX
    if table is None or not table.chat_key.startswith(platform):
        await _refuse(ctx, ws, lang, "web-refused-no-game", CLOSE_NO_GAME)
        return None
    if all(seat.id != who.user.id for seat in table.seats):
        await _refuse(ctx, ws, table.lang, "web-refused-not-in-game", CLOSE_NOT_IN_GAME)
        return None
    page = Page(ws, who.user, table.game_id, table.lang)
    await ctx.hub.add(page)
    await ctx.hub.push(page.game, only=page)
    return page


def _json(data: Any) -> dict[str, Any] | None:
    try:
        value = json.loads(data)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


async def _serve(ctx: Context, page: Page) -> None:
    limiter = AsyncLimiter(RATE, PERIOD)
    r = ctx.renderer
    async for msg in page.ws:
        if not limiter.has_capacity():
            await page.close(r, "web-closed-flood", CLOSE_FLOOD)
            return
        await limiter.acquire()
        if msg.type is WSMsgType.TEXT and len(msg.data) > MAX_MESSAGE:
            await page.close(r, "web-closed-too-big", CLOSE_TOO_BIG)
            return
        data = _json(msg.data) if msg.type is WSMsgType.TEXT else None
        kind = None if data is None else data.get("t")
        if data is not None and kind == "press" and isinstance(data.get("key"), str):
            await _press(ctx, page, data["key"])
        elif kind == "leave":
            await _leave(ctx, page)
        else:
            await page.send(frames.notice(r, page.lang, BAD_MESSAGE))


async def _press(ctx: Context, page: Page, data: str) -> None:
    """A hand button of this page's game, through the chats' `press`."""
    r, hub = ctx.renderer, ctx.hub
    key = parse(data)
    if not isinstance(key, HandKey) or key.game != page.game:
        await page.send(frames.notice(r, page.lang, STALE))
        await hub.push(page.game, only=page)
        return
    done = await press(ctx.service, page.user, key)
    if done.error is not None:
        page.step = None
        await page.send(frames.notice(r, page.lang, done.error))
        await hub.push(page.game, only=page)
    elif not done.moved:  # a second step opened or closed: this page only
        page.step = done.step
        page.step_version = -1 if done.hand is None else done.hand.version
        await hub.push(page.game, only=page)
    else:  # the move's state comes through the feed; what only this player may read, now
        page.step = None
        colorblind = r.colorblind(done.out)
        for line in notes.private(r, done.out, page.user.id, colorblind):
            await page.send(frames.notice(r, page.lang, line, error=False))


async def _leave(ctx: Context, page: Page) -> None:
    out = await ctx.service.live.views(page.game, [])
    table = out.table
    if table is None or table.status not in ("lobby", "running"):
        await page.send(frames.notice(ctx.renderer, page.lang, STALE))
        return
    done = await ctx.service.lobby.leave(table.chat_key, page.user)
    if done.error is not None:
        await page.send(frames.notice(ctx.renderer, page.lang, done.error))
