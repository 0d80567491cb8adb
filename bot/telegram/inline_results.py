"""A hand as inline results: what a player sees after "@bot g<game>" in the group.

The playable cards first (one per first step, as the hand's buttons: a wild once, its color is
asked on the message it leaves in the chat), then the moves without a card (draw, pass, UNO,
catch, accept a penalty, challenge), then the rest of the hand dimmed. Cards are the bot's
stickers when the language's set is known, text results otherwise.

Every result's id is the hand button's key (`bot.presentation.buttons.HandKey`: game, the hand's
version, the act), so choosing one goes through the same checks as pressing the button; a dimmed
card's act is `hold <card>`, which is never a move. Telegram takes at most 50 results and ids of at
most 64 bytes, both checked here.
"""

from __future__ import annotations

from collections.abc import Mapping

from aiogram.types import (
    InlineQueryResultArticle,
    InlineQueryResultCachedSticker,
    InlineQueryResultUnion,
    InputTextMessageContent,
)

from bot.presentation import steps
from bot.presentation.buttons import HOLD, TELEGRAM_LIMIT, HandKey, pack
from bot.presentation.render import Renderer
from bot.service.views import HandView
from bot.telegram.play_modes import result_markup
from bot.telegram.stickers import StickerBook
from core.actions import ActionType

MAX_RESULTS = 50

NOT_IN_GAME = "none"  # the id of the one result shown to someone who does not play here
NO_GAME = "nogame"


def hand_results(
    r: Renderer, view: HandView, names: Mapping[str, str], book: StickerBook
) -> list[InlineQueryResultUnion]:
    lang = view.lang
    markup = result_markup(r, lang, view.game_id)
    stickers = book.ready(lang)
    playable: list[InlineQueryResultUnion] = []
    moves: list[InlineQueryResultUnion] = []
    played = set()

    def result_id(act: str) -> str:
        return pack(HandKey(view.game_id, view.version, act), TELEGRAM_LIMIT)

    def article(act: str, title: str, description: str) -> InlineQueryResultArticle:
        return InlineQueryResultArticle(
            id=result_id(act),
            title=title,
            description=description,
            input_message_content=InputTextMessageContent(message_text=title),
            reply_markup=markup,
        )

    for option in steps.options(view):
        card = option.action.card
        if option.action.type is ActionType.PLAY and card is not None:
            played.add(card)
            sticker = book.sticker(lang, card) if stickers else None
            if sticker is not None:
                playable.append(
                    InlineQueryResultCachedSticker(
                        id=result_id(option.act), sticker_file_id=sticker, reply_markup=markup
                    )
                )
                continue
            label = steps.option_label(r, view, option)
            playable.append(article(option.act, label, r.t(lang, "inline-card-playable")))
        else:
            label = steps.option_label(r, view, option)
            moves.append(article(option.act, label, r.t(lang, "inline-action")))
    dimmed: list[InlineQueryResultUnion] = []
    for card in dict.fromkeys(view.cards):
        if card in played:
            continue
        act = HOLD + card.text
        sticker = book.sticker(lang, card, dimmed=True) if stickers else None
        if sticker is not None:
            dimmed.append(
                InlineQueryResultCachedSticker(
                    id=result_id(act), sticker_file_id=sticker, reply_markup=markup
                )
            )
        else:
            label = r.card(lang, card, view.colorblind)
            dimmed.append(article(act, label, r.t(lang, "inline-card-dimmed")))
    return [*playable, *moves, *dimmed][:MAX_RESULTS]


def notice_result(
    r: Renderer, lang: str, key: str, title: str, text: str, message: str
) -> InlineQueryResultArticle:
    """A single result that explains instead of playing (choosing it posts `message`)."""
    return InlineQueryResultArticle(
        id=key,
        title=r.t(lang, title),
        description=r.t(lang, text),
        input_message_content=InputTextMessageContent(message_text=r.t(lang, message)),
    )


def not_in_game(r: Renderer, lang: str) -> InlineQueryResultArticle:
    return notice_result(
        r,
        lang,
        NOT_IN_GAME,
        "inline-not-in-game-title",
        "inline-not-in-game-text",
        "inline-not-in-game-message",
    )


def no_game(r: Renderer, lang: str) -> InlineQueryResultArticle:
    return notice_result(
        r, lang, NO_GAME, "inline-no-game-title", "inline-no-game-text", "inline-no-game-message"
    )
