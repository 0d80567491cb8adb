"""The table's banner: a wide strip within Telegram's photo limits, small, the same on every run,
showing the top card as the card art draws it, the color in play (a wild's with its shape and
letter, not the color alone) and which way play goes."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.art import face, table
from bot.art.export import card_image
from bot.art.hand import card_tile
from bot.art.palette import CARD_COLORS, SHEET_BACKGROUND, mix
from bot.art.table import ARROW_SIZE, HEIGHT, WIDTH, TablePicture, layout, table_image, table_png
from core.cards import ALL_CARDS, COLORS, Card, Color
from tests.art.pictures import decode

WILD = Card.parse("wild")


def _all_banners() -> list[TablePicture]:
    out = []
    for card in ALL_CARDS:
        for color in COLORS if card.is_wild else (None,):
            out.append(TablePicture.of(card, color, 1))
    return out


def test_every_banner_is_a_small_wide_strip() -> None:
    sizes = set()
    for picture in _all_banners():
        data = table_png(picture)
        image = decode(data)
        sizes.add(image.size)
        assert image.format == "PNG" and image.mode == "P"  # 256 colors
        assert len(data) < 16_000, picture
    assert sizes == {(WIDTH, HEIGHT)} and WIDTH == 3 * HEIGHT


def test_the_same_bytes_on_every_run_and_one_banner_per_picture() -> None:
    picture = TablePicture.of(Card.parse("wild4"), Color.BLUE, -1, "uk")
    first = table_png(picture)
    card_tile.cache_clear()
    face.render.cache_clear()
    assert table_png(picture) == first
    banners = {table_png(p) for p in _all_banners()}
    assert len(banners) == len(_all_banners())  # every top card and color its own banner


def test_a_colored_cards_color_is_its_own() -> None:
    r7 = Card.parse("r7")
    assert TablePicture.of(r7, None, 1) == TablePicture.of(r7, Color.RED, 5)
    assert TablePicture.of(r7, None, -3).direction == -1
    assert TablePicture.of(WILD, Color.GREEN, 1).color is Color.GREEN


@pytest.mark.parametrize("text", ["r7", "gskip", "wild4", "creeper"])
def test_the_top_card_is_the_card_art(text: str) -> None:
    card = Card.parse(text)
    picture = TablePicture.of(card, Color.YELLOW, 1, "uk")
    image = table_image(picture)
    tile = card_image(card, size=table.CARD_HEIGHT, lang="uk")
    alone = Image.new("RGB", tile.size, table.background(picture.color))
    alone.paste(tile, (0, 0), tile)
    x, y = layout(picture).top
    shown = image.crop((x, y, x + tile.width, y + tile.height))
    assert ImageChops.difference(shown, alone).getbbox() is None


def test_the_background_is_the_color_in_play() -> None:
    for color in COLORS:
        image = table_image(TablePicture.of(WILD, color, 1))
        assert image.getpixel((WIDTH - 2, 2)) == mix(SHEET_BACKGROUND, CARD_COLORS[color], 0.4)
    assert table_image(TablePicture.of(WILD, None, 1)).getpixel((WIDTH - 2, 2)) == SHEET_BACKGROUND


def test_a_wilds_color_carries_its_shape_and_letter() -> None:
    """The pill of each color: its color at the rim, and in the white middle marks that differ
    from every other color's once the colors are taken away (grey)."""
    middles = {}
    for color in COLORS:
        picture = TablePicture.of(WILD, color, 1)
        pill = layout(picture).pill
        assert pill is not None
        left, top, right, bottom = pill
        image = table_image(picture)
        assert image.getpixel((left + (bottom - top) // 2, top + 4)) == CARD_COLORS[color]
        inner = (left + 16, top + 16, right - 16, bottom - 16)
        grey = image.crop(inner).convert("L")
        assert ImageStat.Stat(grey).extrema[0][0] < 60  # dark ink on white
        middles[color] = grey
    for a in COLORS:
        for b in COLORS:
            if a is not b:
                assert ImageChops.difference(middles[a], middles[b]).getbbox() is not None
    assert layout(TablePicture.of(Card.parse("g5"), None, 1)).pill is None
    assert layout(TablePicture.of(WILD, None, 1)).pill is None  # no color chosen yet


def _white_mass(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    grey = image.crop(box).convert("L").point(lambda v: 255 if v > 230 else 0)
    return float(ImageStat.Stat(grey).sum[0])


@pytest.mark.parametrize("card", ["b2", "wild"])
def test_the_arrow_shows_the_direction(card: str) -> None:
    clockwise = TablePicture.of(Card.parse(card), Color.BLUE, 1)
    counter = TablePicture.of(Card.parse(card), Color.BLUE, -1)
    x, y = layout(clockwise).arrow
    assert layout(counter).arrow == (x, y)
    half = ARROW_SIZE // 2
    lower_left = (x, y + half, x + half, y + ARROW_SIZE)
    lower_right = (x + half, y + half, x + ARROW_SIZE, y + ARROW_SIZE)
    # The arrow's head ends a clockwise turn at the lower right, a counterclockwise one at the
    # lower left; everything else is the same picture.
    cw, ccw = table_image(clockwise), table_image(counter)
    assert _white_mass(cw, lower_right) > 1.2 * _white_mass(cw, lower_left)
    assert _white_mass(ccw, lower_left) > 1.2 * _white_mass(ccw, lower_right)
    diff = ImageChops.difference(cw, ccw).getbbox()
    assert diff is not None
    assert x <= diff[0] and diff[2] <= x + ARROW_SIZE
