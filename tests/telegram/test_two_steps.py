"""The Telegram keyboards of a two-step move, from a hand built by hand with the seven-zero
option's actions: one button for the 7, then a button per player to swap with, and back."""

from __future__ import annotations

import json

from bot.buttons import MAX_ID, HandKey, parse
from bot.telegram.keyboards import hand_keyboard, step_keyboard
from tests.adapters.hands import PLAYERS, SEVEN_ZERO, hand
from tests.telegram.conftest import renderer


def buttons(markup: str | None) -> list[tuple[str, HandKey]]:
    assert markup is not None
    rows = json.loads(markup)["inline_keyboard"]
    out = []
    for row in rows:
        for b in row:
            assert len(b["callback_data"].encode()) <= 64
            key = parse(b["callback_data"])
            assert isinstance(key, HandKey)
            out.append((b["text"], key))
    return out


def test_a_seven_opens_the_players_to_swap_with() -> None:
    r = renderer()
    view = hand(*SEVEN_ZERO)
    first = buttons(hand_keyboard(r, view))
    assert [k.act for _, k in first] == ["pick play r7", "play r5", "pick play wild4", "draw"]
    assert all((k.game, k.version) == (12, 4) for _, k in first)
    second = buttons(step_keyboard(r, view, "play r7", PLAYERS))
    assert [(text, k.act) for text, k in second] == [
        ("Боря", "play r7 @200"),
        ("Вика", "play r7 @300"),
        (r.name("ru", "ai:1", PLAYERS), "play r7 @ai:1"),
        (r.t("ru", "btn-back"), "back"),
    ]
    colors = buttons(step_keyboard(r, view, "play wild4", PLAYERS))
    assert [k.act for _, k in colors] == [f"play wild4 {c}" for c in "rygb"] + ["back"]


def test_the_largest_ids_fit_64_bytes() -> None:
    """A hand at the largest game id and version the grammar takes, a wild's color step."""
    view = hand(*SEVEN_ZERO[4:], game_id=MAX_ID, version=MAX_ID)
    assert buttons(step_keyboard(renderer(), view, "play wild4", PLAYERS))
