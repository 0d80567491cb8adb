"""/settings: the chat's settings panel, its menus, and each member's own switches in it."""

from __future__ import annotations

import dataclasses

from discord import app_commands

from bot.discord import layout
from bot.discord.chats import DM_HANDS, TURN_PING, personal_key
from bot.discord.cogs.base import FeatureCog, Interaction
from bot.discord.items import SettingsHandler
from bot.discord.publisher import safely
from bot.discord.reply import Reply, fit
from bot.discord.texts import Message
from bot.discord.translator import command_description, command_name


class SettingsPanel(FeatureCog, SettingsHandler):
    @app_commands.command(
        name=command_name("settings"), description=command_description("settings")
    )
    @app_commands.guild_only()
    async def settings(self, interaction: Interaction) -> None:
        async def handle(reply: Reply) -> None:
            key = self.chat(interaction)
            lang = await self.lang(key, interaction)
            content, view = await self.panel(lang, key, str(interaction.user.id))
            await reply.send(content, view=view)

        await self.answer(interaction, handle)

    async def panel(self, lang: str, key: str, player: str) -> Message:
        """The settings panel as `player` sees it: "cards by DM" and the turn ping are theirs."""
        settings = await self.service.settings.settings(key)
        own = dataclasses.replace(settings, dm_hands=await self.switches.wants_dm(player, settings))
        return self.texts.settings_message(lang, own, ping=await self.switches.wants_ping(player))

    async def choose_setting(self, interaction: Interaction, menu: str, value: str) -> None:
        async def handle(reply: Reply) -> None:
            key = self.chat(interaction)
            user = self.user(interaction)
            setting = value if menu == "toggle" else menu
            if setting in (DM_HANDS, TURN_PING):
                # A personal choice: every member decides where their own hand goes and whether
                # their turn pings them. The flip happens in the service, under a lock, so two
                # quick presses are two flips.
                default = (
                    setting == DM_HANDS and (await self.service.settings.settings(key)).dm_hands
                )
                await reply.run(
                    self.service.settings.toggle_personal(
                        personal_key(user.id), setting, default=default
                    ),
                    update=True,
                )
                self.switches.changed(user.id)
                lang = await self.lang(key, interaction)
                content, view = await self.panel(lang, key, user.id)
                await reply.update(content, view)
                return
            admin = self.is_admin(interaction)
            if menu == "toggle":
                if value not in layout.TOGGLES:
                    raise ValueError(f"unknown switch {value!r}")
                # Never read-then-set here: the service flips under the chat's lock.
                work = self.service.settings.toggle_setting(key, user, value, is_admin=admin)
            else:
                work = self.service.settings.change_setting(
                    key, user, setting, value, is_admin=admin
                )
            out = await reply.run(work, update=True)
            if out.error is None:
                self.switches.changed()
            lang = await self.lang(key, interaction)
            content, view = await self.panel(lang, key, user.id)
            if out.error is not None:
                content = fit(self.texts.notice(lang, out.error) + "\n\n" + content)
            await reply.update(content, view)
            if out.error is None and out.table is not None:
                await safely(self.publisher.show_table(out.table, out.names), "edit the table")

        await self.answer(interaction, handle)
