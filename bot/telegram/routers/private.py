"""The private chat: /start with the deep link of a game opens the player's hand there.

Also the catch-all for callback data no other router took (forged, or from a layout long
gone; settings data outside a group is the settings router's). In the private chat it is
refused like a stale hand button, with the player's current hands shown again; in a group
nothing of the player's can be shown, so the alert points to the table instead. Either way no
game changes.
"""

from __future__ import annotations

import re

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.service import Notice, Service
from bot.telegram.common import personal_key, user_of
from bot.telegram.hands import TURN_PING
from bot.telegram.pictures import PICTURES
from bot.telegram.retry import retrying
from bot.telegram.ui import TelegramUI

PRIVATE = F.chat.type == "private"
DEEP_LINK = re.compile(r"g(\d{1,18})")
GROUP_ONLY = (
    "new",
    "rematch",
    "join",
    "leave",
    "addbot",
    "kill",
    "kick",
    "settings",
    "stats",
    "uno",
    "challenge",
)


async def start(
    message: Message, command: CommandObject, service: Service, ui: TelegramUI, lang: str
) -> None:
    assert message.from_user is not None
    user = user_of(message.from_user)
    match = DEEP_LINK.fullmatch((command.args or "").strip())
    if match is not None:
        out = await service.queries.hand(user, game_id=int(match[1]))
        view = out.hands.get(user.id)
        if view is None:
            ui.say(message.chat.id, ui.notice(out.lang, out.error or Notice("error-no-game")))
            return
        if not ui.modes.private_hands(await ui.modes.of(view.chat_key, out.settings)):
            ui.say(message.chat.id, ui.r.t(view.lang, "inline-group-mode"))
            return
        await ui.show_hand(view, out.names, fresh=True, own=out.switches.get(user.id))
        return
    games = await service.queries.games_of(user.id)
    ui.say(message.chat.id, ui.r.t(lang, "tg-welcome-back" if games else "tg-welcome"))
    for game_id in games:
        out = await service.queries.hand(user, game_id=game_id)
        view = out.hands.get(user.id)
        if view is not None and ui.modes.private_hands(
            await ui.modes.of(view.chat_key, out.settings)
        ):
            await ui.show_hand(view, out.names, fresh=True, own=out.switches.get(user.id))


async def notify(message: Message, service: Service, ui: TelegramUI, lang: str) -> None:
    """A person's own switch: a new message when their turn begins (on until turned off)."""
    assert message.from_user is not None
    on = await service.settings.toggle_personal(
        personal_key(message.from_user.id), TURN_PING, default=True
    )
    ui.say(message.chat.id, ui.r.t(lang, "tg-notify-on" if on else "tg-notify-off"))


async def notify_in_group(message: Message, ui: TelegramUI, lang: str) -> None:
    ui.say(message.chat.id, ui.r.t(lang, "tg-notify-private"), reply_to=message.message_id)


async def pictures(message: Message, service: Service, ui: TelegramUI, lang: str) -> None:
    """A person's own switch: their hand as a picture from `ui.picture_from` cards (on until
    turned off). Off, the hand is text from its next update on; on again, from its next new
    message or its next update with enough cards."""
    assert message.from_user is not None
    on = await service.settings.toggle_personal(
        personal_key(message.from_user.id), PICTURES, default=True
    )
    text = ui.r.t(lang, "tg-pictures-on", count=ui.picture_from) if on else None
    ui.say(message.chat.id, text or ui.r.t(lang, "tg-pictures-off"))


async def pictures_in_group(message: Message, ui: TelegramUI, lang: str) -> None:
    ui.say(message.chat.id, ui.r.t(lang, "tg-pictures-private"), reply_to=message.message_id)


async def group_only(message: Message, ui: TelegramUI, lang: str) -> None:
    ui.say(message.chat.id, ui.notice(lang, Notice("error-wrong-chat")))


async def unknown_button(
    callback: CallbackQuery, service: Service, ui: TelegramUI, lang: str
) -> None:
    """Data that does not parse: a short alert, and in the private chat the player's hands as
    they are now."""
    message = callback.message
    if message is not None and message.chat.type != "private":
        group = ui.r.t(lang, "tg-stale-button-group")
        await retrying(lambda: callback.answer(group, show_alert=True))
        return
    user = user_of(callback.from_user)
    if message is not None:
        current: set[int | None] = set()
        for game_id in await service.queries.games_of(user.id):
            out = await service.queries.hand(user, game_id=game_id)
            view = out.hands.get(user.id)
            if view is not None:
                await ui.show_hand(view, out.names, own=out.switches.get(user.id))
                current.add(ui.hands.hand_message_id(game_id, user.id))
        keyboard = getattr(message, "reply_markup", None)
        if keyboard is not None and message.message_id not in current:
            ui.sender.remove_keyboard(message.chat.id, message.message_id)
    text = ui.notice(lang, Notice("error-stale"))
    await retrying(lambda: callback.answer(text, show_alert=True))


def make_router() -> Router:
    router = Router(name="private")
    router.message.register(start, Command("start"), PRIVATE)
    router.message.register(group_only, Command(*GROUP_ONLY), PRIVATE)
    router.message.register(notify, Command("notify"), PRIVATE)
    router.message.register(notify_in_group, Command("notify"))
    router.message.register(pictures, Command("pictures"), PRIVATE)
    router.message.register(pictures_in_group, Command("pictures"))
    router.callback_query.register(unknown_button)
    return router
