"""The Telegram bot as a process of its own, polling a fake Bot API: `python -m
tests.telegram.bot_child <base url> <database>`. The kill test stops it with SIGKILL between a
commit and the send of what the commit changed, and starts it again on the same database."""

from __future__ import annotations

import asyncio
import sys

from pydantic import SecretStr

from bot.config import Settings
from bot.service import Service
from bot.storage import Storage
from bot.telegram.app import TelegramApp, create_bot

TOKEN = "7000001:TEST-token"  # the fake's bot (tests.telegram.fake_bot_api.FakeBotAPI.token)


async def main(base_url: str, database: str) -> None:
    storage = await Storage.open(database)
    service = Service(storage, bot_delay=0.05)
    await service.start()
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=SecretStr(TOKEN),
        telegram_api_base=base_url,
    )
    app = TelegramApp(create_bot(settings), service, group_limit=None, freeze=False)
    await app.run_polling(polling_timeout=5)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
