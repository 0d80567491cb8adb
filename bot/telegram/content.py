"""What a message shows: its text (or picture) and its inline keyboard.

Both are compared as values, so that an update equal to what a message already shows is not
sent (Telegram refuses an edit that changes nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from aiogram.types import MessageEntity

from bot.telegram.pictures import Photo


class Keyboard(str):
    """An inline keyboard, already the JSON Telegram takes as `reply_markup`.

    Built once per message state (bot.telegram.keyboards) and compared as a string; it is set on
    the method after validation, so it reaches the request as it is.
    """


@dataclass(frozen=True)
class Mentioning:
    """A text with entities (`text_mention`s, see bot.telegram.mentions), compared as a whole:
    the same words mentioning someone else are another content."""

    text: str
    entities: tuple[MessageEntity, ...]


Content = tuple[str | Mentioning | Photo, Keyboard | None]
Render = Callable[[], Content]
