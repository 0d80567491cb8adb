"""The web table under many open pages: memory per page and move-to-frame latency.

One process runs the service (SQLite in a temporary folder) and the web app on 127.0.0.1; N
pages are WebSocket clients (no browser) in the same process, seated 10 to a game over N/10
running games. For each round of moves, one move is made in every game through the service
(`act`, the current player draws); the time runs from the moment the commit is published on the
feed to the moment each page of that game has parsed the frame showing it. Pages and server
share one event loop and the machine's load: the figures are an upper bound.

    .venv/bin/python bench/web.py [--pages 1 100 1000] [--moves 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from aiohttp import ClientSession, TCPConnector, WSMsgType, web

from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service import Service, User
from bot.storage import Storage
from bot.web import socket
from bot.web.app import make_app
from bot.web.auth import Auth
from core import actions as A
from core.actions import Action
from core.game import Game

SEATS = 10


def draw_or_pass(game: Game, player: str) -> Action:
    """A move that leaves the hands as they are where it can: draw, or pass after drawing a
    playable card; else what the game asks first (a color for a wild turned up at the deal)."""
    legal = game.legal_actions(player)
    return next((a for a in (A.DRAW, A.PASS) if a in legal), legal[0])


def rss() -> int:
    """This process's resident memory in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def run(pages: int, moves: int, folder: Path) -> dict[str, float]:
    storage = await Storage.open(folder / f"bench-{pages}.sqlite3")
    service = Service(storage, bot_delay=0, lobby_idle=None)
    auth = Auth(token=None, max_age=3600)
    app = make_app(service, Renderer(get_i18n()), auth)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    published: dict[tuple[int, int], float] = {}

    def heard(game: int, version: int) -> None:
        published.setdefault((game, version), time.perf_counter())

    service.changes.subscribe(heard)
    games: list[tuple[str, int, list[User]]] = []
    seats = []
    for g in range(-(-pages // SEATS)):
        chat = f"web:bench{g}"
        people = [User(f"local:{g}-{i}", f"P{i}") for i in range(min(SEATS, pages - g * SEATS))]
        if len(people) == 1:
            people.append(User(f"local:{g}-x", "X"))  # a game needs two; this one has no page
            watched = people[:1]
        else:
            watched = people
        await service.lobby.new_game(chat, people[0])
        for p in people[1:]:
            await service.lobby.join(chat, p)
        out = await service.lobby.start_game(chat, people[0])
        assert out.table is not None
        games.append((chat, out.table.game_id, people))
        seats += [(out.table.game_id, auth.add_local(p)) for p in watched]
    # Unlimited: a client session holds at most 100 connections by default, and each open
    # page keeps one, so the 101st page would wait for ever to connect.
    session = ClientSession(connector=TCPConnector(limit=0))
    latencies: list[float] = []
    waiting: dict[tuple[int, int], int] = {}
    done = asyncio.Event()

    async def page(game: int, secret: str, ready: asyncio.Event) -> None:
        ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0)
        await ws.send_json({"t": "hello", "local": secret, "game": str(game)})
        ready.set()
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame["t"] != "state":
                continue
            key = (game, frame["table"]["version"])
            if key in waiting:
                latencies.append(time.perf_counter() - published[key])
                waiting[key] -= 1
                if not any(waiting.values()):
                    done.set()

    before = rss()
    tasks = []
    for game, secret in seats:
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(page(game, secret, ready)))
        await ready.wait()
    while app[socket.WEB].hub.pages < len(seats):
        await asyncio.sleep(0.01)  # the server seats the pages as their hellos arrive
    await asyncio.sleep(0.5)  # their first frames
    per_page = (rss() - before) / len(seats)
    counts = {g: sum(1 for s in seats if s[0] == g) for g in {s[0] for s in seats}}
    for _ in range(moves):
        done.clear()
        waiting.clear()
        for chat, game, people in games:
            table = (await service.queries.table(chat)).table
            assert table is not None and table.current is not None
            mover = next(p for p in people if p.id == table.current)
            out = await service.play.act(mover, draw_or_pass, chat_key=chat)
            assert out.table is not None, out.error
            if game in counts:
                waiting[(game, out.table.version)] = counts[game]
        await asyncio.wait_for(done.wait(), 60)
    for t in tasks:
        t.cancel()
    await session.close()
    await runner.cleanup()
    await storage.close()
    latencies.sort()
    return {
        "pages": len(seats),
        "memory_kb_per_page": per_page / 1024,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1 if len(latencies) > 1 else 0] * 1000,
        "frames": len(latencies),
    }


async def main(counts: list[int], moves: int) -> None:
    print(f"load average before: {os.getloadavg()}, cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as folder:
        for n in counts:
            result = await run(n, moves, Path(folder))
            print(
                f"{result['pages']:>5} pages: {result['memory_kb_per_page']:.0f} KB per page,"
                f" move to frame p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms"
                f" ({result['frames']} frames)"
            )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[1, 100, 1000])
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.pages, args.moves))
