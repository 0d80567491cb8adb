"""Rule options (RULES.md section 6) and the three presets.

A preset is only a bundle of defaults: every option is independent, so a chat may start from
`house` and switch one field with `dataclasses.replace`.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any


class Scoring(enum.Enum):
    WINNER = "winner"  # the round's winner scores the others' cards; highest reaches target
    TALLY = "tally"  # everyone adds their own cards; at the target, the fewest points wins

    def __str__(self) -> str:
        return self.value


MIN_PLAYERS = 2
MAX_PLAYERS = 10
PRESET_NAMES: tuple[str, ...] = ("classic", "house", "minecraft")


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    jump_in: bool = False
    pass_draw_two: bool = False
    defend_wild_four: bool = False
    guilty_takes_back: bool = False
    first_card_number: bool = False
    creepers: int = 0
    scoring: Scoring = Scoring.WINNER
    target: int = 500
    two_player_reverse_skips: bool = True
    no_bluffing: bool = False
    # Options from other tables (RULES.md section 6), off in every preset.
    stacking: bool = False
    seven_zero: bool = False
    draw_until_playable: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.creepers <= 8:
            raise ValueError(f"creepers must be 0-8, not {self.creepers}")
        if self.target < 1:
            raise ValueError(f"target must be positive, not {self.target}")
        if not isinstance(self.scoring, Scoring):
            object.__setattr__(self, "scoring", Scoring(self.scoring))

    @staticmethod
    def preset(name: str) -> Rules:
        if name == "classic":
            return Rules()
        if name == "house":
            return Rules(
                jump_in=True,
                pass_draw_two=True,
                defend_wild_four=True,
                guilty_takes_back=True,
                first_card_number=True,
            )
        if name == "minecraft":
            return Rules(creepers=4)
        raise ValueError(f"unknown preset: {name!r} (expected one of {', '.join(PRESET_NAMES)})")

    def with_option(self, name: str, value: Any, preset: Rules | None = None) -> Rules:
        """A copy with one option changed, and the options it excludes set to match.

        Stacking replaces passing a Draw Two on and defending a Wild Draw Four (RULES.md section
        6): switching it on switches those two off, and switching either of them on switches
        stacking off. Switching an option off gives the ones it excluded back their value in
        `preset` (when given), so that a switch flipped twice leaves the rules as they were.
        This is the only place that knows it; the settings menus call it.

        (Rules built otherwise, say by `dataclasses.replace`, may hold both: stacking wins.)
        """
        if name not in _FIELDS:
            raise ValueError(f"not a rule option: {name!r}")
        changes: dict[str, Any] = {name: value}
        for other in _EXCLUDES.get(name, ()):
            if value is True:
                changes[other] = False
            elif value is False and preset is not None:
                changes[other] = getattr(preset, other)
        return dataclasses.replace(self, **changes)

    def preset_name(self) -> str | None:
        """The preset these rules equal exactly, or None when an option was changed."""
        for name in PRESET_NAMES:
            if Rules.preset(name) == self:
                return name
        return None

    def to_dict(self) -> dict[str, Any]:
        # Not dataclasses.asdict: that deep-copies and is most of the cost of Game.to_dict.
        data = {name: getattr(self, name) for name in _FIELDS}
        data["scoring"] = self.scoring.value
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        return Rules(**{k: v for k, v in data.items() if k in _FIELDS})


_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
# Options that cannot be on together: switching one on switches the others off.
_EXCLUDES: dict[str, tuple[str, ...]] = {
    "stacking": ("pass_draw_two", "defend_wild_four"),
    "pass_draw_two": ("stacking",),
    "defend_wild_four": ("stacking",),
}
