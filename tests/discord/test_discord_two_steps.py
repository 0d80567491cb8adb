"""The Discord components of a two-step move, from a hand built by hand with the seven-zero
option's actions: one button for the 7, then a button per player to swap with, and back."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord import layout
from bot.presentation.buttons import MAX_ID, HandKey, parse
from core.cards import Card
from core.rules import Rules
from tests.adapters.hands import SEVEN_ZERO, hand, swaps
from tests.discord.test_discord_bot import RENDERER, hand_keys, table_factory

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


@pytest.fixture
def make_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Any]:
    return table_factory(tmp_path, monkeypatch)


async def test_a_seven_swaps_hands_with_the_player_chosen_in_the_second_step(
    make_table: Callable[..., Any],
) -> None:
    """End to end with the engine's seven-zero option: the 7 opens the players (names from the
    outcome), back returns, and the chosen player's hand is swapped."""
    async with make_table() as t:
        anya, borya, vika, _ = t.users
        await t.started(anya, borya, vika)
        rules = dataclasses.replace(Rules.preset("classic"), seven_zero=True)
        hands = {anya: "r7 g2 g3", borya: "b5 y1", vika: "g9 g8 g7 g6"}
        await t.install(t.position(hands, rules=rules, current=t.uid(anya)))
        hand = await t.my_cards(anya)
        assert sorted(hand_keys(hand)) == ["draw", "pick play r7"]
        await t.press(anya, hand, "pick play r7")
        labels = [c.get("label") for c in t.fake.buttons(hand)]
        assert labels == ["Боря", "Вика", RENDERER.t("ru", "btn-back")]
        title = RENDERER.t(
            "ru", "step-swap-title", card=RENDERER.card("ru", Card.parse("r7"), False)
        )
        assert title in hand.text
        await t.press(anya, hand, "back")
        assert sorted(hand_keys(hand)) == ["draw", "pick play r7"]
        await t.press(anya, hand, "pick play r7")
        handle = await t.press(anya, hand, f"play r7 @{vika.id}")
        assert RENDERER.t("ru", "error-stale") not in handle.text
        game = await t.game()
        assert sorted(card.text for card in game.hands[t.uid(anya)]) == ["g6", "g7", "g8", "g9"]
        assert sorted(card.text for card in game.hands[t.uid(vika)]) == ["g2", "g3"]
        t.assert_clean()
