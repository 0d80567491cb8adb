"""/settings and its keyboard: preset, language, timer, color-blind mode, the table's picture,
every rule option.

The keyboard lives in a group and changes that group's settings. Settings data pressed anywhere
else (forged, mangled, or a message Telegram no longer shows) has no chat to change: it gets an
alert saying to open /settings again in the group, and nothing changes. In a group, data that
does not parse is the catch-all's (bot.telegram.routers.private), and an unknown option is
refused by the service.
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.presentation.buttons import SettingKey
from bot.service import Service
from bot.service.chat_settings import ChatSettings
from bot.telegram.callbacks import Pressed
from bot.telegram.common import Admins, as_admin_if_needed, chat_key, user_of
from bot.telegram.keyboards import settings_keyboard
from bot.telegram.play_modes import settings_line
from bot.telegram.retry import retrying
from bot.telegram.sender import Keyboard
from bot.telegram.ui import TelegramUI

GROUPS = F.chat.type.in_({"group", "supergroup"})
IN_GROUP = F.message.chat.type.in_({"group", "supergroup"})
SETTINGS_DATA = F.data.startswith("s:")


async def show_settings(message: Message, service: Service, ui: TelegramUI, lang: str) -> None:
    settings = await service.settings.settings(chat_key(message.chat.id))
    lang = settings.lang or lang
    ui.say(message.chat.id, _text(ui, lang, settings), _keyboard(ui, lang, settings))


def _text(ui: TelegramUI, lang: str, settings: ChatSettings) -> str:
    """The settings, the table's picture, and where the chat plays when the bot can play
    inline."""
    on, off = ui.r.t(lang, "value-on"), ui.r.t(lang, "value-off")
    picture = on if settings.table_picture else off
    text = ui.r.settings(lang, settings) + "\n"
    text += ui.r.t(lang, "tg-settings-table-picture", value=picture)
    return text + "\n" + settings_line(ui.r, lang, settings) if ui.modes.inline else text


def _keyboard(ui: TelegramUI, lang: str, settings: ChatSettings) -> Keyboard | None:
    return settings_keyboard(ui.r, lang, settings, play_mode=ui.modes.inline)


async def change(
    callback: CallbackQuery,
    key: SettingKey,
    bot: Bot,
    service: Service,
    ui: TelegramUI,
    admins: Admins,
    lang: str,
) -> None:
    message = callback.message
    if message is None or message.chat.type not in ("group", "supergroup"):
        await outside_group(callback, ui, lang)
        return
    chat = chat_key(message.chat.id)
    user = user_of(callback.from_user)
    out = await as_admin_if_needed(
        lambda admin: service.settings.change_setting(
            chat, user, key.setting, key.value, is_admin=admin
        ),
        lambda: admins.check(bot, message.chat.id, callback.from_user.id),
    )
    if out.error is not None:
        text = ui.notice(out.lang, out.error)
        await retrying(lambda: callback.answer(text, show_alert=True))
        return
    settings = await service.settings.settings(chat)
    lang = settings.lang or out.lang
    ui.edit(
        message.chat.id,
        message.message_id,
        _text(ui, lang, settings),
        _keyboard(ui, lang, settings),
    )
    await ui.publish(out)
    info = None if out.info is None else ui.notice(out.lang, out.info)
    await retrying(lambda: callback.answer(info))


async def outside_group(callback: CallbackQuery, ui: TelegramUI, lang: str) -> None:
    """Settings data outside a group (see the module's docstring): an alert, nothing else."""
    text = ui.r.t(lang, "tg-stale-settings")
    await retrying(lambda: callback.answer(text, show_alert=True))


def make_router() -> Router:
    router = Router(name="settings")
    router.message.register(show_settings, Command("settings"), GROUPS)
    router.callback_query.register(change, Pressed(SettingKey))
    router.callback_query.register(outside_group, SETTINGS_DATA, ~IN_GROUP)
    return router
