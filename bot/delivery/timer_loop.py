"""The loop every adapter runs for its chats' deadlines: computer moves, turn timeouts, idle
lobbies (`Clock.run_timers`), each outcome published as it happens.

One failed publication is logged and the loop goes on; if the service's loop itself fails, it is
started again after `retry` seconds. `published` counts the outcomes handed to the adapter, and
`wait_published` lets a test wait for the next one instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.service import Outcome

log = logging.getLogger(__name__)

Publish = Callable[[Outcome], Awaitable[None]]


class Timers(Protocol):
    async def run_timers(
        self, publish: Callable[[Outcome], Awaitable[None]], *, prefix: str = ""
    ) -> None: ...


class TimerLoop:
    def __init__(self, clock: Timers, publish: Publish, *, prefix: str, retry: float = 1.0) -> None:
        """`clock`: the service's deadlines (`bot.service.clock.Clock`)."""
        self.clock = clock
        self.publish = publish
        self.prefix = prefix
        self.retry = retry
        self.published = 0
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"timers {self.prefix}")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def wait_published(self, count: int) -> None:
        """Until `count` outcomes in all were published."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.published >= count)

    async def _run(self) -> None:
        while True:
            try:
                await self.clock.run_timers(self._publish, prefix=self.prefix)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the timer loop of %s failed; restarting it", self.prefix)
                await asyncio.sleep(self.retry)

    async def _publish(self, out: Outcome) -> None:
        try:
            await self.publish(out)
        except Exception:
            log.exception("publishing a timer outcome of %s failed", out.chat_key)
        async with self._changed:
            self.published += 1
            self._changed.notify_all()
