"""The colors of the card art, and the contrast measure the tests hold them to.

The four card colors differ in lightness as well as hue (yellow light, blue dark), which helps a
little; the shapes and letters of `bot.art.glyphs` carry the color for everyone else. Every
symbol is white with a dark `INK` outline, so it reads on yellow as well as on blue.
"""

from __future__ import annotations

from core.cards import Color

RGB = tuple[int, int, int]

CARD_COLORS: dict[Color, RGB] = {
    Color.RED: (222, 45, 52),
    Color.YELLOW: (247, 194, 0),
    Color.GREEN: (26, 156, 72),
    Color.BLUE: (22, 98, 204),
}
INK: RGB = (24, 24, 32)  # outlines, marks, the wild cards' field
WHITE: RGB = (255, 255, 255)
WILD_FIELD: RGB = (34, 34, 44)
BACK_FIELD: RGB = (30, 36, 74)
BURST_OUTER: RGB = (255, 128, 20)
BURST_INNER: RGB = (255, 214, 64)
SHEET_BACKGROUND: RGB = (96, 102, 112)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved the fraction `t` of the way to `b`."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB color."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
