"""The options table (RULES.md section 6) and the player count."""

from __future__ import annotations

import dataclasses

import pytest

from core.game import Game
from core.rules import Rules, Scoring
from tests.core.helpers import PRESETS, seats

# RULES.md section 6, one row per option: (field, classic, house, minecraft).
OPTIONS = [
    ("jump_in", False, True, False),
    ("pass_draw_two", False, True, False),
    ("defend_wild_four", False, True, False),
    ("guilty_takes_back", False, True, False),
    ("first_card_number", False, True, False),
    ("creepers", 0, 0, 4),
    ("scoring", Scoring.WINNER, Scoring.WINNER, Scoring.WINNER),
    ("target", 500, 500, 500),
    ("two_player_reverse_skips", True, True, True),
    ("no_bluffing", False, False, False),
    ("stacking", False, False, False),
    ("seven_zero", False, False, False),
    ("draw_until_playable", False, False, False),
]


@pytest.mark.parametrize(("field", "classic", "house", "minecraft"), OPTIONS)
def test_preset_defaults(field: str, classic: object, house: object, minecraft: object) -> None:
    for preset, expected in zip(PRESETS, (classic, house, minecraft), strict=True):
        assert getattr(Rules.preset(preset), field) == expected, (preset, field)


def test_the_table_names_every_option() -> None:
    assert {f.name for f in dataclasses.fields(Rules)} == {row[0] for row in OPTIONS}


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_name_and_serialisation(preset: str) -> None:
    rules = Rules.preset(preset)
    assert rules.preset_name() == preset
    assert Rules.from_dict(rules.to_dict()) == rules
    # Switching one option leaves the others and no longer equals any preset.
    changed = dataclasses.replace(rules, no_bluffing=True)
    assert changed.preset_name() is None
    assert dataclasses.replace(changed, no_bluffing=False) == rules
    tally = dataclasses.replace(rules, scoring=Scoring.TALLY, target=200)
    assert Rules.from_dict(tally.to_dict()) == tally
    assert tally.to_dict()["scoring"] == "tally"


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules.preset("classic").jump_in = True  # type: ignore[misc]


@pytest.mark.parametrize("name", ["", "Classic ", "uno", "minecraft2"])
def test_unknown_preset_raises_value_error_naming_it(name: str) -> None:
    with pytest.raises(ValueError) as info:
        Rules.preset(name)
    assert repr(name) in str(info.value)


@pytest.mark.parametrize("options", [{"creepers": -1}, {"creepers": 9}, {"target": 0}])
def test_bad_options_raise(options: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        Rules(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", PRESETS)
def test_two_to_ten_players(preset: str) -> None:
    rules = Rules.preset(preset)
    for n in (2, 10):
        assert Game.new(seats(n), rules, seed=1).players == seats(n)
    for n in (0, 1, 11):
        with pytest.raises(ValueError):
            Game.new(seats(n), rules, seed=1)
    with pytest.raises(ValueError, match="unique"):
        Game.new(["a", "b", "a"], rules, seed=1)
