"""The Discord bot: a `commands.Bot` wiring its parts, the cogs, the DynamicItems, the translator,
the timers and the outbox. `run_discord(settings, service)` is what `python -m bot` runs when
`DISCORD_TOKEN` is set.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord.ext import commands

from bot.config import Settings
from bot.delivery.outbox_loop import Delivery
from bot.delivery.timer_loop import TimerLoop
from bot.discord.chats import PREFIX
from bot.discord.cogs.base import FeatureCog, Parts
from bot.discord.cogs.info import Info
from bot.discord.cogs.lobby import Lobby
from bot.discord.cogs.play import Play
from bot.discord.cogs.settings import SettingsPanel
from bot.discord.cogs.stale import Stale
from bot.discord.emoji import CardEmoji
from bot.discord.items import DYNAMIC_ITEMS
from bot.discord.messages import Messages
from bot.discord.publisher import Publisher
from bot.discord.reply import DEFER_AFTER, MONOTONIC, Clock
from bot.discord.switches import Switches
from bot.discord.texts import Texts
from bot.discord.translator import FluentTranslator
from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service import Service

log = logging.getLogger(__name__)
TIMER_RETRY = 5.0  # seconds before the timer loop starts again after a failure
COGS: tuple[type[FeatureCog], ...] = (Lobby, Play, SettingsPanel, Info, Stale)


class UnoBot(commands.Bot):
    def __init__(
        self,
        service: Service,
        *,
        renderer: Renderer | None = None,
        sync_commands: bool = False,
        timers: bool = True,
        defer_after: float = DEFER_AFTER,
        clock: Clock = MONOTONIC,
        card_emoji: bool = True,
        **options: Any,
    ) -> None:
        """`card_emoji`: upload the card art as application emoji at start (`bot.discord.emoji`);
        without it, cards are text. `clock`: what `defer_after` is measured on."""
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.service = service
        self.emoji = CardEmoji(self)  # empty unless started: then cards are text only
        self.texts = Texts(renderer or Renderer(get_i18n()), self.emoji)
        self.switches = Switches(service)
        self.publisher = Publisher(service, Messages(self, self.texts), self.switches)
        self.parts = Parts(service, self.texts, self.publisher, self.switches, defer_after, clock)
        self.delivery: Delivery | None = None  # the outbox of the Discord channels (on setup)
        self._sync_commands = sync_commands
        self._timers = timers
        self._card_emoji = card_emoji
        self.timers = TimerLoop(
            service.clock, self.publisher.publish_timed, prefix=PREFIX, retry=TIMER_RETRY
        )

    async def setup_hook(self) -> None:
        await self.tree.set_translator(FluentTranslator(self.texts.r.i18n))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for cog in COGS:
            await self.add_cog(cog(self.parts))
        if self._card_emoji:
            await self.emoji.start()  # the list awaited, missing ones uploaded meanwhile
        # From now on commits of the Discord channels write outbox entries. Before the timers:
        # what a stopped process committed but had not shown (its results), then every running
        # game's table and whose turn it is.
        self.delivery = self.publisher.delivery = Delivery(self.service.outbox, PREFIX)
        await self.delivery.start(self.publisher.publish_timed)
        await self.publisher.show_open_games()
        if self._timers:
            self.timers.start()
        if self._sync_commands:
            synced = await self.tree.sync()
            log.info("synced %d slash commands", len(synced))

    async def close(self) -> None:
        await self.timers.stop()
        await self.emoji.close()
        if self.delivery is not None:
            await self.delivery.stop()
            with contextlib.suppress(TimeoutError):  # its outbox entries marked sent, or not
                await self.delivery.settled(5.0)
        await super().close()


class ShardedUnoBot(UnoBot, commands.AutoShardedBot):
    """The bot with its shards set: `shard_count` shards in all, of which this process runs
    `shard_ids` (None: every one). With the shards split across processes over one PostgreSQL
    database, any process may answer any interaction (Discord sends a guild's to its shard's
    process and every DM's to shard 0's): the game is in the database, each deadline and outbox
    entry is claimed by one process (`bot.service.clock`, `bot.delivery.outbox_loop`), and what the
    publisher remembers is checked against the database (`bot.discord.publisher`)."""


def create_bot(settings: Settings, service: Service, **kwargs: Any) -> UnoBot:
    """One bot connection (one shard), or with DISCORD_SHARD_COUNT set, the shards of
    DISCORD_SHARD_IDS (all of them when unset) of that many."""
    if settings.discord_shard_count is None:
        return UnoBot(service, **kwargs)
    return ShardedUnoBot(
        service,
        shard_count=settings.discord_shard_count,
        shard_ids=settings.discord_shard_ids,
        **kwargs,
    )


async def run_discord(settings: Settings, service: Service) -> None:
    """Run the bot until it is closed; the token comes from `.env` and is never logged."""
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    bot = create_bot(settings, service, sync_commands=True)
    async with bot:
        await bot.start(settings.discord_token.get_secret_value())
