"""The console's /settings: every setting a table in a terminal has, one numbered line each.

Choosing a line does what pressing its button in a chat's settings panel does: a switch flips,
a setting with several values moves to the next one. The lines are the /settings text's
(`Renderer.setting_lines`) without those a terminal has no use for (the turn timer); they are
built from the settings alone, so a test can read them without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.presentation.i18n import LANGS
from bot.presentation.render import Renderer
from bot.service.chat_settings import TARGET_CHOICES, ChatSettings, next_choice
from core.rules import PRESET_NAMES

NOT_IN_A_TERMINAL = frozenset({"timer"})  # the console plays without a turn timer


@dataclass(frozen=True)
class Entry:
    label: str
    key: str
    value: str | None = None  # None: a switch (`SettingsCases.toggle_setting`), else set to this


def entries(r: Renderer, lang: str, settings: ChatSettings) -> list[Entry]:
    """The menu's lines, in the order of the chats' /settings text."""
    after = {
        "preset": next_choice(PRESET_NAMES, settings.preset),
        "lang": next_choice(LANGS, settings.lang or lang),
        "target": next_choice(TARGET_CHOICES, settings.rules().target),
    }
    return [
        Entry(label, key, None if key not in after else str(after[key]))
        for key, label in r.setting_lines(lang, settings)
        if key not in NOT_IN_A_TERMINAL
    ]
