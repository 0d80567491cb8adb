"""Callback data of every inline button (Telegram allows at most 64 bytes).

A hand button carries the game and the hand's version, so a press on an outdated keyboard is
refused: `h:<game>:<version>:<act>` where `act` is an action in the engine's notation
(`play r7`, `play wild4 g`, `draw`, `uno`...), `colors <card>` to open the four colors of a wild,
or `back` to close them. The rematch button under a match's result is `r:<game>`: the service
refuses it unless that match is still the chat's last game.
"""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

COLORS_PREFIX = "colors "
BACK = "back"


class HandCB(CallbackData, prefix="h"):
    game: int
    ver: int
    act: str


class LobbyCB(CallbackData, prefix="l"):
    game: int
    act: str  # join | addbot | start


class RematchCB(CallbackData, prefix="r"):
    game: int  # the finished match the button was shown under


class SettingsCB(CallbackData, prefix="s"):
    key: str  # a key of ChatSettings.changed
    value: str


def hand_data(game: int, version: int, act: str) -> str:
    """`HandCB(game=..., ver=..., act=...).pack()` without building a model per button."""
    data = f"{HandCB.__prefix__}:{game}:{version}:{act}"
    if ":" in act or len(data.encode()) > 64:
        raise ValueError(f"not valid hand button data: {data!r}")
    return data
