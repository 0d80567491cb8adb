"""The one timer loop both adapters run: it restarts the service's loop after a failure, a
failed publication does not stop it, and a test can wait for its next publication."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.delivery.outbox_loop import Delivery
from bot.delivery.timer_loop import TimerLoop
from bot.service import Outcome, Service
from bot.storage import Storage


class FlakyService:
    """Fails its first run, then publishes three outcomes and waits forever."""

    def __init__(self) -> None:
        self.runs = 0

    async def run_timers(
        self, publish: Callable[[Outcome], Awaitable[None]], *, prefix: str = ""
    ) -> None:
        self.runs += 1
        if self.runs == 1:
            raise RuntimeError("storage went away")
        for n in range(3):
            await publish(Outcome(f"{prefix}{n}", "ru"))
        await asyncio.Event().wait()


async def test_the_loop_restarts_and_survives_a_failed_publication(
    caplog: pytest.LogCaptureFixture,
) -> None:
    service = FlakyService()
    shown: list[str] = []

    async def publish(out: Outcome) -> None:
        if out.chat_key == "tg:1":
            raise ConnectionError("the platform is down")
        shown.append(out.chat_key)

    loop = TimerLoop(service, publish, prefix="tg:", retry=0)
    loop.start()
    try:
        await asyncio.wait_for(loop.wait_published(3), 10)
    finally:
        await loop.stop()
    assert service.runs == 2
    assert shown == ["tg:0", "tg:2"]
    assert loop.published == 3
    messages = [r.getMessage() for r in caplog.records]
    assert any("restarting" in m for m in messages)
    assert any("tg:1" in m for m in messages)


async def test_a_loop_stopped_as_it_is_woken_stops(tmp_path: Path) -> None:
    """The service's timer loop and the outbox's delivery loop sleep until woken or their time
    comes; a stop (a cancellation) that arrives as something wakes them must still stop
    them. (asyncio.wait_for of Python 3.11 returned the wake-up and dropped the cancellation:
    the loop went on, and whoever awaited its stop hung.)"""
    storage = await Storage.open(tmp_path / "uno.sqlite3")
    try:
        service = Service(storage)
        await service.start()
        delivery = Delivery(service.outbox, "tg:")

        async def publish(out: Outcome) -> None:
            pass

        await delivery.start(publish)
        for _ in range(20):
            timers = TimerLoop(service.clock, publish, prefix="tg:")
            timers.start()
            await asyncio.sleep(0.01)  # both loops asleep
            service.alarms.wake()
            delivery.wake()
            await asyncio.wait_for(asyncio.gather(timers.stop(), delivery.stop()), 5)
            delivery._task = asyncio.create_task(delivery._run())  # asleep again next time
    finally:
        await delivery.stop()
        await storage.close()
