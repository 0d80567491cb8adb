"""Going out, scoring, the end of the game (RULES.md section 5) and the next round's dealer."""

from __future__ import annotations

import pytest

from core.events import CardsDrawn, DrawReason, GameEnded, RoundEnded, RoundStarted
from core.rules import Scoring
from tests.core.helpers import (
    PRESETS,
    act,
    all_cards,
    names,
    of,
    one,
    position,
    refused,
)

# b holds 1 + 2 + 20 = 23 points, c holds 50 + 9 = 59.
HANDS = {"a": "r1", "b": "y1 y2 g+2", "c": "wild b9"}


@pytest.mark.parametrize("preset", PRESETS)
def test_going_out_scores_the_others_hands_for_the_winner(preset: str) -> None:
    game = position(HANDS, "r5", preset=preset)
    events = act(game, "a", "play r1")
    assert names(events)[:2] == ["card_played", "round_ended"]
    ended = one(events, RoundEnded)
    assert ended.winner == "a"
    assert ended.hand_points == {"a": 0, "b": 23, "c": 59}
    assert ended.gained == {"a": 82, "b": 0, "c": 0}
    assert ended.scores == {"a": 82, "b": 0, "c": 0} == game.scores
    assert game.round_winner == "a"
    assert not game.is_over and game.game_winner is None and game.game_winners == ()
    # The next round is dealt at once.
    started = one(events, RoundStarted)
    assert started.number == 2 == game.round_no
    assert all(len(game.hand(p)) >= 7 for p in game.players)
    assert sum(all_cards(game).values()) == 108 + game.rules.creepers


@pytest.mark.parametrize("preset", PRESETS)
def test_tally_scoring_everyone_adds_their_own_hand(preset: str) -> None:
    game = position(HANDS, "r5", preset=preset, scoring=Scoring.TALLY, target=200)
    ended = one(act(game, "a", "play r1"), RoundEnded)
    assert ended.gained == {"a": 0, "b": 23, "c": 59}
    assert game.scores == {"a": 0, "b": 23, "c": 59}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("card", "drawn", "reason"),
    [("r+2", 2, DrawReason.DRAW_TWO), ("wild4", 4, DrawReason.WILD_FOUR)],
)
def test_going_out_on_a_draw_card_still_hits_the_next_player(
    preset: str, card: str, drawn: int, reason: DrawReason
) -> None:
    """No defence, no challenge, no passing on (b holds a Draw Two); the cards drawn count."""
    hands = {"a": card, "b": "g+2 y1", "c": "y2 y3"}
    game = position(hands, "r5", preset=preset)
    played = "play wild4 g" if card == "wild4" else f"play {card}"
    events = act(game, "a", played)
    assert names(events)[:3] == ["card_played", "cards_drawn", "round_ended"]
    draw = one(events, CardsDrawn)
    assert (draw.player, draw.count, draw.reason) == ("b", drawn, reason)
    assert [str(c) for c in draw.cards] == ["b1", "b2", "b3", "b4"][:drawn]
    ended = one(events, RoundEnded)
    b_points = 21 + sum([1, 2, 3, 4][:drawn])
    assert ended.hand_points == {"a": 0, "b": b_points, "c": 5}
    assert ended.gained["a"] == b_points + 5
    assert "penalty_pending" not in names(events)


def test_going_out_on_a_draw_two_counter_clockwise_hits_the_right_neighbour() -> None:
    game = position({"a": "r+2", "b": "y1", "c": "y2 y3"}, "r5", direction=-1)
    draw = one(act(game, "a", "play r+2"), CardsDrawn)
    assert draw.player == "c"


def test_going_out_with_a_creeper_in_the_last_penalty() -> None:
    game = position(
        {"a": "r+2", "b": "y1", "c": "y2"}, "r5", preset="minecraft", draw="creeper b1 b2 b3 b4"
    )
    events = act(game, "a", "play r+2")
    assert names(events)[:5] == [
        "card_played",
        "cards_drawn",
        "creeper_revealed",
        "cards_drawn",
        "round_ended",
    ]
    # creeper 50 + b1 + b2 b3 b4, plus y1
    assert one(events, RoundEnded).hand_points["b"] == 50 + 1 + 2 + 3 + 4 + 1


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("last", ["rskip", "rrev"])
def test_going_out_on_skip_or_reverse_just_ends_the_round(preset: str, last: str) -> None:
    game = position({**HANDS, "a": last}, "r5", preset=preset)
    events = act(game, "a", f"play {last}")
    assert names(events)[:2] == ["card_played", "round_ended"]
    assert one(events, RoundEnded).gained["a"] == 82


@pytest.mark.parametrize("preset", PRESETS)
def test_next_round_dealer_is_who_took_the_first_turn(preset: str) -> None:
    """b took this round's first turn (a dealt it): b deals the next round, though a won it."""
    game = position({"a": "r1", "b": "r2 y1 y2", "c": "r3 y3 y4"}, "r5", preset=preset, current="b")
    assert game.dealer == "a"
    act(game, "b", "play r2")
    act(game, "c", "play r3")
    started = one(act(game, "a", "play r1"), RoundStarted)
    assert started.dealer == "b" == game.dealer


@pytest.mark.parametrize("preset", PRESETS)
def test_game_ends_at_the_target(preset: str) -> None:
    game = position(HANDS, "r5", preset=preset, scores={"a": 430, "b": 490, "c": 0})
    events = act(game, "a", "play r1")
    ended = one(events, GameEnded)
    assert ended.winners == ("a",)
    assert ended.scores == {"a": 512, "b": 490, "c": 0} == game.scores
    assert not of(events, RoundStarted)
    assert game.is_over and game.game_winner == "a" and game.game_winners == ("a",)
    for p in game.players:
        assert game.legal_actions(p) == []
        assert game.default_action(p) is None
        assert refused(game, p, "draw") == "game_over"
        assert refused(game, p, "uno") == "game_over"


@pytest.mark.parametrize("preset", PRESETS)
def test_game_goes_on_below_the_target(preset: str) -> None:
    game = position(HANDS, "r5", preset=preset, scores={"a": 417, "b": 490, "c": 0})
    events = act(game, "a", "play r1")
    assert one(events, RoundEnded).scores["a"] == 499
    assert not of(events, GameEnded)
    assert not game.is_over


def test_tally_fewest_points_wins_when_anyone_reaches_the_target() -> None:
    game = position(
        {"a": "r1", "b": "y1 y2", "c": "wild"},
        "r5",
        scoring=Scoring.TALLY,
        target=200,
        scores={"a": 120, "b": 110, "c": 160},
    )
    ended = one(act(game, "a", "play r1"), GameEnded)
    assert game.scores == {"a": 120, "b": 113, "c": 210}
    assert ended.winners == ("b",) == game.game_winners


def test_tally_tie_for_the_fewest_is_shared() -> None:
    game = position(
        {"a": "r1", "b": "r0 y0", "c": "b9 g1"},
        "r5",
        scoring=Scoring.TALLY,
        target=200,
        scores={"a": 100, "b": 100, "c": 190},
    )
    ended = one(act(game, "a", "play r1"), GameEnded)
    assert ended.winners == ("a", "b") == game.game_winners
    assert game.game_winner is None


def test_winner_scoring_tie_at_the_top_is_shared() -> None:
    """Only reachable from a stored score at the target (say, a target lowered between rounds)."""
    game = position(HANDS, "r5", scores={"a": 418, "b": 500, "c": 0})
    ended = one(act(game, "a", "play r1"), GameEnded)
    assert ended.winners == ("a", "b")
    assert game.game_winner is None and game.game_winners == ("a", "b")


# The engine's own rule for a round nobody can finish (RULES.md is silent): when every player in
# a row has nothing to draw and nothing to play, the lowest hand wins the round.


def test_a_blocked_round_ends_with_the_lowest_hand_winning() -> None:
    game = position({"a": "g1 g2", "b": "y1 y9", "c": "b3 b4"}, "r5", draw="")
    assert names(act(game, "a", "draw")) == ["cards_drawn", "passed"]
    act(game, "b", "draw")
    events = act(game, "c", "draw")
    ended = one(events, RoundEnded)
    assert ended.blocked is True
    assert ended.winner == "a"
    assert ended.hand_points == {"a": 3, "b": 10, "c": 7}
    assert ended.gained == {"a": 17, "b": 0, "c": 0}


def test_a_round_is_not_blocked_while_someone_could_play() -> None:
    """b holds a playable card but draws (nothing): the table is not blocked."""
    game = position({"a": "g1 g2", "b": "r7 y1", "c": "g3 g4"}, "r5", draw="")
    for player in "abca":
        events = act(game, player, "draw")
        assert not of(events, RoundEnded), player
    assert game.current_player == "b"
    act(game, "b", "play r7")
    assert game.round_no == 1
