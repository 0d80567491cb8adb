"""Inline keyboards; every label comes from the renderer (the locales), none from here.

A keyboard is built once per message state as the JSON Telegram takes for `reply_markup`
(a `Keyboard`, a str): pydantic models of every button, validated and dumped again for each
edit, were a good part of the bot's CPU time per move.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from bot.presentation import steps
from bot.presentation.buttons import BACK, LobbyKey, RematchKey, SettingKey
from bot.presentation.render import Renderer
from bot.service.chat_settings import (
    BOOL_OPTIONS,
    TARGET_CHOICES,
    TIMER_CHOICES,
    ChatSettings,
    next_choice,
)
from bot.service.views import HandView, TableView
from bot.telegram.callbacks import data, hand_data
from bot.telegram.play_modes import mode_label, next_mode
from bot.telegram.sender import Keyboard
from bot.telegram.web_table import WebTable
from core.rules import PRESET_NAMES, Scoring

CARDS_PER_ROW = 4


Button = dict[str, Any]  # text, and callback_data, url or web_app


def button(*, text: str, callback_data: str = "", url: str = "") -> Button:
    """A callback button (its data from `bot.telegram.callbacks`, checked there) or a link."""
    if callback_data:
        return {"text": text, "callback_data": callback_data}
    return {"text": text, "url": url}


def _rows(buttons: list[Button], width: int) -> list[list[Button]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _markup(rows: Iterable[list[Button]]) -> Keyboard | None:
    rows = [row for row in rows if row]
    if not rows:
        return None
    return Keyboard(
        json.dumps({"inline_keyboard": rows}, ensure_ascii=False, separators=(",", ":"))
    )


def hand_keyboard(r: Renderer, view: HandView, web: WebTable | None = None) -> Keyboard | None:
    """A button per legal action (a wild card or a seven-zero 7 opens its second step): the
    cards first, then draw, pass, accept, UNO...; with `web`, last, the web table's page (a
    `web_app` button: the hand is in a private chat, where Telegram allows one)."""
    cards: list[Button] = []
    others: list[Button] = []
    for option in steps.options(view):
        label = steps.option_label(r, view, option)
        pressed = hand_data(view.game_id, view.version, option.act)
        (cards if option.card else others).append(button(text=label, callback_data=pressed))
    page: list[Button] = []
    if web is not None and view.status == "running" and not view.left:
        page.append(web_app_button(r.t(view.lang, "web-open-table"), web.page(view.game_id)))
    return _markup([*_rows(cards, CARDS_PER_ROW), *_rows(others, 2), page])


def web_app_button(text: str, url: str) -> Button:
    """A button that opens `url` as a Mini App (private chats only)."""
    return {"text": text, "web_app": {"url": url}}


def step_keyboard(
    r: Renderer, view: HandView, head: str, names: Mapping[str, str]
) -> Keyboard | None:
    """The second step of `head` (a wild's four colors, the players a 7 swaps with), and a way
    back."""
    buttons = [
        button(
            text=steps.second_label(r, view, action, names),
            callback_data=hand_data(view.game_id, view.version, str(action)),
        )
        for action in steps.second_step(view, head)
    ]
    back = hand_data(view.game_id, view.version, BACK)
    rows = [
        *_rows(buttons, 2),
        [button(text=r.t(view.lang, "btn-back"), callback_data=back)],
    ]
    return _markup(rows)


def lobby_keyboard(r: Renderer, view: TableView) -> Keyboard | None:
    """Join, add a robot, start; and the robots' level, which the button names and a press
    switches."""
    lang, game_id = view.lang, view.game_id
    buttons = [
        button(text=r.t(lang, f"btn-{act}"), callback_data=data(LobbyKey(game_id, act)))
        for act in ("join", "addbot", "start")
    ]
    level = button(
        text=r.t(lang, "btn-bot-level", level=view.bot_level.value),
        callback_data=data(LobbyKey.switch_level(game_id, view.bot_level)),
    )
    return _markup([buttons[:2], buttons[2:], [level]])


def rematch_keyboard(r: Renderer, lang: str, game_id: int) -> Keyboard | None:
    """Under a match's result: open a new lobby at the same table."""
    rematch = data(RematchKey(game_id))
    return _markup([[button(text=r.t(lang, "btn-rematch"), callback_data=rematch)]])


def link_keyboard(label: str, url: str) -> Keyboard | None:
    return _markup([[button(text=label, url=url)]])


def _play_mode(r: Renderer, lang: str, settings: ChatSettings) -> Button:
    label = r.t(lang, "inline-set-play-mode", mode=mode_label(r, lang, settings.play_mode))
    return _setting(label, "play_mode", next_mode(settings.play_mode))


def _setting(text: str, key: str, value: str) -> Button:
    return button(text=text, callback_data=data(SettingKey(key, value)))


def settings_keyboard(
    r: Renderer, lang: str, settings: ChatSettings, *, play_mode: bool = False
) -> Keyboard | None:
    """Preset, language, timer, color-blind mode, the table's picture and every rule option, one
    press each; with `play_mode` (the bot plays inline), where the chat plays too."""
    rules = settings.rules()
    on, off = r.t(lang, "value-on"), r.t(lang, "value-off")

    def mark(label: str, selected: bool) -> str:
        return r.t(lang, "tg-set-selected", label=label) if selected else label

    presets = [
        _setting(mark(r.t(lang, f"preset-{name}"), rules.preset_name() == name), "preset", name)
        for name in PRESET_NAMES
    ]
    langs = [
        _setting(mark(r.t(lang, f"lang-{code}"), (settings.lang or lang) == code), "lang", code)
        for code in ("ru", "uk")
    ]
    timer = settings.timer
    timer_label = (
        r.t(lang, "tg-set-timer", seconds=timer) if timer else r.t(lang, "tg-set-timer-off")
    )
    next_timer = next_choice(TIMER_CHOICES, timer)
    timer_value = "off" if next_timer is None else str(next_timer)
    colorblind = _setting(
        r.t(lang, "tg-set-colorblind", value=on if settings.colorblind else off),
        "colorblind",
        "off" if settings.colorblind else "on",
    )
    strong_bots = _setting(
        r.t(lang, "tg-set-strong-bots", value=on if settings.strong_bots else off),
        "strong_bots",
        "off" if settings.strong_bots else "on",
    )
    table_picture = _setting(
        r.t(lang, "tg-set-table-picture", value=on if settings.table_picture else off),
        "table_picture",
        "off" if settings.table_picture else "on",
    )
    options = [
        [
            _setting(
                r.t(
                    lang,
                    "tg-set-option",
                    name=r.t(lang, f"opt-{option}"),
                    value=on if getattr(rules, option) else off,
                ),
                option,
                "off" if getattr(rules, option) else "on",
            )
        ]
        for option in BOOL_OPTIONS
    ]
    scoring_next = Scoring.TALLY if rules.scoring is Scoring.WINNER else Scoring.WINNER
    match_row = [
        _setting(
            r.t(lang, "tg-set-target", count=rules.target),
            "target",
            str(next_choice(TARGET_CHOICES, rules.target)),
        ),
        _setting(
            r.t(lang, "tg-set-scoring", scoring=r.t(lang, f"scoring-{rules.scoring.value}")),
            "scoring",
            scoring_next.value,
        ),
    ]
    creepers = _setting(
        r.t(lang, "tg-set-creepers", value=on if rules.creepers else off),
        "creepers",
        "0" if rules.creepers else "4",
    )
    return _markup(
        [
            presets,
            langs,
            [_setting(timer_label, "timer", timer_value), colorblind],
            [strong_bots],
            [table_picture],
            [_play_mode(r, lang, settings)] if play_mode else [],
            *options,
            match_row,
            [creepers],
        ]
    )
