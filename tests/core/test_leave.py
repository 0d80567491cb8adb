"""Leaving mid-game and timeouts (RULES.md section 6, the options every chat game needs)."""

from __future__ import annotations

from collections import Counter

import pytest

from core import actions as A
from core.cards import Kind
from core.errors import IllegalAction
from core.events import CardsDrawn, DrawReason, GameEnded, PlayerLeft, RoundEnded, RoundStarted
from core.game import Game
from core.rules import Rules
from tests.core.helpers import (
    PRESETS,
    act,
    all_cards,
    draw_pile_bottom_first,
    find_seed,
    legal,
    names,
    one,
    position,
    refused,
    seats,
)

HANDS = {"a": "r1 g1 y1", "b": "r2 g2 y2", "c": "r3 g3 y3", "d": "r4 g4 wild"}


@pytest.mark.parametrize("preset", PRESETS)
def test_a_leavers_cards_go_under_the_draw_pile(preset: str) -> None:
    game = position(HANDS, "r5", preset=preset, current="b", scores={"d": 40})
    total = all_cards(game)
    events = game.remove_player("d")
    left = one(events, PlayerLeft)
    assert (left.player, left.cards_returned) == ("d", 3)
    assert draw_pile_bottom_first(game)[:3] == ["r4", "g4", "wild"]
    assert game.players == ["a", "b", "c"]
    assert "d" not in game.scores and "d" not in game.hand_sizes()
    assert all_cards(game) == total
    assert game.current_player == "b"
    assert refused(game, "d", "draw") == "not_a_player"
    assert game.legal_actions("d") == []


@pytest.mark.parametrize(
    ("leaver", "direction", "next_up"),
    [("b", 1, "c"), ("b", -1, "a"), ("a", 1, "b"), ("c", 1, "b"), ("a", -1, "b")],
)
def test_turn_after_someone_leaves(leaver: str, direction: int, next_up: str) -> None:
    game = position(HANDS, "r5", current="b", direction=direction)
    game.remove_player(leaver)
    assert game.current_player == next_up
    assert game.direction == direction


def test_the_current_player_leaving_after_drawing() -> None:
    game = position(HANDS, "r5", current="b", draw="r9 b1")
    act(game, "b", "draw")
    game.remove_player("b")
    assert game.current_player == "c"
    assert legal(game, "c") == {"play r3", "draw"}


@pytest.mark.parametrize("preset", PRESETS)
def test_one_player_left_ends_the_game(preset: str) -> None:
    game = position({"a": "r1 g1", "b": "r2 g2"}, "r5", preset=preset, scores={"b": 30})
    events = game.remove_player("b")
    assert names(events) == ["player_left", "game_ended"]
    ended = one(events, GameEnded)
    assert ended.winners == ("a",) and ended.scores == {"a": 0}
    assert game.is_over and game.game_winner == "a"
    assert game.legal_actions("a") == []
    with pytest.raises(IllegalAction) as info:
        game.remove_player("a")
    assert info.value.reason == "game_over"


def test_unknown_player_cannot_leave() -> None:
    game = position(HANDS, "r5")
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.remove_player("zed")
    assert info.value.reason == "not_a_player"
    assert game.to_dict() == before


@pytest.mark.parametrize("preset", ["classic", "minecraft"])
def test_offender_leaving_applies_the_wild_four_at_once(preset: str) -> None:
    game = position({"a": "wild4 r1", "b": "y4 y5", "c": "y6 y7"}, "r5", preset=preset)
    act(game, "a", "play wild4 g")
    events = game.remove_player("a")
    assert names(events) == ["player_left", "cards_drawn", "player_skipped"]
    drawn = one(events, CardsDrawn)
    assert (drawn.player, drawn.count, drawn.reason) == ("b", 4, DrawReason.WILD_FOUR)
    assert game.current_player == "c"


def test_offender_leaving_in_house_leaves_only_the_defence() -> None:
    game = position({"a": "wild4 r1 r2", "b": "g+2 y5", "c": "y6 y7"}, "r5", preset="house")
    act(game, "a", "play wild4 g")
    assert legal(game, "b") == {"accept", "challenge", "play g+2", "uno"}
    events = game.remove_player("a")
    assert names(events) == ["player_left", "penalty_pending"]
    assert legal(game, "b") == {"accept", "play g+2", "uno"}
    assert refused(game, "b", "challenge") == "nothing_to_challenge"


@pytest.mark.parametrize("preset", PRESETS)
def test_target_leaving_drops_the_penalty(preset: str) -> None:
    game = position({**HANDS, "a": "wild4 g1 y1"}, "r5", preset=preset)
    act(game, "a", "play wild4 g")
    assert game.current_player == "b"
    game.remove_player("b")
    assert game.current_player == "c"
    assert legal(game, "c") == {"play g3", "draw"}
    assert refused(game, "c", "accept") == "nothing_to_accept"


def test_a_catchable_leaver_cannot_be_caught() -> None:
    game = position({**HANDS, "a": "r1 g9"}, "r5")
    act(game, "a", "play r1")
    assert "catch" in legal(game, "c")
    game.remove_player("a")
    assert "catch" not in legal(game, "c")
    assert refused(game, "c", "catch") == "nothing_to_catch"


def test_the_round_is_scored_without_the_leaver() -> None:
    game = position({"a": "r1", "b": "r2 g2", "c": "r3 g3", "d": "wild"}, "r5", current="b")
    game.remove_player("d")
    act(game, "b", "play r2")
    act(game, "c", "play r3")
    events = act(game, "a", "play r1")
    ended = one(events, RoundEnded)
    assert ended.hand_points == {"a": 0, "b": 2, "c": 3}
    # b took the first turn: b deals the next round, with the three players left.
    started = one(events, RoundStarted)
    assert started.dealer == "b"
    assert sum(all_cards(game).values()) == 108


def test_a_leaving_first_player_passes_the_deal_on() -> None:
    """b took the first turn and leaves: the next seat (c) deals the next round."""
    game = position({"a": "r1", "b": "r2 g2", "c": "r3 g3", "d": "r4 g4"}, "r5", current="b")
    game.remove_player("b")
    act(game, "c", "play r3")
    act(game, "d", "play r4")
    assert one(act(game, "a", "play r1"), RoundStarted).dealer == "c"


# ------------------------------------------------------------------ timeouts


@pytest.mark.parametrize("preset", PRESETS)
def test_timeout_draws_then_passes(preset: str) -> None:
    game = position(HANDS, "r5", preset=preset, draw="r9 b1")
    assert game.default_action("a") == A.DRAW
    assert game.default_action("b") is None
    game.apply("a", A.DRAW)
    assert game.default_action("a") == A.PASS
    game.apply("a", A.PASS)
    assert game.current_player == "b"
    assert "r9" in [str(c) for c in game.hand("a")]


@pytest.mark.parametrize("preset", PRESETS)
def test_timeout_accepts_a_pending_penalty(preset: str) -> None:
    game = position({**HANDS, "a": "wild4 g1 y1"}, "r5", preset=preset)
    act(game, "a", "play wild4 g")
    assert game.default_action("b") == A.ACCEPT
    game.apply("b", A.ACCEPT)
    assert len(game.hand("b")) == 7
    assert game.current_player == "c"


def _first_wild(game: Game) -> bool:
    return game.top_card.kind is Kind.WILD


def test_timeout_on_a_wild_first_card_chooses_the_most_held_color() -> None:
    seed = find_seed("classic", 3, "a first wild", _first_wild)
    game = Game.new(seats(3), Rules.preset("classic"), seed)
    first = game.current_player
    counts = Counter(str(c.color) for c in game.hand(first) if c.color is not None)
    best = max(counts.values())
    expected = next(c for c in "rygb" if counts[c] == best)
    action = game.default_action(first)
    assert str(action) == f"choose {expected}"
    assert action in game.legal_actions(first)


def test_leaving_that_ends_the_match_leaves_a_consistent_state() -> None:
    # The player in the last seat stays; the state must still answer every query.
    game = Game.from_position(["a", "b"], {"a": "r5", "b": "g2"}, "r1", "y3", current="b")
    game.remove_player("a")
    assert game.game_winner == "b"
    assert game.current_player == "b"
    assert game.legal_actions("b") == []
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
