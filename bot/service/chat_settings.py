"""Per-chat settings: the rules a new game starts with, language, turn timer, accessibility."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from core.rules import PRESET_NAMES, Rules, Scoring

TIMER_CHOICES: tuple[int | None, ...] = (30, 60, 90, 120, 300, None)
DEFAULT_TIMER = 90
TARGET_CHOICES: tuple[int, ...] = (100, 200, 300, 500, 1000)
# Telegram: where a chat's players play their hands. `both` is the default: hands in the private
# chat, and the table also offers inline play in the group.
PLAY_MODES: tuple[str, ...] = ("both", "private", "group")
# The engine options a chat may switch one by one (RULES.md section 6).
BOOL_OPTIONS: tuple[str, ...] = (
    "jump_in",
    "pass_draw_two",
    "defend_wild_four",
    "guilty_takes_back",
    "first_card_number",
    "two_player_reverse_skips",
    "no_bluffing",
    "stacking",
    "seven_zero",
    "draw_until_playable",
)

# Settings with two values that a menu flips rather than sets (`ChatSettings.toggled`).
SWITCHES: tuple[str, ...] = (
    *BOOL_OPTIONS,
    "colorblind",
    "dm_hands",
    "strong_bots",
    "scoring",
    "creepers",
)


def next_choice(values: tuple[object, ...], current: object) -> object:
    """The value after `current` in `values`, round and round (the first for an unknown one):
    what one press of a setting with several values moves to."""
    index = values.index(current) if current in values else -1
    return values[(index + 1) % len(values)]


@dataclass(frozen=True)
class ChatSettings:
    preset: str = "classic"
    options: dict[str, Any] = field(default_factory=dict)  # overrides of the preset
    lang: str | None = None  # None until the first game: then the creator's language
    timer: int | None = DEFAULT_TIMER
    colorblind: bool = False
    dm_hands: bool = False  # Discord: hands by direct message instead of ephemeral messages
    strong_bots: bool = False  # computer players of a new game play at the strong level
    play_mode: str = "both"  # Telegram: hands in the private chat, inline in the group, or both
    table_picture: bool = True  # Telegram: the table's top card as a picture above its text

    def rules(self) -> Rules:
        return dataclasses.replace(Rules.preset(self.preset), **self.options)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any] | None) -> ChatSettings:
        if not data:
            return ChatSettings()
        known = {f.name for f in dataclasses.fields(ChatSettings)}
        return ChatSettings(**{k: v for k, v in data.items() if k in known})

    def changed(self, key: str, value: str) -> ChatSettings:
        """A copy with one setting changed from its text form; ValueError when it is not valid.

        Keys: `preset`, `lang`, `timer` (seconds or `off`), `colorblind`, `dm_hands`,
        `strong_bots`, `play_mode` (one of PLAY_MODES), `table_picture`, `target`, `scoring`,
        `creepers` and every option in BOOL_OPTIONS (`on`/`off`).
        """
        if key == "preset":
            if value not in PRESET_NAMES:
                raise ValueError(value)
            return dataclasses.replace(self, preset=value, options={})
        if key == "lang":
            if value not in ("ru", "uk"):
                raise ValueError(value)
            return dataclasses.replace(self, lang=value)
        if key == "timer":
            timer = None if value == "off" else int(value)
            if timer not in TIMER_CHOICES:
                raise ValueError(value)
            return dataclasses.replace(self, timer=timer)
        if key == "colorblind":
            return dataclasses.replace(self, colorblind=_flag(value))
        if key == "dm_hands":
            return dataclasses.replace(self, dm_hands=_flag(value))
        if key == "strong_bots":
            return dataclasses.replace(self, strong_bots=_flag(value))
        if key == "table_picture":
            return dataclasses.replace(self, table_picture=_flag(value))
        if key == "play_mode":
            if value not in PLAY_MODES:
                raise ValueError(value)
            return dataclasses.replace(self, play_mode=value)
        if key in BOOL_OPTIONS:
            return self._with_option(key, _flag(value))
        if key == "target":
            target = int(value)
            if target not in TARGET_CHOICES:
                raise ValueError(value)
            return self._with_option("target", target)
        if key == "scoring":
            return self._with_option("scoring", Scoring(value).value)
        if key == "creepers":
            creepers = int(value)
            if creepers not in (0, 4):
                raise ValueError(value)
            return self._with_option("creepers", creepers)
        raise ValueError(key)

    def toggled(self, key: str) -> ChatSettings:
        """A copy with one switch flipped; ValueError when `key` is not one of SWITCHES.

        The flip is computed from these settings, so a caller that must not lose a concurrent
        flip reads and writes them under one lock (`SettingsCases.toggle_setting`).
        """
        if key not in SWITCHES:
            raise ValueError(key)
        rules = self.rules()
        if key == "scoring":
            other = Scoring.TALLY if rules.scoring is Scoring.WINNER else Scoring.WINNER
            return self.changed(key, other.value)
        if key == "creepers":
            return self.changed(key, "0" if rules.creepers else "4")
        current = bool(getattr(rules, key) if key in BOOL_OPTIONS else getattr(self, key))
        return self.changed(key, "off" if current else "on")

    def _with_option(self, name: str, value: Any) -> ChatSettings:
        """A copy with one rule option changed, through `Rules.with_option` (which also switches
        off the options it excludes: stacking against passing a Draw Two on and defending a Wild
        Draw Four). Only what differs from the preset is kept as an override.

        Options are stored as JSON values, so an enum default is compared by its value: else
        switching scoring back would keep `"winner"` as an override and /rules would call
        the preset changed.
        """
        if name == "scoring":
            value = Scoring(value)
        preset = Rules.preset(self.preset)
        rules = self.rules().with_option(name, value, preset)
        options: dict[str, Any] = {}
        for option in dataclasses.fields(Rules):
            mine = getattr(rules, option.name)
            if mine != getattr(preset, option.name):
                options[option.name] = mine.value if isinstance(mine, Scoring) else mine
        return dataclasses.replace(self, options=options)


def _flag(value: str) -> bool:
    if value in ("on", "1", "true"):
        return True
    if value in ("off", "0", "false"):
        return False
    raise ValueError(value)
