"""The lobby and a game's life: /new, /rematch, /join, /leave, /start, /addbot, /kick, /kill, the
lobby's buttons (the robots' level too) and "rematch" under a match's result."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping

import discord
from discord import app_commands

from bot.discord.cogs.base import FeatureCog, Interaction
from bot.discord.items import LobbyHandler
from bot.discord.mentions import invitation
from bot.discord.messages import no_access
from bot.discord.reply import Reply
from bot.discord.translator import (
    command_description,
    command_name,
    localized,
    option_description,
)
from bot.presentation import steps
from bot.presentation.buttons import LobbyKey
from bot.service import Notice, Outcome, User
from bot.service.views import TableView
from core.rules import MAX_PLAYERS

NO_GAME = Notice("error-no-game")
MAX_CHOICES = 25  # Discord's limit of autocomplete choices
MAX_CHOICE_NAME = 100  # and of a choice's name
Call = Callable[[str, User], Awaitable[Outcome]]


class Lobby(FeatureCog, LobbyHandler):
    # ------------------------------------------------------------------ a new lobby

    @app_commands.command(name=command_name("new"), description=command_description("new"))
    @app_commands.guild_only()
    async def new(self, interaction: Interaction) -> None:
        await self._open_lobby(interaction, self.service.lobby.new_game)

    @app_commands.command(name=command_name("rematch"), description=command_description("rematch"))
    @app_commands.guild_only()
    async def rematch(self, interaction: Interaction) -> None:
        await self._open_lobby(interaction, self.service.lobby.rematch)

    async def _open_lobby(self, interaction: Interaction, call: Call) -> None:
        """/new, /rematch: the new lobby's table message is the public answer (a rematch's
        pings the people it invites)."""

        async def handle(reply: Reply) -> None:
            key = self.chat(interaction)
            out = await reply.run(call(key, self.user(interaction)), public=True)
            lang = await self.lang(key, interaction)
            if out.error is not None or out.table is None:
                await reply.send(self.texts.notice(lang, out.error or NO_GAME))
                return
            table = out.table

            async def post() -> int:
                message_id = await self._post_lobby(reply, table, out.names)
                return message_id or (await interaction.original_response()).id

            await self.publisher.table_answered(table, post)

        await self.answer(interaction, handle)

    async def _post_lobby(
        self, reply: Reply, table: TableView, names: Mapping[str, str]
    ) -> int | None:
        """The lobby as the interaction's public answer, pinging whom a rematch invites."""
        content, view = self.texts.table_message(table, names)
        return await reply.send(content, view=view, public=True, mentions=invitation(table))

    async def press_rematch(self, interaction: Interaction, game: int) -> None:
        """The button under a match's result. Refused (a lobby is open again, an older match's
        button): a private answer and nothing else. Accepted: the result loses its button and
        the new lobby is posted as a table message."""

        async def handle(reply: Reply) -> None:
            key = self.chat(interaction)
            work = self.service.lobby.rematch(key, self.user(interaction), game_id=game)
            out = await reply.run(work, update=True)
            if out.error is not None or out.table is None:
                lang = await self.lang(key, interaction)
                await reply.send(self.texts.notice(lang, out.error or NO_GAME))
                return
            await reply.remove_view()
            table = out.table
            try:
                await self.publisher.show_table(table, out.names, invite=True)
            except discord.Forbidden as exc:
                if not no_access(exc):
                    raise
                # No right to post: the lobby goes out as this interaction's public followup,
                # which needs none.
                post = functools.partial(self._post_lobby, reply, table, out.names)
                await self.publisher.table_answered(table, post)

        await self.answer(interaction, handle)

    # ------------------------------------------------------------------ in the lobby

    async def press_lobby(self, interaction: Interaction, key: LobbyKey) -> None:
        async def handle(reply: Reply) -> None:
            chat = self.chat(interaction)
            user = self.user(interaction)
            refusal = await steps.lobby_refusal(self.service.queries, chat, key.game)
            if refusal is not None:
                lang = await self.lang(chat, interaction)
                stale = refusal == steps.STALE
                await reply.send(
                    self.texts.t(lang, "dc-stale-component")
                    if stale
                    else self.texts.notice(lang, refusal)
                )
                return
            if key.op == "join":
                work = self.service.lobby.join(chat, user)
            elif key.op == "addbot":
                work = self.service.lobby.add_bot(chat, user)
            elif key.level is not None:
                work = self.service.lobby.set_bot_level(chat, user, key.level)
            else:
                work = self.service.lobby.start_game(
                    chat, user, is_admin=self.is_admin(interaction)
                )
            out = await reply.run(work, update=True)
            if out.error is not None:
                await reply.send(self.texts.notice(await self.lang(chat, interaction), out.error))
                return
            if out.table is not None:
                await self.publisher.show_table(out.table, out.names, reply=reply)
            await reply.defer(update=True)  # a no-op when the table was the answer
            await self.publisher.publish(out, table=False, reply=reply)

        await self.answer(interaction, handle)

    async def _lobby_command(self, interaction: Interaction, call: Call) -> None:
        """/join, /addbot, /start, /leave, /kick, /kill: say what happened, update the table."""

        async def handle(reply: Reply) -> None:
            key = self.chat(interaction)
            out = await reply.run(call(key, self.user(interaction)), public=True)
            lang = await self.lang(key, interaction)
            if out.error is not None:
                await reply.send(self.texts.notice(lang, out.error))
                return
            lines = [self.texts.notice(lang, out.info)] if out.info is not None else []
            lines += self.texts.public_lines(out)
            if not lines and out.table is not None:
                lines.append(self.texts.table_message(out.table, out.names)[0])
            view = self.texts.result_view(out)
            await reply.send_long("\n".join(lines), public=True, view=view)
            await self.publisher.posted_results(out, None)
            await self.publisher.publish(out, announce=False)

        await self.answer(interaction, handle)

    @app_commands.command(name=command_name("join"), description=command_description("join"))
    @app_commands.guild_only()
    async def join(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, self.service.lobby.join)

    @app_commands.command(name=command_name("addbot"), description=command_description("addbot"))
    @app_commands.guild_only()
    async def addbot(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, self.service.lobby.add_bot)

    @app_commands.command(name=command_name("start"), description=command_description("start"))
    @app_commands.guild_only()
    async def start(self, interaction: Interaction) -> None:
        admin = self.is_admin(interaction)
        await self._lobby_command(
            interaction, lambda key, user: self.service.lobby.start_game(key, user, is_admin=admin)
        )

    @app_commands.command(name=command_name("leave"), description=command_description("leave"))
    @app_commands.guild_only()
    async def leave(self, interaction: Interaction) -> None:
        await self._lobby_command(interaction, self.service.lobby.leave)

    @app_commands.command(name=command_name("kill"), description=command_description("kill"))
    @app_commands.guild_only()
    async def kill(self, interaction: Interaction) -> None:
        admin = self.is_admin(interaction)
        await self._lobby_command(
            interaction, lambda key, user: self.service.lobby.kill(key, user, is_admin=admin)
        )

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
    async def kick(
        self,
        interaction: Interaction,
        player: discord.User | None = None,
        seat: app_commands.Range[int, 1, MAX_PLAYERS] | None = None,
    ) -> None:
        """A member, or a seat number (a computer player is no member to pick): exactly one of
        them. The service checks the rights, then who sits in that seat."""
        if (player is None) == (seat is None):

            async def usage(reply: Reply) -> None:
                lang = await self.lang(self.chat(interaction), interaction)
                await reply.send(self.texts.t(lang, "dc-kick-usage"))

            await self.answer(interaction, usage)
            return
        admin = self.is_admin(interaction)

        async def kick_one(key: str, user: User) -> Outcome:
            if seat is not None:
                return await self.service.lobby.kick_seat(key, user, seat, is_admin=admin)
            assert player is not None
            return await self.service.lobby.kick(key, user, str(player.id), is_admin=admin)

        await self._lobby_command(interaction, kick_one)

    @kick.autocomplete("seat")
    async def seat_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """/kick's seat suggestions, "3. <name>": the running table does not number its
        players, and a computer player has no member to pick. Only seats whose number starts
        with what was typed."""
        typed = str(current).strip()
        out = await self.service.queries.table(self.chat(interaction))
        if out.table is None:
            return []
        choices = []
        for number, seat in enumerate(out.table.seats, 1):
            if typed and not str(number).startswith(typed):
                continue
            label = f"{number}. {self.texts.r.name(out.lang, seat.id, out.names)}"  # plain text
            choices.append(app_commands.Choice(name=label[:MAX_CHOICE_NAME], value=number))
        return choices[:MAX_CHOICES]
