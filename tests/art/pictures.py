"""Rendered pictures shared by the art tests, made once per test process (rendering is slow)."""

from __future__ import annotations

import functools
import io

from PIL import Image

from bot.art import back_png, emoji_png, sticker_png
from core.cards import ALL_CARDS, Card

FACES: tuple[Card | None, ...] = (*ALL_CARDS, None)  # None: the back


@functools.cache
def stickers(lang: str) -> dict[tuple[Card | None, bool], bytes]:
    """Every face and the back, normal and dimmed, as sticker PNG bytes."""
    out: dict[tuple[Card | None, bool], bytes] = {}
    for card in ALL_CARDS:
        out[card, False] = sticker_png(card, lang=lang)
        out[card, True] = sticker_png(card, dimmed=True, lang=lang)
    out[None, False] = back_png()
    return out


@functools.cache
def emojis(lang: str) -> dict[Card, bytes]:
    return {card: emoji_png(card, lang=lang) for card in ALL_CARDS}


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image
