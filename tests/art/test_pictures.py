"""Every card's picture: its own, of the size each platform takes, dimmed visibly, repeatable."""

from __future__ import annotations

import hashlib
import io
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.art import (
    EMOJI_SIZE,
    STICKER_SIZE,
    card_png,
    emoji_png,
    face,
    picture_name,
    sticker_png,
)
from bot.art.palette import CARD_COLORS, INK, WHITE, contrast
from bot.presentation.i18n import LANGS
from core.cards import ALL_CARDS, Card
from tests.art.pictures import FACES, decode, emojis, stickers

ROOT = Path(__file__).resolve().parents[2]
DISCORD_EMOJI_LIMIT = 256 * 1024


@pytest.mark.parametrize("lang", LANGS)
def test_every_sticker_is_its_own_picture_of_telegram_size(lang: str) -> None:
    pictures = stickers(lang)
    assert len(pictures) == 2 * len(ALL_CARDS) + 1
    assert len(set(pictures.values())) == len(pictures), "two pictures are the same"
    for (card, dimmed), data in pictures.items():
        image = decode(data)
        assert image.format == "PNG", card
        assert image.mode == "RGBA", card
        # Telegram's static sticker: one side exactly 512, the other at most 512.
        assert max(image.size) == STICKER_SIZE, (card, dimmed, image.size)
        assert image.height == STICKER_SIZE and image.width < STICKER_SIZE
        # Rounded corners: transparent at the very corner, opaque in the middle.
        assert image.getpixel((0, 0))[3] == 0
        assert image.getpixel((image.width // 2, image.height // 2))[3] == 255
        assert len(data) < 512 * 1024  # Telegram's limit for a static sticker file


@pytest.mark.parametrize("lang", LANGS)
def test_every_emoji_is_its_own_square_within_discords_limit(lang: str) -> None:
    pictures = emojis(lang)
    assert len(set(pictures.values())) == len(ALL_CARDS)
    for card, data in pictures.items():
        assert len(data) <= DISCORD_EMOJI_LIMIT, card
        image = decode(data)
        assert image.size == (EMOJI_SIZE, EMOJI_SIZE), card
        assert image.mode == "RGBA"
        # The card fills the height, centered; the sides of the square are transparent.
        assert image.getpixel((0, EMOJI_SIZE // 2))[3] == 0
        assert image.getpixel((EMOJI_SIZE // 2, EMOJI_SIZE // 2))[3] == 255
        bbox = image.getchannel("A").getbbox()
        assert bbox is not None and bbox[1] == 0 and bbox[3] == EMOJI_SIZE
        assert abs(bbox[0] - (EMOJI_SIZE - bbox[2])) <= 1, "not centered"


def _light_and_chroma(data: bytes) -> tuple[float, float]:
    """Mean luma and chroma (the largest channel minus the smallest), 0-255, where opaque."""
    image = decode(data)
    opaque = image.getchannel("A").point(lambda a: 255 if a == 255 else 0)
    r, g, b = image.convert("RGB").split()
    chroma = ImageChops.difference(
        ImageChops.lighter(ImageChops.lighter(r, g), b),
        ImageChops.darker(ImageChops.darker(r, g), b),
    )
    luma = image.convert("L")
    return ImageStat.Stat(luma, mask=opaque).mean[0], ImageStat.Stat(chroma, mask=opaque).mean[0]


def test_dimmed_cards_are_darker_and_greyer_by_a_measured_amount() -> None:
    pictures = stickers(LANGS[0])
    for card in ALL_CARDS:
        normal, dimmed = pictures[card, False], pictures[card, True]
        assert normal != dimmed
        light, chroma = _light_and_chroma(normal)
        dim_light, dim_chroma = _light_and_chroma(dimmed)
        assert dim_light <= 0.55 * light, (card, light, dim_light)
        assert dim_chroma <= 0.15 * chroma, (card, chroma, dim_chroma)
        # Still a picture of the card: the same shapes, only fainter.
        assert decode(dimmed).getchannel("A").tobytes() == decode(normal).getchannel("A").tobytes()


def test_symbols_stand_out_on_every_color() -> None:
    # The white symbol has a dark outline: on every field one of the two stands out clearly
    # (white on blue, the outline on yellow), and the two from each other.
    assert contrast(WHITE, INK) >= 15
    for color, field in CARD_COLORS.items():
        assert max(contrast(WHITE, field), contrast(INK, field)) >= 4.5, color
        assert min(contrast(WHITE, field), contrast(INK, field)) >= 1.5, color


def test_the_central_symbol_is_white_outlined_in_ink_at_emoji_size() -> None:
    # At 128 px the number still covers a good part of the card, in white and in ink.
    yellow_five = Card.parse("y5")
    image = decode(emoji_png(yellow_five)).convert("RGB")
    left = (EMOJI_SIZE - face.card_size(EMOJI_SIZE)[0]) // 2
    w = face.card_size(EMOJI_SIZE)[0]
    middle = image.crop((left + w // 4, EMOJI_SIZE // 3, left + 3 * w // 4, 2 * EMOJI_SIZE // 3))
    r, g, b = middle.split()
    lowest = ImageChops.darker(ImageChops.darker(r, g), b).histogram()
    highest = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    area = middle.width * middle.height
    assert sum(lowest[226:]) > 0.15 * area  # white
    assert sum(highest[:70]) > 0.1 * area  # ink


def _chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, pos = [], 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        out.append(data[pos + 4 : pos + 8])
        pos += 12 + length
    return out


def test_pngs_carry_no_metadata() -> None:
    for data in (sticker_png(Card.parse("g3")), emoji_png(Card.parse("wild"))):
        assert set(_chunks(data)) <= {b"IHDR", b"IDAT", b"IEND"}


def test_the_same_bytes_on_every_render() -> None:
    card = Card.parse("b+2")
    first = sticker_png(card), card_png(card, dimmed=True, size=300), emoji_png(card)
    face._render_master.cache_clear()
    face.render.cache_clear()
    again = sticker_png(card), card_png(card, dimmed=True, size=300), emoji_png(card)
    assert first == again


_HASH_SCRIPT = """
import hashlib
import re
from bot.art import back_png, emoji_png, sticker_png
from core.cards import Card
for text in ("r7", "y+2", "wild4", "creeper"):
    card = Card.parse(text)
    for data in (sticker_png(card), sticker_png(card, dimmed=True, lang="uk"), emoji_png(card)):
        print(hashlib.sha256(data).hexdigest())
print(hashlib.sha256(back_png()).hexdigest())
"""


def test_the_same_bytes_in_another_process() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _HASH_SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    here = []
    for text in ("r7", "y+2", "wild4", "creeper"):
        card = Card.parse(text)
        for data in (sticker_png(card), sticker_png(card, dimmed=True, lang="uk"), emoji_png(card)):
            here.append(hashlib.sha256(data).hexdigest())
    here.append(hashlib.sha256(stickers(LANGS[0])[None, False]).hexdigest())
    assert done.stdout.split() == here


def test_wild_cards_and_the_back_are_the_same_in_every_language() -> None:
    ru, uk = stickers("ru"), stickers("uk")
    for card in FACES:
        if card is None or card.color is None:
            assert ru[card, False] == uk[card, False], card


def test_picture_names_are_distinct_file_and_discord_emoji_names() -> None:
    names = [picture_name(card, dimmed) for card in FACES for dimmed in (False, True)]
    assert len(set(names)) == len(names)
    for name in names:
        assert re.fullmatch(r"[A-Za-z0-9_]{2,32}", name), name


def test_any_height() -> None:
    image = Image.open(io.BytesIO(card_png(Card.parse("r0"), size=200)))
    assert image.size == face.card_size(200) == (129, 200)
