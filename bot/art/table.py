"""The group's table as a banner: the top card, the color in play and the direction of play.

A wide, short picture (3:1), so that a chat shows it as a strip above the table's text instead of
a photo that fills the screen of a group where people also talk. From the left: the draw pile
(a card's back), the discard pile's top card, the color in play when a wild card chose it (the
color with its shape and letter, as in `bot.art.hand`, so color is never the only cue), and an
arrow round a circle, clockwise or not, for the direction of play. The background is tinted with
the color in play, which reads before anything else.

The banner shows nothing that changes with every move but the top card (no card counts, no
names: the caption says those), so the same banner comes back often (a red 7 with play going
clockwise) and a chat that shows it again sends its Telegram file id, not its bytes. The
bytes are the same on every run: 256-color PNG written by `bot.art.export.png_bytes`, as the
hand's picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.art import face, glyphs
from bot.art.export import png_bytes
from bot.art.glyphs import Place, Poly, Stroke
from bot.art.hand import card_tile, color_pill
from bot.art.palette import CARD_COLORS, INK, RGB, SHEET_BACKGROUND, WHITE, mix
from bot.presentation.i18n import DEFAULT_LANG
from core.cards import Card, Color

HEIGHT = 240
WIDTH = 3 * HEIGHT
PAD = 16  # around the cards
CARD_HEIGHT = HEIGHT - 2 * PAD
TINT = 0.4  # how much of the color in play the background takes
_GAP = 28  # between the two piles and the rest
_PILL_HEIGHT = 76
_PILL_WIDTH = 176
ARROW_SIZE = 190  # the arrow's 1000-unit box, in pixels

# The direction's arrow in a 1000-unit box: three quarters of a circle and a head at its end.
_ARC_RADIUS = 330
_ARC_STROKE = 110
_ARC_FROM, _ARC_TO = 150.0, 400.0  # degrees, clockwise from three o'clock (y grows down)
_HEAD_LENGTH = 260
_HEAD_WIDTH = 330


@dataclass(frozen=True)
class TablePicture:
    """What the banner shows; equal banners are equal values (a cache key for file ids)."""

    top: Card
    color: Color | None = None  # the color in play; shown apart only under a wild card
    direction: int = 1  # 1: clockwise, -1: counterclockwise
    lang: str = DEFAULT_LANG

    @classmethod
    def of(
        cls, top: Card, color: Color | None, direction: int, lang: str = DEFAULT_LANG
    ) -> TablePicture:
        """The banner of a table (a colored card's color is its own: not kept twice)."""
        return cls(top, color if top.is_wild else top.color, 1 if direction >= 0 else -1, lang)

    @property
    def name(self) -> str:
        """A file name for the upload."""
        return "table.png"


def _arc_point(angle: float) -> tuple[float, float]:
    a = math.radians(angle)
    return (_ARC_RADIUS * math.cos(a), _ARC_RADIUS * math.sin(a))


def _arrow(direction: int) -> glyphs.Glyph:
    """The arrow round a circle: clockwise for 1, mirrored for -1."""
    steps = 40
    points = [_arc_point(_ARC_FROM + (_ARC_TO - _ARC_FROM) * i / steps) for i in range(steps + 1)]
    end = math.radians(_ARC_TO)
    along = (-math.sin(end), math.cos(end))  # where a clockwise walk goes at the arc's end
    across = (math.cos(end), math.sin(end))
    tip_x, tip_y = points[-1]
    tip = (tip_x + along[0] * _HEAD_LENGTH * 0.6, tip_y + along[1] * _HEAD_LENGTH * 0.6)
    base = (tip[0] - along[0] * _HEAD_LENGTH, tip[1] - along[1] * _HEAD_LENGTH)
    half = _HEAD_WIDTH / 2
    head: tuple[glyphs.Point, ...] = (
        tip,
        (base[0] + across[0] * half, base[1] + across[1] * half),
        (base[0] - across[0] * half, base[1] - across[1] * half),
    )
    stem = tuple(points[:-2])  # the head covers the arc's last stretch
    if direction < 0:
        stem = tuple((-x, y) for x, y in stem)
        head = tuple((-x, y) for x, y in head)
    return (Stroke(stem, _ARC_STROKE), Poly(head))


@dataclass(frozen=True)
class Layout:
    """Where everything goes, in pixels: the piles' top left corners, the pill's box, the
    arrow's top left corner (it is `ARROW_SIZE` square)."""

    deck: tuple[int, int]
    top: tuple[int, int]
    pill: tuple[int, int, int, int] | None
    arrow: tuple[int, int]


def layout(picture: TablePicture) -> Layout:
    card_width = face.card_size(CARD_HEIGHT)[0]
    top_x = PAD + card_width + PAD
    left = top_x + card_width + _GAP  # the rest of the banner: the color pill, then the arrow
    pill = None
    if picture.top.is_wild and picture.color is not None:
        pill_top = (HEIGHT - _PILL_HEIGHT) // 2
        pill = (left, pill_top, left + _PILL_WIDTH, pill_top + _PILL_HEIGHT)
        left += _PILL_WIDTH + _GAP
    arrow_x = (left + WIDTH - PAD) // 2 - ARROW_SIZE // 2
    return Layout((PAD, PAD), (top_x, PAD), pill, (arrow_x, (HEIGHT - ARROW_SIZE) // 2))


def background(color: Color | None) -> RGB:
    """The banner's background: tinted with the color in play."""
    return SHEET_BACKGROUND if color is None else mix(SHEET_BACKGROUND, CARD_COLORS[color], TINT)


def table_image(picture: TablePicture) -> Image.Image:
    """The banner as an RGB image, `WIDTH` x `HEIGHT`."""
    plan = layout(picture)
    image = Image.new("RGB", (WIDTH, HEIGHT), background(picture.color))
    deck = card_tile(None, False, CARD_HEIGHT, picture.lang)
    image.paste(deck, plan.deck, deck)
    top = card_tile(picture.top, False, CARD_HEIGHT, picture.lang)
    image.paste(top, plan.top, top)
    if plan.pill is not None and picture.color is not None:
        color_pill(image, plan.pill, picture.color, picture.lang)
    arrow = _arrow_image(picture.direction)
    image.paste(arrow, plan.arrow, arrow)
    return image


def _arrow_image(direction: int) -> Image.Image:
    """The arrow, white with a dark outline, on transparency: drawn at twice its size and scaled
    down, since Pillow draws polygons without anti-aliasing (as the cards, `bot.art.face`)."""
    side = 2 * ARROW_SIZE
    layer = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    place = Place(side / 2, side / 2, side)
    arrow = _arrow(direction)
    glyphs.paint(draw, arrow, place, INK, grow=10)
    glyphs.paint(draw, arrow, place, WHITE)
    return layer.resize((ARROW_SIZE, ARROW_SIZE), Image.Resampling.BOX)


def table_png(picture: TablePicture) -> bytes:
    """The banner as a 256-color PNG (see the module's docstring)."""
    return png_bytes(table_image(picture).quantize(256, method=Image.Quantize.FASTOCTREE))
