"""Photo messages: a picture with a caption, and the file ids of pictures already uploaded.

A `Photo` is a message's content (in place of a text) for `bot.telegram.sender`: the caption,
the picture as a hashable value (equal pictures are equal, so an update that shows the same
picture and caption again is not sent) and how to draw its bytes, which happens only when it
has to be uploaded. Telegram answers an upload with the photo's `file_id`; `Pictures` keeps
those, so showing a picture a second time (a hand that went back to what it was, the same hand
after a restart of its message) sends the id and no bytes.

What Telegram allows, and what the sender does with it:

- a caption holds at most 1024 characters (UTF-16 code units, as Telegram counts them): a
  longer text cannot be a photo's caption, and its message stays (or becomes) text;
- `editMessageMedia` edits a photo, its caption and its keyboard in one call, and (Bot API 9)
  also turns a text message into a photo; a photo message never becomes text again
  (`editMessageText` is refused with "there is no text in the message to edit"), so that takes
  a new message and the old one deleted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import partial

from aiogram.types import BufferedInputFile, Message
from cachetools import LRUCache

from bot.art.hand import HandPicture, hand_png
from bot.service.views import HandView
from core.actions import ActionType

CAPTION_LIMIT = 1024
FILE_IDS = 4096  # pictures whose file ids are remembered (a hand's picture is one of them)
PICTURES = "pictures"  # a person's own switch: their hand as a picture (on unless turned off)
# From this many cards a hand is shown as a picture: the seven dealt cards read well as one line
# of text under the buttons, a longer hand wraps and is read faster as a picture.
PICTURE_FROM = 8


def utf16_length(text: str) -> int:
    """Telegram counts a message's length in UTF-16 code units (an emoji is often two)."""
    return len(text.encode("utf-16-le")) // 2


def fits_caption(text: str) -> bool:
    return utf16_length(text) <= CAPTION_LIMIT


@dataclass(frozen=True)
class Photo:
    """A message's content as a photo with a caption.

    `prefer_text`: a picture that is welcome but not needed (a small hand). It is kept on a
    message that already shows a picture (changing a photo back to text would cost a new message
    and a deletion), while a new message, or one that shows text, shows `caption` as its text.
    """

    caption: str
    picture: Hashable
    draw: Callable[[], bytes] = field(compare=False, repr=False)
    filename: str = field(default="picture.png", compare=False)
    prefer_text: bool = False

    def __post_init__(self) -> None:
        if not fits_caption(self.caption):
            raise ValueError("a caption holds at most 1024 characters: show it as text")


class Pictures:
    """The file ids of pictures uploaded by this process, the most recently used kept."""

    def __init__(self, size: int = FILE_IDS) -> None:
        self._ids: LRUCache[Hashable, str] = LRUCache(size)

    async def media(self, photo: Photo) -> str | BufferedInputFile:
        """What to send for the picture: its file id, or its bytes (drawn off the event loop:
        a hand's picture takes milliseconds to draw and encode)."""
        file_id = self._ids.get(photo.picture)
        if file_id is not None:
            return file_id
        data = await asyncio.to_thread(photo.draw)
        return BufferedInputFile(data, filename=photo.filename)

    def remember(self, photo: Photo, result: object) -> None:
        """Keep the file id Telegram gave the picture (the largest size is the original)."""
        if isinstance(result, Message) and result.photo:
            self._ids[photo.picture] = result.photo[-1].file_id

    def forget(self, photo: Photo) -> None:
        """Telegram refused the file id: upload the bytes next time."""
        self._ids.pop(photo.picture, None)

    def known(self, photo: Photo) -> bool:
        return photo.picture in self._ids


def hand_content(
    view: HandView, text: str, *, wanted: bool, picture_from: int = PICTURE_FROM
) -> str | Photo:
    """A private hand's content: its picture with `text` as the caption, or `text` alone.

    Text when the person turned pictures off (`wanted`) or when the text would not fit a
    caption. Below `picture_from` cards the picture is only kept on a
    message that shows one already (`Photo.prefer_text`): a hand that shrinks is not moved to a
    new message for it, and its next new message (a turn beginning) is text.

    The picture follows the text's rule for a waiting hand (`HandView.waiting`): no top card,
    nothing dimmed, so nothing in it goes stale while the player waits. A hand that can act
    shows the top card (and the color a wild chose) and dims the cards it cannot play now.
    """
    if not wanted or not fits_caption(text):
        return text
    acting = view.status == "running" and not view.waiting
    playable = None
    if acting and view.choices:
        playable = frozenset(
            c.action.card
            for c in view.choices
            if c.action.type is ActionType.PLAY and c.action.card is not None
        )
    top = view.top if acting else None
    color = view.color if top is not None else None
    picture = HandPicture.of(view.cards, playable, top=top, color=color, lang=view.lang)
    return Photo(
        text,
        picture,
        partial(hand_png, picture),
        picture.name,
        prefer_text=len(view.cards) < picture_from,
    )
