"""The picture of a hand: within Telegram's photo limits, small, the same on every run, and every
card readable in its own uncovered part."""

from __future__ import annotations

import math
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from bot.art import hand
from bot.art.export import card_image
from bot.art.hand import HandPicture, hand_image, hand_png, layout, rows_of
from bot.art.palette import SHEET_BACKGROUND
from core.cards import ALL_CARDS, Card, Color
from tests.art.pictures import decode


def _cards(count: int, seed: int = 5) -> list[Card]:
    deck = list(ALL_CARDS) * 2  # a hand may hold the same card twice
    return random.Random(seed).sample(deck, count)


@pytest.mark.parametrize("count", [1, 2, 7, 12, 20, 40, 108])
def test_the_picture_fits_telegrams_photo_limits(count: int) -> None:
    picture = HandPicture.of(_cards(count), top=Card.parse("wild4"), color=Color.RED)
    data = hand_png(picture)
    image = decode(data)
    width, height = image.size
    assert image.format == "PNG"
    assert max(width, height) <= hand.MAX_SIDE
    assert width + height <= 10_000 and max(width, height) / min(width, height) <= 20
    assert len(data) < 10 * 1024 * 1024
    if count <= 20:  # an ordinary hand is drawn at full size, and small in bytes
        assert layout(picture).card_height == hand.CARD_HEIGHT
        assert len(data) < 60_000


def test_the_same_bytes_on_every_run() -> None:
    picture = HandPicture.of(_cards(12), frozenset(_cards(12)[:4]), top=Card.parse("g5"))
    first = hand_png(picture)
    hand._card.cache_clear()
    assert hand_png(picture) == first
    assert hand_png(HandPicture.of(_cards(12, seed=6))) != first


def test_dimmed_cards_differ_from_playable_ones() -> None:
    cards = _cards(9)
    everything = hand_image(HandPicture.of(cards, frozenset(cards)))
    nothing = hand_image(HandPicture.of(cards, frozenset()))
    undimmed = hand_image(HandPicture.of(cards))  # no choices: nothing is dimmed
    assert ImageChops.difference(everything, undimmed).getbbox() is None
    plan = layout(HandPicture.of(cards))
    for x, y in plan.cards:
        box = (x, y, x + 10, y + plan.card_height // 2)
        bright = ImageStat.Stat(everything.crop(box).convert("L")).sum[0]
        dim = ImageStat.Stat(nothing.crop(box).convert("L")).sum[0]
        assert dim < bright * 0.75


def test_more_cards_make_a_wider_or_taller_picture() -> None:
    sizes = [layout(HandPicture.of(_cards(n))).size for n in range(1, 21)]
    for n in range(1, len(sizes)):
        before, after = sizes[n - 1], sizes[n]
        assert after[1] >= before[1], n  # never shorter
        assert after[0] * after[1] >= before[0] * before[1], n  # never smaller
    one, seven, twelve, twenty = (sizes[n - 1] for n in (1, 7, 12, 20))
    assert one[0] < seven[0] and seven[1] < twelve[1] < twenty[1]  # a row grows, then rows
    assert rows_of(12) == [6, 6] and rows_of(20) == [7, 7, 6] and rows_of(7) == [7]


@pytest.mark.parametrize("count", [5, 14, 20])
def test_every_card_shows_its_own_picture_where_it_is_uncovered(count: int) -> None:
    cards = _cards(count, seed=count)
    playable = frozenset(cards[::2])
    picture = HandPicture.of(cards, playable, top=Card.parse("wild"), color=Color.GREEN, lang="uk")
    image = hand_image(picture)
    plan = layout(picture)
    h = plan.card_height
    w = card_image(cards[0], size=h).width
    rows = {y for _, y in plan.cards}
    corner = math.ceil(h * 100 / 1550)  # the card's corner radius (bot.art.face)
    for i, (card, (x, y)) in enumerate(zip(cards, plan.cards, strict=True)):
        last_in_row = i + 1 == len(cards) or plan.cards[i + 1][1] != y
        visible = w if last_in_row else plan.cards[i + 1][0] - x
        tile = card_image(card, dimmed=card not in playable, size=h, lang="uk")
        alone = Image.new("RGB", (w, h), SHEET_BACKGROUND)
        alone.paste(tile, (0, 0), tile)
        shown = image.crop((x, y, x + visible, y + h))
        expected = alone.crop((0, 0, visible, h))
        if i and plan.cards[i - 1][1] == y:
            # The card's round corners show the card under it: compare the rest.
            for picture_ in (shown, expected):
                ImageDraw.Draw(picture_).rectangle((0, 0, corner, corner), fill=0)
                ImageDraw.Draw(picture_).rectangle((0, h - corner, corner, h), fill=0)
        assert ImageChops.difference(shown, expected).getbbox() is None, (i, card)
    assert len(rows) == len(rows_of(count))
    assert plan.top is not None and plan.pill is not None
    top = card_image(Card.parse("wild"), size=h)
    alone = Image.new("RGB", top.size, SHEET_BACKGROUND)
    alone.paste(top, (0, 0), top)
    tx, ty = plan.top
    shown = image.crop((tx, ty, tx + top.width, ty + h))
    assert ImageChops.difference(shown, alone).getbbox() is None
    # The color in play: its own color around the pill's white middle.
    left, top_y, _, bottom = plan.pill
    edge = image.getpixel((left + (bottom - top_y) // 2, top_y + 4))
    assert edge == (26, 156, 72)


def test_no_top_card_no_room_for_it() -> None:
    cards = _cards(6)
    alone = layout(HandPicture.of(cards))
    beside = layout(HandPicture.of(cards, top=Card.parse("b3")))
    assert alone.top is None and beside.top is not None and beside.pill is None
    assert beside.size[0] > alone.size[0] and beside.size[1] == alone.size[1]


def test_an_empty_hand_shows_the_back_of_a_card() -> None:
    plan = layout(HandPicture.of([]))
    assert plan.cards == () and plan.back is not None
    back = card_image(None, dimmed=True, size=plan.card_height)
    alone = Image.new("RGB", back.size, SHEET_BACKGROUND)
    alone.paste(back, (0, 0), back)
    x, y = plan.back
    shown = hand_image(HandPicture.of([])).crop((x, y, x + back.width, y + back.height))
    assert ImageChops.difference(shown, alone).getbbox() is None
    assert layout(HandPicture.of(_cards(1))).size == plan.size


def test_one_flag_per_card() -> None:
    with pytest.raises(ValueError):
        HandPicture((Card.parse("r1"),), ())
