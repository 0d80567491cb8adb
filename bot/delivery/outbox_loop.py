"""Delivering the outbox, the same for every platform: settling what a publication sent, and the
loop that sends again what a process left unsent.

An adapter publishes an outcome as it always did and hands `Delivery.track` the sends it queued:
each an item name (an announcement or a private note: recorded once sent, so that a re-delivery
skips it) or None (an idempotent edit of a stored message: the table, a hand), with the
awaitable that completes when the platform took it. An awaitable that raises (`Undelivered`: the
network gave out, the process is stopping) makes the outcome's entries come back after a backoff
(`OutboxPort.retry`); otherwise -- sent, or dropped for good like a DM to a user who blocked the
bot -- they are finished.

The loop (`start`) claims the entries of its platform's chats whose claim ran out (a process
that died, a delivery that failed) at start and then whenever it is woken, when one of its own
retries comes due, and every `poll` seconds (entries another process left: at most 10 s, at
most half the lease), and publishes them through the adapter in order. Each time it first
renews the claims of what this process is still sending, so a slow send (a group waiting for its
budget) is not taken over by another process while this one lives; an entry still being sent
here is never sent twice by this process either.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.service import Outcome
from bot.service.outbox import OutboxPort

log = logging.getLogger(__name__)

Send = tuple[str | None, Awaitable[Any]]
Publish = Callable[[Outcome], Awaitable[None]]

POLL = 10.0  # most seconds between looks for entries other processes left (half a lease at most)


class Undelivered(Exception):
    """A send that was not made but may succeed later (network errors, a stopping process)."""


class Delivery:
    """The outbox of one platform's chats (`prefix`) in this process."""

    def __init__(self, outbox: OutboxPort, prefix: str, *, poll: float | None = None) -> None:
        self.outbox = outbox
        self.prefix = prefix
        self.poll = min(POLL, outbox.lease / 2) if poll is None else poll
        outbox.deliver(prefix)  # from now on, commits of these chats write entries
        self.publish: Publish | None = None
        self.finished = 0  # outcomes whose entries were finished here
        self.retried = 0  # outcomes whose entries were handed back for later
        self._in_flight: set[int] = set()
        self._settling: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Condition()
        self._wake = asyncio.Event()
        self._next: float | None = None  # when one of this process's retries comes due
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ settling sends

    def track(
        self, out: Outcome, sends: Sequence[Send], failure: BaseException | None = None
    ) -> None:
        """Finish the outcome's entries once `sends` went out, or retry them if one failed (or
        publishing itself failed: `failure`). Only the first call for an outcome counts."""
        entries = out.outbox
        if entries is None or entries.tracked:
            return
        entries.tracked = True
        self._in_flight.update(entries.ids)
        task = asyncio.create_task(self._settle(out, sends, failure))
        self._settling.add(task)
        task.add_done_callback(self._settling.discard)

    async def _settle(
        self, out: Outcome, sends: Sequence[Send], failure: BaseException | None
    ) -> None:
        entries = out.outbox
        assert entries is not None

        async def recorded(item: str, send: Awaitable[Any]) -> None:
            result = await send
            await self.outbox.mark_sent(out, item, str(getattr(result, "message_id", "")))

        # A plain send is awaited as it is (a future needs no task of its own).
        waits = [s if item is None else recorded(item, s) for item, s in sends]
        results = await asyncio.gather(*waits, return_exceptions=True)
        failed = [r for r in (*results, failure) if isinstance(r, BaseException)]
        try:
            if failed:
                log.warning("chat %s: delivery failed (%s); retrying", out.chat_key, failed[0])
                at = await self.outbox.retry(out)
                if at:
                    self._next = at if self._next is None else min(self._next, at)
                    self._wake.set()
                self.retried += 1
            else:
                await self.outbox.finish(out)
                self.finished += 1
        except Exception:  # the storage failed: the claim runs out, the entry comes back
            log.exception("chat %s: settling outbox entries %s failed", out.chat_key, entries.ids)
        finally:
            self._in_flight.difference_update(entries.ids)
            async with self._changed:
                self._changed.notify_all()

    async def settled(self, timeout: float | None = None) -> None:
        """Until every tracked publication is settled (tests, shutdown)."""
        async with asyncio.timeout(timeout):
            while self._settling:
                await asyncio.gather(*list(self._settling), return_exceptions=True)

    async def wait_finished(self, count: int) -> None:
        """Until `count` outcomes in all were finished here (tests wait on this, not on time)."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.finished >= count)

    # ------------------------------------------------------------------ the loop

    async def deliver_due(self, *, start: bool = False) -> int:
        """Renew the claims of what is still being sent here, then claim and publish the
        entries whose claim ran out; returns how many were published."""
        assert self.publish is not None, "start() the delivery with the adapter's publish"
        if self._in_flight:  # a slow send (a group waiting for its budget) is not taken over
            await self.outbox.extend(sorted(self._in_flight))
        published = 0
        for out in await self.outbox.claim(self.prefix, start=start):
            entries = out.outbox
            if entries is None or self._in_flight.intersection(entries.ids):
                continue  # still being sent here: claimed again, not sent twice
            try:
                await self.publish(out)
            except Exception as exc:
                log.exception("chat %s: re-delivering failed", out.chat_key)
                self.track(out, [], exc)
            self.track(out, [])  # a publication that tracked nothing had nothing to send
            published += 1
        return published

    async def start(self, publish: Publish) -> None:
        """Deliver what a stopped process left (before anything else is sent), then loop."""
        self.publish = publish
        try:
            await self.deliver_due(start=True)
        except Exception:
            log.exception("delivering the outbox of %s at start failed", self.prefix)
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"outbox {self.prefix}")

    def wake(self) -> None:
        """Look for due entries now (a fake clock moved, or a retry came due)."""
        self._wake.set()

    async def stop(self) -> None:
        """Stop the loop (the publications being settled go on: `settled` waits for them)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            await self._sleep()
            try:
                await self.deliver_due()
            except Exception:
                log.exception("delivering the outbox of %s failed", self.prefix)

    async def _sleep(self) -> None:
        """Until woken, the next own retry is due, or `poll` seconds passed."""
        delay = self.poll
        if self._next is not None:
            left = self._next - self.outbox.now()
            if left <= 0:
                self._next = None
                return
            delay = min(delay, left)
        if not self._wake.is_set():  # (asyncio.timeout: see `bot.service.alarms.Alarms.sleep`)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()
        self._wake.clear()
