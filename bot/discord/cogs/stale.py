"""Components the bot cannot take: forged, or from a layout long gone. They get a private answer
pointing to the table and no service call, so no game changes."""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord.ext import commands

from bot.discord.cogs.base import FeatureCog, Interaction
from bot.discord.items import StaleHandler, is_ours
from bot.discord.reply import Reply
from bot.presentation.i18n import normalize_lang


class Stale(FeatureCog, StaleHandler):
    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """discord.py dispatches a component only to a DynamicItem whose template matches, and
        has no hook for the rest: without an answer here the user sees "This interaction
        failed". Every interaction passes through this event, the handled ones too, so it
        answers only ids no DynamicItem takes (`is_ours`)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, object] = interaction.data or {}
        custom_id = data.get("custom_id")
        if isinstance(custom_id, str) and is_ours(custom_id):
            return
        await self.answer_stale(interaction)

    async def answer_stale(self, interaction: Interaction) -> None:
        """In a DM there is no channel setting: the person's own language."""

        async def handle(reply: Reply) -> None:
            if interaction.guild_id is None:
                lang = normalize_lang(interaction.locale.value)
            else:
                lang = await self.lang(self.chat(interaction), interaction)
            await reply.send(self.texts.t(lang, "dc-stale-component"))

        await self.answer(interaction, handle)
