"""Every symbol of the card art as vector primitives, and the one painter that draws them.

A glyph is a list of primitives in its own box of 1000 units (centered on 0, 0; y grows down),
so the same definition serves a 600-unit central symbol and a 150-unit corner mark. Only the
digits come from a font (Pillow's bundled one, so every machine draws the same); the action
symbols, the color-blind shapes and the color letters are polygons and strokes, because a font
may lack them (Pillow's bundled font has no Cyrillic at all).

`paint` can grow every primitive by a margin: painting a glyph grown in `INK` and then plain in
white gives it an outline of even width, whatever the glyph is made of.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from PIL import ImageDraw, ImageFont

from bot.art.palette import BURST_INNER, BURST_OUTER, CARD_COLORS, RGB
from core.cards import Color

Point = tuple[float, float]


@dataclass(frozen=True)
class Poly:
    points: tuple[Point, ...]
    color: RGB | None = None  # None: the color the glyph is painted in


@dataclass(frozen=True)
class Stroke:
    """A polyline with round caps and joins."""

    points: tuple[Point, ...]
    width: float
    color: RGB | None = None


@dataclass(frozen=True)
class Disc:
    center: Point
    radius: float
    color: RGB | None = None


@dataclass(frozen=True)
class Ring:
    center: Point
    radius: float  # to the middle of the ring
    width: float
    color: RGB | None = None


@dataclass(frozen=True)
class Pie:
    """A slice of a disc; angles in degrees, clockwise from three o'clock."""

    center: Point
    radius: float
    start: float
    end: float
    color: RGB | None = None


@dataclass(frozen=True)
class Digits:
    """Text from the bundled font, centered on its ink; `height` is the height of a digit."""

    text: str
    center: Point
    height: float
    color: RGB | None = None


Primitive = Poly | Stroke | Disc | Ring | Pie | Digits
Glyph = tuple[Primitive, ...]

# Bold for the bundled font, which is a regular weight: a stroke of this fraction of the height.
_DIGIT_BOLD = 0.055


@functools.lru_cache(maxsize=64)
def _font(px: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=px)
    assert isinstance(font, ImageFont.FreeTypeFont), "Pillow without FreeType"
    return font


@functools.lru_cache(maxsize=1)
def _digit_height_ratio() -> float:
    """Ink height of a digit per pixel of font size (the font's cap height)."""
    top, bottom = _font(1000).getbbox("0", anchor="ls")[1::2]
    return (bottom - top) / 1000


@dataclass(frozen=True)
class Place:
    """Where a glyph goes: its center in pixels and the pixel size of its 1000-unit box."""

    x: float
    y: float
    size: float

    def xy(self, p: Point) -> tuple[float, float]:
        k = self.size / 1000
        return (self.x + p[0] * k, self.y + p[1] * k)

    def length(self, units: float) -> float:
        return units * self.size / 1000


def paint(
    draw: ImageDraw.ImageDraw,
    glyph: Sequence[Primitive],
    place: Place,
    fill: RGB,
    grow: float = 0.0,
    own_colors: bool = True,
) -> None:
    """Draw `glyph` at `place`, every primitive grown by `grow` pixels.

    With `own_colors` a primitive that has its own color keeps it; without, everything is `fill`
    (an outline or a shadow).
    """
    for prim in glyph:
        color = prim.color if own_colors and prim.color is not None else fill
        if isinstance(prim, Poly):
            pts = [place.xy(p) for p in prim.points]
            draw.polygon(pts, fill=color)
            if grow > 0:
                _polyline(draw, [*pts, pts[0]], 2 * grow, color)
        elif isinstance(prim, Stroke):
            pts = [place.xy(p) for p in prim.points]
            _polyline(draw, pts, place.length(prim.width) + 2 * grow, color)
        elif isinstance(prim, Disc):
            _disc(draw, place.xy(prim.center), place.length(prim.radius) + grow, color)
        elif isinstance(prim, Ring):
            cx, cy = place.xy(prim.center)
            width = place.length(prim.width) + 2 * grow
            outer = place.length(prim.radius) + width / 2
            box = (cx - outer, cy - outer, cx + outer, cy + outer)
            draw.ellipse(box, outline=color, width=round(width))
        elif isinstance(prim, Pie):
            cx, cy = place.xy(prim.center)
            r = place.length(prim.radius) + grow
            draw.pieslice((cx - r, cy - r, cx + r, cy + r), prim.start, prim.end, fill=color)
        else:
            _digits(draw, prim, place, color, grow)


def _polyline(
    draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], width: float, color: RGB
) -> None:
    draw.line(list(pts), fill=color, width=max(1, round(width)), joint="curve")
    for p in (pts[0], pts[-1]):
        _disc(draw, p, width / 2, color)


def _disc(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=color)


def _digits(draw: ImageDraw.ImageDraw, prim: Digits, place: Place, color: RGB, grow: float) -> None:
    height = place.length(prim.height)
    font = _font(max(1, round(height / _digit_height_ratio())))
    stroke = height * _DIGIT_BOLD + grow
    left, top, right, bottom = font.getbbox(prim.text, anchor="ls")
    cx, cy = place.xy(prim.center)
    origin = (cx - (left + right) / 2, cy - (top + bottom) / 2)
    draw.text(
        origin,
        prim.text,
        font=font,
        anchor="ls",
        fill=color,
        stroke_width=stroke,
        stroke_fill=color,
    )


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float) -> tuple[Point, ...]:
    """Points along an elliptic arc from angle a0 to a1 (degrees, clockwise, either way)."""
    steps = max(8, round(abs(a1 - a0) / 6))
    return tuple(
        (
            cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / steps)),
            cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / steps)),
        )
        for i in range(steps + 1)
    )


def _star(points: int, outer: float, inner: float, turn: float = 0.0) -> tuple[Point, ...]:
    corners = []
    for i in range(2 * points):
        r = outer if i % 2 == 0 else inner
        a = math.radians(turn - 90 + 180 * i / points)
        corners.append((r * math.cos(a), r * math.sin(a)))
    return tuple(corners)


def _shifted(glyph: Glyph, dx: float, dy: float, k: float = 1.0) -> Glyph:
    """`glyph` scaled by `k` and moved by (dx, dy): glyphs made of other glyphs."""

    def move(p: Point) -> Point:
        return (p[0] * k + dx, p[1] * k + dy)

    out: list[Primitive] = []
    for prim in glyph:
        if isinstance(prim, Poly):
            out.append(Poly(tuple(map(move, prim.points)), prim.color))
        elif isinstance(prim, Stroke):
            out.append(Stroke(tuple(map(move, prim.points)), prim.width * k, prim.color))
        elif isinstance(prim, Disc):
            out.append(Disc(move(prim.center), prim.radius * k, prim.color))
        elif isinstance(prim, Ring):
            out.append(Ring(move(prim.center), prim.radius * k, prim.width * k, prim.color))
        elif isinstance(prim, Pie):
            out.append(Pie(move(prim.center), prim.radius * k, prim.start, prim.end, prim.color))
        else:
            out.append(Digits(prim.text, move(prim.center), prim.height * k, prim.color))
    return tuple(out)


# ------------------------------------------------------------------ color-blind shapes

# The shapes of `locales/*/cards.ftl` (color-<name>-shape: ▲ ● ■ ◆), sized to look equally big.
SHAPES: dict[Color, Glyph] = {
    Color.RED: (Poly(((0, -470), (520, 430), (-520, 430))),),
    Color.YELLOW: (Disc((0, 0), 430),),
    Color.GREEN: (Poly(((-390, -390), (390, -390), (390, 390), (-390, 390))),),
    Color.BLUE: (Poly(((0, -495), (440, 0), (0, 495), (-440, 0))),),
}

# ------------------------------------------------------------------ color letters

_LETTER_STROKE = 200

# The first letters of the color names, as `locales/*/cards.ftl` gives them (color-<name>-letter),
# drawn as strokes in a box 1000 high and about 750 wide.
LETTERS: dict[str, Glyph] = {
    "\N{CYRILLIC CAPITAL LETTER KA}": (
        Stroke(((-290, -500), (-290, 500)), _LETTER_STROKE),
        Stroke(((-260, 40), (300, -500)), _LETTER_STROKE),
        Stroke(((-90, -110), (330, 500)), _LETTER_STROKE),
    ),
    "\N{CYRILLIC CAPITAL LETTER ZHE}": (
        Stroke(((0, -500), (0, 500)), _LETTER_STROKE),
        Stroke(((-420, -500), (-60, 0), (-440, 500)), _LETTER_STROKE),
        Stroke(((420, -500), (60, 0), (440, 500)), _LETTER_STROKE),
        Stroke(((-60, 0), (60, 0)), _LETTER_STROKE),
    ),
    "\N{CYRILLIC CAPITAL LETTER ZE}": (
        Stroke(_arc(-20, -255, 250, 245, 205, 450), _LETTER_STROKE),
        Stroke(_arc(-20, 245, 290, 255, 270, 515), _LETTER_STROKE),
    ),
    "\N{CYRILLIC CAPITAL LETTER ES}": (Stroke(_arc(40, 0, 380, 500, 318, 42), _LETTER_STROKE),),
    "\N{CYRILLIC CAPITAL LETTER CHE}": (
        Stroke(
            ((-320, -500), (-320, -150), *_arc(-20, -150, 300, 200, 180, 90)[1:]), _LETTER_STROKE
        ),
        Stroke(((-20, 50), (320, 20)), _LETTER_STROKE),
        Stroke(((320, -500), (320, 500)), _LETTER_STROKE),
    ),
}

# ------------------------------------------------------------------ card symbols

_SYMBOL_STROKE = 120


def number(n: int) -> Glyph:
    """A digit; 6 and 9 are underlined so that they read the same upside down."""
    if n in (6, 9):
        return (
            Digits(str(n), (0, -50), 800),
            Stroke(((-210, 450), (210, 450)), 90),
        )
    return (Digits(str(n), (0, 0), 840),)


SKIP: Glyph = (
    Ring((0, 0), 330, _SYMBOL_STROKE),
    Stroke(((-225, 225), (225, -225)), _SYMBOL_STROKE),
)

# Two arrows, one each way (the text's ⇄).
REVERSE: Glyph = (
    Stroke(((-380, -180), (170, -180)), _SYMBOL_STROKE),
    Poly(((130, -370), (420, -180), (130, 10))),
    Stroke(((380, 180), (-170, 180)), _SYMBOL_STROKE),
    Poly(((-130, -10), (-420, 180), (-130, 370))),
)

_PLUS: Glyph = (
    Stroke(((-470, 0), (-130, 0)), _SYMBOL_STROKE),
    Stroke(((-300, -170), (-300, 170)), _SYMBOL_STROKE),
)
DRAW_TWO: Glyph = (*_PLUS, Digits("2", (170, 0), 720))
DRAW_FOUR: Glyph = (*_PLUS, Digits("4", (170, 0), 720))

# The four colors of a wild card: a disc cut in quarters, each quarter with its color's shape.
# From the top left, clockwise, and their spots on a 1000-unit wheel.
WHEEL_ORDER = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
WHEEL_SPOTS: tuple[Point, ...] = ((-175, -175), (175, -175), (175, 175), (-175, 175))
WHEEL: Glyph = tuple(
    Pie((0, 0), 420, 180 + 90 * i, 270 + 90 * i, CARD_COLORS[c]) for i, c in enumerate(WHEEL_ORDER)
)


def wheel_marks(ink: RGB) -> Glyph:
    """The shapes on the wheel's quarters, in `ink`."""
    out: list[Primitive] = []
    for color, (x, y) in zip(WHEEL_ORDER, WHEEL_SPOTS, strict=True):
        out.extend(replace(p, color=ink) for p in _shifted(SHAPES[color], x, y, 0.2))
    return tuple(out)


# The Creeper's blast (the text's 💥): two jagged stars.
BURST: Glyph = (
    Poly(_star(11, 500, 300), BURST_OUTER),
    Poly(_star(11, 330, 190, turn=16), BURST_INNER),
)
