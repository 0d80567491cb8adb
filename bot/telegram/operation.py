"""What a chat's queue holds: operations, and the slots (bot messages kept up to date by edits)
that some of them show a new state in.

An update that arrives while an older one of the same slot is still queued replaces it, so a
throttled chat gets only the latest state, rendered when it is actually sent; an update equal
to what the message already shows is not sent at all. Plain messages keep their order and are
never dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.delivery.outbox_loop import Undelivered
from bot.telegram.content import Content, Keyboard, Mentioning, Render

OnForbidden = Callable[[int], Awaitable[None]]
Land = Callable[[], Awaitable[None]]
"""Called once the call made with a slot of the shared budget has completed (see `Budget`)."""


@dataclass(eq=False)
class Slot:
    """A bot message kept up to date by edits; sent on its first update.

    `on_new_id` persists the id of a message the queue had to send (first update, or the old
    message was deleted) and gives the id of the message that goes, if it knows: the one it
    replaced in the store, or the new one itself when another process stored a newer one
    meanwhile (the slot then shows its content on that one). `version` is
    the newest state submitted, so an older state that arrives late (two outcomes published
    from different tasks) never overwrites a newer one. `stored_id` reads that persisted id
    again, right before the queue would send the message new: another bot process may have
    sent it meanwhile (webhook workers), and then it is edited, not sent twice. A message id
    `take_over` sets while a call is out (another process's, found in the store) is the one
    the operation shows its content on: Telegram's answer was about the old one.
    """

    chat_id: int
    message_id: int | None = None
    on_new_id: Callable[[int], Awaitable[int | None]] | None = None
    stored_id: Callable[[], Awaitable[int | None]] | None = None
    dropped: set[int] = field(default_factory=set)  # ids given up (deleted, replaced): never again
    on_forbidden: OnForbidden | None = None
    version: int = -1
    shown: Content | None = None
    pending: Operation | None = None
    photo: bool | None = None  # the message is a photo (None: not known, as after a restart)

    def take_over(self, message_id: int) -> None:
        """Edit `message_id` from now on: the stored message, which another process may have
        sent or edited since. What it shows is not known any more; nor, if it is another
        message than this slot's, whether it is a photo (a hand sent new as text may replace
        one this process knew as a photo): the first edit finds out."""
        if message_id != self.message_id:
            self.message_id, self.photo = message_id, None
        self.shown = None

    async def take_over_stored(self) -> int | None:
        """The stored id read again (None: none stored), taken over (`take_over`) unless this
        slot gave it up (`dropped`: a message it found gone, or one it replaced)."""
        found = None if self.stored_id is None else await self.stored_id()
        if found is not None and found not in self.dropped:
            self.take_over(found)
        return found


@dataclass(eq=False)
class Operation:
    """One thing to do in a chat: send a message, show a slot's state, take a keyboard away or
    delete a message. Its futures learn the result once it is done or given up."""

    chat_id: int
    slot: Slot | None = None
    render: Render | None = None
    text: str | Mentioning = ""
    markup: Keyboard | None = None
    reply_to: int | None = None
    on_forbidden: OnForbidden | None = None
    keyboard_of: int | None = None  # remove the keyboard of this message
    delete_of: int | None = None  # delete this message
    fresh: bool = False  # the slot's state goes out as a new message (see `Sender.update`)
    low: bool = False  # after every other operation, leaving the group's `RESERVE`
    waiters: list[asyncio.Future[Any]] = field(default_factory=list)
    strict: list[asyncio.Future[Any]] = field(default_factory=list)  # raise when given up
    rendered: tuple[Render, Content] | None = None
    resend: bool = False  # the slot's message cannot show this: a new one, silently
    as_photo: bool | None = None  # the kind of message the last call tried to show
    target: int | None = None  # the slot's message the last call edited (None: sent anew)
    land: Land | None = None  # a slot of the shared budget taken for the next call

    def content(self) -> Content:
        """The slot's content from the newest `render`, rendered once."""
        assert self.render is not None
        if self.rendered is None or self.rendered[0] is not self.render:
            self.rendered = (self.render, self.render())
        return self.rendered[1]

    def is_noop(self) -> bool:
        slot = self.slot
        return (
            slot is not None
            and not self.fresh
            and slot.message_id is not None
            and self.content() == slot.shown
        )

    def settle(self, result: Any) -> None:
        for waiter in (*self.waiters, *self.strict):
            if not waiter.done():
                waiter.set_result(result)
        self.waiters.clear()
        self.strict.clear()

    def give_up(self, why: str) -> None:
        """Not sent, for a reason that may pass (network errors, the sender closing): None for
        the waiters, `Undelivered` for the strict ones, so that the outbox sends it again."""
        for waiter in self.strict:
            if not waiter.done():
                waiter.set_exception(Undelivered(why))
        self.strict.clear()
        self.settle(None)
