"""Two workers on one PostgreSQL database, each with its own service, storage (its own pool and
listening connection) and web app, and a page on each: a move pressed on one worker's page
reaches the other worker's page only through PostgreSQL's LISTEN/NOTIFY
(`bot.storage.postgres.listen`), since neither worker's feed hears the other's commits. The
same with two `python -m bot` processes, and one of them killed: tests/scale/test_web_workers.py."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import ClientSession, ClientWebSocketResponse
from aiohttp.test_utils import TestServer

from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service import Service
from bot.storage.postgres import PostgresStorage
from bot.web.app import make_app
from bot.web.auth import Auth
from core.game import Game
from core.rules import Rules
from tests.web.tables import (
    ANNA,
    BORIS,
    GROUP,
    TOKEN,
    group_game,
    init_data,
    install,
    receive,
    state_at,
)


@contextlib.asynccontextmanager
async def worker(url: str) -> AsyncIterator[tuple[Service, PostgresStorage, str]]:
    """One worker: a service on its own storage and its web app on 127.0.0.1, listening for
    the other workers' commits (returns once it listens)."""
    storage = await PostgresStorage.open(url)
    service = Service(storage, bot_delay=0, lobby_idle=None)
    await service.start()
    listening = asyncio.Event()
    service.changes.on_gap(listening.set)  # told when its listening connection is taken
    server = TestServer(
        make_app(service, Renderer(get_i18n()), Auth(token=TOKEN, max_age=3600)),
        host="127.0.0.1",
    )
    await server.start_server()
    try:
        await asyncio.wait_for(listening.wait(), 30)
        yield service, storage, str(server.make_url("/ws"))
    finally:
        await server.close()
        await storage.close()


async def page(session: ClientSession, url: str, hello: dict[str, Any]) -> ClientWebSocketResponse:
    ws = await session.ws_connect(url)
    await ws.send_json({"t": "hello", **hello})
    return ws


async def test_a_move_on_one_workers_page_is_seen_on_the_others(postgres_url: str) -> None:
    async with (
        worker(postgres_url) as (one, storage, first_url),
        worker(postgres_url) as (_two, _, second_url),
        ClientSession() as session,
    ):
        game = await group_game(one, ANNA, BORIS)
        await install(
            storage,
            GROUP,
            Game.from_position(
                players=[ANNA.id, BORIS.id],
                hands={ANNA.id: "r5 r7 wild g2", BORIS.id: "b5 y1 y7"},
                discard="r1",
                draw="y3 y4 y5 y6 y8 y9 b1 b2 b3",
                rules=Rules.preset("classic"),
                current=ANNA.id,
            ),
        )
        anna = await page(session, first_url, {"init_data": init_data(ANNA), "game": str(game)})
        boris = await page(session, second_url, {"init_data": init_data(BORIS), "game": str(game)})
        mine = await receive(anna, "state")
        version = (await receive(boris, "state"))["table"]["version"]
        assert version == mine["table"]["version"]

        # Anna plays r7 on the first worker: Boris's page on the second sees it.
        r7 = next(c["key"] for c in mine["hand"]["cards"] if c["pic"] == "r7")
        await anna.send_json({"t": "press", "key": r7})
        seen = await state_at(boris, version + 1)
        assert seen["table"]["top"] == "r7" and seen["table"]["seats"][0]["cards"] == 3
        # Boris answers with y7 on the second worker: Anna's page on the first sees it.
        y7 = next(c["key"] for c in seen["hand"]["cards"] if c["pic"] == "y7")
        await boris.send_json({"t": "press", "key": y7})
        back = await state_at(anna, version + 2)
        assert back["table"]["top"] == "y7" and back["table"]["seats"][1]["cards"] == 2
        assert (await state_at(boris, version + 2))["table"]["version"] == version + 2
        await anna.close()
        await boris.close()
