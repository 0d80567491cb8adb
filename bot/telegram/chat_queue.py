"""One queue per chat, drained by its own task: every call the bot makes to that chat waits in it.

Telegram lets a bot send about 20 messages a minute to one group and answers 429 with
`retry_after` when a chat is flooded (aiogram never retries). The queue waits on the group's
bucket (bot.telegram.rate_limit) and on the budget it shares with the bot's other processes; a
429 blocks the chat and the same operation goes again, with its newest content. A `low`
operation (a lobby's edits) waits behind every other one, so the first table and a result never
wait for a lobby. A call that fails for a reason that passes is made again; a 403 drops the
operation (`on_forbidden`); a refusal another call gets round (a message deleted, a photo the
chat does not take: text from then on) is got round.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
)

from bot.telegram.calls import Calls
from bot.telegram.operation import Land, Operation
from bot.telegram.pictures import Photo, Pictures
from bot.telegram.rate_limit import RESERVE, Bucket, RateLimit
from bot.telegram.retry import TRANSIENT, backoff

log = logging.getLogger(__name__)

Budget = Callable[[int, bool], Awaitable[float | Land]]
"""A group's budget shared by the bot's processes: (chat id, low) -> a slot taken (a `Land`, to
call once the call made with it has completed), else the seconds to wait.

A `low` operation leaves `RESERVE` slots of it too. Telegram counts a call when it arrives, later
than its slot was taken by however long the call took to go out: the slot counts as in flight
until the call completed, and from then on at that time, so that a process taking a slot a
period later finds it gone only once the call Telegram counted has left its window."""

NETWORK_ATTEMPTS = 6  # tries of a call through passing failures: 7.75 s of `backoff` in all


class Owner(Protocol):
    """What a chat's queue takes from the sender that holds every chat's queue."""

    bot: Bot
    clock: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]]
    budget: Budget | None
    pictures: Pictures
    photos_refused: set[int]
    tasks: set[asyncio.Task[None]]
    queues: dict[int, ChatQueue]


class ChatQueue:
    """The queue of one chat and the task that drains it."""

    def __init__(self, owner: Owner, chat_id: int, limit: RateLimit | None) -> None:
        self.owner = owner
        self.chat_id = chat_id
        self.queue: deque[Operation] = deque()
        self.bucket = None if limit is None else Bucket(limit, owner.clock)
        self.shared = owner.budget is not None and chat_id < 0  # a group's shared budget
        self.task: asyncio.Task[None] | None = None
        self.arrived = asyncio.Event()  # wakes a `low` operation's wait: another may go first
        self.calls = Calls(
            owner.bot,
            chat_id,
            owner.pictures,
            owner.photos_refused,
            spend=self._spend,
            push=self.push,
        )

    def push(self, op: Operation) -> None:
        self.queue.append(op)
        self.arrived.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._drain())
            self.owner.tasks.add(self.task)
            self.task.add_done_callback(self.owner.tasks.discard)

    async def _drain(self) -> None:
        while self.queue:
            op = next((o for o in self.queue if not o.low), self.queue[0])
            if (self.bucket is not None or self.shared) and op.land is None and not op.is_noop():
                # While this waits, newer states of the same message replace op.render.
                wait = 0.0 if self.bucket is None else self.bucket.delay(RESERVE if op.low else 0)
                if wait <= 0 and self.shared:
                    wait = await self._budget(op, op.low)
                if wait > 0:
                    self.arrived.clear()
                    if op.low:  # anything else that arrives goes first
                        await self._pause(wait, self.arrived)
                    else:
                        await self.owner.sleep(wait)
                    continue
            self.queue.remove(op)
            if op.slot is not None and op.slot.pending is op:
                op.slot.pending = None
            try:
                await self._run(op)
            except Exception as exc:  # never let one message stop the chat's queue
                log.exception("sending to chat %s failed", self.chat_id)
                op.give_up(f"{type(exc).__name__}: {exc}")
        if self.bucket is None and self.owner.queues.get(self.chat_id) is self:
            del self.owner.queues[self.chat_id]  # a private chat's queue holds no state

    async def _budget(self, op: Operation, low: bool) -> float:
        """A slot of the group's shared budget for the operation's next call: 0.0 when taken,
        else the seconds to wait."""
        assert self.owner.budget is not None
        got = await self.owner.budget(self.chat_id, low)
        if isinstance(got, float):
            return got
        op.land = got
        return 0.0

    async def _attempt(self, op: Operation) -> Any:
        """One call of the operation. Once it completed, answered or failed (or was not made
        after all), its slot of the shared budget counts from then; a call made again takes
        another."""
        try:
            return await self.calls.make(op)
        finally:
            land, op.land = op.land, None
            if land is not None:
                await land()

    async def _pause(self, seconds: float, wake: asyncio.Event) -> None:
        """`owner.sleep(seconds)`, cut short when `wake` is set."""
        sleeping = asyncio.ensure_future(self.owner.sleep(seconds))
        woken = asyncio.ensure_future(wake.wait())
        try:
            await asyncio.wait([sleeping, woken], return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeping.cancel()
            woken.cancel()

    def _superseded(self, op: Operation) -> bool:
        return op.slot is not None and op.slot.pending is not None and op.slot.pending is not op

    @staticmethod
    def _moved(op: Operation) -> bool:
        """While the operation's last call was out, its slot took over another message (the
        one stored by another process, `Slot.take_over`): whatever Telegram answered was about
        the old message, and the new one is still to show the content."""
        return op.slot is not None and op.target is not None and op.slot.message_id != op.target

    async def _run(self, op: Operation) -> None:
        network_failures = 0
        while True:
            try:
                result = await self._attempt(op)
                if self._moved(op):
                    continue
            except TelegramRetryAfter as exc:
                log.warning("chat %s flooded: retry after %s s", self.chat_id, exc.retry_after)
                if self.bucket is not None:
                    self.bucket.block(exc.retry_after)
                await self.owner.sleep(exc.retry_after)
                if self._superseded(op):
                    # A newer state of this message is queued: it replaces this one.
                    assert op.slot is not None and op.slot.pending is not None
                    op.slot.pending.waiters.extend(op.waiters)
                    op.slot.pending.strict.extend(op.strict)
                    op.slot.pending.fresh = op.slot.pending.fresh or op.fresh
                    return
                continue
            except TelegramForbiddenError:
                callback = op.on_forbidden or (op.slot.on_forbidden if op.slot else None)
                if callback is not None:
                    await callback(self.chat_id)
                op.settle(None)
                return
            except TelegramBadRequest as exc:
                text = exc.message.lower()
                if self._moved(op):
                    continue  # (a message deleted by the process that sent the new one)
                if "not modified" in text:
                    if op.slot is not None and op.render is not None:
                        op.slot.shown = op.content()
                        op.slot.photo = op.as_photo
                    op.settle(True)
                    return
                if op.slot is not None and "there is no text in the message" in text:
                    op.slot.photo = True  # a photo (the bot restarted since it sent it)
                    continue
                if op.slot is not None and "file identifier" in text:
                    content = op.content()[0]
                    if isinstance(content, Photo) and self.owner.pictures.known(content):
                        self.owner.pictures.forget(content)  # upload the bytes instead
                        continue
                if (
                    op.slot is not None
                    and op.slot.message_id is not None
                    and op.as_photo
                    and not op.slot.photo
                    and not op.resend
                    and "not found" not in text
                ):
                    # A text message that this Bot API server does not turn into a photo.
                    op.resend = True
                    continue
                if (
                    op.slot is not None
                    and op.slot.message_id is not None
                    and ("message to edit not found" in text or "can't be edited" in text)
                ):
                    log.info("chat %s: message %s gone: %s", self.chat_id, op.slot.message_id, text)
                    op.slot.dropped.add(op.slot.message_id)
                    op.slot.message_id = None  # deleted by the user: send a new one
                    op.slot.shown = None
                    continue
                if op.delete_of is not None and "can't be deleted" in text:
                    # Older than Telegram lets a bot delete: at least take its buttons away.
                    op.keyboard_of, op.delete_of = op.delete_of, None
                    continue
                if op.reply_to is not None and "replied not found" in text:
                    op.reply_to = None
                    continue
                refused = self.owner.photos_refused
                if op.slot is not None and op.as_photo and self.chat_id not in refused:
                    # The photo itself (a group that forbids the bot photos, a picture it does
                    # not take): the same content as text, and only text in this chat from now.
                    log.warning("chat %s refused a photo, text instead: %s", self.chat_id, text)
                    refused.add(self.chat_id)
                    op.resend = False
                    continue
                log.warning("chat %s refused a message: %s", self.chat_id, exc.message)
                op.settle(None)
                return
            except TRANSIENT as exc:
                network_failures += 1
                if network_failures >= NETWORK_ATTEMPTS:
                    log.error("giving up a message to chat %s: %s", self.chat_id, exc)
                    op.give_up(f"{type(exc).__name__}: {exc}")
                    return
                await self.owner.sleep(backoff(network_failures))
                continue
            op.settle(result)
            return

    async def _spend(self, op: Operation) -> None:
        """Count the call about to be made: a token of the bucket and, for a group with a shared
        budget, a slot of it (taken by `_drain` for an operation's first call; a call made again
        after a failure waits for one of its own)."""
        if self.bucket is not None:
            self.bucket.take()
        if self.shared and op.land is None:
            while (wait := await self._budget(op, False)) > 0:
                await self.owner.sleep(wait)
