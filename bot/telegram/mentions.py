"""A rendered text's marked names as Telegram mentions that notify their people.

Telegram notifies a user named by a `text_mention` entity when the message is sent. The bot's
messages are plain text (no parse mode), so an entity rather than an HTML link: no text around
the names has to be escaped, and a name stays exactly as its owner typed it. Entity offsets and
lengths count UTF-16 code units, as Telegram does, not Python characters.
"""

from __future__ import annotations

from aiogram.types import MessageEntity, User

from bot.presentation.mentions import Marked
from bot.telegram.sender import Mentioning


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def mentioning(marked: Marked) -> str | Mentioning:
    """`marked.text`, with a `text_mention` over each marked name of a Telegram user."""
    entities = []
    for m in marked.mentions:
        if not m.player.isdigit():  # not a Telegram user (computer players are never marked)
            continue
        label = marked.text[m.start : m.end]
        entities.append(
            MessageEntity(
                type="text_mention",
                offset=utf16_len(marked.text[: m.start]),
                length=utf16_len(label),
                user=User(id=int(m.player), is_bot=False, first_name=label),
            )
        )
    return Mentioning(marked.text, tuple(entities)) if entities else marked.text
