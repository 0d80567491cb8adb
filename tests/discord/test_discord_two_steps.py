"""The Discord components of a two-step move, from a hand built by hand with the seven-zero
option's actions: one button for the 7, then a button per player to swap with, and back."""

from __future__ import annotations

from typing import Any

from bot.buttons import MAX_ID, HandKey, parse
from bot.discord import layout
from tests.adapters.hands import SEVEN_ZERO, hand, swaps
from tests.discord.test_discord_bot import RENDERER

# Discord members: snowflakes of 18 to 19 digits.
MEMBERS = {"100": "Аня", "1234567890123456789": "Боря", "987654321098765432": "Вика"}


def components(view: Any) -> list[tuple[str, HandKey, int]]:
    assert view is not None
    out = []
    for item in view.children:
        custom_id = item.custom_id
        assert len(custom_id) <= 100
        key = parse(custom_id)
        assert isinstance(key, HandKey)
        button = item.item
        out.append((button.label, key, button.style.value))
    return out


def test_a_seven_opens_the_players_to_swap_with() -> None:
    view = hand(*SEVEN_ZERO, chat_key="dc:5")
    first = components(layout.hand_view(view, RENDERER))
    assert [k.act for _, k, _ in first] == ["pick play r7", "play r5", "pick play wild4", "draw"]
    second = components(layout.step_view(view, "play r7", RENDERER, MEMBERS))
    assert [k.act for _, k, _ in second][-1] == "back"
    assert [k.act for _, k, _ in second][:-1] == ["play r7 @200", "play r7 @300", "play r7 @ai:1"]
    colors = components(layout.step_view(view, "play wild4", RENDERER, MEMBERS))
    assert [k.act for _, k, _ in colors] == [f"play wild4 {c}" for c in "rygb"] + ["back"]
    assert len({style for _, _, style in colors[:4]}) == 4  # each color its own style


def test_the_largest_ids_fit_a_custom_id() -> None:
    """The largest game id and version the grammar takes, and members' 19-digit ids as the
    players a 7 swaps with."""
    view = hand(
        "play r5", *swaps("r7", *MEMBERS), "draw", game_id=MAX_ID, version=MAX_ID, chat_key="dc:5"
    )
    second = components(layout.step_view(view, "play r7", RENDERER, MEMBERS))
    assert [label for label, _, _ in second[:3]] == ["Аня", "Боря", "Вика"]
    assert max(len(k.pack()) for _, k, _ in second) > 64  # longer than Telegram would take
