"""The Telegram keyboards of a two-step move, from a hand built by hand with the seven-zero
option's actions: one button for the 7, then a button per player to swap with, and back."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.presentation.buttons import MAX_ID, HandKey, parse
from bot.telegram.keyboards import hand_keyboard, step_keyboard
from core.cards import Card
from core.game import Game
from core.rules import Rules
from tests.adapters.hands import PLAYERS, SEVEN_ZERO, hand
from tests.telegram.conftest import Harness, renderer


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


@pytest.mark.parametrize("harness", [{"players": 3}], indirect=True)
async def test_a_seven_swaps_hands_with_the_player_chosen_in_the_second_step(
    harness: Harness,
) -> None:
    """End to end with the engine's seven-zero option: the 7 opens the players, back returns,
    and the chosen player's hand is swapped."""
    h = harness
    a, b, c = h.users
    await h.new_game(players=3)
    players = [str(u.id) for u in (a, b, c)]
    await h.install(
        Game.from_position(
            players=players,
            hands=dict(zip(players, ["r7 g2 g3", "b5 y1", "g9 g8 g7 g6"], strict=True)),
            discard="r1",
            draw="y3 y4 y5 y6 y7 y8 y9",
            rules=dataclasses.replace(Rules.preset("classic"), seven_zero=True),
            current=players[0],
        )
    )
    assert sorted(await h.acts(a)) == ["draw", "pick play r7"]
    assert (await h.act(a, "pick play r7")).text is None
    step = await h.hand(a)
    assert [btn["text"] for btn in step.buttons] == [
        b.first_name,
        c.first_name,
        h.r.t("ru", "btn-back"),
    ]
    title = h.r.t("ru", "step-swap-title", card=h.r.card("ru", Card.parse("r7"), False))
    assert title in step.plain_text
    assert (await h.act(a, "back")).text is None
    assert sorted(await h.acts(a)) == ["draw", "pick play r7"]
    await h.act(a, "pick play r7")
    assert (await h.act(a, f"play r7 @{c.id}")).text is None
    await h.settle()
    game = await h.game()
    assert sorted(card.text for card in game.hands[players[0]]) == ["g6", "g7", "g8", "g9"]
    assert sorted(card.text for card in game.hands[players[2]]) == ["g2", "g3"]
