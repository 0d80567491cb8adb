"""The console's /settings: every setting a table in a terminal has, one numbered line each.

Choosing a line does what pressing its button in a chat's settings panel does: a switch flips,
a setting with several values moves to the next one. The settings a terminal has no use for
(the turn timer, where hands are shown, the table's picture) are not listed. The lines are
built from the settings alone, so a test can read them without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.render import Renderer
from bot.settings import BOOL_OPTIONS, TARGET_CHOICES, ChatSettings, next_choice
from core.rules import PRESET_NAMES

LANGS: tuple[str, ...] = ("ru", "uk")


@dataclass(frozen=True)
class Entry:
    label: str
    key: str
    value: str | None = None  # None: a switch (`UnoService.toggle_setting`), else set to this


def entries(r: Renderer, lang: str, settings: ChatSettings) -> list[Entry]:
    """The menu's lines, in the order of the chats' /settings text."""
    rules = settings.rules()
    on, off = r.t(lang, "value-on"), r.t(lang, "value-off")
    language = settings.lang or lang
    lines = [
        Entry(
            r.t(lang, "settings-preset", preset=r.rules_name(lang, rules)),
            "preset",
            str(next_choice(PRESET_NAMES, settings.preset)),
        ),
        Entry(
            r.t(lang, "settings-lang", language=r.t(lang, f"lang-{language}")),
            "lang",
            str(next_choice(LANGS, language)),
        ),
        Entry(
            r.t(lang, "settings-colorblind", value=on if settings.colorblind else off), "colorblind"
        ),
        Entry(
            r.t(lang, "settings-strong-bots", value=on if settings.strong_bots else off),
            "strong_bots",
        ),
        Entry(
            r.t(lang, "settings-scoring", scoring=r.t(lang, f"scoring-{rules.scoring.value}")),
            "scoring",
        ),
        Entry(
            r.t(lang, "settings-target", count=rules.target),
            "target",
            str(next_choice(TARGET_CHOICES, rules.target)),
        ),
        Entry(r.t(lang, "settings-creepers", count=rules.creepers), "creepers"),
    ]
    for option in BOOL_OPTIONS:
        value = on if getattr(rules, option) else off
        lines.append(Entry(f"{r.t(lang, 'opt-' + option)}: {value}", option))
    return lines
