"""The console's /settings lines (`bot.console.menu`): what each shows and what choosing it does."""

from __future__ import annotations

import pytest

from bot.console.menu import entries
from bot.presentation.i18n import get_i18n
from bot.presentation.render import Renderer
from bot.service.chat_settings import BOOL_OPTIONS, SWITCHES, ChatSettings

R = Renderer(get_i18n())


def by_key(settings: ChatSettings, lang: str = "ru") -> dict[str, tuple[str, str | None]]:
    return {e.key: (e.label, e.value) for e in entries(R, lang, settings)}


def test_every_rule_option_and_the_robots_level_are_listed_once() -> None:
    keys = [e.key for e in entries(R, "ru", ChatSettings())]
    assert len(keys) == len(set(keys))
    assert set(BOOL_OPTIONS) <= set(keys)
    assert {"preset", "lang", "colorblind", "strong_bots", "scoring", "target", "creepers"} <= set(
        keys
    )
    # What a terminal has no use for is left out.
    assert not {"timer", "dm_hands", "play_mode", "table_picture"} & set(keys)


def test_a_line_shows_the_current_value_and_moves_to_the_next() -> None:
    plain = by_key(ChatSettings(lang="ru"))
    assert plain["preset"] == ("Правила: Классика", "house")
    assert plain["lang"] == ("Язык: русский", "uk")
    assert plain["target"] == ("Игра до 500 очков", "1000")
    assert plain["strong_bots"] == ("🤖 Сильные роботы: выкл.", None)
    assert plain["stacking"] == ("Накопление штрафов: выкл.", None)

    changed = ChatSettings(lang="uk", preset="minecraft", strong_bots=True).changed(
        "target", "1000"
    )
    moved = by_key(changed.changed("seven_zero", "on"), "uk")
    assert moved["preset"][1] == "classic"  # round and round
    assert moved["lang"] == ("Мова: українська", "ru")
    assert moved["target"] == ("Гра до 1\u00a0000 очок", "100")  # grouped as Ukrainian does
    assert moved["strong_bots"] == ("🤖 Сильні роботи: увімк.", None)
    assert moved["seven_zero"] == ("Сім і нуль: увімк.", None)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_switch_line_flips_and_every_other_line_sets_a_valid_value(lang: str) -> None:
    settings = ChatSettings(lang=lang)
    for entry in entries(R, lang, settings):
        if entry.value is None:
            assert entry.key in SWITCHES
            assert settings.toggled(entry.key) != settings
        else:
            assert settings.changed(entry.key, entry.value) != settings


@pytest.mark.parametrize(
    ("lang", "line"), [("ru", "🤖 Сильные роботы: вкл."), ("uk", "🤖 Сильні роботи: увімк.")]
)
def test_the_settings_text_names_the_robots_level(lang: str, line: str) -> None:
    """What /settings and /rules say in the chats (and `r` in the console) lists it too."""
    text = R.settings(lang, ChatSettings(lang=lang, strong_bots=True))
    assert line in text.splitlines()
    assert line not in R.settings(lang, ChatSettings(lang=lang)).splitlines()
