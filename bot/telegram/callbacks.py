"""Callback data of every inline button: the keys of `bot.presentation.buttons`, at most 64 bytes.

`Pressed(kind)` is the routers' filter: it parses the data once, range-checking every number, and
hands the key to the handler as `key`. Data that does not parse (forged, mangled, a game id of
2**63 or more) matches no handler but the catch-all, which answers it as a stale button.
"""

from __future__ import annotations

from typing import Any

from aiogram.filters import Filter
from aiogram.types import CallbackQuery

from bot.presentation.buttons import TELEGRAM_LIMIT, HandKey, Key, pack, parse


class Pressed(Filter):
    """A callback whose data is a key of this type; the handler gets it as `key`."""

    def __init__(self, kind: type[Key]) -> None:
        self.kind = kind

    async def __call__(self, callback: CallbackQuery) -> bool | dict[str, Any]:
        key = parse(callback.data or "")
        return {"key": key} if isinstance(key, self.kind) else False


def data(key: Key) -> str:
    return pack(key, TELEGRAM_LIMIT)


def hand_data(game: int, version: int, act: str) -> str:
    return data(HandKey(game, version, act))
