"""Configuration and the webhook mode: the API base from the settings, the secret token, and a
token that never reaches the logs."""

from __future__ import annotations

import asyncio
import logging
import traceback
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiogram.exceptions import TelegramNetworkError
from pydantic import SecretStr

from bot.config import Settings
from bot.service import Service
from bot.storage import Storage
from bot.telegram.app import TelegramApp, create_bot, webhook_url
from tests.telegram.conftest import Harness, renderer
from tests.telegram.fake_bot_api import FakeBotAPI


class WebhookBotAPI(FakeBotAPI):
    """The fake with setWebhook, which webhook mode calls at start."""

    def __init__(self) -> None:
        super().__init__()
        self.webhooks: list[dict[str, Any]] = []

    def _m_setWebhook(self, params: dict[str, Any]) -> bool:
        self.webhooks.append(params)
        return True


async def test_webhook_mode(tmp_path: Path) -> None:
    api = WebhookBotAPI()
    await api.start()
    try:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            telegram_token=SecretStr(api.token),
            telegram_api_base=api.base_url,
            webhook_url="https://uno.example/",
            webhook_path="/tg/hook",
            webhook_host="127.0.0.1",
            webhook_port=0,
            webhook_secret=SecretStr("s3cret"),
            database=tmp_path / "uno.sqlite3",
        )
        assert webhook_url(settings) == "https://uno.example/tg/hook"
        storage = await Storage.open(settings.database)
        app = TelegramApp(create_bot(settings), Service(storage), renderer())
        try:
            runner = await app.start_webhook(settings)
            host, port = runner.addresses[0][:2]
            assert api.webhooks[0]["url"] == "https://uno.example/tg/hook"
            assert api.webhooks[0]["secret_token"] == "s3cret"
            assert set(api.webhooks[0]["allowed_updates"]) == {
                "message",
                "callback_query",
                "inline_query",
                "chosen_inline_result",
            }
            group, user = api.new_group("Группа"), api.new_user("Соня")
            update = {
                "update_id": 1,
                "message": {
                    "message_id": 1,
                    "date": 1_700_000_000,
                    "chat": group.to_api(),
                    "from": user.to_api(),
                    "text": "/help",
                    "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
                },
            }
            url = f"http://{host}:{port}/tg/hook"
            async with aiohttp.ClientSession() as http:
                async with http.post(url, json=update) as resp:
                    assert resp.status == 401  # no secret
                headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
                async with http.post(url, json=update, headers=headers) as resp:
                    assert resp.status == 200
            call = await api.wait_for("sendMessage")
            assert call.params["text"] == renderer().t("ru", "help-text")
            assert call.chat_id == group.id
        finally:
            await app.close()
            await storage.close()
    finally:
        await api.stop()


async def test_token_is_secret_and_never_logged(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    h = harness
    secret = h.api.token.split(":", 1)[1]
    settings = Settings(_env_file=None, telegram_token=SecretStr(h.api.token))  # type: ignore[call-arg]
    assert secret not in repr(settings) and secret not in str(settings.model_dump())
    # Refusals and failures are logged: never with the token.
    h.api.fail_next("editMessageText", 400, chat_id=h.group.id, description="Bad Request: x")
    h.api.fail_next("getChatMember", 500)
    await h.new_game(players=2)
    await h.say(h.users[1], "/kill")
    await h.settle()
    assert caplog.records
    assert all(secret not in r.getMessage() for r in caplog.records)
    assert secret not in caplog.text


async def test_a_malformed_answer_never_puts_the_token_in_an_error() -> None:
    """aiohttp puts the request's URL (with the token) into a `ClientResponseError`, e.g. for a
    malformed status line; aiogram logs the message of the network error it becomes whenever
    polling fails. The session's error carries neither the URL nor the original in its chain."""

    async def garbage(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        writer.write(b"HTTP/1.1 20x OK\r\nContent-Length: 2\r\n\r\n{}")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(garbage, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    token = "123456:SECRET-token-value"
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=SecretStr(token),
        telegram_api_base=f"http://127.0.0.1:{port}",
    )
    bot = create_bot(settings)
    try:
        with pytest.raises(TelegramNetworkError) as caught:
            await bot.get_me()
        text = "".join(traceback.format_exception(caught.value))
        assert "ClientResponseError: 400" in text  # what went wrong is still said
        assert "SECRET" not in text and "/bot123456" not in text
    finally:
        await bot.session.close()
        server.close()
        await server.wait_closed()
