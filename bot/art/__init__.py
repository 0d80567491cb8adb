"""Our own card art, drawn by code with Pillow: every face, a dimmed variant, the back.

The functions take a `core.cards.Card` and give PNG bytes: `sticker_png` for Telegram stickers,
`emoji_png` for Discord emoji, `card_png` at any height, `back_png`, `contact_sheet_png`;
`picture_name` names a picture (a file, a Discord emoji). A colored card carries its color's
letter, which comes from the locale and differs between languages for red, so the faces take a
`lang` (the back and the wild cards are the same in every language).
"""

from bot.art.export import (
    EMOJI_SIZE,
    STICKER_SIZE,
    back_png,
    card_image,
    card_png,
    contact_sheet_image,
    contact_sheet_png,
    emoji_image,
    emoji_png,
    picture_name,
    sticker_png,
)

__all__ = [
    "EMOJI_SIZE",
    "STICKER_SIZE",
    "back_png",
    "card_image",
    "card_png",
    "contact_sheet_image",
    "contact_sheet_png",
    "emoji_image",
    "emoji_png",
    "picture_name",
    "sticker_png",
]
