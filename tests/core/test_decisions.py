"""Rule decisions RULES.md changed or settled ("cases no sheet covers"), per preset: jump-in on
one's own Draw Two, blocked rounds, drawing from an empty table, leaving, and timeouts.
(The deal passing left is in test_round_start.py.)"""

from __future__ import annotations

import pytest

from core import actions as A
from core.errors import IllegalAction
from core.events import GameEnded, PlayerLeft, RoundEnded, TimedOut
from core.game import Game
from core.rules import Scoring
from tests.core.helpers import (
    PRESETS,
    Case,
    act,
    expand,
    legal,
    names,
    one,
    position,
    refused,
    run_case,
)

HOUSE_LIKE = ("classic", "house", "minecraft")
HANDS = {"a": "r+2 r+2 g2", "b": "y2 y3 y4", "c": "g5 g6 g7", "d": "b1 b2 b3"}

OWN_DRAW_TWO = [
    Case(
        "not_before_anyone_else_acted",
        HOUSE_LIKE,
        HANDS,
        "r3",
        ("a: play r+2",),  # b has no answer: takes it at once; c has not acted yet
        {"legal": {"a": set()}, "refused": [("a", "play r+2", "one_draw_card_per_turn")]},
        options={"jump_in": True},
    ),
    Case(
        "once_another_player_has_acted",
        HOUSE_LIKE,
        HANDS,
        "r3",
        ("a: play r+2", "c: draw"),  # c draws a card that does not play, and passes
        {"legal": {"a": {"play r+2"}}, "current": "d"},
        options={"jump_in": True},
    ),
    Case(
        "and_the_jump_in_hits_the_next_player",
        HOUSE_LIKE,
        HANDS,
        "r3",
        ("a: play r+2", "c: draw", "a: play r+2"),
        {"hands": {"b": 7, "a": "g2"}, "current": "c"},
        options={"jump_in": True},
    ),
    Case(
        "a_pending_draw_two_taken_counts_as_acting",
        HOUSE_LIKE,
        {**HANDS, "b": "y+2 y3 y4"},
        "r3",
        ("a: play r+2", "b: accept"),
        {"legal": {"a": {"play r+2"}}, "current": "c"},
        options={"jump_in": True, "pass_draw_two": True},
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(OWN_DRAW_TWO))
def test_jump_in_on_ones_own_draw_two(case: Case, preset: str) -> None:
    run_case(case, preset)


# ------------------------------------------------------------------ blocked rounds, empty table


@pytest.mark.parametrize("preset", PRESETS)
def test_a_blocked_round_tie_goes_to_the_earliest_seat_after_the_dealer(preset: str) -> None:
    hands = {"a": "g1 g2", "b": "y3", "c": "b1 b2"}  # 3 points each
    game = position(hands, "r5", preset=preset, draw="", current="b")
    state = game.to_dict()
    state["dealer"] = "c"  # seats after the dealer: a, b, c
    game = Game.from_dict(state)
    act(game, "b", "draw")
    act(game, "c", "draw")
    ended = one(act(game, "a", "draw"), RoundEnded)
    assert ended.blocked and ended.winner == "a"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("until", [False, True])
def test_drawing_from_an_empty_table_passes(preset: str, until: bool) -> None:
    game = position(
        {"a": "r7 g2", "b": "y3 y4", "c": "b1 b2"},
        "r5",
        preset=preset,
        draw="",
        draw_until_playable=until,
    )
    before = game.to_dict()
    assert names(act(game, "a", "draw")) == ["cards_drawn", "passed"]
    after = game.to_dict()
    assert after["hands"] == before["hands"] and after["discard"] == before["discard"]
    assert game.current_player == "b"
    assert after["blocked_turns"] == 0  # a could have played: the table is not blocked


# ------------------------------------------------------------------ leaving


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("scoring", list(Scoring))
def test_the_last_player_left_wins_under_either_scoring(preset: str, scoring: Scoring) -> None:
    game = position(
        {"a": "r1 g1", "b": "r2 g2", "c": "y1"},
        "r5",
        preset=preset,
        scoring=scoring,
        scores={"a": 10, "b": 90, "c": 0},
    )
    game.remove_player("c")
    events = game.remove_player("b")
    assert one(events, GameEnded).winners == ("a",)
    assert game.game_winner == "a"


@pytest.mark.parametrize("preset", PRESETS)
def test_a_penalty_aimed_at_the_leaver_is_dropped(preset: str) -> None:
    game = position(
        {"a": "r+2 g1 y1", "b": "r+2 b5", "c": "g3 y3"},
        "r5",
        preset=preset,
        pass_draw_two=True,
        jump_in=False,
    )
    act(game, "a", "play r+2")
    assert game.pending is not None and game.pending.target == "b"
    game.remove_player("b")
    assert game.pending is None and game.current_player == "c"
    assert len(game.hand("c")) == 2
    assert refused(game, "c", "accept") == "nothing_to_accept"


# ------------------------------------------------------------------ timeouts


@pytest.mark.parametrize("preset", PRESETS)
def test_a_timeout_draws_and_passes(preset: str) -> None:
    game = position({"a": "r1 g1", "b": "r2 g2", "c": "y1 y2"}, "r5", preset=preset, draw="b9 b8")
    events = game.time_out("a")
    assert names(events) == ["timed_out", "cards_drawn", "passed"]
    assert one(events, TimedOut).count == 1
    assert game.current_player == "b"
    assert game.to_dict()["timeouts"] == {"a": 1}


@pytest.mark.parametrize("preset", PRESETS)
def test_a_timeout_with_a_playable_card_drawn_keeps_it(preset: str) -> None:
    game = position({"a": "b1 g1", "b": "r2 g2", "c": "y1 y2"}, "r5", preset=preset, draw="r9")
    assert names(game.time_out("a")) == ["timed_out", "cards_drawn", "passed"]
    assert "r9" in {str(c) for c in game.hand("a")}


@pytest.mark.parametrize("preset", PRESETS)
def test_a_timeout_takes_the_penalty(preset: str) -> None:
    game = position({"a": "wild4 g1 y1", "b": "r2 g2", "c": "y1 y2"}, "r5", preset=preset)
    act(game, "a", "play wild4 g")
    events = game.time_out("b")
    assert names(events)[:2] == ["timed_out", "cards_drawn"]
    assert len(game.hand("b")) == 6 and game.current_player == "c"


@pytest.mark.parametrize("preset", PRESETS)
def test_three_timeouts_in_a_row_count_as_leaving(preset: str) -> None:
    game = position({"a": "r1 g1", "b": "b2 g2", "c": "y1 y2", "d": "b3 b4"}, "r5", preset=preset)
    for count in (1, 2, 3):
        while game.current_player != "a":
            player = game.current_player
            game.apply(player, game.default_action(player) or A.DRAW)
        events = game.time_out("a")
        assert one(events, TimedOut).count == count
    assert isinstance(events[-1], PlayerLeft) and events[-1].player == "a"
    assert "a" not in game.players and "a" not in game.to_dict()["timeouts"]


@pytest.mark.parametrize("preset", PRESETS)
def test_an_own_move_resets_the_count(preset: str) -> None:
    game = position({"a": "r1 g1 g3", "b": "b2 g2", "c": "y1 y2"}, "r5", preset=preset)
    game.time_out("a")
    assert game.timeouts == {"a": 1}
    game.time_out("b")
    game.time_out("c")
    act(game, "a", "draw")  # an own move
    assert "a" not in game.timeouts
    assert Game.from_dict(game.to_dict()).timeouts == game.timeouts


@pytest.mark.parametrize("preset", PRESETS)
def test_a_stored_game_without_timeouts_counts_zero(preset: str) -> None:
    game = position({"a": "r1 g1", "b": "b2 g2"}, "r5", preset=preset)
    state = game.to_dict()
    del state["timeouts"]
    loaded = Game.from_dict(state)
    assert one(loaded.time_out("a"), TimedOut).count == 1


def test_only_the_player_to_act_times_out() -> None:
    game = position({"a": "r1 g1", "b": "b2 g2"}, "r5")
    before = game.to_dict()
    for player, reason in (("b", "not_your_turn"), ("zed", "not_a_player")):
        with pytest.raises(IllegalAction) as info:
            game.time_out(player)
        assert info.value.reason == reason
    assert game.to_dict() == before
    assert refused(game, "b", "draw") == "not_your_turn"
    assert legal(game, "a") == {"play r1", "draw", "uno"}
