"""The card art as Discord application emoji: uploaded once at start, reused after.

Application emoji belong to the bot, so every server shows them without any permission (up to
2,000 per application). A card button carries its card's emoji beside its label (screen readers
and the color-blind marks need the label), the table's top card is the emoji's CDN picture, and
a hand's text shows its cards as emoji (`bot.discord.hand_row`): no move uploads anything. Every
face is uploaded per language (only the red ones differ) and dimmed (not playable now), the
normal ones first: the buttons and the table need them before the hands' rows do.

An emoji's name is its picture's name and the start of the PNG's hash (`r7_1a2b3c4d`): changed
art gets new names, and ours whose name no picture has any more are deleted (the operator's own
are left alone). Processes running different art at once would delete each other's, and Discord
refuses a component naming a deleted emoji: stop the old processes before starting new ones.
Whatever is refused leaves its cards as text; nothing here stops the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import re
from collections.abc import Callable, Mapping

import discord

from bot.art import emoji_png, picture_name
from bot.art.palette import CARD_COLORS, WILD_FIELD
from bot.presentation.i18n import LANGS
from bot.presentation.render import Renderer
from bot.service.views import TableView
from core.cards import ALL_CARDS, Card

log = logging.getLogger(__name__)

Face = tuple[str, str, bool]  # a card's notation, a language, dimmed or not: one picture
HASH_DIGITS = 8
CDN = "https://cdn.discordapp.com/emojis/{id}.png"
# The names this module gives: a card's picture name (`_dimmed` or not), then its hash.
OURS = re.compile(
    "(?:"
    + "|".join(picture_name(card) for card in ALL_CARDS)
    + f")(?:_dimmed)?_[0-9a-f]{{{HASH_DIGITS}}}"
)


@functools.cache
def card_pictures() -> Mapping[Face, bytes]:
    """Every card face's emoji picture in every language, normal and dimmed (the same bytes on
    every run); the normal ones first, the order they are uploaded in."""
    # Both variants of a card one after the other: the card is drawn once (`face.render`).
    pictures = {
        (card.text, lang, dimmed): emoji_png(card, dimmed=dimmed, lang=lang)
        for lang in LANGS
        for card in ALL_CARDS
        for dimmed in (False, True)
    }
    return dict(sorted(pictures.items(), key=lambda item: item[0][2]))


def emoji_name(card: Card, picture: bytes, dimmed: bool = False) -> str:
    """`r7_1a2b3c4d`, `r7_dimmed_1a2b3c4d`: at most 32 letters, digits and `_`, as Discord
    wants."""
    digest = hashlib.sha256(picture).hexdigest()[:HASH_DIGITS]
    return f"{picture_name(card, dimmed)}_{digest}"


class CardEmoji:
    """Which card has which emoji, for the layout; empty until `load` ran (then text only)."""

    def __init__(
        self,
        client: discord.Client,
        pictures: Callable[[], Mapping[Face, bytes]] | None = None,
    ) -> None:
        self.client = client
        self._pictures = pictures or card_pictures
        self._names: dict[Face, str] = {}  # what each face's emoji is called
        self._images: dict[str, bytes] = {}  # name -> picture, for the upload
        self._ids: dict[str, int] = {}  # name -> emoji id, of those that exist
        self.ready = asyncio.Event()  # set once the start is over, with or without emoji
        self._task: asyncio.Task[None] | None = None

    def emoji(
        self, card: Card | None, lang: str, dimmed: bool = False
    ) -> discord.PartialEmoji | None:
        """The card's emoji in `lang`; None while it does not exist (the label alone)."""
        if card is None:
            return None
        name = self._names.get((card.text, lang, dimmed))
        emoji_id = None if name is None else self._ids.get(name)
        if name is None or emoji_id is None:
            return None
        return discord.PartialEmoji(name=name, id=emoji_id)

    def url(self, card: Card | None, lang: str) -> str | None:
        """The card's picture on Discord's CDN, for an embed; None without the emoji."""
        emoji = self.emoji(card, lang)
        return None if emoji is None else CDN.format(id=emoji.id)

    @property
    def count(self) -> int:
        """How many of the wanted emoji exist."""
        return len(self._ids)

    @property
    def wanted(self) -> int:
        return len(self._images)

    async def start(self) -> None:
        """At start: `load` (awaited: the tables a restart shows again have their pictures),
        then `upload` in the background. Never raises: without emoji the bot shows text."""
        try:
            loaded = await self.load()
        except Exception:
            log.exception("card emoji: could not load; cards are shown as text")
            loaded = False
        if not loaded:
            self.ready.set()
            return
        self._task = asyncio.create_task(self._upload())

    async def _upload(self) -> None:
        try:
            await self.upload()
        except Exception:
            log.exception("card emoji: the upload failed; %d emoji in use", self.count)
        finally:
            self.ready.set()

    async def close(self) -> None:
        """Stop an upload still under way (the bot is closing)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def load(self) -> bool:
        """Render the pictures, list the emoji that exist, delete our stale ones. False when
        the list is refused (no emoji at all)."""
        pictures = await asyncio.to_thread(self._pictures)
        for (text, lang, dimmed), picture in pictures.items():
            name = emoji_name(Card.parse(text), picture, dimmed)
            self._names[(text, lang, dimmed)] = name
            self._images[name] = picture
        try:
            existing = await self.client.fetch_application_emojis()
        except discord.DiscordException as exc:
            log.warning("card emoji: the list was refused (%s); cards are shown as text", exc)
            return False
        for emoji in existing:
            if emoji.name in self._images:
                self._ids[emoji.name] = emoji.id
            elif OURS.fullmatch(emoji.name):
                try:
                    await emoji.delete()
                except discord.DiscordException as exc:
                    log.info("card emoji: stale %s not deleted (%s)", emoji.name, exc)
                else:
                    log.info("card emoji: deleted stale %s", emoji.name)
        return True

    async def upload(self) -> None:
        """Create the missing emoji, one by one. A refusal ends it (logged once), unless the
        name was taken meanwhile by another process of this bot, which a fresh list shows."""
        uploaded = 0
        for name, picture in self._images.items():
            if name in self._ids:
                continue
            try:
                created = await self.client.create_application_emoji(name=name, image=picture)
            except discord.DiscordException as exc:
                await self._relist()
                if name in self._ids:
                    continue  # uploaded by another process: use theirs
                log.warning(
                    "card emoji: upload refused (%s); %d of %d emoji in use, other cards as text",
                    exc,
                    self.count,
                    self.wanted,
                )
                return
            self._ids[name] = created.id
            uploaded += 1
        if uploaded:
            log.info("card emoji: uploaded %d, %d in use", uploaded, self.count)

    async def _relist(self) -> None:
        with contextlib.suppress(discord.DiscordException):
            for emoji in await self.client.fetch_application_emojis():
                if emoji.name in self._images:
                    self._ids[emoji.name] = emoji.id


def top_card_embeds(table: TableView, emoji: CardEmoji, r: Renderer) -> list[discord.Embed]:
    """The running table's top card as a picture: an embed whose thumbnail is the card's emoji
    on Discord's CDN (nothing uploaded per move), titled with the card's name for readers, its
    edge in the color in play. No embed without the emoji: the table's text says it all."""
    if table.status != "running" or table.top is None:
        return []
    url = emoji.url(table.top, table.lang)
    if url is None:
        return []
    color = CARD_COLORS[table.color] if table.color is not None else WILD_FIELD
    embed = discord.Embed(
        title=r.i18n.card_name(table.lang, table.top), colour=discord.Colour.from_rgb(*color)
    )
    return [embed.set_thumbnail(url=url)]
