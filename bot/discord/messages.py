"""The Discord message operations (`bot.discord.message_ops.MessageOps`): a game's table, results,
hands and turn prompts rendered by `Texts` and sent, edited or deleted with one call each.

The table and the prompts are channel messages, edited through the channel (a bot's own message
has no token to expire); a hand is a direct message, or an ephemeral edited through its
interaction's token while that lasts. Every call is REST on an id: none needs the channel or the
guild in this process's cache. Refusals come back as results (`False`, `None`, `DmClosed`); what
else Discord refuses is raised.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Mapping

import discord
from discord import ui

from bot.discord import layout
from bot.discord.chats import channel_of
from bot.discord.emoji import top_card_embeds
from bot.discord.items import lobby_id
from bot.discord.mentions import invitation
from bot.discord.message_ops import DmClosed, Live
from bot.discord.reply import Reply, SharedHand, chunks, send_options
from bot.discord.texts import Texts
from bot.presentation.buttons import LOBBY_OPS
from bot.service import Outcome
from bot.service.views import HandView, TableView, is_bot

log = logging.getLogger(__name__)
NO_ACCESS = 50013  # Discord's code: the bot may not post in the channel
DMS_CLOSED = 50007  # and: the user takes no direct messages from the bot


def no_access(exc: discord.Forbidden) -> bool:
    return exc.code == NO_ACCESS


@contextlib.contextmanager
def _dm_refusal() -> Iterator[None]:
    """A DM refused because the player closed their DMs is `DmClosed`."""
    try:
        yield
    except discord.Forbidden as exc:
        if exc.code != DMS_CLOSED:
            raise
        raise DmClosed from exc


class Messages:
    def __init__(self, client: discord.Client, texts: Texts) -> None:
        self.client = client
        self.texts = texts

    def _channel(self, chat_key: str) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_of(chat_key) or 0)

    # ------------------------------------------------------------------ the table

    def clicked(self, reply: Reply, game_id: int) -> tuple[int | None, bool]:
        message = reply.interaction.message
        if message is None:
            return None, False
        ids = {lobby_id(game_id, op) for op in LOBBY_OPS}
        lobby = any(
            getattr(child, "custom_id", None) in ids
            for row in message.components
            for child in getattr(row, "children", ())
        )
        return message.id, lobby

    async def defer(self, reply: Reply) -> None:
        await reply.defer(update=True)

    async def answer_with_table(
        self, reply: Reply, table: TableView, names: Mapping[str, str]
    ) -> None:
        content, view = self.texts.table_message(table, names)
        await reply.update(content, view, embeds=self._embeds(table))

    async def edit_table(self, table: TableView, names: Mapping[str, str], ref: str) -> bool:
        content, view = self.texts.table_message(table, names)
        try:
            message = self._channel(table.chat_key).get_partial_message(int(ref))
            await message.edit(content=content, view=view, embeds=self._embeds(table))
        except discord.HTTPException as exc:
            # Deleted (10008), or not editable with the bot's token.
            log.info("table of game %s not edited (%s)", table.game_id, exc)
            return False
        return True

    async def post_table(self, table: TableView, names: Mapping[str, str], *, invite: bool) -> int:
        content, view = self.texts.table_message(table, names)
        mentions = invitation(table) if invite else None
        options = send_options(view, mentions)
        channel = self._channel(table.chat_key)
        message = await channel.send(content, embeds=self._embeds(table), **options)
        return message.id

    async def drop_table(self, chat_key: str, message_id: int) -> None:
        message = self._channel(chat_key).get_partial_message(message_id)
        try:
            await message.delete()
        except discord.HTTPException as exc:
            log.info("duplicate table %s not deleted (%s): its buttons go", message_id, exc)
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=None)

    def _embeds(self, table: TableView) -> list[discord.Embed]:
        return top_card_embeds(table, self.texts.emoji, self.texts.r)

    # ------------------------------------------------------------------ results

    async def post_results(self, out: Outcome, reply: Reply | None) -> int | None:
        """Without the right to post (403 50013) the results are not lost: the person who acted
        gets them privately (with the rematch button), the creator by DM."""
        texts = self.texts.announcements(out)
        if not texts:
            return None
        text, view = "\n".join(texts), self.texts.result_view(out)
        try:
            return await self._post(out.chat_key, text, view=view)
        except discord.Forbidden as exc:
            if not no_access(exc):
                raise
        log.info("no right to post in %s: results told privately", out.chat_key)
        actor = None
        if reply is not None:
            actor = str(reply.interaction.user.id)
            notice = self.texts.t(out.lang, "dc-no-access")
            await reply.send_long(notice + "\n\n" + text, view=view)
        creator = out.table.creator if out.table is not None else None
        if creator is not None and creator != actor and not is_bot(creator):
            await self._tell_creator(out, creator, text)
        return None

    async def _tell_creator(self, out: Outcome, creator: str, text: str) -> None:
        channel = f"<#{channel_of(out.chat_key)}>"
        notice = self.texts.t(
            out.lang, "dc-no-access-creator", mention=f"<@{creator}>", channel=channel
        )
        try:
            dm = await self.client.create_dm(discord.Object(int(creator)))
            for part in chunks(notice + "\n\n" + text):
                await dm.send(part)
        except discord.Forbidden as exc:
            log.info("creator %s not told of the missing right (%s)", creator, exc.code)

    async def _post(
        self,
        chat_key: str,
        text: str,
        *,
        mentions: discord.AllowedMentions | None = None,
        view: ui.View | None = None,
    ) -> int | None:
        """`text` in the channel, in as many messages as it takes; `view` under the last one.
        Returns the last message's id."""
        if channel_of(chat_key) is None:
            return None
        channel = self._channel(chat_key)
        parts = chunks(text)
        message_id = None
        for i, part in enumerate(parts, 1):
            last = i == len(parts)
            sent = await channel.send(part, **send_options(view if last else None, mentions))
            message_id = sent.id
        return message_id

    # ------------------------------------------------------------------ hands

    def _hand(self, hand: HandView, out: Outcome, *, by_dm: bool) -> tuple[str, ui.View | None]:
        """The hand with what only its player may read of `out`; by DM, under the channel."""
        private = self.texts.private_notes(out, hand.player, hand.colorblind)
        header = None
        if by_dm:
            header = self.texts.t(
                hand.lang, "dc-dm-header", channel=f"<#{channel_of(hand.chat_key)}>"
            )
        return self.texts.hand_message(hand, out.names, private, header=header)

    def _dm(self, ref: str) -> discord.PartialMessage:
        dm_id, message_id = (int(x) for x in ref.split(":"))
        dm = self.client.get_partial_messageable(dm_id, type=discord.ChannelType.private)
        return dm.get_partial_message(message_id)

    async def edit_dm(self, ref: str, hand: HandView, out: Outcome) -> bool:
        content, view = self._hand(hand, out, by_dm=True)
        with _dm_refusal():
            try:
                await self._dm(ref).edit(content=content, view=view)
            except discord.NotFound:
                return False
        return True

    async def delete_dm(self, ref: str) -> bool:
        with _dm_refusal():
            try:
                await self._dm(ref).delete()
            except discord.NotFound:
                return False
        return True

    async def send_dm(self, hand: HandView, out: Outcome) -> str:
        content, view = self._hand(hand, out, by_dm=True)
        with _dm_refusal():
            channel = await self.client.create_dm(discord.Object(int(hand.player)))
            message = await channel.send(content, **send_options(view))
        return f"{channel.id}:{message.id}"

    async def tell_dm_closed(self, hand: HandView) -> None:
        text = self.texts.t(hand.lang, "dc-dm-closed", mention=f"<@{hand.player}>")
        mentions = discord.AllowedMentions(users=[discord.Object(int(hand.player))])
        await self._post(hand.chat_key, text, mentions=mentions)

    def shared_hand(self, ref: str) -> SharedHand | None:
        return SharedHand.of(self.client, ref)

    async def edit_live(self, live: Live, hand: HandView, out: Outcome) -> bool:
        content, view = self._hand(hand, out, by_dm=False)
        try:
            await live.edit(content, view)
        except discord.HTTPException as exc:
            log.info("ephemeral hand of %s not updated (%s)", hand.player, exc.code)
            return False
        return True

    # ------------------------------------------------------------------ turn prompts

    async def post_prompt(self, hand: HandView, *, ping: bool) -> str | None:
        channel_id = channel_of(hand.chat_key)
        if channel_id is None:
            return None
        text = self.texts.t(hand.lang, "dc-turn-prompt", mention=f"<@{hand.player}>")
        users = [discord.Object(int(hand.player))] if ping else []
        mentions = discord.AllowedMentions(users=users, everyone=False, roles=False)
        view = layout.my_cards_view(hand.game_id, hand.lang, self.texts.r)
        channel = self.client.get_partial_messageable(channel_id)
        try:
            message = await channel.send(text, **send_options(view, mentions))
        except discord.Forbidden as exc:
            log.info("turn prompt for %s not posted (%s)", hand.player, exc.code)
            return None
        return f"{channel_id}:{message.id}"

    async def delete_prompt(self, ref: str) -> None:
        channel_id, message_id = (int(x) for x in ref.split(":"))
        channel = self.client.get_partial_messageable(channel_id)
        with contextlib.suppress(discord.NotFound):
            await channel.get_partial_message(message_id).delete()
