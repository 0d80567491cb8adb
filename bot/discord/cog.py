"""The slash commands, the same as on Telegram: each one hands its interaction to the Controller.

Also the listener that answers components none of the bot's DynamicItems takes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.controller import Controller
from bot.discord.items import is_ours
from bot.discord.translator import (
    command_description,
    command_name,
    localized,
    option_description,
)
from core.rules import MAX_PLAYERS

Interaction = discord.Interaction[Any]


class UnoCog(commands.Cog):
    def __init__(self, controller: Controller) -> None:
        self.c = controller

    @app_commands.command(name=command_name("new"), description=command_description("new"))
    @app_commands.guild_only()
    async def cmd_new(self, interaction: Interaction) -> None:
        await self.c.cmd_new(interaction)

    @app_commands.command(name=command_name("rematch"), description=command_description("rematch"))
    @app_commands.guild_only()
    async def cmd_rematch(self, interaction: Interaction) -> None:
        await self.c.cmd_rematch(interaction)

    @app_commands.command(name=command_name("join"), description=command_description("join"))
    @app_commands.guild_only()
    async def cmd_join(self, interaction: Interaction) -> None:
        await self.c.cmd_join(interaction)

    @app_commands.command(name=command_name("leave"), description=command_description("leave"))
    @app_commands.guild_only()
    async def cmd_leave(self, interaction: Interaction) -> None:
        await self.c.cmd_leave(interaction)

    @app_commands.command(name=command_name("start"), description=command_description("start"))
    @app_commands.guild_only()
    async def cmd_start(self, interaction: Interaction) -> None:
        await self.c.cmd_start(interaction)

    @app_commands.command(name=command_name("addbot"), description=command_description("addbot"))
    @app_commands.guild_only()
    async def cmd_addbot(self, interaction: Interaction) -> None:
        await self.c.cmd_addbot(interaction)

    @app_commands.command(name=command_name("kill"), description=command_description("kill"))
    @app_commands.guild_only()
    async def cmd_kill(self, interaction: Interaction) -> None:
        await self.c.cmd_kill(interaction)

    @app_commands.command(name=command_name("kick"), description=command_description("kick"))
    @app_commands.guild_only()
    @app_commands.rename(
        player=localized("player", "dc-kick-player-name"),
        seat=localized("seat", "dc-kick-seat-name"),
    )
    @app_commands.describe(
        player=option_description("dc-kick-player-description"),
        seat=option_description("dc-kick-seat-description"),
    )
    async def cmd_kick(
        self,
        interaction: Interaction,
        player: discord.User | None = None,
        seat: app_commands.Range[int, 1, MAX_PLAYERS] | None = None,
    ) -> None:
        """A member, or a seat number: a computer player is no member to pick."""
        await self.c.cmd_kick(interaction, None if player is None else player.id, seat)

    @cmd_kick.autocomplete("seat")
    async def kick_seat_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.c.seat_choices(interaction, str(current).strip())

    @app_commands.command(
        name=command_name("settings"), description=command_description("settings")
    )
    @app_commands.guild_only()
    async def cmd_settings(self, interaction: Interaction) -> None:
        await self.c.cmd_settings(interaction)

    @app_commands.command(name=command_name("rules"), description=command_description("rules"))
    @app_commands.guild_only()
    async def cmd_rules(self, interaction: Interaction) -> None:
        await self.c.cmd_rules(interaction)

    @app_commands.command(name=command_name("stats"), description=command_description("stats"))
    @app_commands.guild_only()
    async def cmd_stats(self, interaction: Interaction) -> None:
        await self.c.cmd_stats(interaction)

    @app_commands.command(name=command_name("help"), description=command_description("help"))
    @app_commands.guild_only()
    async def cmd_help(self, interaction: Interaction) -> None:
        await self.c.cmd_help(interaction)

    @app_commands.command(name=command_name("uno"), description=command_description("uno"))
    @app_commands.guild_only()
    async def cmd_uno(self, interaction: Interaction) -> None:
        await self.c.cmd_uno(interaction)

    @app_commands.command(
        name=command_name("challenge"), description=command_description("challenge")
    )
    @app_commands.guild_only()
    async def cmd_challenge(self, interaction: Interaction) -> None:
        await self.c.cmd_challenge(interaction)

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
        await self.c.on_unknown_component(interaction)
