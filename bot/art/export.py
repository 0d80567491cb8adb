"""Card pictures as PNG bytes at the sizes the platforms want, and the contact sheet.

Telegram's static stickers are PNG with one side exactly 512 px and the other at most 512, so a
sticker is the card 512 px high. Discord's emoji are at most 256 KiB and shown from a square
128 px picture, so an emoji is the card 128 px high, centered on a transparent square.

The bytes are the same on every run: nothing in a PNG depends on the time or the machine (no
metadata chunks, a fixed compression level), so a sticker set or an emoji upload can be kept up
to date by comparing hashes.
"""

from __future__ import annotations

import io

from PIL import Image

from bot.art import face
from bot.art.palette import SHEET_BACKGROUND
from bot.presentation.i18n import DEFAULT_LANG
from core.cards import ALL_CARDS, COLORS, Card

STICKER_SIZE = 512
EMOJI_SIZE = 128
SHEET_CARD_HEIGHT = 176

# A dimmed card (one that cannot be played now): this much of its color kept, then darkened to
# this fraction of its brightness. Clearly apart from the playable ones, still readable.
DIM_SATURATION = 0.2
DIM_BRIGHTNESS = 0.5


def picture_name(card: Card | None, dimmed: bool = False) -> str:
    """A name for a card's picture: `r7`, `yplus2`, `wild4`, `back`, `r7_dimmed`.

    Letters, digits and `_` only, at most 32 characters: a file name anywhere, and a valid
    Discord emoji name.
    """
    name = "back" if card is None else card.text.replace("+", "plus")
    return f"{name}_dimmed" if dimmed else name


def card_image(
    card: Card | None, *, dimmed: bool = False, size: int = STICKER_SIZE, lang: str = DEFAULT_LANG
) -> Image.Image:
    """The card (None: the back) `size` pixels high, RGBA with transparent corners."""
    image = face.render(card, size, lang)
    return dim(image) if dimmed else image.copy()


def dim(image: Image.Image) -> Image.Image:
    """Greyed and darkened, the transparency kept."""
    alpha = image.getchannel("A")
    rgb = image.convert("RGB")
    grey = rgb.convert("L").convert("RGB")
    faded = Image.blend(grey, rgb, DIM_SATURATION)
    darker = Image.eval(faded, lambda v: round(v * DIM_BRIGHTNESS))
    out = darker.convert("RGBA")
    out.putalpha(alpha)
    return out


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    # A fresh image carries no `info`, so nothing but the pixels is written.
    image.save(buffer, format="PNG", compress_level=6, optimize=False)
    return buffer.getvalue()


def card_png(
    card: Card, *, dimmed: bool = False, size: int = STICKER_SIZE, lang: str = DEFAULT_LANG
) -> bytes:
    """A card face `size` pixels high (its long side) as PNG."""
    return png_bytes(card_image(card, dimmed=dimmed, size=size, lang=lang))


def sticker_png(card: Card, dimmed: bool = False, lang: str = DEFAULT_LANG) -> bytes:
    """A card as a Telegram static sticker: 512 px high, narrower than that."""
    return card_png(card, dimmed=dimmed, size=STICKER_SIZE, lang=lang)


def back_png(size: int = STICKER_SIZE) -> bytes:
    """The back of a card (the same in every language)."""
    return png_bytes(card_image(None, size=size))


def emoji_image(
    card: Card | None, *, dimmed: bool = False, lang: str = DEFAULT_LANG
) -> Image.Image:
    picture = card_image(card, dimmed=dimmed, size=EMOJI_SIZE, lang=lang)
    square = Image.new("RGBA", (EMOJI_SIZE, EMOJI_SIZE), (0, 0, 0, 0))
    square.paste(picture, ((EMOJI_SIZE - picture.width) // 2, 0))
    return square


def emoji_png(card: Card | None, *, dimmed: bool = False, lang: str = DEFAULT_LANG) -> bytes:
    """A card as a Discord emoji: a 128 x 128 PNG, the card centered on transparency."""
    return png_bytes(emoji_image(card, dimmed=dimmed, lang=lang))


# The contact sheet's last row after the wild cards and the back: some cards dimmed.
_SHEET_DIMMED = ("r7", "y7", "g7", "b7", "rskip", "wild4")

Cell = tuple[Card | None, bool] | None  # a card (None: the back) and whether dimmed; None: empty


def contact_sheet_image(lang: str = DEFAULT_LANG) -> Image.Image:
    """Every face by color, then the wild cards and the back, then a few dimmed cards."""
    rows: list[list[Cell]] = [
        [(c, False) for c in ALL_CARDS if c.color is color] for color in COLORS
    ]
    last: list[Cell] = [(c, False) for c in ALL_CARDS if c.is_wild]
    last += [(None, False), None]
    last += [(Card.parse(text), True) for text in _SHEET_DIMMED]
    rows.append(last)

    width, height = face.card_size(SHEET_CARD_HEIGHT)
    pad = 14
    columns = max(len(row) for row in rows)
    size = (pad + columns * (width + pad), pad + len(rows) * (height + pad))
    sheet = Image.new("RGB", size, SHEET_BACKGROUND)
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell is not None:
                card, dimmed = cell
                picture = card_image(card, dimmed=dimmed, size=SHEET_CARD_HEIGHT, lang=lang)
                sheet.paste(picture, (pad + x * (width + pad), pad + y * (height + pad)), picture)
    return sheet


def contact_sheet_png(lang: str = DEFAULT_LANG) -> bytes:
    """The contact sheet in 256 colors: a preview, small enough to keep in the repository."""
    sheet = contact_sheet_image(lang)
    return png_bytes(sheet.quantize(256, method=Image.Quantize.FASTOCTREE))
