"""Updates from a user Telegram cannot send: refused before any handler sees them.

Telegram's user ids are positive and at most 52 bits wide (`bot.service.identity`): an update
from any other (a forged or mangled one) names nobody. A press is answered as a stale button,
anything else is left unanswered, and nothing reaches the service or the log.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, TelegramObject
from aiogram.types import User as TgUser

from bot.presentation.i18n import normalize_lang
from bot.presentation.render import Renderer
from bot.service import chat_keys
from bot.service.identity import person_id
from bot.telegram.retry import retrying

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class Strangers(BaseMiddleware):
    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user: TgUser | None = data.get("event_from_user")
        if user is None or person_id(chat_keys.TELEGRAM, user.id):
            return await handler(event, data)
        if isinstance(event, CallbackQuery):
            text = self.renderer.t(normalize_lang(user.language_code), "tg-stale-button-group")
            await retrying(lambda: event.answer(text, show_alert=True))
        return None
