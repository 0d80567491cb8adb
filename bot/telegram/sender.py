"""The door every outbound Telegram message goes through: one `ChatQueue` per chat.

A caller queues a message (`send`), a new state of a message kept up to date by edits
(`update` of a `Slot`) or a keyboard to take away, and gets a future of the result. Groups
(negative ids) are held to `group_limit`, and with a shared `budget` to one limit across the
bot's processes (bot.telegram.chat_queue says how each limit and failure is met).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot
from aiogram.types import Message

from bot.telegram.chat_queue import Budget, ChatQueue
from bot.telegram.content import Content, Keyboard, Mentioning, Render
from bot.telegram.operation import OnForbidden, Operation, Slot
from bot.telegram.pictures import Pictures
from bot.telegram.rate_limit import DEFAULT_GROUP_LIMIT, RateLimit

# The door and the types its methods take.
__all__ = [
    "Budget",
    "Content",
    "Keyboard",
    "Mentioning",
    "OnForbidden",
    "RateLimit",
    "Render",
    "Sender",
    "Slot",
]


class Sender:
    """One `ChatQueue` per chat; groups (negative ids) are rate limited by `group_limit`."""

    def __init__(
        self,
        bot: Bot,
        *,
        group_limit: RateLimit | None = DEFAULT_GROUP_LIMIT,
        private_limit: RateLimit | None = None,
        clock: Callable[[], float] = time.monotonic,
        budget: Budget | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """`budget`: the groups' budget shared with the bot's other processes (`Budget`);
        `clock` and `sleep` are what the waits are reckoned and spent in (a test's fake time)."""
        self.bot = bot
        self.group_limit = group_limit
        self.private_limit = private_limit
        self.clock = clock
        self.budget = budget
        self.sleep = sleep
        self.queues: dict[int, ChatQueue] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.pictures = Pictures()  # the file ids of uploaded pictures
        self.photos_refused: set[int] = set()  # chats that refused a photo: text only there

    def _queue(self, chat_id: int) -> ChatQueue:
        queue = self.queues.get(chat_id)
        if queue is None:
            limit = self.group_limit if chat_id < 0 else self.private_limit
            queue = self.queues[chat_id] = ChatQueue(self, chat_id, limit)
        return queue

    def _future(self, op: Operation, strict: bool = False) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        (op.strict if strict else op.waiters).append(future)
        return future

    def send(
        self,
        chat_id: int,
        text: str | Mentioning,
        markup: Keyboard | None = None,
        *,
        reply_to: int | None = None,
        on_forbidden: OnForbidden | None = None,
        strict: bool = False,
    ) -> asyncio.Future[Message | None]:
        """Queue a new message; the future gives the sent message (None if it was refused;
        `strict`: `Undelivered` raised if it was given up for a reason that may pass)."""
        op = Operation(
            chat_id, text=text, markup=markup, reply_to=reply_to, on_forbidden=on_forbidden
        )
        future = self._future(op, strict)
        self._queue(chat_id).push(op)
        return future

    def update(
        self,
        slot: Slot,
        render: Render,
        version: int = 0,
        *,
        fresh: bool = False,
        sent_elsewhere: bool = False,
        low: bool = False,
        strict: bool = False,
    ) -> asyncio.Future[Any]:
        """Show `render()` in the slot's message, replacing any update still queued for it.

        `fresh`: as a new message at the bottom of the chat, the old one deleted (a queued
        update that is replaced keeps this wish). `sent_elsewhere`: another process sends this
        state as a new message (a turn it claimed): a new message still queued here for an
        older state (an earlier turn) is only an edit now, or the chat would get two.
        `strict`: see `send`."""
        loop_future: asyncio.Future[Any]
        if version < slot.version:
            loop_future = asyncio.get_running_loop().create_future()
            loop_future.set_result(None)  # an older state than the one already submitted
            return loop_future
        slot.version = version
        if slot.pending is not None:
            slot.pending.render = render
            slot.pending.fresh = (slot.pending.fresh and not sent_elsewhere) or fresh
            slot.pending.low = slot.pending.low and low
            return self._future(slot.pending, strict)
        op = Operation(slot.chat_id, slot=slot, render=render, fresh=fresh, low=low)
        slot.pending = op
        loop_future = self._future(op, strict)
        self._queue(slot.chat_id).push(op)
        return loop_future

    def remove_keyboard(
        self, chat_id: int, message_id: int, *, low: bool = False
    ) -> asyncio.Future[Any]:
        op = Operation(chat_id, keyboard_of=message_id, low=low)
        future = self._future(op)
        self._queue(chat_id).push(op)
        return future

    def busy(self) -> bool:
        return any(queue.queue for queue in self.queues.values()) or any(
            not t.done() for t in self.tasks
        )

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every queue is empty (tests, shutdown)."""
        async with asyncio.timeout(timeout):
            while self.tasks:
                await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def close(self, timeout: float = 5.0) -> None:
        """Deliver what is queued (up to `timeout`), then stop."""
        with contextlib.suppress(TimeoutError):
            await self.drain(timeout)
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        # Anyone still waiting learns that nothing more will be sent.
        for queue in self.queues.values():
            for op in queue.queue:
                op.give_up("the sender closed")
            queue.queue.clear()
