"""A hand of cards as one picture: what a player holds at a glance, for a chat that shows photos.

The cards overlap in rows like a hand fanned on a table: each card leaves its left part
uncovered, which carries both its index (top left) and its color's shape and letter (the bottom
corner repeats the top right one upside down), so every card stays readable with 20 in a hand.
Cards that cannot be played now are dimmed (`bot.art.export.dim`); optionally the discard pile's
top card stands apart on the left, with the color in play under it when a wild card chose one.

PNG in 256 colors (as the contact sheet), not JPEG: the art is flat colors with sharp outlines,
which a palette PNG keeps exactly while JPEG blurs them, and in fewer bytes, which a hand pays
again at every change. The bytes are the same on every run (no metadata, a fixed quantizer and
compression level).

Every size is in proportion to the card's height, so the picture is scaled down as a whole
when a very large hand would make it wider or taller than `MAX_SIDE` (Telegram shows photos at
most 1280 px on their long side; its hard limits, width + height <= 10000 and a side ratio of at
most 20, are far away).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.art import face, glyphs
from bot.art.export import card_image, png_bytes
from bot.art.palette import CARD_COLORS, INK, SHEET_BACKGROUND, WHITE
from bot.presentation.i18n import DEFAULT_LANG
from core.cards import Card, Color

CARD_HEIGHT = 220  # pixels of one card in a hand of ordinary size
MAX_SIDE = 1280  # the picture's long side at most (Telegram's display size)
PER_ROW = 7  # cards in a row before a second row starts (rows are balanced)
MAX_ROWS = 4  # beyond this many rows, rows get longer instead
VISIBLE = 0.42  # the share of a card's width the next card leaves uncovered

# In card heights: the margin around everything, between rows, between the top card and the hand.
_PAD = 0.07
_ROW_GAP = 0.06
_TOP_GAP = 0.22
_PILL = 0.3  # the height of the color pill under the top card


@dataclass(frozen=True)
class HandPicture:
    """What a hand's picture shows; equal pictures are equal values (a cache key)."""

    cards: tuple[Card, ...]
    dimmed: tuple[bool, ...]  # one per card
    top: Card | None = None
    color: Color | None = None  # the color in play, shown under a wild top card
    lang: str = DEFAULT_LANG

    def __post_init__(self) -> None:
        if len(self.cards) != len(self.dimmed):
            raise ValueError("one dimmed flag per card")

    @classmethod
    def of(
        cls,
        cards: Sequence[Card],
        playable: frozenset[Card] | None = None,
        *,
        top: Card | None = None,
        color: Color | None = None,
        lang: str = DEFAULT_LANG,
    ) -> HandPicture:
        """`playable`: the cards that may be played now, the others dimmed (None: none)."""
        dimmed = tuple(playable is not None and card not in playable for card in cards)
        return cls(tuple(cards), dimmed, top, color, lang)

    @property
    def name(self) -> str:
        """A file name for the upload."""
        return "hand.png"


@dataclass(frozen=True)
class Layout:
    """Where every card goes, in pixels: `cards[i]` is the top left corner of card i."""

    size: tuple[int, int]
    card_height: int
    cards: tuple[tuple[int, int], ...]
    top: tuple[int, int] | None
    pill: tuple[int, int, int, int] | None
    back: tuple[int, int] | None = None  # an empty hand: a card's back stands for it


def rows_of(count: int) -> list[int]:
    """How many cards each row holds: at most `PER_ROW` (more only past `MAX_ROWS` rows),
    balanced, the longer rows first."""
    if count == 0:
        return []
    rows = min(MAX_ROWS, math.ceil(count / PER_ROW))
    base, extra = divmod(count, rows)
    return [base + 1 if i < extra else base for i in range(rows)]


def _layout_at(picture: HandPicture, h: int) -> Layout:
    w = face.card_size(h)[0]
    pad = round(_PAD * h)
    step = max(1, round(VISIBLE * w))
    x0 = pad
    top = pill = None
    top_bottom = 0
    if picture.top is not None:
        top = (pad, pad)
        top_bottom = pad + h
        if picture.color is not None and picture.top.is_wild:
            pill = (pad, top_bottom + pad, pad + w, top_bottom + pad + round(_PILL * h))
            top_bottom = pill[3]
        x0 = pad + w + round(_TOP_GAP * h)
    places: list[tuple[int, int]] = []
    y = pad
    right = x0
    for count in rows_of(len(picture.cards)) or [1]:  # no cards: room for the back of one
        for i in range(count):
            places.append((x0 + i * step, y))
        right = max(right, x0 + (count - 1) * step + w)
        y += h + round(_ROW_GAP * h)
    bottom = max(y - round(_ROW_GAP * h), top_bottom)
    if picture.cards:
        return Layout((right + pad, bottom + pad), h, tuple(places), top, pill)
    return Layout((right + pad, bottom + pad), h, (), top, pill, back=places[0])


def layout(picture: HandPicture) -> Layout:
    """The layout at `CARD_HEIGHT`, or smaller where that would pass `MAX_SIDE`."""
    full = _layout_at(picture, CARD_HEIGHT)
    longest = max(full.size)
    if longest <= MAX_SIDE:
        return full
    height = math.floor(CARD_HEIGHT * MAX_SIDE / longest)
    while max((fitted := _layout_at(picture, height)).size) > MAX_SIDE:  # rounding
        height -= 1
    return fitted


@functools.lru_cache(maxsize=512)
def card_tile(card: Card | None, dimmed: bool, height: int, lang: str) -> Image.Image:
    """One card at the picture's size (shared: do not modify)."""
    return card_image(card, dimmed=dimmed, size=height, lang=lang)


def hand_image(picture: HandPicture) -> Image.Image:
    """The picture as an RGB image."""
    plan = layout(picture)
    image = Image.new("RGB", plan.size, SHEET_BACKGROUND)
    h = plan.card_height
    for card, dimmed, place in zip(picture.cards, picture.dimmed, plan.cards, strict=True):
        tile = card_tile(card, dimmed, h, picture.lang)
        image.paste(tile, place, tile)
    if plan.back is not None:  # no cards left: the back of one, dimmed, where they were
        tile = card_tile(None, True, h, picture.lang)
        image.paste(tile, plan.back, tile)
    if picture.top is not None and plan.top is not None:
        tile = card_tile(picture.top, False, h, picture.lang)
        image.paste(tile, plan.top, tile)
    if picture.color is not None and plan.pill is not None:
        color_pill(image, plan.pill, picture.color, picture.lang)
    return image


def color_pill(image: Image.Image, box: tuple[int, int, int, int], color: Color, lang: str) -> None:
    """The color a wild card chose: the color itself, and its shape and letter in a white pill
    (color is never the only cue)."""
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = box
    height = bottom - top
    radius = height // 2
    draw.rounded_rectangle(box, radius=radius, fill=CARD_COLORS[color], outline=INK, width=2)
    inner = round(height * 0.16)
    white = (left + inner, top + inner, right - inner, bottom - inner)
    draw.rounded_rectangle(white, radius=radius - inner, fill=WHITE)
    size = (bottom - top) - 3 * inner
    middle_y = (top + bottom) / 2
    third = (right - left) / 3
    shape = glyphs.Place(left + third * 1.05, middle_y, size)
    glyphs.paint(draw, glyphs.SHAPES[color], shape, INK)
    letter = glyphs.Place(left + third * 2.0, middle_y, size * 0.9)
    glyphs.paint(draw, face.letter_glyph(color, lang), letter, INK)


def hand_png(picture: HandPicture) -> bytes:
    """The picture as a 256-color PNG (see the module's docstring for why)."""
    return png_bytes(hand_image(picture).quantize(256, method=Image.Quantize.FASTOCTREE))
