"""/rules, /stats and /help."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.service import Service
from bot.service.chat_settings import ChatSettings
from bot.telegram.common import chat_key
from bot.telegram.play_modes import settings_line
from bot.telegram.ui import TelegramUI

GROUPS = F.chat.type.in_({"group", "supergroup"})


def _reply_to(message: Message) -> int | None:
    return None if message.chat.type == "private" else message.message_id


async def rules(message: Message, service: Service, ui: TelegramUI, lang: str) -> None:
    if message.chat.type == "private":
        settings = ChatSettings(lang=lang)
    else:
        settings = await service.settings.settings(chat_key(message.chat.id))
    text = ui.r.rules_text(settings.lang or lang, settings)
    if ui.modes.inline and message.chat.type != "private":
        text += "\n" + settings_line(ui.r, settings.lang or lang, settings)
    ui.say(message.chat.id, text, reply_to=_reply_to(message))


async def stats(message: Message, service: Service, ui: TelegramUI, lang: str) -> None:
    rows = await service.statistics.leaderboard(chat_key(message.chat.id))
    ui.say(message.chat.id, ui.r.stats(lang, rows), reply_to=message.message_id)


async def help_text(message: Message, ui: TelegramUI, lang: str) -> None:
    ui.say(message.chat.id, ui.r.help(lang), reply_to=_reply_to(message))


def make_router() -> Router:
    router = Router(name="info")
    router.message.register(rules, Command("rules"))
    router.message.register(stats, Command("stats"), GROUPS)
    router.message.register(help_text, Command("help"))
    return router
