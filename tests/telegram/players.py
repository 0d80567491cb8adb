"""The simulated Telegram player, shared by the end-to-end tests and `bench/telegram.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.presentation.buttons import HandKey, parse

if TYPE_CHECKING:
    from tests.telegram.fake_bot_api import StoredMessage

# In order of preference: call UNO, play a colored card, open a card's second step (a wild's
# colors), play a second step's choice, choose the first card's color, take a penalty, draw, pass.
PREFERENCES: tuple[Callable[[str], bool], ...] = (
    lambda a: a == "uno",
    lambda a: a.startswith("play ") and len(a.split()) == 2,
    lambda a: a.startswith("pick "),
    lambda a: a.startswith("play "),
    lambda a: a.startswith("choose "),
    lambda a: a == "accept",
    lambda a: a == "draw",
    lambda a: a == "pass",
)


def policy(acts: dict[str, str]) -> str | None:
    """The action a simple player presses among its hand's buttons (action -> callback data)."""
    for rule in PREFERENCES:
        for act in sorted(acts):
            if rule(act):
                return act
    return None


def hand_acts(msg: StoredMessage) -> dict[str, str]:
    """A hand message's buttons: action -> callback data (the same decoding as the bot's)."""
    acts = {}
    for button in msg.buttons:
        data = str(button.get("callback_data", ""))
        key = parse(data)
        if isinstance(key, HandKey):
            acts[key.act] = data
    return acts
