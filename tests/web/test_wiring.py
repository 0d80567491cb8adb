"""`python -m bot` with WEBAPP_URL set: the web table is served beside the Telegram bot, in one
process over one service, so a move pressed on the page shows in the group's table."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
from pydantic import SecretStr

from bot.__main__ import adapters, run_chats
from bot.config import Settings
from bot.service import User
from tests.telegram.fake_bot_api import FakeBotAPI
from tests.web.tables import init_data, receive

TABLE_EDITS = ("editMessageText", "editMessageMedia", "editMessageCaption")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def settings(api: FakeBotAPI, tmp_path: Path, **more: Any) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=SecretStr(api.token),
        telegram_api_base=api.base_url,
        database=tmp_path / "uno.sqlite3",
        web_host="127.0.0.1",
        web_port=free_port(),
        **more,
    )


async def connect(session: aiohttp.ClientSession, url: str) -> aiohttp.ClientWebSocketResponse:
    """The page's socket, once the server listens: it starts beside the bot, after drawing the
    deck (seconds, more on a busy machine)."""
    for _ in range(2400):
        with contextlib.suppress(aiohttp.ClientConnectorError):
            return await session.ws_connect(url)
        await asyncio.sleep(0.05)
    raise TimeoutError(f"nothing listens at {url}")


async def test_without_webapp_url_no_web_table(tmp_path: Path) -> None:
    async with FakeBotAPI() as api:
        service: Any = object()  # never used: the coroutines are only counted, never run
        plain = adapters(settings(api, tmp_path), service)
        web = adapters(settings(api, tmp_path, webapp_url="https://uno.example/"), service)
        assert (len(plain), len(web)) == (1, 2)
        for task in plain + web:
            task.close()


async def test_a_move_on_the_page_shows_in_the_group(tmp_path: Path) -> None:
    async with FakeBotAPI() as api, aiohttp.ClientSession() as session:
        config = settings(api, tmp_path, webapp_url="https://uno.example/", webapp_name="table")
        users = [api.new_user(name) for name in ("Anna", "Boris")]
        for user in users:
            api.user_starts_bot(user)
        group = api.new_group("UNO")
        bot = asyncio.create_task(run_chats(config))
        try:
            await api.wait_until(lambda: api.waiting_polls > 0, timeout=30)
            api.send_message(users[0], group, "/new")
            await api.idle()
            api.send_message(users[1], group, f"/join@{api.bot.username}")
            await api.idle()
            api.send_message(users[0], group, "/start")

            def links() -> list[str]:
                return [
                    b["url"]
                    for m in api.messages(group.id)
                    for b in m.buttons
                    if "startapp=" in b.get("url", "")
                ]

            await api.wait_until(lambda: bool(links()), timeout=30)
            game = parse_qs(urlsplit(links()[-1]).query)["startapp"][0]
            url = f"http://127.0.0.1:{config.web_port}/ws"
            pages = {}
            for user in users:
                ws = await connect(session, url)
                who = User(str(user.id), user.first_name, "ru")
                data = init_data(who, token=api.token, start_param=game)
                await ws.send_json({"t": "hello", "init_data": data})
                pages[user.id] = (ws, await receive(ws, "state"))
            # The player whose turn it is presses a card that needs no second step, or draws.
            ws, frame = next(p for p in pages.values() if p[1]["hand"]["actions"])
            keys = [c["key"] for c in frame["hand"]["cards"] if c["key"]]
            keys += [a["key"] for a in frame["hand"]["actions"]]
            key = next(k for k in keys if ":pick " not in k)
            since = len(api.calls())
            await ws.send_json({"t": "press", "key": key})
            edit = await api.wait_for(
                lambda c: c.ok and c.chat_id == group.id and c.method in TABLE_EDITS,
                timeout=30,
                since=since,
            )
            assert edit.ok
            after = await receive(ws, "state")
            assert after["table"]["version"] > frame["table"]["version"]
            for ws, _frame in pages.values():
                await ws.close()
        finally:
            bot.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await bot
