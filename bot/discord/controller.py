"""What the Discord bot does: interactions in, service calls, and the messages that follow.

The Cog's slash commands and the `DynamicItem`s call the `on_*` methods here; timer outcomes come
through `publish`. One chat is one channel (`dc:<channel id>`), a user is their Discord id.

What goes where:

- The table: one public message per game, edited in place through the channel (a bot's own
  message has no token to expire). Its id is kept with the game's refs (`service.refs`,
  `dc:table`), so a restarted bot edits the same message.
- A hand: an ephemeral message answering "my cards" (or a hand button). The bot keeps the latest
  such interaction per player and edits that message when the hand changes, but only while its
  token is younger than 14 minutes; after that the player presses "my cards" again. With the
  chat setting `dm_hands` (or the member's own choice), the hand is one direct message per game
  and player, edited in place; closed DMs (50007) are explained once in the channel (a stored
  mark, `bot.presentation.notes`) and the ephemeral hand is used instead.
- A move reads nothing but what the service's answer carries: its language and the views' flags.
  The refs a game's messages need are read once per game, and where each player's hand goes is
  decided once per game (again after a settings change here).
- What a commit must show is in the service's outbox too (`bot.delivery.outbox_loop`): once an
  interaction or a timer's outcome has been handled, its entries are marked sent; at start, what a
  stopped process committed but had not shown is published again (the table edited, the results
  posted once: a posted result is recorded with its entry).
- Several processes (shards split across processes over one PostgreSQL database: `shared`): an
  interaction is answered by the process that received it (a guild's by its shard's, a DM's by
  shard 0's), but any process may publish any game (a move made in a DM, a deadline or an outbox
  entry it claimed). Nothing another process may have changed is trusted from memory: an
  ephemeral hand's interaction token is stored with the game (`LIVE_REF`, for its 15 minutes),
  so any process edits that hand; whose turn began is the service's word (`turn_began`); the
  refs are read again once another process committed since this one showed the game, and before
  a message is posted anew (a missing one is never remembered); after publishing, a newer
  committed state is looked up and shown (`_converge`); where a hand goes is decided each time.
  No call needs the channel or the guild in this process's cache: every one is REST on an id.
- One table message per game, even when two processes post one at once (a lobby still being
  posted by one while another deals): the first to store its message id wins
  (`service.refs.claim`), and the other deletes its own message, lobby buttons and all, and
  shows the newest state in the stored one (`_table_lost`).
- Public results (a round, a caught UNO, a challenge, someone leaving) are posted in the channel;
  what only one player may see (their drawn cards, a challenged hand) goes only to that player.
  The message announcing a match's result carries a "rematch" button; pressed, it loses the
  button and the new lobby is posted as a table message of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any

import discord
from cachetools import LRUCache
from discord import app_commands, ui

from bot.delivery.outbox_loop import Delivery
from bot.discord import layout
from bot.discord.emoji import CardEmoji, top_card_embeds
from bot.discord.hand_row import ROOM_LEFT, hand_row
from bot.discord.items import lobby_id
from bot.discord.mentions import invitation, with_mentions
from bot.discord.reply import (
    DEFER_AFTER,
    MAX_CONTENT,
    MONOTONIC,
    Clock,
    LiveHand,
    Reply,
    SharedHand,
    chunks,
    fit,
)
from bot.presentation import notes, steps
from bot.presentation.buttons import LOBBY_OPS, HandKey, LobbyKey
from bot.presentation.i18n import COMMANDS, Arg, normalize_lang
from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, UnoService, User, chat_keys, public_event
from bot.service.chat_settings import ChatSettings
from bot.service.views import HandView, TableView, is_bot

log = logging.getLogger(__name__)

PREFIX = chat_keys.prefix(chat_keys.DISCORD)
TABLE_REF = "dc:table"  # the table message's id
DM_REF = "dc:dm:"  # + user id: "<DM channel id>:<message id>" of the player's hand by DM
TURN_REF = "dc:turn:"  # + user id: the channel message telling them it is their turn ("" gone)
LIVE_REF = "dc:live:"  # + user id: their ephemeral hand, for other processes (`LiveHand.ref`)
TURN_PING = layout.TURN_PING  # a member's own switch: notify me when my turn begins
RESULTS = "results"  # the item of an outcome's posted results (see `bot.delivery.outbox_loop`)
NO_GAME = Notice("error-no-game")
# Ten players with 32-character names overflow a message: names are cut until the table fits.
NAME_LIMITS: tuple[int | None, ...] = (None, 20, 12, 8)
MAX_CHOICES = 25  # Discord's limit of autocomplete choices
MAX_CHOICE_NAME = 100  # and of a choice's name
KEPT_GAMES = 10_000  # games whose messages a process remembers (the least recently shown go)
_COMMAND_RE = re.compile(r"/(" + "|".join(sorted(COMMANDS, key=len, reverse=True)) + r")\b")


def shorten(names: Mapping[str, str], limit: int | None) -> Mapping[str, str]:
    """Names cut to `limit` characters (None: whole), so that a full table fits one message."""
    if limit is None:
        return names
    return {k: v if len(v) <= limit else v[: limit - 1] + "…" for k, v in names.items()}


def chat_key(channel_id: int | None) -> str:
    return chat_keys.chat_key(chat_keys.DISCORD, channel_id or 0)


def channel_of(key: str) -> int | None:
    return chat_keys.chat_id(key, chat_keys.DISCORD)


def _extras(
    view: ui.View | None, mentions: discord.AllowedMentions | None = None
) -> dict[str, Any]:
    """Optional keyword arguments of `send`, which takes no None for them."""
    extras: dict[str, Any] = {}
    if view is not None:
        extras["view"] = view
    if mentions is not None:
        extras["allowed_mentions"] = mentions
    return extras


class _Games(LRUCache[int, int]):
    """An LRU cache whose evicted games are forgotten (`Controller.forget`)."""

    def __init__(self, maxsize: int, forget: Callable[[int], None]) -> None:
        super().__init__(maxsize)
        self._forget = forget

    def popitem(self) -> tuple[int, int]:
        game_id, version = super().popitem()
        self._forget(game_id)
        return game_id, version


def _is_lobby(message: discord.Message, game_id: int) -> bool:
    """Whether `message` carries the game's lobby buttons (only its lobby does)."""
    ids = {lobby_id(game_id, op) for op in LOBBY_OPS}
    return any(
        getattr(child, "custom_id", None) in ids
        for row in message.components
        for child in getattr(row, "children", ())
    )


def _hint(interaction: discord.Interaction[Any]) -> str | None:
    locale = interaction.guild_locale
    return None if locale is None else locale.value


class Controller:
    def __init__(
        self,
        client: discord.Client,
        service: UnoService,
        renderer: Renderer,
        *,
        defer_after: float = DEFER_AFTER,
        clock: Clock = MONOTONIC,
    ) -> None:
        """`clock`: what `defer_after` is measured on (tests give a simulated one)."""
        self.client = client
        self.service = service
        self.r = renderer
        self.defer_after = defer_after
        self.clock = clock
        self.emoji = CardEmoji(client)  # empty unless started: then cards are text only
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._shown: dict[str, tuple[int, int]] = {}  # chat -> (game, table version) on screen
        self._live: dict[tuple[int, str], LiveHand] = {}  # (game, player) -> ephemeral hand
        # game -> the newest version shown here. A game that ends in another process is never
        # forgotten here by its end: past `KEPT_GAMES`, the least recently shown one is.
        self._seen: _Games = _Games(KEPT_GAMES, self.forget)
        self._dm_shown: dict[tuple[int, str], int] = {}  # (game, player) -> hand version by DM
        self._refs: dict[int, dict[str, str | None]] = {}  # game -> the refs read or written
        self._by_dm: dict[tuple[int, str], bool] = {}  # (game, player) -> the hand goes by DM
        self._chats: dict[int, str] = {}  # game -> its chat, for games shown here
        self._moved: dict[tuple[int, str], tuple[int, str]] = {}  # (game, player) -> last move
        self.delivery: Delivery | None = None  # settles the outbox entries of what is shown

    # ------------------------------------------------------------------ words

    def localize(self, lang: str, text: str) -> str:
        """Chat commands as Discord shows them in `lang` (`/join` becomes the localized name)."""
        return _COMMAND_RE.sub(lambda m: "/" + self.r.i18n.command_name(lang, m[1]), text)

    def t(self, lang: str, key: str, **args: Arg) -> str:
        return self.localize(lang, self.r.t(lang, key, **args))

    def notice(self, lang: str, notice: Notice) -> str:
        """A service notice; its text arguments are names (`/join`'s "X joined"), escaped."""
        args = {
            k: discord.utils.escape_markdown(v) if isinstance(v, str) else v
            for k, v in notice.args.items()
        }
        return self.localize(lang, self.r.notice(lang, Notice(notice.key, args)))

    @staticmethod
    def names(names: Mapping[str, str]) -> dict[str, str]:
        """Player names safe inside a message (Discord markdown escaped)."""
        return {k: discord.utils.escape_markdown(v) for k, v in names.items()}

    def public_lines(self, out: Outcome) -> list[str]:
        """What everybody may read about an outcome's events, one line each."""
        names = self.names(out.names)
        colorblind = out.table.colorblind if out.table is not None else False
        lines = []
        for event in out.events:
            shown = public_event(event)
            if shown is None:
                continue
            text = self.r.event(out.lang, shown, names, colorblind, scoring=out.scoring)
            if text:
                lines.append(self.localize(out.lang, text))
        return lines

    def announcements(self, out: Outcome) -> list[str]:
        safe = dataclasses.replace(out, names=self.names(out.names))
        return [self.localize(out.lang, text) for text in self.r.announcements(safe)]

    def private_notes(self, out: Outcome, player: str, colorblind: bool) -> list[str]:
        safe = dataclasses.replace(out, names=self.names(out.names))
        texts = notes.private(self.r, safe, player, colorblind)
        return [self.localize(out.lang, text) for text in texts]

    def table_message(
        self, table: TableView, names: Mapping[str, str]
    ) -> tuple[str, ui.View | None]:
        """The table's text (a rematch lobby's invited people as mentions) and its buttons."""
        for limit in NAME_LIMITS:
            marked = self.r.table_marked(table, self.names(shorten(names, limit)))
            text = self.localize(table.lang, with_mentions(marked))
            if len(text) <= MAX_CONTENT:
                break
        return fit(text), layout.table_view(table, self.r)

    def hand_message(
        self,
        hand: HandView,
        names: Mapping[str, str],
        notes: Collection[str] = (),
        *,
        page: int = 0,
        header: str | None = None,
    ) -> tuple[str, ui.View | None]:
        """The hand's text under `header` and `notes`, with its cards as pictures where they
        fit (`bot.discord.hand_row`: under the text line of the cards), and its buttons."""
        lang = hand.lang
        before = [self.localize(lang, part) for part in ([header] if header else []) + list(notes)]
        lines = self.localize(lang, self.r.hand(hand, self.names(names))).split("\n")
        plain = "\n\n".join([*before, "\n".join(lines)])
        row = hand_row(hand, self.emoji, self.r, MAX_CONTENT - ROOM_LEFT - len(plain) - 1)
        if row is not None:  # the title, the cards' text line, then their pictures
            lines.insert(2, row)
        text = "\n\n".join([*before, "\n".join(lines)])
        return fit(text), layout.hand_view(hand, self.r, page=page, emoji=self.emoji)

    def result_view(self, out: Outcome) -> ui.View | None:
        """The rematch button, when `out` is a match's result."""
        if not out.match_finished or out.table is None:
            return None
        return layout.rematch_view(out.table.game_id, out.lang, self.r)

    def settings_message(
        self, lang: str, settings: ChatSettings, *, ping: bool = False
    ) -> tuple[str, ui.View | None]:
        text = self.r.settings(lang, settings) + "\n\n" + self.r.t(lang, "dc-settings-hint")
        view = layout.settings_view(lang, settings, self.r, ping=ping)
        return fit(self.localize(lang, text)), view

    async def panel(self, lang: str, key: str, player: str) -> tuple[str, ui.View | None]:
        """The settings panel as `player` sees it (their own switches included)."""
        settings = await self.panel_settings(key, player)
        return self.settings_message(lang, settings, ping=await self.wants_ping(player))

    async def wants_dm(self, player: str, settings: ChatSettings) -> bool:
        """Whether `player` gets their hand by DM: their own choice, else the channel's default."""
        own = (await self.service.personal(f"dc:{player}")).get("dm_hands")
        return settings.dm_hands if own is None else bool(own)

    async def by_dm(self, hand: HandView) -> bool:
        """Whether this hand goes by DM: decided once per game and player (`wants_dm`), again
        after a settings change through this bot (`settings_changed`). With other processes
        (`shared`) the change may have been made through another: decided each time, from the
        service's settings (which it keeps only a few seconds then)."""
        slot = (hand.game_id, hand.player)
        known = self._by_dm.get(slot)
        if known is None:
            settings = await self.service.settings(hand.chat_key)
            known = await self.wants_dm(hand.player, settings)
            if not self.shared:
                self._by_dm[slot] = known
        return known

    @property
    def shared(self) -> bool:
        """Other processes of the bot use the database too (shards split across processes):
        what this one remembers of a game may have changed meanwhile."""
        return not self.service.outbox.sole_process

    def settings_changed(self, player: str | None = None) -> None:
        """A chat's or a member's settings changed: where hands go is decided anew."""
        if player is None:
            self._by_dm.clear()
        else:
            for slot in [s for s in self._by_dm if s[1] == player]:
                del self._by_dm[slot]

    async def panel_settings(self, key: str, player: str) -> ChatSettings:
        """The settings as this member's panel shows them: "cards by DM" is their own."""
        settings = await self.service.settings(key)
        return dataclasses.replace(settings, dm_hands=await self.wants_dm(player, settings))

    # ------------------------------------------------------------------ who and where

    @staticmethod
    def user(interaction: discord.Interaction[Any]) -> User:
        """The acting user; their guild's locale decides the language of a new chat."""
        who = interaction.user
        return User.of(chat_keys.DISCORD, who.id, who.display_name, _hint(interaction))

    @staticmethod
    def is_admin(interaction: discord.Interaction[Any]) -> bool:
        if interaction.guild is None:
            return False
        perms = interaction.permissions
        return perms.administrator or perms.manage_guild

    async def lang(self, key: str, interaction: discord.Interaction[Any]) -> str:
        """The chat's language: its setting, else the guild's locale, else Russian."""
        if not key:
            return normalize_lang(_hint(interaction))
        return await self.service.lang(key, _hint(interaction))

    # ------------------------------------------------------------------ plumbing

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        handler: Callable[[Reply], Awaitable[None]],
    ) -> None:
        """Run a handler; whatever fails, the user gets an answer and the error is logged."""
        reply = Reply(interaction, defer_after=self.defer_after, clock=self.clock)
        try:
            await handler(reply)
        except Exception as exc:
            log.exception("interaction %s failed", interaction.id)
            self._settle(reply, exc)
            try:
                await reply.send(self.t(normalize_lang(_hint(interaction)), "dc-error-internal"))
            except Exception:
                log.exception("could not tell the user about the failure")
        else:
            self._settle(reply)

    def _settle(self, reply: Reply, failure: Exception | None = None) -> None:
        """The interaction is handled: its outcomes' outbox entries are done with (every send
        was awaited), or, if it failed, come back later."""
        if self.delivery is None:
            return
        for out in reply.results:
            if isinstance(out, Outcome):
                self.delivery.track(out, [], failure)

    async def _safely(self, work: Awaitable[Any], what: str) -> None:
        try:
            await work
        except Exception:
            log.exception("could not %s", what)

    # ------------------------------------------------------------------ publishing

    async def publish(
        self,
        out: Outcome,
        *,
        table: bool = True,
        announce: bool = True,
        skip: Collection[str] = (),
        reply: Reply | None = None,
    ) -> None:
        """Show an outcome: the table, the public results, every changed hand (not `skip`).

        `reply`: the interaction that caused it, told privately if the results cannot be posted.
        """
        for view in (out.table, *out.hands.values()):
            if view is not None:
                self._catch_up(view.game_id, view.version)
        if out.table is not None and table:
            await self._safely(self.show_table(out.table, out.names), "edit the table")
        if announce:
            await self._safely(self.announce(out, reply), "announce")
        delivered = await self.push_hands(out, skip)
        await self._safely(self.tell_turns(out, delivered, skip), "tell whose turn it is")
        if self.shared:
            await self._safely(self._converge(out, delivered), "show the newest state")
        if out.table is not None and out.table.status not in ("lobby", "running"):
            await self._safely(self.drop_prompts(out.table.game_id), "delete turn prompts")
            self.forget(out.table.game_id)
        if self.delivery is not None and out.outbox is not None:
            self.delivery.track(out, [])  # shown (what failed here is logged, not retried)

    async def _converge(self, out: Outcome, delivered: Collection[str]) -> None:
        """After publishing, with other processes publishing the same game too: if a newer
        state was committed meanwhile, show its table, and the newer hands of the players
        whose hand was just brought up to date. Their edits cross (an older one may reach
        Discord after a newer one); whichever process publishes last looks here, so the newest
        state wins in the end. One read when nothing is newer."""
        shown = [v for v in (out.table, *out.hands.values()) if v is not None]
        if not shown:
            return
        game_id = shown[0].game_id
        latest = await self.service.game_table(game_id)
        table = latest.table
        if table is None or table.version <= max(v.version for v in shown):
            return
        await self.show_table(table, latest.names)
        newer: dict[str, HandView] = {}
        for player in delivered:
            user = User(player, latest.names.get(player, player))
            hand = (await self.service.hand(user, game_id=game_id)).hands.get(player)
            if hand is not None and hand.version > out.hands[player].version:
                newer[player] = hand
        if newer:
            await self.push_hands(
                Outcome(table.chat_key, table.lang, hands=newer, names=latest.names)
            )

    def _catch_up(self, game_id: int, version: int) -> None:
        """Before showing `version` of a game: if other processes committed versions since
        this one last showed it, the refs it remembers (the table, the DMs, the turn prompts)
        may be out of date: they are read again."""
        seen = self._seen.get(game_id)
        if seen is not None and version > seen + 1:
            self._refs.pop(game_id, None)
        self._seen[game_id] = version if seen is None else max(seen, version)

    async def show_open_games(self) -> None:
        """On start: every running game of a Discord channel is shown again from the stored
        state, so nothing waits for a timer: its table re-edited, and whoever's turn it is
        told (their DM hand edited, or the turn prompt: no ephemeral survives a restart).

        Not with other processes (`shared`): they show their games, and what a stopped one
        left unshown is in the outbox (`bot.delivery.outbox_loop`); a process starting would
        otherwise prompt every player whose hand another process keeps up to date."""
        if self.shared:
            return
        for rec in await self.service.running_games():
            if channel_of(rec.chat_key) is not None:
                await self._safely(self.show_again(rec.chat_key), f"show game {rec.id} again")

    async def show_again(self, key: str) -> None:
        out = await self.service.table(key)
        table = out.table
        if table is None or table.status != "running":
            return
        hands: dict[str, HandView] = {}
        for player in dict.fromkeys(p for p in (table.current, table.pending_target) if p):
            if is_bot(player):
                continue
            user = User(player, out.names.get(player, player))
            hand = (await self.service.hand(user, chat_key=key)).hands.get(player)
            if hand is not None:
                hands[player] = hand
        await self.publish(dataclasses.replace(out, hands=hands), announce=False)

    async def announce(self, out: Outcome, reply: Reply | None) -> None:
        """The public results; without the right to post (403 50013) they are not lost: the
        person who acted gets them privately (with the rematch button), the creator by DM."""
        texts = self.announcements(out)
        if not texts or (out.outbox is not None and RESULTS in out.outbox.delivered):
            return
        text, view = "\n".join(texts), self.result_view(out)
        try:
            await self.posted_results(out, await self.post(out.chat_key, text, view=view))
        except discord.Forbidden as exc:
            if exc.code != 50013:
                raise
            log.info("no right to post in %s: results told privately", out.chat_key)
            actor = None
            if reply is not None:
                actor = str(reply.interaction.user.id)
                notice = self.t(out.lang, "dc-no-access")
                await reply.send_long(notice + "\n\n" + text, view=view)
            creator = out.table.creator if out.table is not None else None
            if creator is not None and creator != actor and not is_bot(creator):
                await self.tell_creator(out, creator, text)

    async def posted_results(self, out: Outcome, message_id: int | None) -> None:
        """The outcome's results are in the channel (posted, or as a command's public answer):
        recorded with its outbox entry, so that delivering it again does not post them twice."""
        if out.outbox is not None and out.announcements:
            await self.service.outbox.mark_sent(out, RESULTS, str(message_id or ""))

    async def tell_creator(self, out: Outcome, creator: str, text: str) -> None:
        channel = f"<#{channel_of(out.chat_key)}>"
        notice = self.t(out.lang, "dc-no-access-creator", mention=f"<@{creator}>", channel=channel)
        try:
            dm = await self.client.create_dm(discord.Object(int(creator)))
            for part in chunks(notice + "\n\n" + text):
                await dm.send(part)
        except discord.Forbidden as exc:
            log.info("creator %s not told of the missing right (%s)", creator, exc.code)

    async def publish_timed(self, out: Outcome) -> None:
        """A timer's outcome (a computer player moved, a turn timed out), or one of the
        outbox's that a stopped process had not shown."""
        if channel_of(out.chat_key) is None:
            return
        await self._safely(self.publish(out), "publish a timer outcome")

    async def show_table(
        self,
        table: TableView,
        names: Mapping[str, str],
        *,
        reply: Reply | None = None,
        mentions: discord.AllowedMentions | None = None,
    ) -> None:
        """Edit the game's table message; through `reply` when its own button was used.

        `mentions` apply only if the table is posted as a new message (an edit pings nobody).
        """
        key = table.chat_key
        channel_id = channel_of(key)
        if channel_id is None:
            return
        self._catch_up(table.game_id, table.version)
        await self._show_table(table, names, channel_id, reply, mentions)

    async def _show_table(
        self,
        table: TableView,
        names: Mapping[str, str],
        channel_id: int,
        reply: Reply | None,
        mentions: discord.AllowedMentions | None,
    ) -> None:
        key = table.chat_key
        if reply is not None and self._locks[key].locked():
            await reply.defer(update=True)  # another edit is under way: answer in time first
        self._chats[table.game_id] = key
        async with self._locks[key]:
            lost = await self._put_table(table, names, channel_id, reply, mentions)
        if lost is not None:
            await self._table_lost(table.game_id, channel_id, lost)

    async def _put_table(
        self,
        table: TableView,
        names: Mapping[str, str],
        channel_id: int,
        reply: Reply | None,
        mentions: discord.AllowedMentions | None,
    ) -> int | None:
        """The table edited, or posted; under the channel's lock. Returns the id of a message
        it posted that is not the game's table: another process stored one first."""
        key = table.chat_key
        shown = self._shown.get(key)
        if shown is not None and shown[0] == table.game_id and shown[1] > table.version:
            return None  # a newer state is already on screen
        content, view = self.table_message(table, names)
        embeds = top_card_embeds(table, self.emoji, self.r)
        ref = await self.ref(table.game_id, TABLE_REF)
        if reply is not None:
            clicked = reply.interaction.message
            if clicked is not None and ref is None and _is_lobby(clicked, table.game_id):
                # A lobby button of a lobby whose id the process posting it has not stored yet
                # (another process, still waiting for Discord's answer): that lobby it is.
                await self.claim_table(table.game_id, clicked.id)
                ref = await self.ref(table.game_id, TABLE_REF)
            if clicked is not None and ref == str(clicked.id):
                await reply.update(content, view, embeds=embeds)
                self._shown[key] = (table.game_id, table.version)
                return None
            await reply.defer(update=True)  # answered before the slower channel calls
        channel = self.client.get_partial_messageable(channel_id)
        while ref is not None:
            try:
                message = channel.get_partial_message(int(ref))
                await message.edit(content=content, view=view, embeds=embeds)
            except discord.HTTPException as exc:
                # Deleted (10008), or not editable with the bot's token: a new table message,
                # unless another process posted one meanwhile (then that one is edited).
                log.info("table of game %s not edited (%s)", table.game_id, exc)
                fresh = await self.fresh_ref(table.game_id, TABLE_REF)
                if fresh in (None, ref):
                    break
                ref = fresh
            else:
                self._shown[key] = (table.game_id, table.version)
                return None
        message = await channel.send(content, embeds=embeds, **_extras(view, mentions))
        return None if await self.adopt_table(table, message.id, replacing=ref) else message.id

    async def claim_table(
        self, game_id: int, message_id: int, *, replacing: str | None = None
    ) -> bool:
        """Store a message just posted as the game's table, unless another process stored
        one first (`replacing`: the table it replaces, gone); whether it is the table."""
        mine = str(message_id)
        stored = await self.service.refs.claim(game_id, TABLE_REF, mine, replacing=replacing)
        self._refs.setdefault(game_id, {})[TABLE_REF] = stored
        return stored == mine

    async def adopt_table(
        self, table: TableView, message_id: int, *, replacing: str | None = None
    ) -> bool:
        """`claim_table` for a message just posted showing `table`: once it is the game's
        table, this process knows that version is on screen."""
        won = await self.claim_table(table.game_id, message_id, replacing=replacing)
        if won:
            self._shown[table.chat_key] = (table.game_id, table.version)
        return won

    async def _table_lost(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Another process posted the game's table while this one posted it too (the lobby
        of a game another process dealt meanwhile, say) and stored it first: this one's goes,
        lobby buttons and all, and the stored table shows the newest committed state (the
        other process may have shown an older one than this)."""
        log.info("game %s has a table already: message %s deleted", game_id, message_id)
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.delete()
        except discord.HTTPException as exc:
            log.info("duplicate table %s not deleted (%s): its buttons go", message_id, exc)
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=None)
        latest = await self.service.game_table(game_id)
        if latest.table is not None:
            await self.show_table(latest.table, latest.names)

    async def post(
        self,
        key: str,
        text: str,
        *,
        mentions: discord.AllowedMentions | None = None,
        view: ui.View | None = None,
    ) -> int | None:
        """`text` in the channel, in as many messages as it takes; `view` under the last one.
        Returns the last message's id."""
        channel_id = channel_of(key)
        if channel_id is None:
            return None
        channel = self.client.get_partial_messageable(channel_id)
        parts = chunks(text)
        message_id = None
        for i, part in enumerate(parts, 1):
            sent = await channel.send(part, **_extras(view if i == len(parts) else None, mentions))
            message_id = sent.id
        return message_id

    async def push_hands(self, out: Outcome, skip: Collection[str] = ()) -> set[str]:
        """Bring every changed hand up to date: by DM, or in the player's live ephemeral.
        Returns the players whose hand now shows the truth."""
        delivered: set[str] = set()
        for player, hand in out.hands.items():
            if player in skip or is_bot(player):
                continue
            private = self.private_notes(out, player, hand.colorblind)
            try:
                if await self.by_dm(hand):
                    anew = self.turn_begins(out, hand) and await self.wants_ping(player)
                    if await self.dm_hand(hand, out.names, private, anew=anew):
                        delivered.add(player)
                        continue
                if await self.refresh_live(hand, out.names, private):
                    delivered.add(player)
            except Exception:
                log.exception("could not update the hand of %s", player)
        return delivered

    async def wants_ping(self, player: str) -> bool:
        """Whether `player` asked to be notified when their turn begins (off unless chosen)."""
        return bool((await self.service.personal(f"dc:{player}")).get(TURN_PING))

    @staticmethod
    def turn_begins(out: Outcome, hand: HandView) -> bool:
        """Whether `hand` starts its player's turn: decided by the service (`turn_began`), not
        by what this process showed last (another process may have shown the turn before)."""
        return hand.acting and out.turn_began == hand.player

    async def tell_turns(
        self, out: Outcome, delivered: Collection[str], acted: Collection[str] = ()
    ) -> None:
        """Whoever's turn begins gets told in the channel, a mention with "my cards", when they
        asked for it (a ping) or when their hand could not be brought up to date (after a
        restart, or an ephemeral past its token's life: no ping unless asked). The message is
        deleted when their turn ends. By DM, the ping was the new DM itself (`push_hands`).
        Whoever `acted` is looking at their hand: never told."""
        for player, hand in out.hands.items():
            if is_bot(player):
                continue
            if not hand.acting:
                await self.drop_prompt(hand.game_id, player)
                continue
            if player in acted or await self.ref(hand.game_id, TURN_REF + player):
                continue  # looking at their hand, or already told
            by_dm = await self.by_dm(hand)
            ping = await self.wants_ping(player)
            if player in delivered and (by_dm or not ping):
                continue
            await self.post_prompt(hand, ping=ping)

    async def post_prompt(self, hand: HandView, *, ping: bool) -> None:
        channel_id = channel_of(hand.chat_key)
        if channel_id is None:
            return
        text = self.t(hand.lang, "dc-turn-prompt", mention=f"<@{hand.player}>")
        users = [discord.Object(int(hand.player))] if ping else []
        mentions = discord.AllowedMentions(users=users, everyone=False, roles=False)
        view = layout.my_cards_view(hand.game_id, hand.lang, self.r)
        channel = self.client.get_partial_messageable(channel_id)
        try:
            message = await channel.send(text, **_extras(view, mentions))
        except discord.Forbidden as exc:
            log.info("turn prompt for %s not posted (%s)", hand.player, exc.code)
            return
        await self.put_ref(hand.game_id, TURN_REF + hand.player, f"{channel_id}:{message.id}")

    async def drop_prompt(self, game_id: int, player: str) -> None:
        ref = await self.ref(game_id, TURN_REF + player)
        if not ref:
            return
        await self.put_ref(game_id, TURN_REF + player, "")
        channel_id, message_id = (int(x) for x in ref.split(":"))
        channel = self.client.get_partial_messageable(channel_id)
        with contextlib.suppress(discord.NotFound):
            await channel.get_partial_message(message_id).delete()

    async def drop_prompts(self, game_id: int) -> None:
        """A game is over: no turn prompt of it stays."""
        for key, value in (await self.service.refs.all(game_id)).items():
            if key.startswith(TURN_REF) and value:
                await self.drop_prompt(game_id, key[len(TURN_REF) :])

    async def refresh_live(
        self, hand: HandView, names: Mapping[str, str], notes: Collection[str] = ()
    ) -> bool:
        """Edit the player's ephemeral hand, only while its token is safely alive; whether it
        shows this hand (or a newer one) now."""
        slot = (hand.game_id, hand.player)
        live: LiveHand | SharedHand | None = self._live.get(slot)
        if live is None and self.shared:  # perhaps another process answered it
            ref = await self.service.refs.get(hand.game_id, LIVE_REF + hand.player)
            live = None if not ref else SharedHand.of(self.client, ref)
        if live is None:
            return False
        if not live.fresh():
            self._live.pop(slot, None)
            return False
        if hand.version < live.version:
            return True  # it already shows a newer hand
        live.version = hand.version
        content, view = self.hand_message(hand, names, notes)
        try:
            await live.edit(content, view)
        except discord.HTTPException as exc:
            log.info("ephemeral hand of %s not updated (%s)", hand.player, exc.code)
            if self._live.get(slot) is live:
                del self._live[slot]
            return False
        return True

    async def remember(self, hand: HandView, live: LiveHand) -> None:
        """Keep `live` (just sent, showing `hand`) up to date while its token lasts; with other
        processes, they may too: its ref is stored (each interaction has a token of its own)."""
        live.version = hand.version
        if hand.game_id not in self._seen:  # remembered, so forgotten in time (`_Games`)
            self._seen[hand.game_id] = -1
        self._live[(hand.game_id, hand.player)] = live
        self._chats[hand.game_id] = hand.chat_key
        if self.shared:
            await self.service.refs.put(hand.game_id, LIVE_REF + hand.player, live.ref())

    def forget(self, game_id: int) -> None:
        for slot in [s for s in self._live if s[0] == game_id]:
            del self._live[slot]
        for slot in [s for s in self._dm_shown if s[0] == game_id]:
            del self._dm_shown[slot]
        for slot in [s for s in self._by_dm if s[0] == game_id]:
            del self._by_dm[slot]
        self._seen.pop(game_id, None)
        for slot in [s for s in self._moved if s[0] == game_id]:
            del self._moved[slot]
        self._refs.pop(game_id, None)
        self._chats.pop(game_id, None)

    async def ref(self, game_id: int, key: str) -> str | None:
        """A ref of the game (`service.refs`), read once and then remembered. With other
        processes (`shared`) a missing one is read again each time: another process may be
        storing it (the table of a lobby it is still posting), and a message posted here
        because of a stale "none" would be a second one."""
        known = self._refs.setdefault(game_id, {})
        if key in known and (known[key] is not None or not self.shared):
            return known[key]
        known[key] = value = await self.service.refs.get(game_id, key)
        return value

    async def fresh_ref(self, game_id: int, key: str) -> str | None:
        """A ref read from the database again (another process may have changed it)."""
        value = await self.service.refs.get(game_id, key)
        self._refs.setdefault(game_id, {})[key] = value
        return value

    async def put_ref(self, game_id: int, key: str, value: str) -> None:
        await self.service.refs.put(game_id, key, value)
        self._refs.setdefault(game_id, {})[key] = value

    async def dm_hand(
        self,
        hand: HandView,
        names: Mapping[str, str],
        notes: Collection[str] = (),
        *,
        anew: bool = False,
    ) -> bool:
        """The player's hand as a direct message, edited in place; False if DMs are closed.

        `anew`: their turn begins and they want to be notified: the old message is deleted and
        the hand sent as a new one (an edit notifies nobody)."""
        ref_key = DM_REF + hand.player
        channel_id = channel_of(hand.chat_key)
        header = self.t(hand.lang, "dc-dm-header", channel=f"<#{channel_id}>")
        content, view = self.hand_message(hand, names, notes, header=header)
        slot = (hand.game_id, hand.player)
        if hand.version < self._dm_shown.get(slot, -1):
            return True  # the DM already shows a newer hand
        self._catch_up(hand.game_id, hand.version)
        ref = await self.ref(hand.game_id, ref_key)
        try:
            if ref is not None:
                dm_id, message_id = (int(x) for x in ref.split(":"))
                dm = self.client.get_partial_messageable(dm_id, type=discord.ChannelType.private)
                try:
                    if anew:
                        await dm.get_partial_message(message_id).delete()
                    else:
                        await dm.get_partial_message(message_id).edit(content=content, view=view)
                        self._dm_shown[slot] = hand.version
                        return True
                except discord.NotFound:
                    if await self.fresh_ref(hand.game_id, ref_key) not in (None, ref):
                        # Another process sent the hand anew meanwhile: that message it is.
                        return await self.dm_hand(hand, names, notes, anew=anew)
            if hand.status != "running" or hand.left:
                return False
            channel = await self.client.create_dm(discord.Object(int(hand.player)))
            message = await channel.send(content, **_extras(view))
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await self.explain_dm_closed(hand)
            return False
        await self.put_ref(hand.game_id, ref_key, f"{channel.id}:{message.id}")
        self._dm_shown[slot] = hand.version
        return True

    async def explain_dm_closed(self, hand: HandView) -> None:
        """Tell the channel, once per game and player, why their hand does not come by DM."""
        if not await notes.first_dm_closed(self.service.refs, hand.game_id, hand.player):
            return
        text = self.t(hand.lang, "dc-dm-closed", mention=f"<@{hand.player}>")
        mentions = discord.AllowedMentions(users=[discord.Object(int(hand.player))])
        await self.post(hand.chat_key, text, mentions=mentions)

    # ------------------------------------------------------------------ buttons

    async def on_my_cards(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        async def handle(reply: Reply) -> None:
            user = self.user(interaction)
            out = await reply.run(self.service.hand(user, game_id=game_id))
            lang = out.lang
            hand = out.hands.get(user.id)
            if out.error is not None or hand is None:
                await reply.send(self.notice(lang, out.error or Notice("error-not-in-game")))
                return
            by_dm = hand.status == "running" and not hand.left and await self.by_dm(hand)
            if by_dm and await reply.run(self.dm_hand(hand, out.names)):
                await reply.send(self.t(lang, "dc-hand-sent-dm"))
                return
            content, view = self.hand_message(hand, out.names)
            message_id = await reply.send(content, view=view)
            await self.remember(hand, reply.live(message_id))

        await self._answer(interaction, handle)

    async def on_hand(self, interaction: discord.Interaction[Any], key: HandKey) -> None:
        """A hand button or the card menu (`bot.presentation.steps.press`): a move, a step, a page,
        back."""

        if not self.is_private(interaction):
            await self.on_unknown_component(interaction)
            return

        async def handle(reply: Reply) -> None:
            user = self.user(interaction)
            work = steps.press(self.service, user, key, chat_key=self._chats.get(key.game))
            pressed = await reply.run(work, update=True)
            if pressed.hand is None and (pressed.error or pressed.out.error) == NO_GAME:
                # The button's game is over (a new one may run here): the button is stale.
                await reply.send(self.t(pressed.out.lang, "dc-stale-component"))
                return
            slot = (key.game, user.id)
            if pressed.moved and pressed.out.error is None:
                self._moved[slot] = (key.version, key.act)
            elif pressed.moved and self._moved.get(slot) == (key.version, key.act):
                # The same button again (a double click): that move counted; the hand as it is.
                pressed = dataclasses.replace(pressed, moved=False, error=None)
            if pressed.moved:
                await self._after_move(reply, user, pressed.out, from_hand=True)
            else:
                await self._show_hand_step(reply, pressed)

        await self._answer(interaction, handle)

    @staticmethod
    def is_private(interaction: discord.Interaction[Any]) -> bool:
        """Whether the pressed component sits on a message only its presser sees (an ephemeral
        or a DM): the only place a hand's buttons are honoured. Replayed on the public table,
        a hand button would otherwise put that hand on the table for everyone."""
        message = interaction.message
        if message is None:
            return False
        return interaction.guild_id is None or message.flags.ephemeral

    async def _show_hand_step(self, reply: Reply, pressed: steps.Press) -> None:
        out, hand = pressed.out, pressed.hand
        lang = out.lang
        if hand is None:
            await reply.send(self.notice(lang, pressed.error or steps.NOT_IN_GAME))
            return
        if pressed.error is not None:
            content, view = self.hand_message(hand, out.names, [self.notice(lang, pressed.error)])
        elif pressed.step is not None:
            question = self.localize(lang, steps.step_title(self.r, hand, pressed.step))
            content, _ = self.hand_message(hand, out.names)
            content = fit(content + "\n\n" + question)
            view = layout.step_view(hand, pressed.step, self.r, self.names(out.names))
        else:
            content, view = self.hand_message(hand, out.names, page=pressed.page)
        await reply.update(content, view)
        await self.remember(hand, reply.live(None))

    async def _after_move(self, reply: Reply, user: User, out: Outcome, *, from_hand: bool) -> None:
        """Answer a move: the mover's hand privately, then the table, results and other hands."""
        interaction = reply.interaction
        lang = out.lang
        hand = out.hands.get(user.id)
        if out.error is not None:
            text = self.notice(lang, out.error)
            if from_hand and hand is not None:
                content, view = self.hand_message(hand, out.names, [text])
                await reply.update(content, view)
                await self.remember(hand, reply.live(None))
            else:
                await reply.send(text)
            return
        if hand is None:
            hand = (await self.service.hand(user, chat_key=out.chat_key)).hands.get(user.id)
        private = self.private_notes(out, user.id, hand.colorblind if hand else False)
        skip: set[str] = set()
        if from_hand:
            if hand is not None:
                content, view = self.hand_message(hand, out.names, private)
                await reply.update(content, view)
                await self.remember(hand, reply.live(None))
                if not (interaction.guild is not None and await self.by_dm(hand)):
                    skip.add(user.id)
            else:
                await reply.update("\n\n".join(private) or self.t(lang, "hand-left"), None)
            await self.publish(out, skip=skip, reply=reply)
            return
        # A slash command (/uno, /challenge): the result is public, private details are not.
        lines = self.public_lines(out)
        if lines:
            sent = await reply.send("\n".join(lines), public=True, view=self.result_view(out))
            await self.posted_results(out, sent)
        if hand is not None and (private or not lines):
            content, view = self.hand_message(hand, out.names, private)
            message_id = await reply.send(content, view=view)
            await self.remember(hand, reply.live(message_id))
            if not await self.by_dm(hand):
                skip.add(user.id)  # that message is the hand; by DM, the DM follows too
        await self.publish(out, announce=False, skip=skip)

    async def on_lobby_button(
        self, interaction: discord.Interaction[Any], pressed: LobbyKey
    ) -> None:
        async def handle(reply: Reply) -> None:
            key = chat_key(interaction.channel_id)
            user = self.user(interaction)
            refusal = await steps.lobby_refusal(self.service, key, pressed.game)
            if refusal is not None:
                lang = await self.lang(key, interaction)
                stale = refusal == steps.STALE
                await reply.send(
                    self.t(lang, "dc-stale-component") if stale else self.notice(lang, refusal)
                )
                return
            if pressed.op == "join":
                work = self.service.join(key, user)
            elif pressed.op == "addbot":
                work = self.service.add_bot(key, user)
            elif pressed.level is not None:
                work = self.service.set_bot_level(key, user, pressed.level)
            else:
                work = self.service.start_game(key, user, is_admin=self.is_admin(interaction))
            out = await reply.run(work, update=True)
            if out.error is not None:
                await reply.send(self.notice(await self.lang(key, interaction), out.error))
                return
            if out.table is not None:
                await self.show_table(out.table, out.names, reply=reply)
            await reply.defer(update=True)  # a no-op when the table was the answer
            await self.publish(out, table=False, reply=reply)

        await self._answer(interaction, handle)

    async def on_rematch(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The button under a match's result. Refused (a lobby is open again, an older match's
        button): a private answer and nothing else. Accepted: the result loses its button and
        the new lobby is posted as a table message."""

        async def handle(reply: Reply) -> None:
            key = chat_key(interaction.channel_id)
            work = self.service.rematch(key, self.user(interaction), game_id=game_id)
            out = await reply.run(work, update=True)
            if out.error is not None or out.table is None:
                lang = await self.lang(key, interaction)
                await reply.send(self.notice(lang, out.error or Notice("error-no-game")))
                return
            await reply.remove_view()
            table, mentions = out.table, invitation(out.table)
            try:
                await self.show_table(table, out.names, mentions=mentions)
            except discord.Forbidden as exc:
                if exc.code != 50013:
                    raise
                # No right to post: the lobby goes out as this interaction's public followup,
                # which needs none.
                content, view = self.table_message(table, out.names)
                message_id = await reply.send(content, view=view, public=True, mentions=mentions)
                if not message_id:
                    return
                if not await self.adopt_table(table, message_id):
                    await self._table_lost(table.game_id, channel_of(key) or 0, message_id)

        await self._answer(interaction, handle)

    async def on_settings_menu(
        self, interaction: discord.Interaction[Any], menu: str, value: str
    ) -> None:
        async def handle(reply: Reply) -> None:
            key = chat_key(interaction.channel_id)
            user = self.user(interaction)
            setting = value if menu == "toggle" else menu
            if setting in ("dm_hands", TURN_PING):
                # A personal choice: every member decides where their own hand goes and whether
                # their turn pings them. The flip happens in the service, under a lock, so two
                # quick presses are two flips.
                default = setting == "dm_hands" and (await self.service.settings(key)).dm_hands
                await reply.run(
                    self.service.toggle_personal(f"dc:{user.id}", setting, default=default),
                    update=True,
                )
                self.settings_changed(user.id)
                lang = await self.lang(key, interaction)
                content, view = await self.panel(lang, key, user.id)
                await reply.update(content, view)
                return
            admin = self.is_admin(interaction)
            if menu == "toggle":
                if value not in layout.TOGGLES:
                    raise ValueError(f"unknown switch {value!r}")
                # Never read-then-set here: the service flips under the chat's lock.
                work = self.service.toggle_setting(key, user, value, is_admin=admin)
            else:
                work = self.service.change_setting(key, user, setting, value, is_admin=admin)
            out = await reply.run(work, update=True)
            if out.error is None:
                self.settings_changed()
            lang = await self.lang(key, interaction)
            content, view = await self.panel(lang, key, user.id)
            if out.error is not None:
                content = fit(self.notice(lang, out.error) + "\n\n" + content)
            await reply.update(content, view)
            if out.error is None and out.table is not None:
                await self._safely(self.show_table(out.table, out.names), "edit the table")

        await self._answer(interaction, handle)

    async def on_unknown_component(self, interaction: discord.Interaction[Any]) -> None:
        """A component no DynamicItem takes (forged, or from a layout long gone): a private
        answer pointing to the table, and no service call, so no game changes. In a DM there
        is no channel setting: the person's own language."""

        async def handle(reply: Reply) -> None:
            if interaction.guild_id is None:
                lang = normalize_lang(interaction.locale.value)
            else:
                lang = await self.lang(chat_key(interaction.channel_id), interaction)
            await reply.send(self.t(lang, "dc-stale-component"))

        await self._answer(interaction, handle)

    # ------------------------------------------------------------------ slash commands

    async def cmd_new(self, interaction: discord.Interaction[Any]) -> None:
        await self._open_lobby(interaction, self.service.new_game)

    async def cmd_rematch(self, interaction: discord.Interaction[Any]) -> None:
        await self._open_lobby(interaction, self.service.rematch)

    async def _open_lobby(
        self,
        interaction: discord.Interaction[Any],
        call: Callable[[str, User], Awaitable[Outcome]],
    ) -> None:
        """/new, /rematch: the new lobby's table message is the public answer (a rematch's
        pings the people it invites)."""

        async def handle(reply: Reply) -> None:
            key = chat_key(interaction.channel_id)
            out = await reply.run(call(key, self.user(interaction)), public=True)
            lang = await self.lang(key, interaction)
            if out.error is not None or out.table is None:
                await reply.send(self.notice(lang, out.error or Notice("error-no-game")))
                return
            table = out.table
            async with self._locks[key]:
                content, view = self.table_message(table, out.names)
                mentions = invitation(table)
                message_id = await reply.send(content, view=view, public=True, mentions=mentions)
                if not message_id:
                    message_id = (await interaction.original_response()).id
                won = await self.adopt_table(table, message_id)
            if not won:  # another process showed the game meanwhile (`_table_lost`)
                await self._table_lost(table.game_id, channel_of(key) or 0, message_id)

        await self._answer(interaction, handle)

    async def _lobby_command(
        self,
        interaction: discord.Interaction[Any],
        call: Callable[[str, User], Awaitable[Outcome]],
    ) -> None:
        """/join, /addbot, /start, /leave, /kick, /kill: say what happened, update the table."""

        async def handle(reply: Reply) -> None:
            key = chat_key(interaction.channel_id)
            out = await reply.run(call(key, self.user(interaction)), public=True)
            lang = await self.lang(key, interaction)
            if out.error is not None:
                await reply.send(self.notice(lang, out.error))
                return
            lines = [self.notice(lang, out.info)] if out.info is not None else []
            lines += self.public_lines(out)
            if not lines and out.table is not None:
                lines.append(self.table_message(out.table, out.names)[0])
            await reply.send_long("\n".join(lines), public=True, view=self.result_view(out))
            await self.posted_results(out, None)
            await self.publish(out, announce=False)

        await self._answer(interaction, handle)

    async def cmd_join(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_command(interaction, self.service.join)

    async def cmd_addbot(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_command(interaction, self.service.add_bot)

    async def cmd_start(self, interaction: discord.Interaction[Any]) -> None:
        admin = self.is_admin(interaction)
        await self._lobby_command(
            interaction, lambda key, user: self.service.start_game(key, user, is_admin=admin)
        )

    async def cmd_leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._lobby_command(interaction, self.service.leave)

    async def cmd_kick(
        self, interaction: discord.Interaction[Any], target: int | None, seat: int | None = None
    ) -> None:
        """/kick a member (`target`) or whoever sits in `seat`, computer players too: exactly
        one of them. The service checks the rights, then who sits in that seat."""
        if (target is None) == (seat is None):

            async def usage(reply: Reply) -> None:
                lang = await self.lang(chat_key(interaction.channel_id), interaction)
                await reply.send(self.t(lang, "dc-kick-usage"))

            await self._answer(interaction, usage)
            return
        admin = self.is_admin(interaction)

        async def kick(key: str, user: User) -> Outcome:
            if seat is not None:
                return await self.service.kick_seat(key, user, seat, is_admin=admin)
            return await self.service.kick(key, user, str(target), is_admin=admin)

        await self._lobby_command(interaction, kick)

    async def seat_choices(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[int]]:
        """/kick's seat suggestions, "3. <name>": the running table does not number its
        players, and a computer player has no member to pick. Only seats whose number starts
        with what was typed."""
        out = await self.service.table(chat_key(interaction.channel_id))
        if out.table is None:
            return []
        choices = []
        for number, seat in enumerate(out.table.seats, 1):
            if typed and not str(number).startswith(typed):
                continue
            label = f"{number}. {self.r.name(out.lang, seat.id, out.names)}"  # plain, not markdown
            choices.append(app_commands.Choice(name=label[:MAX_CHOICE_NAME], value=number))
        return choices[:MAX_CHOICES]

    async def cmd_kill(self, interaction: discord.Interaction[Any]) -> None:
        admin = self.is_admin(interaction)
        await self._lobby_command(
            interaction, lambda key, user: self.service.kill(key, user, is_admin=admin)
        )

    async def _move_command(
        self,
        interaction: discord.Interaction[Any],
        call: Callable[[str, User], Awaitable[Outcome]],
    ) -> None:
        async def handle(reply: Reply) -> None:
            user = self.user(interaction)
            out = await reply.run(call(chat_key(interaction.channel_id), user), public=True)
            await self._after_move(reply, user, out, from_hand=False)

        await self._answer(interaction, handle)

    async def cmd_uno(self, interaction: discord.Interaction[Any]) -> None:
        await self._move_command(interaction, self.service.uno)

    async def cmd_challenge(self, interaction: discord.Interaction[Any]) -> None:
        await self._move_command(interaction, self.service.challenge)

    async def cmd_settings(self, interaction: discord.Interaction[Any]) -> None:
        async def handle(reply: Reply) -> None:
            key = chat_key(interaction.channel_id)
            lang = await self.lang(key, interaction)
            content, view = await self.panel(lang, key, str(interaction.user.id))
            await reply.send(content, view=view)

        await self._answer(interaction, handle)

    async def cmd_rules(self, interaction: discord.Interaction[Any]) -> None:
        async def handle(reply: Reply) -> None:
            key = chat_key(interaction.channel_id)
            lang = await self.lang(key, interaction)
            settings = await self.service.settings(key)
            await reply.send_long(self.localize(lang, self.r.rules_text(lang, settings)))

        await self._answer(interaction, handle)

    async def cmd_stats(self, interaction: discord.Interaction[Any]) -> None:
        async def handle(reply: Reply) -> None:
            key = chat_key(interaction.channel_id)
            lang = await self.lang(key, interaction)
            rows = await reply.run(self.service.leaderboard(key), public=True)
            safe = [
                dataclasses.replace(row, name=discord.utils.escape_markdown(row.name))
                for row in rows
            ]
            await reply.send_long(self.localize(lang, self.r.stats(lang, safe)), public=True)

        await self._answer(interaction, handle)

    async def cmd_help(self, interaction: discord.Interaction[Any]) -> None:
        async def handle(reply: Reply) -> None:
            lang = await self.lang(chat_key(interaction.channel_id), interaction)
            await reply.send_long(self.localize(lang, self.r.help(lang)))

        await self._answer(interaction, handle)
