"""A new match at a local table (`make run ARGS="--web"`): offered on the page once a match is
over, dealt to the same people and computer players, and the page moves to it; a press of
another match's rematch changes nothing."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import ClientSession, ClientWebSocketResponse
from aiohttp.test_utils import TestServer

from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service import Service, User
from bot.storage import Storage, StoragePort
from bot.web import local
from bot.web.app import make_app
from bot.web.auth import Auth
from core.game import Game
from core.rules import Rules
from tests.web.tables import install, receive, state_at

T = get_i18n().t
TABLE = "web:test"
ONE = User("local:1", "Olha", "uk")


@contextlib.asynccontextmanager
async def local_table(
    tmp_path: Path,
) -> AsyncIterator[tuple[Service, StoragePort, ClientWebSocketResponse, int]]:
    """A local match one card from its end, and the page of its one person."""
    storage = await Storage.open(tmp_path / "web.sqlite3")
    # The rematch's deal is the same every run: a random one may turn up a draw two first,
    # and whoever plays first then holds nine cards, not seven.
    service = Service(storage, bot_delay=0.0, lobby_idle=None, seed=lambda: 1)
    await service.start()
    game = await local.deal(service, [ONE], bots=1, chat=TABLE, lang="uk", target=1)
    rec = await storage.active_game(TABLE)
    assert rec is not None and rec.state is not None
    players = Game.from_dict(rec.state).players
    robot = next(p for p in players if p != ONE.id)
    position = Game.from_position(
        players=list(players),
        hands={ONE.id: "r5", robot: "b5 y1 y2"},
        discard="r1",
        draw="y3 y4 y5 y6 y7 y8 y9 b1 b2 b3",
        rules=Rules(target=1),
        current=ONE.id,
    )
    await install(storage, TABLE, position)
    auth = Auth(token=None, max_age=60)
    again = functools.partial(local.rematch, service, bots=1)
    server = TestServer(make_app(service, Renderer(get_i18n()), auth, rematch=again))
    await server.start_server()
    try:
        async with ClientSession() as session:
            ws = await session.ws_connect(server.make_url("/ws"))
            await ws.send_json({"t": "hello", "local": auth.add_local(ONE), "game": str(game)})
            yield service, storage, ws, game
    finally:
        await server.close()
        await storage.close()


async def test_a_finished_match_offers_a_new_one(tmp_path: Path) -> None:
    async with local_table(tmp_path) as (service, storage, ws, game):
        first = await receive(ws, "state")
        assert "rematch" not in first["table"]  # not while it is played
        r5 = next(c["key"] for c in first["hand"]["cards"] if c["pic"] == "r5")
        await ws.send_json({"t": "press", "key": r5})
        over = await state_at(ws, first["table"]["version"] + 1)
        assert over["table"]["status"] == "finished"
        offer = over["table"]["rematch"]
        assert offer["label"] == T("uk", "btn-rematch") and offer["key"] == f"r:{game}"
        await ws.send_json({"t": "press", "key": offer["key"]})
        new = await receive(ws, "state")
        assert new["game"] != game and new["table"]["status"] == "running"
        assert {s["id"] for s in new["table"]["seats"]} >= {ONE.id}
        assert len(new["table"]["seats"]) == 2 and len(new["hand"]["cards"]) == 7
        # The old match's offer, pressed again (a stale page): refused, the new match stays.
        rec = await storage.active_game(TABLE)
        await ws.send_json({"t": "press", "key": offer["key"]})
        refusal = await receive(ws, "notice")
        assert refusal["error"] and refusal["text"] == T("uk", "error-stale")
        assert await storage.active_game(TABLE) == rec
        assert (await service.queries.table(TABLE)).table.game_id == new["game"]  # type: ignore[union-attr]


async def test_no_rematch_while_the_match_runs(tmp_path: Path) -> None:
    async with local_table(tmp_path) as (_service, storage, ws, game):
        await receive(ws, "state")
        before = await storage.active_game(TABLE)
        await ws.send_json({"t": "press", "key": f"r:{game}"})
        refusal = await receive(ws, "notice")
        assert refusal["text"] == T("uk", "error-stale")
        assert await storage.active_game(TABLE) == before
