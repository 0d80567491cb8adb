"""Playing: the hand's buttons in the private chat, /uno and /challenge in the group."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.presentation import steps
from bot.presentation.buttons import HandKey
from bot.service import Service
from bot.telegram.callbacks import Pressed
from bot.telegram.common import chat_key, user_of
from bot.telegram.retry import retrying
from bot.telegram.routers.lobby import answer
from bot.telegram.ui import TelegramUI

GROUPS = F.chat.type.in_({"group", "supergroup"})


async def uno(message: Message, service: Service, ui: TelegramUI) -> None:
    """Call one's own UNO or catch whoever forgot: the first the engine receives wins."""
    assert message.from_user is not None
    out = await service.play.uno(chat_key(message.chat.id), user_of(message.from_user))
    await answer(message, ui, out, info=False)


async def challenge(message: Message, service: Service, ui: TelegramUI) -> None:
    assert message.from_user is not None
    out = await service.play.challenge(chat_key(message.chat.id), user_of(message.from_user))
    await answer(message, ui, out, info=False)


async def hand_button(
    callback: CallbackQuery, key: HandKey, service: Service, ui: TelegramUI, lang: str
) -> None:
    """A press on a hand's button (see `bot.presentation.steps.press`): a move, or a step of the
    hand's own menu; refused with a fresh keyboard unless it is current."""
    message = callback.message
    if message is None or message.chat.id != callback.from_user.id:
        # A hand's data placed on a group message (or any other chat's): a hand is played only
        # from its owner's private chat. Nothing changes and nothing of theirs is shown here.
        stale = ui.r.t(lang, "tg-stale-button-group")
        await retrying(lambda: callback.answer(stale, show_alert=True))
        return
    user = user_of(callback.from_user)
    # The chat of a game the adapter has shown saves the service a lookup by id.
    pressed = await steps.press(service, user, key, chat_key=ui.chat_key_of(key.game))
    out, hand = pressed.out, pressed.hand
    if hand is not None and not (pressed.moved and out.ok):
        await ui.hands.hand_pressed(key.game, user.id, message.message_id)  # shown again below
    if pressed.moved:
        await ui.publish(out)
    elif hand is not None and pressed.step is not None:
        own = out.switches.get(user.id)
        await ui.settle(await ui.hands.show_step(hand, out.names, pressed.step, own))
    elif hand is not None:
        await ui.settle(await ui.show_hand(hand, out.names, own=out.switches.get(user.id)))
    error = pressed.error
    text = None if error is None else ui.notice(out.lang or lang, error)
    await retrying(lambda: callback.answer(text, show_alert=text is not None))


def make_router() -> Router:
    router = Router(name="play")
    router.message.register(uno, Command("uno"), GROUPS)
    router.message.register(challenge, Command("challenge"), GROUPS)
    router.callback_query.register(hand_button, Pressed(HandKey))
    return router
