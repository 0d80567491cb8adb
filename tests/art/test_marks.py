"""The color-blind marks: every colored card shows its color's shape and letter (from the
locale), drawn as shapes, in the pixels of the mark's region; never the color alone."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops

from bot.art import EMOJI_SIZE, STICKER_SIZE, face
from bot.presentation.i18n import LANGS, get_i18n
from core.cards import ALL_CARDS, COLORS, Color
from tests.art.pictures import decode, emojis, stickers

# What each shape of the texts (message color-<name>-shape) looks like as pixels.
SHAPE_NAMES = {
    "\N{BLACK UP-POINTING TRIANGLE}": "triangle",
    "\N{BLACK CIRCLE}": "circle",
    "\N{BLACK SQUARE}": "square",
    "\N{BLACK DIAMOND}": "diamond",
}


def _ink(image: Image.Image, box: face.Box, height: int = STICKER_SIZE) -> Image.Image:
    """The dark pixels of `box` as a 0/255 mask (threshold halfway between its extremes)."""
    grey = image.convert("L").crop(box.pixels(height))
    low, high = grey.getextrema()
    assert high - low > 60, "no contrast in the mark's region"
    middle = (low + high) // 2
    return grey.point(lambda v: 255 if v < middle else 0)


def _count(mask: Image.Image) -> int:
    return mask.histogram()[255]


def _classify(mask: Image.Image) -> str:
    """triangle, circle, square or diamond: by how much of its bounding box the ink fills,
    and where its widest row is."""
    bbox = mask.getbbox()
    assert bbox is not None, "no ink"
    shape = mask.crop(bbox)
    fill = _count(shape) / (shape.width * shape.height)
    if fill > 0.9:
        return "square"
    if 0.7 < fill < 0.86:
        return "circle"
    assert 0.4 < fill < 0.62, f"no shape fills {fill:.2f} of its box"
    widths = [_count(shape.crop((0, y, shape.width, y + 1))) for y in range(shape.height)]
    widest = max(range(shape.height), key=lambda y: (widths[y], -y))
    if widest > 0.75 * shape.height:
        return "triangle"
    assert 0.3 * shape.height < widest < 0.7 * shape.height, "widest row neither low nor middle"
    return "diamond"


def _overlap(a: Image.Image, b: Image.Image) -> float:
    """Intersection over union of two masks of the same size."""
    both = _count(ImageChops.darker(a, b))
    either = _count(ImageChops.lighter(a, b))
    return both / either


def _expected_shape(color: Color, lang: str) -> str:
    return SHAPE_NAMES[get_i18n().t(lang, f"color-{color.name.lower()}-shape")]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("dimmed", [False, True])
def test_every_colored_card_shows_its_colors_shape(lang: str, dimmed: bool) -> None:
    pictures = stickers(lang)
    for card in ALL_CARDS:
        if card.color is None:
            continue
        image = decode(pictures[card, dimmed])
        assert _classify(_ink(image, face.MARK_SHAPE)) == _expected_shape(card.color, lang), card


@pytest.mark.parametrize("lang", LANGS)
def test_the_shape_still_reads_on_a_128_px_emoji(lang: str) -> None:
    width = face.card_size(EMOJI_SIZE)[0]
    left = (EMOJI_SIZE - width) // 2
    for card, data in emojis(lang).items():
        if card.color is None:
            continue
        picture = decode(data).crop((left, 0, left + width, EMOJI_SIZE))
        mark = _ink(picture, face.MARK_SHAPE, EMOJI_SIZE)
        assert _classify(mark) == _expected_shape(card.color, lang), card


def test_the_four_marks_differ_in_shape_not_only_in_color() -> None:
    pictures = stickers(LANGS[0])
    for color in COLORS:
        cards = [c for c in ALL_CARDS if c.color is color]
        masks = [_ink(decode(pictures[c, False]), face.MARK_SHAPE) for c in cards]
        # The same mark on every card of the color.
        assert all(m.tobytes() == masks[0].tobytes() for m in masks), color
    # In greyscale (as a viewer who cannot tell the colors apart sees them): four shapes.
    firsts = [
        _ink(
            decode(pictures[next(c for c in ALL_CARDS if c.color is color), False]), face.MARK_SHAPE
        )
        for color in COLORS
    ]
    assert len({_classify(m) for m in firsts}) == len(COLORS)
    for a, b in itertools.combinations(firsts, 2):
        assert _overlap(a, b) < 0.9


def _letter_masks(lang: str) -> dict[Color, Image.Image]:
    pictures = stickers(lang)
    return {
        color: _ink(
            decode(pictures[next(c for c in ALL_CARDS if c.color is color), False]),
            face.MARK_LETTER,
        )
        for color in COLORS
    }


def test_every_colored_card_shows_its_colors_letter_from_the_locale() -> None:
    masks = {lang: _letter_masks(lang) for lang in LANGS}
    letters = {
        (lang, color): get_i18n().t(lang, f"color-{color.name.lower()}-letter")
        for lang in LANGS
        for color in COLORS
    }
    for (lang_a, color_a), (lang_b, color_b) in itertools.combinations(letters, 2):
        a, b = masks[lang_a][color_a], masks[lang_b][color_b]
        area = a.width * a.height
        assert 0.1 * area < _count(a) < 0.8 * area, "a letter is strokes, not a blot"
        if letters[lang_a, color_a] == letters[lang_b, color_b]:
            assert a.tobytes() == b.tobytes(), (lang_a, color_a, lang_b, color_b)
        else:
            assert _overlap(a, b) < 0.75, (lang_a, color_a, lang_b, color_b)
    # Red's letter is not the same word in Russian and Ukrainian, and the cards follow.
    assert letters["ru", Color.RED] != letters["uk", Color.RED]
    assert masks["ru"][Color.RED].tobytes() != masks["uk"][Color.RED].tobytes()


def test_every_locale_letter_has_a_drawing() -> None:
    for lang in LANGS:
        for color in COLORS:
            assert face.letter_glyph(color, lang)


def test_the_bottom_corner_repeats_the_mark_upside_down() -> None:
    top = face.MARK_SHAPE
    bottom = face.Box(
        face.CARD_W - top.right,
        face.CARD_H - top.bottom,
        face.CARD_W - top.left,
        face.CARD_H - top.top,
    )
    for card in ALL_CARDS:
        if card.color is None or card.number not in (0, 8):
            continue
        image = decode(stickers(LANGS[0])[card, False])
        upper = _ink(image, top)
        lower = _ink(image, bottom).rotate(180)
        assert _classify(lower) == _classify(upper)
        assert _overlap(upper, lower) > 0.8, (card, _overlap(upper, lower))
