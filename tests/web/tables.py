"""The web table's test rig: a service on a SQLite file, the web app on 127.0.0.1, signed
`initData` as Telegram makes it, and hand-made positions."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiohttp import ClientSession, ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestServer

from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service import Service, User
from bot.storage import Storage, StoragePort
from bot.web import socket
from bot.web.app import make_app
from bot.web.auth import Auth
from bot.web.hub import Hub, Page
from core.game import Game

TOKEN = "123456:TEST-token-of-the-bot"
OTHER_TOKEN = "654321:another-bot"
GROUP = "tg:-100200300"
ANNA = User("111", "Anna", "ru")
BORIS = User("222", "Boris", "uk")
VERA = User("333", "Vera", "ru")


def init_data(
    user: User,
    *,
    token: str = TOKEN,
    auth_date: float | None = None,
    start_param: str | None = None,
) -> str:
    """Launch data signed the way Telegram signs it (HMAC-SHA256 keyed by the bot token)."""
    fields = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(
            {"id": int(user.id), "first_name": user.name, "language_code": user.lang},
            separators=(",", ":"),
        ),
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


@dataclass
class Rig:
    service: Service
    storage: StoragePort
    auth: Auth
    hub: Hub
    server: TestServer
    session: ClientSession
    frames: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # every frame sent

    @property
    def url(self) -> str:
        return str(self.server.make_url("/"))

    async def open(self, hello: dict[str, Any]) -> ClientWebSocketResponse:
        ws = await self.session.ws_connect(self.server.make_url("/ws"))
        await ws.send_json({"t": "hello", **hello})
        return ws

    async def version(self, chat: str = GROUP) -> int:
        table = (await self.service.queries.table(chat)).table
        assert table is not None
        return table.version


@contextlib.asynccontextmanager
async def rig(
    tmp_path: Path, *, bot_delay: float = 0.0, timers: bool = False, seed: int | None = None
) -> AsyncIterator[Rig]:
    """The web app over a fresh SQLite service; `timers`: computer players move by themselves;
    `seed`: every deal shuffled alike."""
    storage = await Storage.open(tmp_path / "uno.sqlite3")
    seeded = {} if seed is None else {"seed": lambda: seed}
    service = Service(storage, bot_delay=bot_delay, lobby_idle=None, **seeded)
    await service.start()
    auth = Auth(token=TOKEN, max_age=3600)
    app = make_app(service, Renderer(get_i18n()), auth)
    hub = app[socket.WEB].hub
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    session = ClientSession()
    r = Rig(service, storage, auth, hub, server, session)

    def tap(page: Page, frame: dict[str, Any]) -> None:
        r.frames.append((page.user.id, frame))

    hub.tap = tap
    loop = None if not timers else asyncio.create_task(service.clock.run_timers(lambda _o: None))
    try:
        yield r
    finally:
        if loop is not None:
            loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await loop
        await session.close()
        await server.close()
        await storage.close()


async def group_game(service: Service, *people: User, bots: int = 0) -> int:
    """A running game in the test group with `people` (the first opens it) and computer players."""
    assert (await service.lobby.new_game(GROUP, people[0])).ok
    for person in people[1:]:
        assert (await service.lobby.join(GROUP, person)).ok
    for _ in range(bots):
        assert (await service.lobby.add_bot(GROUP, people[0])).ok
    out = await service.lobby.start_game(GROUP, people[0])
    assert out.table is not None, out.error
    return out.table.game_id


async def install(storage: StoragePort, chat: str, game: Game) -> None:
    """Replace the chat's running game with a hand-made position."""
    rec = await storage.active_game(chat)
    assert rec is not None
    meta = dict(rec.meta, players=list(game.players), hand_sig={}, hand_ver={}, timeouts={})
    await storage.commit(
        rec.id, rec.version, state=game.to_dict(), meta=meta, status="running", deadline=None
    )


async def receive(ws: ClientWebSocketResponse, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next frame of `kind` (others before it are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            msg = await ws.receive()
            if msg.type is not WSMsgType.TEXT:
                raise AssertionError(f"the socket ended ({msg.type}, {msg.data}, {msg.extra})")
            frame = json.loads(msg.data)
            if frame["t"] == kind:
                return dict(frame)


async def state_at(ws: ClientWebSocketResponse, version: int) -> dict[str, Any]:
    """The first state frame showing `version` or later."""
    while True:
        frame = await receive(ws, "state")
        if frame["table"]["version"] >= version:
            return frame


async def closed(ws: ClientWebSocketResponse) -> tuple[str | None, int | None]:
    """The text of the server's closing frame (if any) and the close code."""
    text = None
    async with asyncio.timeout(10):
        while True:
            msg = await ws.receive()
            if msg.type is WSMsgType.TEXT:
                frame = json.loads(msg.data)
                if frame["t"] == "closed":
                    text = frame["text"]
            elif msg.type is WSMsgType.CLOSE:  # the code the server sent
                return text, int(msg.data)
            elif msg.type in (WSMsgType.CLOSING, WSMsgType.CLOSED):
                return text, ws.close_code
