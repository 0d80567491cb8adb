"""The sticker sets brought up to date in the background, so that they never delay the start.

Creating both sets takes about 244 calls (two `createNewStickerSet` and 122 `addStickerToSet`,
each with its upload), which would keep a first start from polling for minutes. So the bot
starts at once and runs `bot.telegram.stickers.sync` (or, without an owner, reads the sets as
they are) in a task of its own, one language after the other: until a language's set is known,
its inline results are text (`StickerBook.ready`), and they are stickers from the moment it is.

A failure (Telegram down, a refused call) does not give up: the language is tried again after
a growing pause (`tenacity`: from `first_wait` seconds, doubling, at most `MAX_WAIT`), and it is
logged once, when it first fails, and once more when it succeeds. A restart with every set up
to date costs one `getStickerSet` per language. A language's 111 pictures are drawn on a thread
(seconds of CPU, half a minute on busy cores): on the event loop they would stop the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from aiogram import Bot
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, wait_exponential

from bot.presentation.i18n import LANGS, I18n
from bot.telegram.stickers import ManifestStore, StickerBook, load, pictures, sync

log = logging.getLogger(__name__)

FIRST_WAIT = 5.0  # seconds before the first retry of a language that failed
MAX_WAIT = 900.0  # the pause between two tries never grows beyond this


class StickerSync:
    """One background task that makes `book` learn every language's stickers."""

    def __init__(self, book: StickerBook, *, first_wait: float = FIRST_WAIT) -> None:
        self.book = book
        self.first_wait = first_wait
        self.task: asyncio.Task[None] | None = None

    def start(
        self, bot: Bot, store: ManifestStore, i18n: I18n, *, owner: int | None, username: str
    ) -> None:
        """With an owner, create or update every set; without, use the sets as they are."""
        if self.task is None:
            self.task = asyncio.create_task(self._run(bot, store, i18n, owner, username))

    async def _run(
        self, bot: Bot, store: ManifestStore, i18n: I18n, owner: int | None, username: str
    ) -> None:
        for lang in LANGS:
            await asyncio.to_thread(pictures, lang)  # drawn once (cached), off the event loop
            retrying = AsyncRetrying(
                wait=wait_exponential(multiplier=self.first_wait, max=MAX_WAIT),
                retry=retry_if_exception_type(Exception),
                before_sleep=_first_failure(lang),
            )
            async for attempt in retrying:
                with attempt:
                    ids = await self._file_ids(bot, store, i18n, owner, lang, username)
            self.book.learn(lang, ids)
            tries = retrying.statistics.get("attempt_number", 1)
            if tries > 1:
                log.info("the %s sticker set is ready after %s tries", lang, tries)

    @staticmethod
    async def _file_ids(
        bot: Bot, store: ManifestStore, i18n: I18n, owner: int | None, lang: str, username: str
    ) -> dict[str, str]:
        if owner is None:
            return await load(bot, lang, username)
        report = await sync(bot, store, i18n, owner=owner, lang=lang, username=username)
        if report.changed:
            log.info("sticker set %s updated: %s", report.name, report)
        return report.file_ids

    async def wait(self) -> None:
        """Until every language's set is known (at once when no sync was started)."""
        if self.task is not None:
            await asyncio.wait([self.task])

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


def _first_failure(lang: str) -> Callable[[RetryCallState], None]:
    """Log a language's failure once, at its first try; its retries are quiet."""

    def before_sleep(state: RetryCallState) -> None:
        if state.attempt_number == 1 and state.outcome is not None:
            log.warning(
                "the %s sticker set is not available yet, retrying in the background: %r",
                lang,
                state.outcome.exception(),
            )
        else:
            log.debug("the %s sticker set: try %s failed", lang, state.attempt_number)

    return before_sleep
