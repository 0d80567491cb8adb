"""Playing: the hand's buttons in the private chat, /uno and /challenge in the group."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.service import Notice, UnoService
from bot.telegram.callbacks import BACK, COLORS_PREFIX, HandCB
from bot.telegram.common import chat_key, retrying, user_of
from bot.telegram.routers.lobby import answer
from bot.telegram.ui import TelegramUI

GROUPS = F.chat.type.in_({"group", "supergroup"})


async def uno(message: Message, service: UnoService, ui: TelegramUI) -> None:
    """Call one's own UNO or catch whoever forgot: the first the engine receives wins."""
    assert message.from_user is not None
    out = await service.uno(chat_key(message.chat.id), user_of(message.from_user))
    await answer(message, ui, out, info=False)


async def challenge(message: Message, service: UnoService, ui: TelegramUI) -> None:
    assert message.from_user is not None
    out = await service.challenge(chat_key(message.chat.id), user_of(message.from_user))
    await answer(message, ui, out, info=False)


async def hand_button(
    callback: CallbackQuery,
    callback_data: HandCB,
    service: UnoService,
    ui: TelegramUI,
    lang: str,
) -> None:
    """A press on a hand's button: refused with a fresh keyboard unless it is current."""
    user = user_of(callback.from_user)
    cb = callback_data
    if cb.act == BACK or cb.act.startswith(COLORS_PREFIX):
        # Opening or closing the four colors of a wild card changes nothing in the game.
        out = await service.hand(user, game_id=cb.game)
        view = out.hands.get(user.id)
        error = out.error
        if view is not None and error is None:
            choice = None
            if cb.act != BACK:
                key = "wild:" + cb.act[len(COLORS_PREFIX) :]
                choice = next((c for c in view.choices if c.key == key), None)
            if view.version != cb.ver or (cb.act != BACK and choice is None):
                error = Notice("error-stale")
                await ui.settle(await ui.show_hand(view, out.names))
            elif choice is not None:
                await ui.settle(await ui.show_colors(view, out.names, choice))
            else:
                await ui.settle(await ui.show_hand(view, out.names))
        text = None if error is None else ui.notice(out.lang or lang, error)
        await retrying(lambda: callback.answer(text, show_alert=text is not None))
        return
    # The chat of a game the adapter has shown saves the service a lookup by id.
    out = await service.act(
        user, cb.act, chat_key=ui.chat_key_of(cb.game), game_id=cb.game, version=cb.ver
    )
    if out.error is not None and user.id in out.hands:
        _retire_old_keyboard(callback, ui, cb.game, user.id)
    await ui.publish(out)
    text = None if out.error is None else ui.notice(out.lang or lang, out.error)
    await retrying(lambda: callback.answer(text, show_alert=text is not None))


def _retire_old_keyboard(
    callback: CallbackQuery, ui: TelegramUI, game_id: int, player: str
) -> None:
    """A press from a message that is no longer the player's hand: take its buttons away."""
    message = callback.message
    current = ui.hand_message_id(game_id, player)
    if (
        message is not None
        and current is not None
        and message.message_id != current
        and message.chat.id == int(player)
    ):
        ui.sender.remove_keyboard(message.chat.id, message.message_id)


def make_router() -> Router:
    router = Router(name="play")
    router.message.register(uno, Command("uno"), GROUPS)
    router.message.register(challenge, Command("challenge"), GROUPS)
    router.callback_query.register(hand_button, HandCB.filter())
    return router
