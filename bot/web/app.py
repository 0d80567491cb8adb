"""The web table's aiohttp application: the page, its hashed files and the WebSocket.

`make_app` builds it over a running service; `serve` runs it on a host and port until
cancelled, with the feed of other processes' commits (`Service.follow_changes`) followed
for as long as it runs.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from aiohttp import web

from bot.presentation.render import Renderer
from bot.service import Service
from bot.web import socket
from bot.web.assets import FOREVER, assets, script_hash
from bot.web.auth import Auth
from bot.web.hub import Hub


def security(import_map: str) -> dict[str, str]:
    """The page's headers: scripts from this server only (and Telegram's, which the Mini App
    loads), the one inline script being the import map, allowed by its hash."""
    scripts = f"'self' https://telegram.org {script_hash(import_map)}"
    return {
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": (
            f"default-src 'self'; script-src {scripts}; img-src 'self' data:;"
            " style-src 'self'; connect-src 'self';"
            " frame-ancestors 'self' https://web.telegram.org https://*.telegram.org"
        ),
    }


async def index(request: web.Request) -> web.Response:
    files = assets()
    return web.Response(
        body=files.index,
        content_type="text/html",
        charset="utf-8",
        headers={"Cache-Control": "no-cache", **security(files.import_map)},
    )


async def static(request: web.Request) -> web.Response:
    asset = assets().get(request.match_info["name"])
    if asset is None:
        raise web.HTTPNotFound()
    return web.Response(
        body=asset.body,
        content_type=asset.content_type,
        headers={"Cache-Control": FOREVER, "X-Content-Type-Options": "nosniff"},
    )


async def no_content(request: web.Request) -> web.Response:
    return web.Response(status=204, headers={"Cache-Control": FOREVER})


def make_app(service: Service, renderer: Renderer, auth: Auth) -> web.Application:
    app = web.Application()
    hub = Hub(service, renderer)
    app[socket.WEB] = socket.Context(service, renderer, auth, hub)
    app.router.add_get("/", index)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/ws", socket.handle)
    app.router.add_get("/favicon.ico", no_content)

    async def lifetime(app: web.Application) -> AsyncIterator[None]:
        await asyncio.get_running_loop().run_in_executor(None, assets)  # the deck, drawn once
        follower = asyncio.create_task(service.follow_changes())
        yield
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower
        await hub.close()

    app.cleanup_ctx.append(lifetime)
    return app


async def serve(app: web.Application, host: str, port: int) -> None:
    """Run `app` on `host`:`port` until cancelled."""
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
