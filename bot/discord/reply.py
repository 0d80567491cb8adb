"""Answering one interaction in time, exactly once, and following up afterwards.

Discord drops an interaction neither answered nor deferred within 3 seconds: `Reply.run` defers
when the work outlasts `defer_after` on its `Clock`, and `send` and `update` pick the right call
(the first response, the deferred original, or a followup). An ephemeral hand is edited later
through its interaction's token while that is safely alive (`LiveHand`), and by another process
through the interaction's webhook (`SharedHand`, from what `LiveHand.ref` stored).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

import discord
from discord import ui

T = TypeVar("T")
DEFER_AFTER = 1.5  # seconds of work after which an interaction is deferred
MAX_CONTENT = 2000
# An interaction token lasts 15 minutes; an ephemeral message is never edited after this.
TOKEN_SAFE_AGE = dt.timedelta(minutes=14)
# Discord's name of an interaction's original response in the webhook routes, where discord.py's
# `Webhook.edit_message` takes a message id (typed an int; the route takes either).
ORIGINAL: Final[Any] = "@original"


class Clock(Protocol):
    """Seconds that only go forward, and a wait on them: the monotonic clock, or in tests the
    fake Discord's simulated one (a busy machine never defers by accident)."""

    def __call__(self) -> float: ...

    async def sleep_until(self, at: float) -> None: ...


class MonotonicClock:
    """The process's monotonic clock: what the bot measures its deferrals on."""

    def __call__(self) -> float:
        return time.monotonic()

    async def sleep_until(self, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()))


MONOTONIC = MonotonicClock()


def chunks(text: str, size: int = MAX_CONTENT) -> list[str]:
    """`text` split at line ends into messages Discord accepts."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > size:
            if current:
                out.append(current)
                current = ""
            out.append(line[:size])
            line = line[size:]
        candidate = line if not current else current + "\n" + line
        if len(candidate) > size:
            out.append(current)
            current = line
        else:
            current = candidate
    if current or not out:
        out.append(current or "\u200b")
    return out


def send_options(
    view: ui.View | None, mentions: discord.AllowedMentions | None = None
) -> dict[str, Any]:
    """The optional keyword arguments of a send, which takes no None for them."""
    given: dict[str, Any] = {}
    if view is not None:
        given["view"] = view
    if mentions is not None:
        given["allowed_mentions"] = mentions
    return given


def fit(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


class Reply:
    """The answer to one interaction."""

    def __init__(
        self,
        interaction: discord.Interaction[Any],
        *,
        defer_after: float,
        clock: Clock = MONOTONIC,
    ) -> None:
        self.interaction = interaction
        self.defer_after = defer_after
        self.clock = clock
        self.started = clock()
        self.deferred: str | None = None  # "update", "public" or "ephemeral"
        self.original_id: int | None = None  # the message the response created or updated
        self.results: list[Any] = []  # what `run` returned, in order (the service's outcomes)

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def run(self, work: Awaitable[T], *, update: bool = False, public: bool = False) -> T:
        """The result of `work`; defer meanwhile if it takes long.

        `update`: a component interaction that will edit its own message. Otherwise the answer is
        a new message, public or not (an error can still go privately after a public defer).
        """
        task = asyncio.ensure_future(work)
        if not self.done:
            timer = asyncio.ensure_future(self.clock.sleep_until(self.started + self.defer_after))
            try:
                await asyncio.wait({task, timer}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                timer.cancel()
            if not task.done():
                await self.defer(update=update, public=public)
        result = await task
        self.results.append(result)
        return result

    async def defer(self, *, update: bool = False, public: bool = False) -> None:
        if self.done:
            return
        response = self.interaction.response
        if update:
            await response.defer()
            self.deferred = "update"
        else:
            await response.defer(ephemeral=not public, thinking=True)
            self.deferred = "public" if public else "ephemeral"

    async def send(
        self,
        content: str,
        *,
        view: ui.View | None = None,
        public: bool = False,
        mentions: discord.AllowedMentions | None = None,
    ) -> int | None:
        """A new message (the response, the deferred original or a followup); its id.

        `mentions` (who may be pinged) need a message that is created: an edit notifies nobody,
        the deferred original included. After a public defer, such a message replaces the
        "thinking..." placeholder as a followup of its own.
        """
        extra = send_options(view, mentions)
        content = fit(content)
        if not self.done:
            callback = await self.interaction.response.send_message(
                content, ephemeral=not public, **extra
            )
            self.original_id = callback.message_id
            return self.original_id
        if self.deferred in ("public", "ephemeral") and self.original_id is None:
            if (self.deferred == "public") == public and mentions is None:
                edited = await self.interaction.edit_original_response(content=content, view=view)
                self.original_id = edited.id
                return edited.id
            # A private answer after a public "thinking...", or one that pings: drop the
            # placeholder.
            await self.interaction.delete_original_response()
            self.original_id = 0
        message = await self.interaction.followup.send(
            content, ephemeral=not public, wait=True, **extra
        )
        return message.id

    async def send_long(
        self, text: str, *, public: bool = False, view: ui.View | None = None
    ) -> None:
        """`text` in as many messages as it takes; `view` goes under the last one."""
        parts = chunks(text)
        for i, part in enumerate(parts, 1):
            await self.send(part, public=public, view=view if i == len(parts) else None)

    async def update(
        self, content: str, view: ui.View | None, *, embeds: list[discord.Embed] | None = None
    ) -> None:
        """Edit the message whose component was used; `embeds` None keeps its embeds."""
        content = fit(content)
        extra: dict[str, Any] = {} if embeds is None else {"embeds": embeds}
        if not self.done:
            callback = await self.interaction.response.edit_message(
                content=content, view=view, **extra
            )
            message_id = None if callback is None else callback.message_id
            if message_id is None and self.interaction.message is not None:
                message_id = self.interaction.message.id
            self.original_id = message_id
            return
        message = await self.interaction.edit_original_response(content=content, view=view, **extra)
        self.original_id = message.id

    async def remove_view(self) -> None:
        """Take the components off the message whose component was used; its text stays."""
        if not self.done:
            await self.interaction.response.edit_message(view=None)
            return
        await self.interaction.edit_original_response(view=None)

    def live(self, message_id: int | None) -> LiveHand:
        """The hand just sent as `message_id`, to be kept up to date while the token lasts."""
        own = message_id is None or message_id == self.original_id
        return LiveHand(self.interaction, None if own else message_id)


@dataclass
class LiveHand:
    """A player's hand shown in an ephemeral message, and the interaction that may edit it."""

    interaction: discord.Interaction[Any]
    message_id: int | None  # a followup; None: the interaction's original response
    version: int = -1  # the version of the hand it shows

    def fresh(self) -> bool:
        return _fresh(self.interaction.id)

    async def edit(self, content: str, view: ui.View | None) -> None:
        content = fit(content)
        if self.message_id is None:
            await self.interaction.edit_original_response(content=content, view=view)
        else:
            await self.interaction.followup.edit_message(
                self.message_id, content=content, view=view
            )

    def ref(self) -> str:
        """What another process needs to edit this message (`SharedHand.of`)."""
        target = "" if self.message_id is None else str(self.message_id)
        return f"{self.interaction.id}:{target}:{self.interaction.token}"


@dataclass
class SharedHand:
    """An ephemeral hand that another process of the bot answered, edited here through its
    interaction's webhook while the token lasts (see the module's docstring)."""

    webhook: discord.Webhook
    interaction_id: int
    message_id: int | None  # a followup; None: the interaction's original response
    version: int = -1

    @classmethod
    def of(cls, client: discord.Client, ref: str) -> SharedHand | None:
        """The hand of a `LiveHand.ref` (None: not one, or the bot has no application id)."""
        interaction_id, _, rest = ref.partition(":")
        target, _, token = rest.partition(":")
        if not (interaction_id.isdigit() and (target == "" or target.isdigit()) and token):
            return None
        if client.application_id is None:
            return None
        webhook = discord.Webhook.partial(client.application_id, token, client=client)
        return cls(webhook, int(interaction_id), int(target) if target else None)

    def fresh(self) -> bool:
        return _fresh(self.interaction_id)

    async def edit(self, content: str, view: ui.View | None) -> None:
        target = ORIGINAL if self.message_id is None else self.message_id
        await self.webhook.edit_message(target, content=fit(content), view=view)


def _fresh(interaction_id: int) -> bool:
    """Whether the token of the interaction is safely alive (its id tells when it was made)."""
    return discord.utils.utcnow() - discord.utils.snowflake_time(interaction_id) < TOKEN_SAFE_AGE
