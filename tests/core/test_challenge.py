"""Challenging a Wild Draw Four (RULES.md section 4): both outcomes in each preset, privacy,
what counts as guilty, and the "no bluffing" option."""

from __future__ import annotations

import pytest

from core.events import (
    CardsDrawn,
    ChallengeResolved,
    DrawReason,
    HandRevealed,
    PlayerSkipped,
    WildFourTakenBack,
)
from tests.core.helpers import (
    PRESETS,
    act,
    all_cards,
    cards,
    hand,
    legal,
    names,
    one,
    position,
    refused,
)

NOT_HOUSE = ("classic", "minecraft")
# a holds a red card under a red top: a Wild Draw Four from a is a bluff.
GUILTY = {"a": "wild4 r1 g2 b1", "b": "y1 y2 y3", "c": "y4 y6 y7"}
# a holds a 5 of another color and another wild, but no red: a legal Wild Draw Four.
INNOCENT = {"a": "wild4 g5 wild b1", "b": "y1 y2 y3", "c": "y4 y6 y7"}


@pytest.mark.parametrize("preset", NOT_HOUSE)
def test_guilty_offender_draws_four_and_the_color_stands(preset: str) -> None:
    game = position(GUILTY, "r5", preset=preset)
    act(game, "a", "play wild4 g")
    events = act(game, "b", "challenge")
    assert names(events) == ["challenge_resolved", "hand_revealed", "cards_drawn"]
    resolved = one(events, ChallengeResolved)
    assert (resolved.challenger, resolved.offender, resolved.guilty) == ("b", "a", True)
    drawn = one(events, CardsDrawn)
    assert (drawn.player, drawn.count, drawn.reason) == ("a", 4, DrawReason.CHALLENGE_GUILTY)
    assert hand(game, "a") == cards("r1 g2 b1 b1 b2 b3 b4")
    assert hand(game, "b") == cards("y1 y2 y3")
    assert str(game.top_card) == "wild4" and str(game.current_color) == "g"
    # The challenger is not skipped: a normal turn on green.
    assert game.current_player == "b"
    assert legal(game, "b") == {"draw"}
    assert not any(isinstance(e, PlayerSkipped) for e in events)


def test_house_guilty_takes_the_card_back_and_the_pile_is_restored() -> None:
    game = position(GUILTY, "y7 r5", preset="house")
    before = game.to_dict()
    act(game, "a", "play wild4 g")
    events = act(game, "b", "challenge")
    assert names(events) == [
        "challenge_resolved",
        "hand_revealed",
        "wild_four_taken_back",
        "cards_drawn",
    ]
    taken = one(events, WildFourTakenBack)
    assert (taken.player, str(taken.color)) == ("a", "r")
    drawn = one(events, CardsDrawn)
    assert (drawn.player, drawn.count, drawn.reason) == ("a", 4, DrawReason.CHALLENGE_GUILTY)
    assert hand(game, "a") == cards("wild4 r1 g2 b1 b1 b2 b3 b4")
    after = game.to_dict()
    assert after["discard"] == before["discard"] == "y7 r5"
    assert str(game.top_card) == "r5" and str(game.current_color) == "r"
    assert game.current_player == "b"
    assert legal(game, "b") == {"draw"}
    assert all_cards(game) == cards(
        " ".join(GUILTY.values()) + " y7 r5 b1 b2 b3 b4 b6 b7 b8 b9 y1 y2 y3 y4 y6 y7 y8 y9"
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_innocent_challenger_draws_six_and_loses_the_turn(preset: str) -> None:
    game = position(INNOCENT, "r5", preset=preset)
    act(game, "a", "play wild4 g")
    events = act(game, "b", "challenge")
    assert names(events) == ["challenge_resolved", "hand_revealed", "cards_drawn", "player_skipped"]
    assert one(events, ChallengeResolved).guilty is False
    drawn = one(events, CardsDrawn)
    assert (drawn.player, drawn.count, drawn.reason) == ("b", 6, DrawReason.CHALLENGE_INNOCENT)
    assert one(events, PlayerSkipped).player == "b"
    assert len(game.hand("b")) == 9
    assert hand(game, "a") == cards("g5 wild b1")
    assert str(game.top_card) == "wild4" and str(game.current_color) == "g"
    assert game.current_player == "c"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("hands", [GUILTY, INNOCENT], ids=["guilty", "innocent"])
def test_the_hand_is_shown_to_the_challenger_only(preset: str, hands: dict[str, str]) -> None:
    game = position(hands, "r5", preset=preset)
    act(game, "a", "play wild4 g")
    events = act(game, "b", "challenge")
    revealed = one(events, HandRevealed)
    assert (revealed.viewer, revealed.owner) == ("b", "a")
    # The hand as it was when challenged (the Wild Draw Four already played).
    assert sorted(str(c) for c in revealed.cards) == sorted(hands["a"].split()[1:])
    assert revealed.is_private_to() == "b"
    assert [e for e in events if e.is_private_to() is not None] == [revealed]


@pytest.mark.parametrize("preset", PRESETS)
def test_only_the_target_may_challenge(preset: str) -> None:
    game = position(GUILTY, "r5", preset=preset)
    act(game, "a", "play wild4 g")
    assert refused(game, "c", "challenge") == "not_your_challenge"
    assert refused(game, "a", "challenge") == "not_your_challenge"
    assert "challenge" not in legal(game, "c")


@pytest.mark.parametrize("preset", PRESETS)
def test_nothing_to_challenge_without_a_wild_four(preset: str) -> None:
    game = position(GUILTY, "r5", preset=preset)
    assert refused(game, "a", "challenge") == "nothing_to_challenge"
    assert refused(game, "b", "challenge") == "nothing_to_challenge"


GUILT_CASES = [
    # (name, a's hand, discard, color in play, guilty?)
    ("holds_the_color", "wild4 r1", "r5", None, True),
    ("matching_number_only", "wild4 g5", "r5", None, False),
    ("matching_symbol_only", "wild4 gskip", "rskip", None, False),
    ("another_wild_only", "wild4 wild", "r5", None, False),
    ("another_wild_four_only", "wild4 wild4", "r5", None, False),
    # Under a wild the color to hold is the chosen one, not the card's.
    ("chosen_color_held", "wild4 b1", "r5 wild", "b", True),
    ("red_held_under_a_blue_wild", "wild4 r1", "r5 wild", "b", False),
]


@pytest.mark.parametrize(
    ("name", "a_hand", "discard", "color", "guilty"), GUILT_CASES, ids=[c[0] for c in GUILT_CASES]
)
@pytest.mark.parametrize("preset", PRESETS)
def test_guilty_means_holding_the_color_in_play_before_it(
    preset: str, name: str, a_hand: str, discard: str, color: str | None, guilty: bool
) -> None:
    game = position(
        {"a": a_hand + " y9", "b": "y1 y2 y3", "c": "y4 y6 y7"},
        discard,
        preset=preset,
        color=color,
    )
    act(game, "a", "play wild4 g")
    assert one(act(game, "b", "challenge"), ChallengeResolved).guilty is guilty


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(("a_hand", "guilty"), [("r3 g1 b1", True), ("g3 g1 b1", False)])
def test_a_wild_four_just_drawn_is_judged_against_the_whole_hand(
    preset: str, a_hand: str, guilty: bool
) -> None:
    game = position({**GUILTY, "a": a_hand}, "y7 r5", preset=preset, draw="wild4 b1 b2 b3")
    act(game, "a", "draw")
    act(game, "a", "play wild4 g")
    assert one(act(game, "b", "challenge"), ChallengeResolved).guilty is guilty


@pytest.mark.parametrize("preset", PRESETS)
def test_no_bluffing_leaves_nothing_to_challenge(preset: str) -> None:
    game = position(INNOCENT, "r5", preset=preset, no_bluffing=True)
    assert "play wild4 g" in legal(game, "a")
    events = act(game, "a", "play wild4 g")
    assert not any(isinstance(e, ChallengeResolved) for e in events)
    assert refused(game, "c", "challenge") == "nothing_to_challenge"


def test_house_guilty_after_a_reshuffle_under_the_wild_four() -> None:
    """A catch during a pending Wild Draw Four empties the pile: the card under it must stay."""
    game = position(
        {"a": "wild4 r1", "b": "y1 y2 y3", "c": "y4 y6 y7"}, "y8 y9 r5", preset="house", draw=""
    )
    act(game, "a", "play wild4 g")  # a goes down to one card without calling UNO
    caught = act(game, "c", "catch")
    assert names(caught) == ["uno_caught", "pile_reshuffled", "cards_drawn"]
    assert sorted(str(c) for c in one(caught, CardsDrawn).cards) == ["y8", "y9"]
    events = act(game, "b", "challenge")
    assert one(events, ChallengeResolved).guilty is True
    assert one(events, WildFourTakenBack).player == "a"
    assert str(game.top_card) == "r5" and str(game.current_color) == "r"
    assert sum(all_cards(game).values()) == 11
