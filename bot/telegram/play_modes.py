"""Where a Telegram chat plays its hands: in the private chat, in the group (inline mode), or both.

The chat's `/settings` choose (`ChatSettings.play_mode`); `both` is the default, so a chat that
never chose keeps its private hands exactly as before and also gets the table's "play here"
button. Inline play needs inline mode switched on for the bot at @BotFather (getMe tells): until
it is, every chat plays in the private chat whatever it chose, since a "play here" button would
open nothing.
"""

from __future__ import annotations

import json
from typing import Protocol

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.presentation.render import Renderer
from bot.service.chat_settings import PLAY_MODES, ChatSettings
from bot.telegram.sender import Keyboard

BOTH, PRIVATE, GROUP = PLAY_MODES


class SettingsSource(Protocol):
    async def settings(self, chat_key: str) -> ChatSettings: ...


class PlayModes:
    """The play mode in force in a chat (the chat's choice, if the bot can play inline)."""

    def __init__(self, settings: SettingsSource, *, inline: bool = False) -> None:
        self.settings = settings
        self.inline = inline  # getMe's supports_inline_queries

    async def of(self, chat_key: str, settings: ChatSettings | None = None) -> str:
        """The mode in force; `settings`: the chat's, if known (an outcome carries them)."""
        if not self.inline:
            return PRIVATE
        if settings is None:
            settings = await self.settings.settings(chat_key)
        return settings.play_mode

    @staticmethod
    def private_hands(mode: str) -> bool:
        """Whether hands are sent to the players' private chats."""
        return mode != GROUP


def query_of(game_id: int) -> str:
    """The inline query that names a game (`g<id>`, as the deep link does)."""
    return f"g{game_id}"


def play_here(r: Renderer, lang: str, game_id: int) -> dict[str, str]:
    """A button that opens inline mode in this chat with the game's query."""
    return {
        "text": r.t(lang, "inline-btn-play-here"),
        "switch_inline_query_current_chat": query_of(game_id),
    }


def table_markup(
    r: Renderer, lang: str, game_id: int, link: str, mode: str, web: str | None = None
) -> Keyboard:
    """The running table's buttons: "my cards" (the private chat), "play here" (inline), and
    with `web` (the Mini App's link, `bot.telegram.web_table`) the web table, on a row of its
    own."""
    row = []
    if mode != GROUP:
        row.append({"text": r.t(lang, "btn-my-cards"), "url": link})
    if mode != PRIVATE:
        row.append(play_here(r, lang, game_id))
    rows = [row] if web is None else [row, [{"text": r.t(lang, "web-open-table"), "url": web}]]
    return Keyboard(
        json.dumps({"inline_keyboard": rows}, ensure_ascii=False, separators=(",", ":"))
    )


def play_here_markup(r: Renderer, lang: str, game_id: int, label: str | None = None) -> Keyboard:
    """One "play here" button, under a card played from the group (`label`: a refusal)."""
    button = play_here(r, lang, game_id)
    if label is not None:
        button["text"] = label
    return Keyboard(
        json.dumps({"inline_keyboard": [[button]]}, ensure_ascii=False, separators=(",", ":"))
    )


def result_markup(r: Renderer, lang: str, game_id: int) -> InlineKeyboardMarkup:
    """The keyboard every inline result carries: Telegram reports a chosen result's
    `inline_message_id` (so the bot can edit it) only for a message with a keyboard."""
    button = play_here(r, lang, game_id)
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=button["text"],
                    switch_inline_query_current_chat=button["switch_inline_query_current_chat"],
                )
            ]
        ]
    )


def mode_label(r: Renderer, lang: str, mode: str) -> str:
    return r.t(lang, f"inline-play-mode-{mode}")


def settings_line(r: Renderer, lang: str, settings: ChatSettings) -> str:
    """The play mode's line under /settings and /rules."""
    return r.t(lang, "inline-settings-play-mode", mode=mode_label(r, lang, settings.play_mode))


def next_mode(mode: str) -> str:
    index = PLAY_MODES.index(mode) if mode in PLAY_MODES else -1
    return PLAY_MODES[(index + 1) % len(PLAY_MODES)]
