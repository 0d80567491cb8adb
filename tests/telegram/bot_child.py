"""The Telegram bot as a process of its own, polling a fake Bot API. The kill tests stop it with
SIGKILL between a commit and the send of what the commit changed, and start it again on the
same database.

Importing aiogram is most of a fresh interpreter's start (seconds of CPU, a minute on busy
cores), so the children fork from a warm interpreter: a `multiprocessing` forkserver that has
imported this module (and with it the bot) once. Each child is still a process of its own, ended
by SIGKILL with nothing run on its way out. `python -m tests.telegram.bot_child <base url>
<database>` runs one by hand.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import sys
from multiprocessing.context import ForkServerProcess

from pydantic import SecretStr

from bot.config import Settings
from bot.service import Service
from bot.storage import Storage
from bot.telegram.app import TelegramApp, create_bot

TOKEN = "7000001:TEST-token"  # the fake's bot (tests.telegram.fake_bot_api.FakeBotAPI.token)

# The forkserver is started by the first child and imports this module before forking any.
FORKSERVER = multiprocessing.get_context("forkserver")
FORKSERVER.set_forkserver_preload([__name__])


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


def run(base_url: str, database: str) -> None:
    asyncio.run(main(base_url, database))


class Child:
    """One bot process, forked from the warm forkserver."""

    def __init__(self, base_url: str, database: str) -> None:
        self._process: ForkServerProcess = FORKSERVER.Process(
            target=run, args=(base_url, database), name="bot-child", daemon=True
        )
        self._exited = asyncio.Event()

    async def start(self) -> None:
        # Blocks until the forkserver has forked the child (the first time: until it has
        # imported the bot), so not on the event loop the fake Bot API serves from.
        await asyncio.to_thread(self._process.start)
        # The sentinel turns readable when the process has exited.
        asyncio.get_running_loop().add_reader(self._process.sentinel, self._reap)

    def _reap(self) -> None:
        asyncio.get_running_loop().remove_reader(self._process.sentinel)
        self._process.join()
        self._exited.set()

    @property
    def returncode(self) -> int | None:
        """None while it runs; -9 once SIGKILL ended it."""
        return self._process.exitcode

    def kill(self) -> None:
        self._process.kill()  # SIGKILL

    async def wait(self) -> int:
        """Until the process has exited; its exit code."""
        await self._exited.wait()
        exitcode = self._process.exitcode
        assert exitcode is not None
        return exitcode


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2])
