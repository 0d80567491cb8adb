"""The rule options of a chat's settings: the new ones from other tables, and their coupling."""

from __future__ import annotations

import pytest

from bot.service.chat_settings import BOOL_OPTIONS, SWITCHES, ChatSettings
from core.rules import PRESET_NAMES


def test_the_options_from_other_tables_are_settings() -> None:
    for name in ("stacking", "seven_zero", "draw_until_playable"):
        assert name in BOOL_OPTIONS and name in SWITCHES


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("option", ["stacking", "seven_zero", "draw_until_playable"])
def test_each_new_option_switches_on_in_every_preset(preset: str, option: str) -> None:
    settings = ChatSettings(preset=preset).changed(option, "on")
    assert getattr(settings.rules(), option) is True
    assert settings.options[option] is True
    assert settings.changed(option, "off") == ChatSettings(preset=preset)


def test_stacking_switches_passing_and_defending_off_in_house() -> None:
    stacking = ChatSettings(preset="house").changed("stacking", "on")
    rules = stacking.rules()
    assert rules.stacking and not rules.pass_draw_two and not rules.defend_wild_four
    assert stacking.options == {
        "stacking": True,
        "pass_draw_two": False,
        "defend_wild_four": False,
    }
    passing = stacking.changed("pass_draw_two", "on")
    assert passing.rules().pass_draw_two and not passing.rules().stacking
    assert passing.options == {"defend_wild_four": False}


def test_passing_on_in_classic_switches_stacking_off() -> None:
    stacking = ChatSettings().changed("stacking", "on")
    defending = stacking.toggled("defend_wild_four")
    assert defending.rules().defend_wild_four and not defending.rules().stacking
    assert defending.options == {"defend_wild_four": True}
