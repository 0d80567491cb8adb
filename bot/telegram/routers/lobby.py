"""The lobby and the game's life: /new, /rematch, /join, /leave, /start, /addbot, /kill, /kick,
and the buttons of the lobby (the robots' level too) and of a match's result."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.presentation import steps
from bot.presentation.buttons import LobbyKey, RematchKey
from bot.service import Outcome, Service, User
from bot.telegram.callbacks import Pressed
from bot.telegram.common import Admins, as_admin_if_needed, chat_key, user_of
from bot.telegram.retry import retrying
from bot.telegram.ui import TelegramUI

GROUPS = F.chat.type.in_({"group", "supergroup"})


async def answer(message: Message, ui: TelegramUI, out: Outcome, *, info: bool = True) -> None:
    """A command's result: the error or confirmation as a reply, and the table updated."""
    notice = out.error or (out.info if info else None)
    if notice is not None:
        ui.say(message.chat.id, ui.notice(out.lang, notice), reply_to=message.message_id)
    await ui.publish(out)


def admin_check(
    bot: Bot, admins: Admins, chat_id: int, user_id: int
) -> Callable[[], Awaitable[bool]]:
    return lambda: admins.check(bot, chat_id, user_id)


async def new_game(message: Message, service: Service, ui: TelegramUI) -> None:
    assert message.from_user is not None
    out = await service.lobby.new_game(chat_key(message.chat.id), user_of(message.from_user))
    if out.ok and out.table is not None:
        await ui.remember_title(out.table.game_id, message.chat.title)
    await answer(message, ui, out, info=False)


async def rematch(message: Message, service: Service, ui: TelegramUI) -> None:
    """A new lobby at the last match's table; like /new, the lobby message is the answer."""
    assert message.from_user is not None
    out = await service.lobby.rematch(chat_key(message.chat.id), user_of(message.from_user))
    if out.ok and out.table is not None:
        await ui.remember_title(out.table.game_id, message.chat.title)
    await answer(message, ui, out, info=False)


async def rematch_button(
    callback: CallbackQuery, key: RematchKey, service: Service, ui: TelegramUI
) -> None:
    """The button under a match's result. A refused press (a lobby is open again, an older
    match's button) only gets its alert; an accepted one takes the button away."""
    message = callback.message
    if message is None:
        await retrying(lambda: callback.answer())
        return
    user = user_of(callback.from_user)
    out = await service.lobby.rematch(chat_key(message.chat.id), user, game_id=key.game)
    if out.ok and out.table is not None:
        await ui.remember_title(out.table.game_id, message.chat.title)
        ui.sender.remove_keyboard(message.chat.id, message.message_id)
        await ui.publish(out)
    notice = out.error or out.info
    text = ui.notice(out.lang, notice) if notice is not None else None
    await retrying(lambda: callback.answer(text, show_alert=out.error is not None))


async def join(message: Message, service: Service, ui: TelegramUI) -> None:
    assert message.from_user is not None
    await answer(
        message, ui, await service.lobby.join(chat_key(message.chat.id), user_of(message.from_user))
    )


async def leave(message: Message, service: Service, ui: TelegramUI) -> None:
    assert message.from_user is not None
    await answer(
        message,
        ui,
        await service.lobby.leave(chat_key(message.chat.id), user_of(message.from_user)),
    )


async def add_bot(message: Message, service: Service, ui: TelegramUI) -> None:
    assert message.from_user is not None
    out = await service.lobby.add_bot(chat_key(message.chat.id), user_of(message.from_user))
    await answer(message, ui, out)


async def _start(bot: Bot, admins: Admins, service: Service, chat_id: int, user: User) -> Outcome:
    return await as_admin_if_needed(
        lambda admin: service.lobby.start_game(chat_key(chat_id), user, is_admin=admin),
        admin_check(bot, admins, chat_id, int(user.id)),
        ("error-not-joined",),
    )


async def start(
    message: Message, bot: Bot, service: Service, ui: TelegramUI, admins: Admins
) -> None:
    assert message.from_user is not None
    out = await _start(bot, admins, service, message.chat.id, user_of(message.from_user))
    await answer(message, ui, out, info=False)


async def kill(
    message: Message, bot: Bot, service: Service, ui: TelegramUI, admins: Admins
) -> None:
    assert message.from_user is not None
    user = user_of(message.from_user)
    out = await as_admin_if_needed(
        lambda admin: service.lobby.kill(chat_key(message.chat.id), user, is_admin=admin),
        admin_check(bot, admins, message.chat.id, message.from_user.id),
    )
    await answer(message, ui, out)


async def kick(
    message: Message,
    command: CommandObject,
    bot: Bot,
    service: Service,
    ui: TelegramUI,
    admins: Admins,
    lang: str,
) -> None:
    """/kick as a reply to the player's message, or /kick <seat number> (computer players too).

    A seat number goes to the service as it is (`kick_seat`): the service reads it with the
    rights checked first, the same refusals as Discord's /kick."""
    assert message.from_user is not None
    key = chat_key(message.chat.id)
    user = user_of(message.from_user)
    who: str | int  # a user id, or a seat number
    replied = message.reply_to_message
    args = (command.args or "").strip()
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        who = str(replied.from_user.id)
    elif args.isascii() and args.isdigit():
        who = int(args)
    else:
        ui.say(message.chat.id, ui.r.t(lang, "tg-kick-usage"), reply_to=message.message_id)
        return

    async def kick_one(admin: bool) -> Outcome:
        if isinstance(who, int):
            return await service.lobby.kick_seat(key, user, who, is_admin=admin)
        return await service.lobby.kick(key, user, who, is_admin=admin)

    out = await as_admin_if_needed(
        kick_one, admin_check(bot, admins, message.chat.id, message.from_user.id)
    )
    await answer(message, ui, out)


async def lobby_button(
    callback: CallbackQuery,
    key: LobbyKey,
    bot: Bot,
    service: Service,
    ui: TelegramUI,
    admins: Admins,
    lang: str,
) -> None:
    message = callback.message
    if message is None:
        await retrying(lambda: callback.answer())
        return
    chat_id = message.chat.id
    chat = chat_key(chat_id)
    user = user_of(callback.from_user)
    refusal = await steps.lobby_refusal(service.queries, chat, key.game)
    if refusal is not None:
        # An older lobby's button, or forged data: nothing of the player's is shown here.
        text = (
            ui.r.t(lang, "tg-stale-button-group")
            if refusal == steps.STALE
            else ui.notice(lang, refusal)
        )
        await retrying(lambda: callback.answer(text, show_alert=True))
        return
    if key.op == "join":
        out = await service.lobby.join(chat, user)
    elif key.op == "addbot":
        out = await service.lobby.add_bot(chat, user)
    elif key.level is not None:
        out = await service.lobby.set_bot_level(chat, user, key.level)
    else:
        out = await _start(bot, admins, service, chat_id, user)
    await ui.publish(out)
    notice = out.error or out.info
    reply = ui.notice(out.lang, notice) if notice is not None else None
    await retrying(lambda: callback.answer(reply, show_alert=out.error is not None))


def make_router() -> Router:
    router = Router(name="lobby")
    router.message.filter(GROUPS)
    router.message.register(new_game, Command("new"))
    router.message.register(rematch, Command("rematch"))
    router.message.register(join, Command("join"))
    router.message.register(leave, Command("leave"))
    router.message.register(add_bot, Command("addbot"))
    router.message.register(start, Command("start"))
    router.message.register(kill, Command("kill"))
    router.message.register(kick, Command("kick"))
    router.callback_query.register(lobby_button, Pressed(LobbyKey))
    router.callback_query.register(rematch_button, Pressed(RematchKey))
    return router
