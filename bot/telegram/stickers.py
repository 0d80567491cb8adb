"""The bot's own sticker sets, drawn from `bot.art`: one per language (the color letters differ).

A set holds every face, every face dimmed (a card that cannot be played now) and the back, 111
static stickers in a fixed order (`pictures`); Telegram takes 1-50 stickers when a set is
created and at most 120 in a static set, so the set is created with the first 50 and the rest
are added one by one.

The set is kept up to date by `sync` (the set-up command `python -m bot stickers`, and the bot
at every start): Telegram's `getStickerSet` tells neither a sticker's keywords nor its picture,
so a manifest stored with the chat settings (`MANIFEST` + the set's name, through the service)
remembers, position by position, the `file_unique_id` Telegram gave a sticker and a short hash
of the picture it was made from. A position whose sticker or hash differs is replaced in place
(`replaceStickerInSet`), missing ones are added, extra ones deleted; a set already up to date
costs one `getStickerSet` call. The bot learns every card's sticker `file_id` from that call;
it runs the sync in the background (`bot.telegram.sticker_sync`), so a start never waits for it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import BufferedInputFile, InputSticker, StickerSet

from bot.art import back_png, picture_name, sticker_png
from bot.presentation.i18n import I18n
from bot.telegram.retry import retrying
from core.cards import ALL_CARDS, Card, Color, Kind

log = logging.getLogger(__name__)

MAX_INITIAL = 50  # createNewStickerSet: 1-50 initial stickers
MAX_SET = 120  # stickers in a static set
MANIFEST = "tg-stickers:"  # + set name: the manifest's key in the service's settings store
EMOJI = {Color.RED: "🟥", Color.YELLOW: "🟨", Color.GREEN: "🟩", Color.BLUE: "🟦"}
WILD_EMOJI, CREEPER_EMOJI, BACK_EMOJI = "🌈", "💥", "🃏"


@dataclass(frozen=True)
class Picture:
    """One sticker of a set: a card face (None: the back), dimmed or not."""

    card: Card | None
    dimmed: bool
    png: bytes = field(repr=False)

    @property
    def name(self) -> str:
        return picture_name(self.card, self.dimmed)

    @property
    def digest(self) -> str:
        return hashlib.blake2s(self.png, digest_size=6).hexdigest()

    @property
    def emoji(self) -> str:
        card = self.card
        if card is None:
            return BACK_EMOJI
        if card.color is not None:
            return EMOJI[card.color]
        return CREEPER_EMOJI if card.kind is Kind.CREEPER else WILD_EMOJI

    def input_sticker(self) -> InputSticker:
        return InputSticker(
            sticker=BufferedInputFile(self.png, filename=f"{self.name}.png"),
            format="static",
            emoji_list=[self.emoji],
            keywords=["uno", self.name],
        )


@cache
def pictures(lang: str) -> tuple[Picture, ...]:
    """A set's stickers in their order: the faces, the faces dimmed, the back."""
    faces = [Picture(c, False, sticker_png(c, False, lang)) for c in ALL_CARDS]
    dimmed = [Picture(c, True, sticker_png(c, True, lang)) for c in ALL_CARDS]
    out = (*faces, *dimmed, Picture(None, False, back_png()))
    assert len(out) <= MAX_SET
    return out


def set_name(lang: str, username: str) -> str:
    """`uno_ru_by_<bot>`: Telegram wants a bot's set names to end in `_by_<bot username>`."""
    return f"uno_{lang}_by_{username}"


class ManifestStore(Protocol):
    async def personal(self, user_key: str) -> dict[str, Any]: ...

    async def set_personal(self, user_key: str, **values: Any) -> None: ...


@dataclass
class SyncReport:
    """What `sync` did to one set, and the stickers it ends with (picture name -> file id)."""

    name: str
    created: bool = False
    added: int = 0
    replaced: int = 0
    deleted: int = 0
    file_ids: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def changed(self) -> bool:
        return self.created or bool(self.added or self.replaced or self.deleted)


async def _get(bot: Bot, name: str) -> StickerSet | None:
    try:
        return await retrying(lambda: bot.get_sticker_set(name=name))
    except TelegramBadRequest as exc:
        if "STICKERSET_INVALID" in exc.message.upper():
            return None
        raise


def _file_ids(found: StickerSet, wanted: tuple[Picture, ...]) -> dict[str, str]:
    return {p.name: s.file_id for p, s in zip(wanted, found.stickers, strict=False)}


async def load(bot: Bot, lang: str, username: str) -> dict[str, str]:
    """The stickers of an existing set as it is (no owner needed): picture name -> file id."""
    found = await _get(bot, set_name(lang, username))
    return {} if found is None else _file_ids(found, pictures(lang))


async def sync(
    bot: Bot,
    store: ManifestStore,
    i18n: I18n,
    *,
    owner: int,
    lang: str,
    username: str,
) -> SyncReport:
    """Create the set of `lang` or bring it up to date (see the module's docstring)."""
    name = set_name(lang, username)
    wanted = pictures(lang)
    report = SyncReport(name)
    found = await _get(bot, name)
    call: Callable[[], Awaitable[Any]]
    if found is None:
        title = i18n.t(lang, "inline-sticker-set-title", bot=username)
        first = [p.input_sticker() for p in wanted[:MAX_INITIAL]]
        await retrying(
            lambda: bot.create_new_sticker_set(
                user_id=owner, name=name, title=title, stickers=first, sticker_type="regular"
            )
        )
        report.created = True
        for picture in wanted[MAX_INITIAL:]:
            call = _adder(bot, owner, name, picture)
            await retrying(call)
            report.added += 1
    else:
        known = (await store.personal(MANIFEST + name)).get("stickers") or []
        for i, picture in enumerate(wanted):
            if i >= len(found.stickers):
                await retrying(_adder(bot, owner, name, picture))
                report.added += 1
                continue
            sticker = found.stickers[i]
            if i < len(known) and known[i] == [sticker.file_unique_id, picture.digest]:
                continue
            call = _replacer(bot, owner, name, sticker.file_id, picture)
            await retrying(call)
            report.replaced += 1
        for extra in found.stickers[len(wanted) :]:
            await retrying(_deleter(bot, extra.file_id))
            report.deleted += 1
    if report.changed:
        found = await _get(bot, name)
        assert found is not None
        manifest = [
            [s.file_unique_id, p.digest] for p, s in zip(wanted, found.stickers, strict=False)
        ]
        await store.set_personal(MANIFEST + name, stickers=manifest)
    assert found is not None
    report.file_ids = _file_ids(found, wanted)
    return report


def _adder(bot: Bot, owner: int, name: str, picture: Picture) -> Callable[[], Awaitable[Any]]:
    return lambda: bot.add_sticker_to_set(user_id=owner, name=name, sticker=picture.input_sticker())


def _replacer(
    bot: Bot, owner: int, name: str, old: str, picture: Picture
) -> Callable[[], Awaitable[Any]]:
    return lambda: bot.replace_sticker_in_set(
        user_id=owner, name=name, old_sticker=old, sticker=picture.input_sticker()
    )


def _deleter(bot: Bot, file_id: str) -> Callable[[], Awaitable[Any]]:
    return lambda: bot.delete_sticker_from_set(sticker=file_id)


class StickerBook:
    """Each card's sticker file id per language, once a set is known (else text results)."""

    def __init__(self) -> None:
        self._ids: dict[str, dict[str, str]] = {}

    def learn(self, lang: str, file_ids: dict[str, str]) -> None:
        # Only a complete set is used: a card without its sticker would be missing from a hand.
        if all(p.name in file_ids for p in pictures(lang)):
            self._ids[lang] = dict(file_ids)

    def ready(self, lang: str) -> bool:
        return lang in self._ids

    def sticker(self, lang: str, card: Card, dimmed: bool = False) -> str | None:
        ids = self._ids.get(lang)
        return None if ids is None else ids.get(picture_name(card, dimmed))
