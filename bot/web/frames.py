"""What a page is sent: the views of the service put into words (`Renderer`) as JSON frames.

The page holds no rule and no text: every label, line and button key comes from here, and a
button carries the key of the chats' hand buttons (`bot.presentation.buttons.HandKey`), so a
press from the page goes through the same `press` as one from Telegram or Discord.

Privacy: the table part is the same for every page of a game and holds counts only; the hand
part is built from the page's own player's hand alone (`state` takes no other).
"""

from __future__ import annotations

from typing import Any

from bot.art import picture_name
from bot.presentation.buttons import BACK, HandKey, RematchKey
from bot.presentation.render import Renderer
from bot.presentation.steps import (
    option_label,
    options,
    second_color,
    second_label,
    second_step,
    step_title,
)
from bot.service import Notice, Outcome
from bot.service.views import HandView, TableView
from core.actions import ActionType
from core.events import GameEnded, RoundEnded

LOG_LINES = 6
Frame = dict[str, Any]


def notice(r: Renderer, lang: str, item: Notice | str, *, error: bool = True) -> Frame:
    """A line for one page only: a refusal, or what only its player may read."""
    text = r.notice(lang, item) if isinstance(item, Notice) else item
    return {"t": "notice", "text": text, "error": error}


def closing(r: Renderer, lang: str, key: str) -> Frame:
    """Why the server closes this page's socket; the page does not reconnect after it."""
    return {"t": "closed", "text": r.t(lang, key)}


def table(r: Renderer, out: Outcome, *, rematch: bool = False) -> Frame:
    """The shared part of a game's state: the table, the seats, the last moves, a result, and
    with `rematch` (a local table) a new match offered once this one is over."""
    view = out.table
    assert view is not None
    lang, names = view.lang, out.names
    seats = [
        {
            "id": seat.id,
            "name": r.name(lang, seat.id, names),
            "cards": seat.cards,
            "cardsText": r.i18n.count(lang, seat.cards),
            "scoreText": r.i18n.points(lang, seat.score),
            "current": seat.is_current,
            "uno": seat.uno,
        }
        for seat in view.seats
    ]
    frame: Frame = {
        "status": view.status,
        "version": view.version,
        "seats": seats,
        "texts": {
            "log": r.t(lang, "table-recent"),
            "leave": r.t(lang, "web-leave"),
            "leaveSure": r.t(lang, "web-leave-sure"),
            "you": r.t(lang, "web-you"),
            "uno": r.t(lang, "table-uno-mark"),
            "reconnecting": r.t(lang, "web-reconnecting"),
        },
    }
    if view.top is None:  # a lobby: its text says who waits for what
        frame["lobby"] = r.lobby(view, names)
        return frame
    frame.update(
        top=picture_name(view.top),
        topText=r.top_line(lang, view.top, view.color, view.colorblind),
        color=None if view.color is None else str(view.color),
        colorText=None if view.color is None else r.color(lang, view.color, view.colorblind),
        direction=view.direction,
        directionText=r.direction_line(view),
        drawSize=view.draw_size,
        title=r.t(lang, "table-title", round=view.round_no),
        turn="\n".join(r.turn_lines(view, names)),
        log=_log(r, view, names),
        result=_result(r, view, names),
    )
    if rematch and view.status == "finished":
        frame["rematch"] = {
            "key": RematchKey(view.game_id).pack(),
            "label": r.t(lang, "btn-rematch"),
        }
    return frame


def _log(r: Renderer, view: TableView, names: dict[str, str]) -> list[str]:
    lines = r.events(view.lang, view.recent, names, view.colorblind, scoring=view.rules.scoring)
    return lines[-LOG_LINES:]


def _result(r: Renderer, view: TableView, names: dict[str, str]) -> str | None:
    """The last round's or the match's result while it is the news: nothing played since."""
    ends = [i for i, e in enumerate(view.recent) if isinstance(e, (RoundEnded, GameEnded))]
    if not ends:
        return None
    end = view.recent[ends[0] if view.status == "finished" else ends[-1]]
    after = view.recent[ends[-1] + 1 :]
    if view.status != "finished" and len(after) > 3:  # the next round is well under way
        return None
    lines = r.events(view.lang, [end], names, view.colorblind, scoring=view.rules.scoring)
    return "\n".join(lines) or None


def hand(r: Renderer, hand_view: HandView | None, names: dict[str, str], step: str | None) -> Frame:
    """One player's own part: their cards (playable ones with a key), their other moves, what
    they are to do, and the second step they opened (a wild's color, a 7's partner)."""
    if hand_view is None:
        return {}
    view, lang = hand_view, hand_view.lang
    if view.left:
        return left(r, lang)

    def key(act: str) -> str:
        return HandKey(view.game_id, view.version, act).pack()

    by_card: dict[str, str] = {}
    actions = []
    for option in options(view):
        card = option.action.card
        if option.action.type is ActionType.PLAY and card is not None:
            by_card.setdefault(picture_name(card), key(option.act))
        else:
            label = option_label(r, view, option)
            color = option.action.color if option.action.type is ActionType.CHOOSE else None
            actions.append({"key": key(option.act), "label": label, "color": _letter(color)})
    cards = [
        {
            "pic": picture_name(card),
            "label": r.card(lang, card, view.colorblind),
            "key": by_card.get(picture_name(card)),
        }
        for card in view.cards
    ]
    frame: Frame = {
        "cards": cards,
        "actions": actions,
        "status": r.hand_status(view, names),
    }
    if step is not None and second_step(view, step):
        frame["step"] = {
            "title": step_title(r, view, step),
            "options": [
                {
                    "key": key(str(action)),
                    "label": second_label(r, view, action, names),
                    "color": _letter(second_color(action)),
                }
                for action in second_step(view, step)
            ],
            "back": {"key": key(BACK), "label": r.t(lang, "btn-back")},
        }
    return frame


def left(r: Renderer, lang: str) -> Frame:
    """The hand of a player who left the game (or was taken out by the turn timer)."""
    return {"cards": [], "actions": [], "status": [r.t(lang, "hand-left")]}


def _letter(color: object) -> str | None:
    return None if color is None else str(color)


def state(r: Renderer, out: Outcome, shared: Frame, player: str, step: str | None) -> Frame:
    """The whole state for `player`'s page: the shared table and their own hand only."""
    view = out.table
    assert view is not None
    return {
        "t": "state",
        "lang": view.lang,
        "colorblind": view.colorblind,
        "me": player,
        "game": view.game_id,
        "table": shared,
        "hand": (
            hand(r, out.hands[player], out.names, step)
            if player in out.hands
            else left(r, view.lang)
            if view.top is not None  # dealt, and this player is no longer in it
            else {}
        ),
    }
