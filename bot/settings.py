"""Per-chat settings: the rules a new game starts with, language, turn timer, accessibility."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from core.rules import PRESET_NAMES, Rules, Scoring

TIMER_CHOICES: tuple[int | None, ...] = (30, 60, 90, 120, 300, None)
DEFAULT_TIMER = 90
TARGET_CHOICES: tuple[int, ...] = (100, 200, 300, 500, 1000)
# The engine options a chat may switch one by one (RULES.md section 6).
BOOL_OPTIONS: tuple[str, ...] = (
    "jump_in",
    "pass_draw_two",
    "defend_wild_four",
    "guilty_takes_back",
    "first_card_number",
    "two_player_reverse_skips",
    "no_bluffing",
)


@dataclass(frozen=True)
class ChatSettings:
    preset: str = "classic"
    options: dict[str, Any] = field(default_factory=dict)  # overrides of the preset
    lang: str | None = None  # None until the first game: then the creator's language
    timer: int | None = DEFAULT_TIMER
    colorblind: bool = False
    dm_hands: bool = False  # Discord: hands by direct message instead of ephemeral messages

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

        Keys: `preset`, `lang`, `timer` (seconds or `off`), `colorblind`, `dm_hands`, `target`,
        `scoring`, `creepers` and every option in BOOL_OPTIONS (`on`/`off`).
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

    def _with_option(self, name: str, value: Any) -> ChatSettings:
        options = dict(self.options)
        if getattr(Rules.preset(self.preset), name) == value:
            options.pop(name, None)
        else:
            options[name] = value
        return dataclasses.replace(self, options=options)


def _flag(value: str) -> bool:
    if value in ("on", "1", "true"):
        return True
    if value in ("off", "0", "false"):
        return False
    raise ValueError(value)
