"""What every feature's cog shares: the parts of the bot it works with, and `answer`, which runs
a handler so that its interaction is answered in time, exactly once, whatever fails."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.discord.chats import PLATFORM, chat_key
from bot.discord.publisher import Publisher
from bot.discord.reply import DEFER_AFTER, MONOTONIC, Clock, Reply
from bot.discord.switches import Switches
from bot.discord.texts import Texts
from bot.presentation.i18n import normalize_lang
from bot.service import Service, User

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
Handler = Callable[[Reply], Awaitable[None]]


@dataclass(frozen=True)
class Parts:
    """The bot's parts the cogs work with (`bot.discord.app` makes them)."""

    service: Service
    texts: Texts
    publisher: Publisher
    switches: Switches
    defer_after: float = DEFER_AFTER  # seconds of work after which an answer is deferred
    clock: Clock = MONOTONIC  # what `defer_after` is measured on (tests give a simulated one)


def locale_hint(interaction: Interaction) -> str | None:
    """The guild's locale: the language of a chat that has chosen none."""
    locale = interaction.guild_locale
    return None if locale is None else locale.value


class FeatureCog(commands.Cog):
    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.service = parts.service
        self.texts = parts.texts
        self.publisher = parts.publisher
        self.switches = parts.switches

    async def answer(self, interaction: Interaction, handler: Handler) -> None:
        """Run a handler; whatever fails, the user gets an answer and the error is logged. The
        outbox entries of the outcomes it got are settled: done with, or, if it failed, back
        later (`Publisher.settle`)."""
        reply = Reply(interaction, defer_after=self.parts.defer_after, clock=self.parts.clock)
        try:
            await handler(reply)
        except Exception as exc:
            log.exception("interaction %s failed", interaction.id)
            self.publisher.settle(reply.results, exc)
            lang = normalize_lang(locale_hint(interaction))
            try:
                await reply.send(self.texts.t(lang, "dc-error-internal"))
            except Exception:
                log.exception("could not tell the user about the failure")
        else:
            self.publisher.settle(reply.results)

    @staticmethod
    def chat(interaction: Interaction) -> str:
        """The chat of the interaction's channel."""
        return chat_key(interaction.channel_id)

    @staticmethod
    def user(interaction: Interaction) -> User:
        """The acting user; their guild's locale decides the language of a new chat."""
        who = interaction.user
        return User.of(PLATFORM, who.id, who.display_name, locale_hint(interaction))

    @staticmethod
    def is_admin(interaction: Interaction) -> bool:
        if interaction.guild is None:
            return False
        perms = interaction.permissions
        return perms.administrator or perms.manage_guild

    async def lang(self, key: str, interaction: Interaction) -> str:
        """The chat's language: its setting, else the guild's locale, else Russian."""
        if not key:
            return normalize_lang(locale_hint(interaction))
        return await self.service.settings.lang(key, locale_hint(interaction))
