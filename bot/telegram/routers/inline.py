"""Playing from the group: inline queries, chosen inline results, and the buttons on the
messages they leave in the chat.

"@bot g<game>" (the table's "play here" button types it) answers with the player's hand
(`bot.telegram.inline_results`). Choosing a result is pressing the hand button its id names
(`bot.presentation.steps.press`): the same version, checks and refusals. A wild card (or a
seven-zero 7) opens its second step as buttons on the message the choice left in the chat, which
Telegram lets the bot edit by its `inline_message_id` (every result carries a keyboard for that). A
choice the bot cannot play (forged, stale, out of turn, a dimmed card) changes nothing; the player
is told on that message (its text, or for a sticker its button), or in the private chat when
Telegram gave no `inline_message_id`.
"""

from __future__ import annotations

import contextlib
import logging
import re

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.types import (
    CallbackQuery,
    ChosenInlineResult,
    InlineKeyboardMarkup,
    InlineQuery,
    InlineQueryResultUnion,
)
from cachetools import LRUCache

from bot.presentation import notes, steps
from bot.presentation.buttons import BACK, PICK, HandKey, parse
from bot.presentation.i18n import normalize_lang
from bot.service import Notice, Service
from bot.telegram.callbacks import Pressed
from bot.telegram.common import user_of
from bot.telegram.inline_results import NO_GAME, NOT_IN_GAME, hand_results, no_game, not_in_game
from bot.telegram.keyboards import step_keyboard
from bot.telegram.play_modes import play_here_markup
from bot.telegram.retry import retrying
from bot.telegram.sender import Keyboard
from bot.telegram.stickers import StickerBook
from bot.telegram.ui import TelegramUI

log = logging.getLogger(__name__)

QUERY = re.compile(r"\s*g(\d{1,18})\s*")
CARD_ACTS = ("play ", PICK, "hold ")
OWNERS = 10_000


class InlinePlay:
    """What inline play keeps between updates: the stickers, and who chose each message that
    shows a second step (only they may finish or cancel it)."""

    def __init__(self, stickers: StickerBook | None = None) -> None:
        self.stickers = stickers or StickerBook()
        self.owners: LRUCache[str, str] = LRUCache(maxsize=OWNERS)

    def is_sticker(self, lang: str, act: str) -> bool:
        """Whether a result with this act was a sticker (else a text the bot can edit)."""
        return self.stickers.ready(lang) and act.startswith(CARD_ACTS)


# ---------------------------------------------------------------------------- the query


async def inline_query(
    query: InlineQuery, service: Service, ui: TelegramUI, inline: InlinePlay
) -> None:
    user = user_of(query.from_user)
    lang = normalize_lang(query.from_user.language_code)
    match = QUERY.fullmatch(query.query)
    if match is not None:
        game_id: int | None = int(match[1])
    else:  # "@bot" typed by hand: the player's newest running game
        games = await service.queries.games_of(user.id)
        game_id = max(games) if games else None
    results: list[InlineQueryResultUnion] = []
    if game_id is None:
        results.append(no_game(ui.r, lang))
    else:
        out = await service.queries.hand(user, game_id=game_id)
        view = out.hands.get(user.id)
        if out.error is not None and out.error.key == "error-not-in-game":
            results.append(not_in_game(ui.r, out.lang or lang))
        elif view is None or view.left or view.status != "running":
            results.append(no_game(ui.r, out.lang or lang))
        else:
            results.extend(hand_results(ui.r, view, out.names, inline.stickers))
    await retrying(lambda: query.answer(results, cache_time=0, is_personal=True))


# ---------------------------------------------------------------------------- the choice


async def chosen(
    result: ChosenInlineResult, bot: Bot, service: Service, ui: TelegramUI, inline: InlinePlay
) -> None:
    if result.result_id in (NOT_IN_GAME, NO_GAME):
        return  # an explanation, not a move
    user = user_of(result.from_user)
    lang = normalize_lang(result.from_user.language_code)
    message = result.inline_message_id
    key = parse(result.result_id)
    if not isinstance(key, HandKey) or key.page is not None or key.act == BACK:
        await _tell(bot, ui, inline, lang, user.id, message, "", 0, Notice("inline-stale"))
        return
    if key.holds:
        refusal = Notice("inline-not-playable")
        await _tell(bot, ui, inline, lang, user.id, message, key.act, key.game, refusal)
        return
    pressed = await steps.press(service, user, key, chat_key=ui.chat_key_of(key.game))
    out, hand = pressed.out, pressed.hand
    lang = out.lang or lang
    if pressed.moved:
        await ui.publish(out)
    if pressed.error is not None:
        await _tell(bot, ui, inline, lang, user.id, message, key.act, key.game, pressed.error)
    elif pressed.step is not None and hand is not None and message is not None:
        inline.owners[message] = user.id
        keyboard = step_keyboard(ui.r, hand, pressed.step, out.names)
        await _edit_markup(bot, message, keyboard)


async def _tell(
    bot: Bot,
    ui: TelegramUI,
    inline: InlinePlay,
    lang: str,
    player: str,
    message: str | None,
    act: str,
    game_id: int,
    notice: Notice,
) -> None:
    """A choice that was not played: say why on its message, else in the private chat."""
    if notice.key == "error-stale":  # its usual words point to a private hand
        notice = Notice("inline-stale")
    reason = ui.notice(lang, notice)
    if message is None:
        ui.say(int(player), notes.refused_choice(ui.r, lang, reason))
        return
    refused = ui.r.t(lang, "inline-refused", reason=reason)
    if inline.is_sticker(lang, act):
        await _edit_markup(bot, message, play_here_markup(ui.r, lang, game_id, refused))
        return
    markup = _markup(play_here_markup(ui.r, lang, game_id)) if game_id else None
    with contextlib.suppress(TelegramAPIError):
        await retrying(
            lambda: bot.edit_message_text(
                text=refused, inline_message_id=message, reply_markup=markup
            )
        )


def _markup(keyboard: Keyboard | None) -> InlineKeyboardMarkup | None:
    return None if keyboard is None else InlineKeyboardMarkup.model_validate_json(keyboard)


async def _edit_markup(bot: Bot, message: str, keyboard: Keyboard | None) -> None:
    markup = _markup(keyboard)
    try:
        await retrying(
            lambda: bot.edit_message_reply_markup(inline_message_id=message, reply_markup=markup)
        )
    except TelegramAPIError as exc:  # gone, or already showing this
        log.info("inline message %s not edited: %s", message, exc)


# ---------------------------------------------------------------------------- its buttons


async def inline_press(
    callback: CallbackQuery,
    key: HandKey,
    bot: Bot,
    service: Service,
    ui: TelegramUI,
    inline: InlinePlay,
    lang: str,
) -> None:
    """A second step's button on a message chosen inline (a wild's color, a 7's player)."""
    message = callback.inline_message_id
    assert message is not None
    user = user_of(callback.from_user)
    owner = inline.owners.get(message)
    if owner is not None and owner != user.id:
        text = ui.notice(lang, Notice("inline-not-yours"))
        await retrying(lambda: callback.answer(text, show_alert=True))
        return
    if key.act == BACK or not key.is_move:
        if owner is not None:
            cancelled = ui.r.t(lang, "inline-refused", reason=ui.r.t(lang, "inline-cancelled"))
            await _edit_markup(bot, message, play_here_markup(ui.r, lang, key.game, cancelled))
            inline.owners.pop(message, None)
        await retrying(lambda: callback.answer())
        return
    pressed = await steps.press(service, user, key, chat_key=ui.chat_key_of(key.game))
    out = pressed.out
    lang = out.lang or lang
    await ui.publish(out)
    error = pressed.error
    if error is None:
        inline.owners.pop(message, None)
        await _edit_markup(bot, message, play_here_markup(ui.r, lang, key.game))
        await retrying(lambda: callback.answer())
        return
    if owner is not None and error.key == "error-stale":
        await _tell(bot, ui, inline, lang, user.id, message, PICK, key.game, error)
        inline.owners.pop(message, None)
    text = ui.notice(lang, Notice("inline-stale") if error.key == "error-stale" else error)
    await retrying(lambda: callback.answer(text, show_alert=True))


def make_router() -> Router:
    router = Router(name="inline")
    router.inline_query.register(inline_query)
    router.chosen_inline_result.register(chosen)
    router.callback_query.register(inline_press, Pressed(HandKey), F.inline_message_id)
    return router
