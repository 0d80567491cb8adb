"""The layout of a card: where the field, the symbols, the corner index and the color mark go.

Cards are laid out in units on a 1000 x 1550 card (the proportions of a real playing card),
painted at twice the height asked for and at least `MASTER_HEIGHT` pixels, then scaled down:
Pillow's polygons have no anti-aliasing, and scaling down smooths their edges.

A colored card: its color as the field with a lighter diagonal band, the number or symbol big in
the middle (white, with a dark outline so that it reads on every color), a small index at the
top left, and in a white pill at the top right the color's shape and letter in dark ink, so that
color is never the only cue; the bottom corners repeat the top ones upside down. The wild cards
have a dark field and the four colors as a wheel that carries the four shapes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.art import glyphs
from bot.art.glyphs import Glyph, Place
from bot.art.palette import (
    BACK_FIELD,
    CARD_COLORS,
    INK,
    RGB,
    WHITE,
    WILD_FIELD,
    mix,
)
from bot.presentation.i18n import get_i18n
from core.cards import Card, Color, Kind

CARD_W = 1000
CARD_H = 1550
MASTER_HEIGHT = 1024  # twice a sticker's height

_RADIUS = 100  # the card's corners
_RIM = 16  # the dark edge that sets the card off any background
_STRIP = 340  # the top strip (index and mark), repeated upside down at the bottom
_CENTER = (CARD_W / 2, CARD_H / 2)


@dataclass(frozen=True)
class Box:
    """A rectangle in card units."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def center(self) -> tuple[float, float]:
        return ((self.left + self.right) / 2, (self.top + self.bottom) / 2)

    def pixels(self, height: int) -> tuple[int, int, int, int]:
        """The box on a card `height` pixels high, rounded outwards."""
        k = height / CARD_H
        return (
            math.floor(self.left * k),
            math.floor(self.top * k),
            math.ceil(self.right * k),
            math.ceil(self.bottom * k),
        )


# The color mark at the top right: a white pill, the shape in its left half, the letter in its
# right half. The tests read these boxes to find the mark's pixels.
MARK_PILL = Box(548, 88, 922, 300)
MARK_SHAPE = Box(592, 128, 724, 260)
MARK_LETTER = Box(760, 132, 868, 256)
_INDEX = Place(182, 196, 236)


def card_size(height: int) -> tuple[int, int]:
    """(width, height) in pixels of a card `height` pixels high."""
    return (round(height * CARD_W / CARD_H), height)


def letter_for(color: Color, lang: str) -> str:
    """The color's letter in `lang`, from the locale (message `color-<name>-letter`)."""
    return get_i18n().t(lang, f"color-{color.name.lower()}-letter")


def letter_glyph(color: Color, lang: str) -> Glyph:
    letter = letter_for(color, lang)
    try:
        return glyphs.LETTERS[letter]
    except KeyError:
        raise ValueError(f"no drawing for the color letter {letter!r} ({lang})") from None


@functools.lru_cache(maxsize=8)
def render(card: Card | None, height: int, lang: str) -> Image.Image:
    """The card (None: the back) as an RGBA image `height` pixels high; shared, do not modify."""
    master = _render_master(card, lang, max(MASTER_HEIGHT, 2 * height))
    # Each new pixel the average of those it covers: plain supersampling, no ringing.
    return master.resize(card_size(height), Image.Resampling.BOX)


@functools.lru_cache(maxsize=8)
def _render_master(card: Card | None, lang: str, height: int) -> Image.Image:
    painter = _Painter(height)
    if card is None:
        painter.back()
    elif card.color is not None:
        painter.colored(card, card.color, lang)
    else:
        painter.wild(card)
    return painter.finish()


class _Painter:
    def __init__(self, height: int) -> None:
        self.k = height / CARD_H
        self.image = Image.new("RGB", card_size(height), WHITE)
        self.draw = ImageDraw.Draw(self.image)

    # ------------------------------------------------------------ units to pixels

    def place(self, x: float, y: float, size: float) -> Place:
        return Place(x * self.k, y * self.k, size * self.k)

    def at(self, place: Place) -> Place:
        return self.place(place.x, place.y, place.size)

    def box(self, b: Box) -> tuple[float, float, float, float]:
        return (b.left * self.k, b.top * self.k, b.right * self.k, b.bottom * self.k)

    # ------------------------------------------------------------ the cards

    def colored(self, card: Card, color: Color, lang: str) -> None:
        field = CARD_COLORS[color]
        self.field(field, bands=(0.0,))
        symbol = _symbol(card)
        self.glyph(symbol, self.at(_INDEX), WHITE, INK, outline=16, shadow=None)
        self.draw.rounded_rectangle(
            self.box(MARK_PILL), radius=100 * self.k, fill=WHITE, outline=INK, width=self.px(9)
        )
        glyphs.paint(self.draw, glyphs.SHAPES[color], self.fit(MARK_SHAPE), INK)
        glyphs.paint(self.draw, letter_glyph(color, lang), self.fit(MARK_LETTER), INK)
        self.mirror_strip()
        self.glyph(symbol, self.place(*_CENTER, 700), WHITE, INK, 30, mix(field, INK, 0.45))

    def wild(self, card: Card) -> None:
        self.field(WILD_FIELD, bands=(0.0,))
        center = self.place(*_CENTER, 640)
        if card.kind is Kind.WILD:
            self.wheel(self.at(_INDEX), 14)
            self.mirror_strip()
            self.wheel(center, 24)
        elif card.kind is Kind.WILD_FOUR:
            self.glyph(glyphs.DRAW_FOUR, self.at(_INDEX), WHITE, INK, 16, None)
            self.mirror_strip()
            self.wheel(self.place(_CENTER[0], _CENTER[1], 760), 24)
            self.glyph(glyphs.DRAW_FOUR, self.place(*_CENTER, 470), WHITE, INK, 30, INK)
        else:
            self.burst(self.at(_INDEX), 14)
            self.mirror_strip()
            self.burst(self.place(*_CENTER, 720), 24)
            self.wheel(self.place(*_CENTER, 300), 14)

    def back(self) -> None:
        self.field(BACK_FIELD, bands=(-520.0, 0.0, 520.0))
        plate = self.place(*_CENTER, 800)
        self.glyph((glyphs.Disc((0, 0), 440),), plate, WHITE, INK, 14, mix(BACK_FIELD, INK, 0.6))
        # On the plate, the four shapes in their colors, placed as on the wild cards' wheel.
        for color, (dx, dy) in zip(glyphs.WHEEL_ORDER, glyphs.WHEEL_SPOTS, strict=True):
            shape = self.place(_CENTER[0] + dx, _CENTER[1] + dy, 240)
            glyphs.paint(self.draw, glyphs.SHAPES[color], shape, INK, grow=self.px(14))
            glyphs.paint(self.draw, glyphs.SHAPES[color], shape, CARD_COLORS[color])

    # ------------------------------------------------------------ parts

    def px(self, units: float) -> int:
        return max(1, round(units * self.k))

    def fit(self, b: Box) -> Place:
        """A glyph's 1000-unit box fitted to the height of `b`, centered."""
        x, y = b.center
        return self.place(x, y, b.bottom - b.top)

    def field(self, color: RGB, bands: Sequence[float]) -> None:
        """The field, lighter diagonal bands (offsets from the center) and a thin inner frame."""
        w, h = self.image.size
        self.draw.rectangle((0, 0, w, h), fill=color)
        # Along the diagonal from the bottom left to the top right, so that the band is the
        # same turned upside down (the bottom strip is the top one turned).
        dx, dy = CARD_W, -CARD_H
        norm = math.hypot(dx, dy)
        ux, uy = dx / norm, dy / norm
        nx, ny = -uy, ux
        band = mix(color, WHITE, 0.13)
        for offset in bands:
            half = 150 if offset == 0 else 60
            cx, cy = _CENTER[0] + nx * offset, _CENTER[1] + ny * offset
            corners = [
                (cx + ux * s * 2000 + nx * t * half, cy + uy * s * 2000 + ny * t * half)
                for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))
            ]
            self.draw.polygon([(x * self.k, y * self.k) for x, y in corners], fill=band)
        inset = 44
        self.draw.rounded_rectangle(
            self.box(Box(inset, inset, CARD_W - inset, CARD_H - inset)),
            radius=(_RADIUS - inset + 20) * self.k,
            outline=mix(color, WHITE, 0.45),
            width=self.px(9),
        )

    def glyph(
        self,
        glyph: Glyph,
        place: Place,
        fill: RGB,
        outline_color: RGB,
        outline: float,
        shadow: RGB | None,
    ) -> None:
        """A glyph in `fill` with an outline `outline` units wide and a drop shadow."""
        grow = outline * self.k
        if shadow is not None:
            dropped = Place(place.x + 14 * self.k, place.y + 20 * self.k, place.size)
            glyphs.paint(self.draw, glyph, dropped, shadow, grow, own_colors=False)
        glyphs.paint(self.draw, glyph, place, outline_color, grow, own_colors=False)
        glyphs.paint(self.draw, glyph, place, fill)

    def wheel(self, place: Place, outline: float) -> None:
        self.glyph(glyphs.WHEEL, place, WHITE, WHITE, outline, None)
        glyphs.paint(self.draw, glyphs.wheel_marks(INK), place, INK)

    def burst(self, place: Place, outline: float) -> None:
        self.glyph(glyphs.BURST, place, WHITE, WHITE, outline, None)

    def mirror_strip(self) -> None:
        """Repeat the top strip upside down at the bottom (corner index and mark)."""
        w, h = self.image.size
        strip = round(_STRIP * self.k)
        top = self.image.crop((0, 0, w, strip)).transpose(Image.Transpose.ROTATE_180)
        self.image.paste(top, (0, h - strip))

    def finish(self) -> Image.Image:
        """Round the corners (transparent outside) and draw the rim."""
        w, h = self.image.size
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            (0, 0, w - 1, h - 1), radius=_RADIUS * self.k, fill=255
        )
        self.draw.rounded_rectangle(
            (0, 0, w - 1, h - 1), radius=_RADIUS * self.k, outline=INK, width=self.px(_RIM)
        )
        card = self.image.convert("RGBA")
        card.putalpha(mask)
        return card


def _symbol(card: Card) -> Glyph:
    if card.kind is Kind.NUMBER:
        assert card.number is not None
        return glyphs.number(card.number)
    return _ACTION_SYMBOLS[card.kind]


_ACTION_SYMBOLS: dict[Kind, Glyph] = {
    Kind.SKIP: glyphs.SKIP,
    Kind.REVERSE: glyphs.REVERSE,
    Kind.DRAW_TWO: glyphs.DRAW_TWO,
}
