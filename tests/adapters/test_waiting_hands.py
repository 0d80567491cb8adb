"""A private hand shows nothing the next move could make wrong, on every platform.

Hands are re-sent when their cards or moves change, not on every move, so a hand that can do
nothing until its turn must not name whose turn it is or the top card (issue 14, item 2). The
renderer decides this once for Telegram, Discord and the console's saved view alike.
"""

from __future__ import annotations

import pytest

from bot.presentation.i18n import I18n
from bot.presentation.render import Renderer
from tests.adapters.hands import PLAYERS, hand


@pytest.fixture(scope="module")
def r() -> Renderer:
    return Renderer(I18n(strict=True))


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_waiting_hand_names_neither_the_player_to_act_nor_the_top_card(
    r: Renderer, lang: str
) -> None:
    waiting = hand(lang=lang, is_turn=False, current="200", current_name="Боря", choices=[])
    assert waiting.waiting
    text = r.hand(waiting, PLAYERS)
    assert "Боря" not in text
    assert r.top_line(lang, waiting.top, waiting.color, False) not in text
    assert r.t(lang, "hand-waiting-quiet") in text
    assert r.cards(lang, waiting.cards, False) in text  # the cards themselves stay


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_hand_that_can_act_shows_the_turn_and_the_top_card(r: Renderer, lang: str) -> None:
    # Out of turn with a jump-in, or on its own turn: re-sent whenever either changes.
    for view in (
        hand("play r1", lang=lang, is_turn=False, current="200", current_name="Боря"),
        hand("play r5", "draw", lang=lang),
    ):
        assert not view.waiting
        text = r.hand(view, PLAYERS)
        assert r.top_line(lang, view.top, view.color, False) in text
        assert r.t(lang, "hand-waiting-quiet") not in text
