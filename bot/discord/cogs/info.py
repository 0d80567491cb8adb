"""/rules, /stats and /help: texts to read, nothing changes."""

from __future__ import annotations

import dataclasses

import discord
from discord import app_commands

from bot.discord.cogs.base import FeatureCog, Interaction
from bot.discord.reply import Reply
from bot.discord.translator import command_description, command_name


class Info(FeatureCog):
    @app_commands.command(name=command_name("rules"), description=command_description("rules"))
    @app_commands.guild_only()
    async def rules(self, interaction: Interaction) -> None:
        async def handle(reply: Reply) -> None:
            key = self.chat(interaction)
            lang = await self.lang(key, interaction)
            settings = await self.service.settings.settings(key)
            await reply.send_long(
                self.texts.localize(lang, self.texts.r.rules_text(lang, settings))
            )

        await self.answer(interaction, handle)

    @app_commands.command(name=command_name("stats"), description=command_description("stats"))
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction) -> None:
        async def handle(reply: Reply) -> None:
            key = self.chat(interaction)
            lang = await self.lang(key, interaction)
            rows = await reply.run(self.service.statistics.leaderboard(key), public=True)
            safe = [
                dataclasses.replace(row, name=discord.utils.escape_markdown(row.name))
                for row in rows
            ]
            await reply.send_long(
                self.texts.localize(lang, self.texts.r.stats(lang, safe)), public=True
            )

        await self.answer(interaction, handle)

    @app_commands.command(name=command_name("help"), description=command_description("help"))
    @app_commands.guild_only()
    async def help_text(self, interaction: Interaction) -> None:
        async def handle(reply: Reply) -> None:
            lang = await self.lang(self.chat(interaction), interaction)
            await reply.send_long(self.texts.localize(lang, self.texts.r.help(lang)))

        await self.answer(interaction, handle)
