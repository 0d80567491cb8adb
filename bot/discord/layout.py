"""Discord widgets for the views: the table's buttons, a hand's buttons or card menu, /settings.

Pure functions of a view (plus the renderer for labels): they return a `ui.View` holding only
`DynamicItem`s, so nothing here keeps state and every message can be re-created after a restart.

A message holds at most 5 rows of 5 buttons. A hand shows its legal cards as buttons and its
other choices (draw, pass, accept, challenge, UNO, catch, a first color) in the rows below; when
the cards do not fit, they go into a select menu of at most 25 options per page, with paging
buttons under it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import discord
from discord import ui

from bot.discord.chats import TURN_PING
from bot.discord.emoji import CardEmoji
from bot.discord.items import (
    HandButton,
    HandMenu,
    LobbyButton,
    MyCardsButton,
    RematchButton,
    SettingsMenu,
    custom_id,
    hand_id,
    hand_menu_id,
    lobby_id,
    rematch_id,
    settings_id,
    table_id,
)
from bot.presentation import steps
from bot.presentation.buttons import BACK, PAGE, LobbyKey
from bot.presentation.render import Renderer
from bot.service.chat_settings import (
    BOOL_OPTIONS,
    SWITCHES,
    TARGET_CHOICES,
    TIMER_CHOICES,
    ChatSettings,
)
from bot.service.views import HandView, TableView
from core.actions import Action, ActionType
from core.cards import Color
from core.rules import PRESET_NAMES

MAX_ROWS = 5  # action rows in a message
ROW_WIDTH = 5  # buttons in a row
SELECT_PAGE = 25  # options in a select menu
Style = discord.ButtonStyle

_COLOR_STYLE = {
    Color.RED: Style.danger,
    Color.GREEN: Style.success,
    Color.BLUE: Style.primary,
    Color.YELLOW: Style.secondary,
}
_ACTION_STYLE = {
    ActionType.DRAW: Style.primary,
    ActionType.PASS: Style.secondary,
    ActionType.ACCEPT: Style.danger,
    ActionType.CHALLENGE: Style.primary,
    ActionType.UNO: Style.success,
    ActionType.CATCH: Style.danger,
}
LANGS: tuple[str, ...] = ("ru", "uk")
# The entries of the /settings "switch" menu: every two-valued setting, flipped by the service.
TOGGLES: tuple[str, ...] = SWITCHES


def _view(items: list[ui.Item[Any]]) -> ui.View | None:
    if not items:
        return None
    view = ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# ------------------------------------------------------------------------------ the table


def table_view(table: TableView, r: Renderer) -> ui.View | None:
    """The table's buttons: join / add a robot / start and the robots' level (named by the
    button, switched by a press) in a lobby, "my cards" while running."""
    lang = table.lang
    if table.status == "lobby":
        styles = {"join": Style.success, "addbot": Style.secondary, "start": Style.primary}
        level = ui.Button[Any](
            label=r.t(lang, "btn-bot-level", level=table.bot_level.value),
            custom_id=custom_id(LobbyKey.switch_level(table.game_id, table.bot_level)),
            style=Style.secondary,
        )
        return _view(
            [
                *(
                    LobbyButton(
                        ui.Button(
                            label=r.t(lang, f"btn-{op}"),
                            custom_id=lobby_id(table.game_id, op),
                            style=styles[op],
                        ),
                        row=0,
                    )
                    for op in ("join", "addbot", "start")
                ),
                LobbyButton(level, row=1),
            ]
        )
    if table.status == "running":
        return my_cards_view(table.game_id, lang, r)
    return None


def my_cards_view(game_id: int, lang: str, r: Renderer) -> ui.View | None:
    """The "my cards" button: under the running table, and under a turn prompt."""
    button = ui.Button[Any](
        label=r.t(lang, "btn-my-cards"), custom_id=table_id(game_id), style=Style.primary
    )
    return _view([MyCardsButton(button, row=0)])


def rematch_view(game_id: int, lang: str, r: Renderer) -> ui.View | None:
    """Under the message announcing a match's result: a new lobby at the same table."""
    button = ui.Button[Any](
        label=r.t(lang, "btn-rematch"), custom_id=rematch_id(game_id), style=Style.success
    )
    return _view([RematchButton(button, row=0)])


# ------------------------------------------------------------------------------ a hand


def split_options(hand: HandView) -> tuple[list[steps.Option], list[steps.Option]]:
    """(card buttons, other buttons) in the hand's order."""
    options = steps.options(hand)
    return [o for o in options if o.card], [o for o in options if not o.card]


def rows(count: int) -> int:
    return math.ceil(count / ROW_WIDTH)


def cards_fit_as_buttons(cards: int, others: int) -> bool:
    return rows(cards) + rows(others) <= MAX_ROWS


def pages(cards: int) -> int:
    return max(1, math.ceil(cards / SELECT_PAGE))


def _style(action: Action) -> discord.ButtonStyle:
    if action.type is ActionType.PLAY:
        card = action.card
        if card is not None and card.color is not None:
            return _COLOR_STYLE[card.color]
        return Style.secondary
    if action.type is ActionType.CHOOSE and action.color is not None:
        return _COLOR_STYLE[action.color]
    return _ACTION_STYLE.get(action.type, Style.secondary)


def _card_emoji(
    hand: HandView, option: steps.Option, emoji: CardEmoji | None
) -> discord.PartialEmoji | None:
    """A card option's emoji (`bot.discord.emoji`), None without one: the label alone."""
    return None if emoji is None else emoji.emoji(option.action.card, hand.lang)


def _option_button(
    hand: HandView, option: steps.Option, r: Renderer, row: int, emoji: CardEmoji | None
) -> HandButton:
    button = ui.Button[Any](
        label=steps.option_label(r, hand, option)[:80],
        custom_id=hand_id(hand.game_id, hand.version, option.act),
        style=_style(option.action),
        emoji=_card_emoji(hand, option, emoji),
    )
    return HandButton(button, row=row)


def _buttons(
    hand: HandView,
    options: list[steps.Option],
    r: Renderer,
    first_row: int,
    emoji: CardEmoji | None = None,
) -> list[Any]:
    return [
        _option_button(hand, option, r, first_row + i // ROW_WIDTH, emoji)
        for i, option in enumerate(options)
    ]


def hand_view(
    hand: HandView, r: Renderer, *, page: int = 0, emoji: CardEmoji | None = None
) -> ui.View | None:
    """The hand's buttons; the cards in a paged select menu when they do not fit as buttons.

    `emoji`: each card's emoji beside its label, where it exists."""
    if hand.left or hand.status != "running":
        return None
    cards, others = split_options(hand)
    if cards_fit_as_buttons(len(cards), len(others)):
        card_buttons = _buttons(hand, cards, r, 0, emoji)
        return _view(card_buttons + _buttons(hand, others, r, rows(len(cards))))
    total = pages(len(cards))
    page = min(max(page, 0), total - 1)
    shown = cards[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
    lang = hand.lang
    placeholder = (
        r.t(lang, "dc-select-card")
        if total == 1
        else r.t(lang, "dc-select-card-page", page=page + 1, pages=total)
    )
    menu = ui.Select[Any](
        custom_id=hand_menu_id(hand.game_id, hand.version, page),
        placeholder=placeholder,
        options=[_card_option(hand, option, r, emoji) for option in shown],
    )
    items: list[Any] = [HandMenu(menu, row=0)]
    row = 1
    if total > 1:
        for label, target, disabled in (
            ("dc-btn-prev", page - 1, page == 0),
            ("dc-btn-next", page + 1, page == total - 1),
        ):
            button = ui.Button[Any](
                label=r.t(lang, label),
                custom_id=hand_id(
                    hand.game_id, hand.version, f"{PAGE}{min(max(0, target), total - 1)}"
                ),
                style=Style.secondary,
                disabled=disabled,
            )
            items.append(HandButton(button, row=row))
        row += 1
    return _view(items + _buttons(hand, others, r, row))


def _card_option(
    hand: HandView, option: steps.Option, r: Renderer, emoji: CardEmoji | None
) -> discord.SelectOption:
    card = option.action.card
    assert card is not None
    return discord.SelectOption(
        label=steps.option_label(r, hand, option)[:100],
        value=option.act,
        description=r.i18n.card_name(hand.lang, card)[:100],
        emoji=_card_emoji(hand, option, emoji),
    )


def step_view(hand: HandView, head: str, r: Renderer, names: Mapping[str, str]) -> ui.View | None:
    """The second step of a move (a wild's four colors, the players a 7 swaps with) and a way
    back: buttons while they fit, else a select menu."""
    actions = steps.second_step(hand, head)
    items: list[Any] = []
    for i, action in enumerate(actions[: (MAX_ROWS - 1) * ROW_WIDTH]):
        color = steps.second_color(action)
        button = ui.Button[Any](
            label=steps.second_label(r, hand, action, names)[:80],
            custom_id=hand_id(hand.game_id, hand.version, str(action)),
            style=Style.secondary if color is None else _COLOR_STYLE[color],
        )
        items.append(HandButton(button, row=i // ROW_WIDTH))
    back = ui.Button[Any](
        label=r.t(hand.lang, "btn-back"),
        custom_id=hand_id(hand.game_id, hand.version, BACK),
        style=Style.secondary,
    )
    items.append(HandButton(back, row=rows(len(items))))
    return _view(items)


# ------------------------------------------------------------------------------ /settings


def _menu(
    key: str, placeholder: str, options: list[discord.SelectOption], row: int
) -> SettingsMenu:
    select = ui.Select[Any](custom_id=settings_id(key), placeholder=placeholder, options=options)
    return SettingsMenu(select, row=row)


def toggle_state(lang: str, settings: ChatSettings, key: str, r: Renderer) -> str:
    """The current value of one entry of the switch menu, in words."""
    rules = settings.rules()
    on, off = r.t(lang, "value-on"), r.t(lang, "value-off")
    if key == "scoring":
        value = r.t(lang, f"scoring-{rules.scoring.value}")
    elif key == "creepers":
        return r.t(lang, "settings-creepers", count=rules.creepers)
    elif key in BOOL_OPTIONS:
        value = on if getattr(rules, key) else off
    else:
        value = on if getattr(settings, key) else off
    return r.t(lang, "dc-opt-state", value=value)


def toggle_label(lang: str, key: str, r: Renderer) -> str:
    if key in BOOL_OPTIONS:
        return r.t(lang, f"opt-{key}")
    return r.t(lang, "dc-opt-" + key.replace("_", "-"))


def settings_view(
    lang: str, settings: ChatSettings, r: Renderer, *, ping: bool = False
) -> ui.View | None:
    """The /settings panel; `ping`: the member's own "mention me when my turn begins"."""
    rules = settings.rules()
    preset = _menu(
        "preset",
        r.t(lang, "dc-set-preset"),
        [
            discord.SelectOption(
                label=r.t(lang, f"preset-{name}"), value=name, default=name == settings.preset
            )
            for name in PRESET_NAMES
        ],
        0,
    )
    language = _menu(
        "lang",
        r.t(lang, "dc-set-lang"),
        [
            discord.SelectOption(label=r.t(lang, f"lang-{code}"), value=code, default=code == lang)
            for code in LANGS
        ],
        1,
    )
    timer = _menu(
        "timer",
        r.t(lang, "dc-set-timer"),
        [
            discord.SelectOption(
                label=r.t(lang, "dc-timer-off")
                if seconds is None
                else r.t(lang, "dc-timer-option", seconds=seconds),
                value="off" if seconds is None else str(seconds),
                default=seconds == settings.timer,
            )
            for seconds in TIMER_CHOICES
        ],
        2,
    )
    target = _menu(
        "target",
        r.t(lang, "dc-set-target"),
        [
            discord.SelectOption(
                label=r.t(lang, "dc-target-option", count=value),
                value=str(value),
                default=value == rules.target,
            )
            for value in TARGET_CHOICES
        ],
        3,
    )
    toggles = _menu(
        "toggle",
        r.t(lang, "dc-set-toggle"),
        [
            discord.SelectOption(
                label=toggle_label(lang, key, r)[:100],
                value=key,
                description=toggle_state(lang, settings, key, r)[:100],
            )
            for key in TOGGLES
        ]
        + [
            discord.SelectOption(
                label=r.t(lang, "dc-opt-turn-ping")[:100],
                value=TURN_PING,
                description=r.t(
                    lang, "dc-opt-state", value=r.t(lang, "value-on" if ping else "value-off")
                )[:100],
            )
        ],
        4,
    )
    return _view([preset, language, timer, target, toggles])
