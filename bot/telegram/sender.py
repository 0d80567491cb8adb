"""Every outbound chat message goes through one queue per chat.

Why one queue per chat: Telegram limits a bot to about 20 messages a minute in one group, answers
429 with `retry_after` when a chat is flooded (aiogram never retries), and refuses an edit that
changes nothing with 400 "message is not modified". The queue handles all three in one place:

- a `Slot` is a bot message kept up to date by edits (a table, a lobby, a hand): an update that
  arrives while an older one is still queued replaces it, so a throttled chat gets only the latest
  state, rendered when it is actually sent; an update whose text and keyboard equal what the
  message already shows is not sent at all;
- plain messages (announcements, replies) keep their order and are never dropped;
- a token bucket per group keeps any 60-second window under the group limit; a 429 blocks the
  chat for `retry_after` seconds and the same operation is tried again (with the newest content);
- the group's budget goes to what matters first: an operation marked `low` (the lobby's edits,
  taking an old lobby's buttons away) waits behind every other one, and only spends a token
  while `RESERVE` more are left, so the first table and a result never wait for a lobby;
- with a shared `budget` (the service's outbox), every call to a group also takes a slot of the
  group's budget in the database, so that all the bot's processes together keep to the limit;
  a `low` operation leaves `RESERVE` slots of it too. Telegram counts a call when it arrives,
  which is later than the slot was taken by however long the call took to go out (a picture
  to render, a busy core, the network): the slot counts as in flight until the call completed
  (answered or failed), and from then on at that time, so a process that takes a slot a period
  later finds it gone only once the call counted by Telegram left its window;
- a call that fails for a reason that passes (a 5xx, a dropped connection: `retry.TRANSIENT`) is
  made again after `retry.backoff`, `NETWORK_ATTEMPTS` times at most, then given up;
- 403 (the user never opened the private chat or blocked the bot) calls `on_forbidden` once per
  operation and the operation is dropped: nothing upstream breaks;
- a `strict` future raises `Undelivered` when an operation was given up for a reason that may
  pass (network errors, the sender closing), so the outbox sends it again later; others just
  get None, as for a refused message;
- `resend` moves a slot's message to the bottom of its chat: the new state goes out as a new
  message (Telegram notifies a new message, never an edit) and the old one is then deleted
  (or, when Telegram no longer lets the bot delete it, its keyboard is taken away).

A slot's content may be a `Photo` (bot.telegram.pictures): a picture with a caption, sent with
`sendPhoto` and updated with one `editMessageMedia` (picture, caption and keyboard), uploaded once
and then sent by its file id. A photo message cannot become text again: when a slot's photo must
give way to text (a caption too long), the text goes out as a new, silent message and the photo
is deleted. A photo Telegram refuses (a group that does not let the bot send photos) is sent as
text instead, and that chat gets text from then on.

A slot's text may be `Mentioning`: its entities go with every send and edit of that message, but
Telegram notifies the mentioned users only when a message is sent, never when it is edited.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
)
from aiogram.methods import EditMessageMedia, EditMessageText, SendMessage, SendPhoto
from aiogram.types import InputMediaPhoto, Message, MessageEntity, ReplyParameters

from bot.delivery.outbox_loop import Undelivered
from bot.telegram.pictures import Photo, Pictures
from bot.telegram.retry import TRANSIENT, backoff

log = logging.getLogger(__name__)


class Keyboard(str):
    """An inline keyboard, already the JSON Telegram takes as `reply_markup`.

    Built once per message state (bot.telegram.keyboards) and compared as a string; it is set on
    the method after validation, so it reaches the request as it is.
    """


@dataclass(frozen=True)
class Mentioning:
    """A text with entities (`text_mention`s, see bot.telegram.mentions), compared as a whole:
    the same words mentioning someone else are another content."""

    text: str
    entities: tuple[MessageEntity, ...]


Content = tuple[str | Mentioning | Photo, Keyboard | None]
Render = Callable[[], Content]
OnForbidden = Callable[[int], Awaitable[None]]
Land = Callable[[], Awaitable[None]]
Budget = Callable[[int, bool], Awaitable[float | Land]]
"""A group's shared budget: (chat id, low) -> a slot taken (a `Land`, to call once the call made
with it has completed), else the seconds to wait."""

NETWORK_ATTEMPTS = 6  # tries of a call through passing failures: 7.75 s of `backoff` in all
RESERVE = 1  # tokens of a group's bucket that a `low` operation leaves for the others


@dataclass(frozen=True)
class RateLimit:
    """At most `count` calls in any `period` seconds, `burst` of them back to back.

    A token bucket holding `burst` tokens, refilled at (count - burst) / period per second: any
    window of `period` seconds sees at most burst + (count - burst) = count calls.
    """

    count: int = 20
    period: float = 60.0
    burst: int = 3

    def __post_init__(self) -> None:
        if not 0 < self.burst < self.count or self.period <= 0:
            raise ValueError("need 0 < burst < count and a positive period")

    @property
    def rate(self) -> float:
        return (self.count - self.burst) / self.period


DEFAULT_GROUP_LIMIT = RateLimit()


class Bucket:
    def __init__(self, limit: RateLimit, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.clock = clock
        self.tokens = float(limit.burst)
        self.stamp = clock()
        self.blocked_until = 0.0

    def delay(self, reserve: int = 0) -> float:
        """Seconds until a call may go out (0 when it may go now), leaving `reserve` tokens."""
        now = self.clock()
        self.tokens = min(
            float(self.limit.burst), self.tokens + (now - self.stamp) * self.limit.rate
        )
        self.stamp = now
        wait = max(0.0, self.blocked_until - now)
        need = 1.0 + min(reserve, self.limit.burst - 1)
        if self.tokens < need - 1e-6:  # (a float a hair under must not spin the loop)
            wait = max(wait, (need - self.tokens) / self.limit.rate)
        return wait

    def take(self) -> None:
        self.tokens -= 1.0

    def block(self, seconds: float) -> None:
        self.blocked_until = max(self.blocked_until, self.clock() + seconds)


@dataclass(eq=False)
class Slot:
    """A bot message kept up to date by edits; sent on its first update.

    `on_new_id` persists the id of a message the queue had to send (first update, or the old
    message was deleted) and gives the id it replaced in the store, if it knows: one that this
    slot did not replace was sent by another process meanwhile, and is deleted. `version` is
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
    pending: _Op | None = None
    photo: bool | None = None  # the message is a photo (None: not known, as after a restart)

    def take_over(self, message_id: int) -> None:
        """Edit `message_id` from now on: the stored message, which another process may have
        sent or edited since. What it shows is not known any more; nor, if it is another
        message than this slot's, whether it is a photo (a hand sent new as text may replace
        one this process knew as a photo): the first edit finds out."""
        if message_id != self.message_id:
            self.message_id, self.photo = message_id, None
        self.shown = None


@dataclass(eq=False)
class _Op:
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
    low: bool = False  # after every other operation, leaving the group's reserve (see above)
    waiters: list[asyncio.Future[Any]] = field(default_factory=list)
    strict: list[asyncio.Future[Any]] = field(default_factory=list)  # raise when given up
    rendered: tuple[Render, Content] | None = None
    resend: bool = False  # the slot's message cannot show this: a new one, silently
    as_photo: bool | None = None  # the kind of message the last call tried to show
    target: int | None = None  # the slot's message the last call edited (None: sent anew)
    land: Land | None = None  # a slot of the shared budget taken for the next call (see above)

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
        """Not sent, for a reason that may pass: None for the waiters, `Undelivered` for the
        strict ones."""
        for waiter in self.strict:
            if not waiter.done():
                waiter.set_exception(Undelivered(why))
        self.strict.clear()
        self.settle(None)


class Outbox:
    """The queue of one chat and the task that drains it."""

    def __init__(self, sender: Sender, chat_id: int, limit: RateLimit | None) -> None:
        self.sender = sender
        self.chat_id = chat_id
        self.queue: deque[_Op] = deque()
        self.bucket = None if limit is None else Bucket(limit, sender.clock)
        self.shared = sender.budget is not None and chat_id < 0  # a group's shared budget
        self.task: asyncio.Task[None] | None = None
        self.arrived = asyncio.Event()  # wakes a `low` operation's wait: another may go first

    def push(self, op: _Op) -> None:
        self.queue.append(op)
        self.arrived.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._drain())
            self.sender.tasks.add(self.task)
            self.task.add_done_callback(self.sender.tasks.discard)

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
                        await self.sender.sleep(wait)
                    continue
            self.queue.remove(op)
            if op.slot is not None and op.slot.pending is op:
                op.slot.pending = None
            try:
                await self._run(op)
            except Exception as exc:  # never let one message stop the chat's queue
                log.exception("sending to chat %s failed", self.chat_id)
                op.give_up(f"{type(exc).__name__}: {exc}")
        if self.bucket is None and self.sender.outboxes.get(self.chat_id) is self:
            del self.sender.outboxes[self.chat_id]  # a private chat's queue holds no state

    async def _budget(self, op: _Op, low: bool) -> float:
        """A slot of the group's shared budget for the operation's next call: 0.0 when taken,
        else the seconds to wait."""
        assert self.sender.budget is not None
        got = await self.sender.budget(self.chat_id, low)
        if isinstance(got, float):
            return got
        op.land = got
        return 0.0

    async def _attempt(self, op: _Op) -> Any:
        """One call of the operation. Once it completed, answered or failed (or was not made
        after all), its slot of the shared budget counts from then; a call made again takes
        another."""
        try:
            return await self._call(op)
        finally:
            land, op.land = op.land, None
            if land is not None:
                await land()

    async def _pause(self, seconds: float, wake: asyncio.Event) -> None:
        """`sender.sleep(seconds)`, cut short when `wake` is set."""
        sleeping = asyncio.ensure_future(self.sender.sleep(seconds))
        woken = asyncio.ensure_future(wake.wait())
        try:
            await asyncio.wait([sleeping, woken], return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeping.cancel()
            woken.cancel()

    def _superseded(self, op: _Op) -> bool:
        return op.slot is not None and op.slot.pending is not None and op.slot.pending is not op

    @staticmethod
    def _moved(op: _Op) -> bool:
        """While the operation's last call was out, its slot took over another message (the
        one stored by another process, `Slot.take_over`): whatever Telegram answered was about
        the old message, and the new one is still to show the content."""
        return op.slot is not None and op.target is not None and op.slot.message_id != op.target

    async def _run(self, op: _Op) -> None:
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
                await self.sender.sleep(exc.retry_after)
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
                    if isinstance(content, Photo) and self.sender.pictures.known(content):
                        self.sender.pictures.forget(content)  # upload the bytes instead
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
                refused = self.sender.photos_refused
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
                await self.sender.sleep(backoff(network_failures))
                continue
            op.settle(result)
            return

    async def _spend(self, op: _Op) -> None:
        """Count the call about to be made: a token of the bucket and, for a group with a shared
        budget, a slot of it (taken by `_drain` for an operation's first call; a call made again
        after a failure waits for one of its own)."""
        if self.bucket is not None:
            self.bucket.take()
        if self.shared and op.land is None:
            while (wait := await self._budget(op, False)) > 0:
                await self.sender.sleep(wait)

    async def _call(self, op: _Op) -> Any:
        bot = self.sender.bot
        if op.delete_of is not None:
            await self._spend(op)
            return await bot.delete_message(chat_id=self.chat_id, message_id=op.delete_of)
        if op.keyboard_of is not None:
            await self._spend(op)
            return await bot.edit_message_reply_markup(
                chat_id=self.chat_id, message_id=op.keyboard_of, reply_markup=None
            )
        slot = op.slot
        if slot is None:
            reply = None if op.reply_to is None else ReplyParameters(message_id=op.reply_to)
            plain, entities = _plain(op.text)
            await self._spend(op)
            return await bot(
                _with_keyboard(
                    SendMessage(
                        chat_id=self.chat_id,
                        text=plain,
                        entities=entities,
                        reply_parameters=reply,
                    ),
                    op.markup,
                )
            )
        content = op.content()
        op.target = slot.message_id
        if slot.message_id is not None and content == slot.shown and not op.fresh:
            return True
        if slot.message_id is None and not op.fresh and slot.stored_id is not None:
            found = await slot.stored_id()
            if found is not None and found not in slot.dropped:  # another process sent it
                slot.take_over(found)
        body, markup = content
        new = slot.message_id is None or op.fresh
        as_photo = (
            isinstance(body, Photo)
            and self.chat_id not in self.sender.photos_refused
            and (not body.prefer_text or (not new and bool(slot.photo)))
        )
        op.as_photo = as_photo
        # A photo never becomes text: the text goes out as a new message, silently.
        resend = op.resend or (not new and bool(slot.photo) and not as_photo)
        await self._spend(op)
        op.target = None if new or resend else slot.message_id
        if new or resend:
            old = slot.message_id
            message = await self._send_slot(body, markup, as_photo, silent=not new)
            op.fresh = op.resend = False
            slot.message_id = message.message_id
            slot.shown, slot.photo = content, as_photo
            if old is not None:
                self.push(_Op(self.chat_id, delete_of=old))
            if slot.on_new_id is not None:
                replaced = await slot.on_new_id(message.message_id)
                if replaced is not None and replaced not in (old, message.message_id):
                    # Another process sent this slot's message new since this one read the
                    # stored id: one of the two goes, rather than both stay shown.
                    slot.dropped.add(replaced)
                    self.push(_Op(self.chat_id, delete_of=replaced))
            return message
        if isinstance(body, Photo) and as_photo:
            pictures = self.sender.pictures
            media = InputMediaPhoto(media=await pictures.media(body), caption=body.caption)
            edit_media = EditMessageMedia(chat_id=self.chat_id, message_id=op.target, media=media)
            result = await bot(_with_keyboard(edit_media, markup))
            pictures.remember(body, result)
        else:
            text, entities = _plain(body.caption if isinstance(body, Photo) else body)
            edit = EditMessageText(
                chat_id=self.chat_id, message_id=op.target, text=text, entities=entities
            )
            await bot(_with_keyboard(edit, markup))
        if slot.message_id == op.target:  # (else `_run` shows it on the one taken over)
            slot.shown, slot.photo = content, as_photo
        return True

    async def _send_slot(
        self,
        body: str | Mentioning | Photo,
        markup: Keyboard | None,
        as_photo: bool,
        *,
        silent: bool,
    ) -> Message:
        """A slot's content as a new message: a photo with its caption, or a text."""
        bot = self.sender.bot
        quiet = True if silent else None
        if isinstance(body, Photo) and as_photo:
            pictures = self.sender.pictures
            photo = await pictures.media(body)
            send_photo = SendPhoto(
                chat_id=self.chat_id,
                photo=photo,
                caption=body.caption,
                disable_notification=quiet,
            )
            message = await bot(_with_keyboard(send_photo, markup))
            pictures.remember(body, message)
            return message
        text, entities = _plain(body.caption if isinstance(body, Photo) else body)
        send = SendMessage(
            chat_id=self.chat_id, text=text, entities=entities, disable_notification=quiet
        )
        return await bot(_with_keyboard(send, markup))


M = TypeVar("M", SendMessage, EditMessageText, SendPhoto, EditMessageMedia)


def _plain(text: str | Mentioning) -> tuple[str, list[MessageEntity] | None]:
    """The text and the entities of a message's text."""
    if isinstance(text, Mentioning):
        return text.text, list(text.entities)
    return text, None


def _with_keyboard(method: M, keyboard: Keyboard | None) -> M:
    """The method with its keyboard set after validation: the JSON goes out as it is."""
    if keyboard is not None:
        method.reply_markup = keyboard  # type: ignore[assignment]
    return method


class Sender:
    """One `Outbox` per chat; groups (negative ids) are rate limited by `group_limit`."""

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
        """`budget`: the groups' budget shared with the bot's other processes (see above);
        `clock` and `sleep` are what the waits are reckoned and spent in (a test's fake time)."""
        self.bot = bot
        self.group_limit = group_limit
        self.private_limit = private_limit
        self.clock = clock
        self.budget = budget
        self.sleep = sleep
        self.outboxes: dict[int, Outbox] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.pictures = Pictures()  # the file ids of uploaded pictures
        self.photos_refused: set[int] = set()  # chats that refused a photo: text only there

    def _outbox(self, chat_id: int) -> Outbox:
        box = self.outboxes.get(chat_id)
        if box is None:
            limit = self.group_limit if chat_id < 0 else self.private_limit
            box = self.outboxes[chat_id] = Outbox(self, chat_id, limit)
        return box

    def _future(self, op: _Op, strict: bool = False) -> asyncio.Future[Any]:
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
        op = _Op(chat_id, text=text, markup=markup, reply_to=reply_to, on_forbidden=on_forbidden)
        future = self._future(op, strict)
        self._outbox(chat_id).push(op)
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
        op = _Op(slot.chat_id, slot=slot, render=render, fresh=fresh, low=low)
        slot.pending = op
        loop_future = self._future(op, strict)
        self._outbox(slot.chat_id).push(op)
        return loop_future

    def remove_keyboard(
        self, chat_id: int, message_id: int, *, low: bool = False
    ) -> asyncio.Future[Any]:
        op = _Op(chat_id, keyboard_of=message_id, low=low)
        future = self._future(op)
        self._outbox(chat_id).push(op)
        return future

    def busy(self) -> bool:
        return any(box.queue for box in self.outboxes.values()) or any(
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
        for box in self.outboxes.values():
            for op in box.queue:
                op.give_up("the sender closed")
            box.queue.clear()
