"""The group's table as a photo: the banner of `bot.art.table` with the table's text as caption.

The table message is kept up to date by the sender (`bot.telegram.sender`) as any photo: one
`editMessageMedia` per update, the banner uploaded once per process and then sent by its file id
(the banner depends only on what it shows, see `bot.art.table`), so a move costs the group the
call a text table costs. The lobby stays text; the table is a new message when the game starts,
sent as a photo from the first deal.

Text instead, as before: when the chat turned the banner off in /settings
(`ChatSettings.table_picture`), when the text does not fit a caption (1024 characters), and when
Telegram refuses the photo (the sender falls back to text for that chat). A table that was a
photo and must be text goes out as a new message (a photo never becomes text again).
"""

from __future__ import annotations

from functools import partial

from bot.art.table import TablePicture, table_png
from bot.service.views import TableView
from bot.telegram.pictures import Photo, fits_caption

SETTING = "table_picture"  # the chat's setting (ChatSettings.table_picture), on by default


def table_content(view: TableView, text: str, *, wanted: bool) -> str | Photo:
    """A dealt table's content: the banner with `text` as its caption, or `text` alone."""
    if not wanted or view.top is None or not fits_caption(text):
        return text
    picture = TablePicture.of(view.top, view.color, view.direction, view.lang)
    return Photo(text, picture, partial(table_png, picture), picture.name)
