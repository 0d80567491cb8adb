"""Calling UNO and catching a forgotten call (RULES.md section 5)."""

from __future__ import annotations

import pytest

from core.events import CardsDrawn, DrawReason, UnoCalled, UnoCaught
from tests.core.helpers import (
    PRESETS,
    Case,
    act,
    cards,
    expand,
    hand,
    legal,
    names,
    one,
    position,
    refused,
    run_case,
)

HANDS = {"a": "r1 g2", "b": "r7 y2 y3", "c": "r8 y6 y9"}

CASES = [
    Case(
        "call_before_the_play",
        PRESETS,
        HANDS,
        "r5",
        ("a: uno",),
        {
            "events": ["uno_called"],
            "current": "a",
            "legal": {"a": {"play r1", "draw"}, "b": set()},
            "refused": [("a", "uno", "uno_already_called")],
        },
    ),
    Case(
        "called_before_then_played_is_safe",
        PRESETS,
        HANDS,
        "r5",
        ("a: uno", "a: play r1"),
        {
            "events": ["card_played"],
            "legal": {"a": set(), "b": {"play r7", "draw"}, "c": set()},
            "refused": [
                ("c", "catch", "nothing_to_catch"),
                ("a", "uno", "uno_already_called"),
            ],
        },
    ),
    Case(
        "uno_is_offered_with_two_cards_and_a_play",
        PRESETS,
        HANDS,
        "r5",
        (),
        {"legal": {"a": {"play r1", "draw", "uno"}}},
    ),
    Case(
        "forgotten_call_is_catchable",
        PRESETS,
        HANDS,
        "r5",
        ("a: play r1",),
        {
            "events": ["card_played"],
            "current": "b",
            "legal": {"a": {"uno"}, "b": {"play r7", "draw", "catch"}, "c": {"catch"}},
            "refused": [("a", "catch", "cannot_catch_yourself")],
        },
    ),
    Case(
        "call_right_after_the_play",
        PRESETS,
        HANDS,
        "r5",
        ("a: play r1", "a: uno"),
        {
            "events": ["uno_called"],
            "current": "b",
            "legal": {"a": set(), "c": set()},
            "refused": [("c", "catch", "nothing_to_catch"), ("a", "uno", "uno_already_called")],
        },
    ),
    Case(
        "caught_draws_two",
        PRESETS,
        HANDS,
        "r5",
        ("a: play r1", "c: catch"),
        {
            "events": ["uno_caught", "cards_drawn"],
            "hands": {"a": "g2 b1 b2"},
            "current": "b",  # catching is not a turn
            "legal": {"a": set(), "c": set()},
        },
    ),
    Case(
        "the_next_players_move_closes_the_window",
        PRESETS,
        HANDS,
        "r5",
        ("a: play r1", "b: play r7"),
        {
            "legal": {"a": set(), "c": {"play r8", "draw"}},
            "refused": [("c", "catch", "nothing_to_catch"), ("a", "uno", "uno_not_now")],
        },
    ),
    Case(
        "the_next_players_draw_closes_the_window",
        PRESETS,
        HANDS,
        "r5",
        ("a: play r1", "b: draw"),
        {"refused": [("c", "catch", "nothing_to_catch"), ("a", "uno", "uno_not_now")]},
        draw="r3 b1",
    ),
    Case(
        "the_next_players_own_call_closes_the_window",
        PRESETS,
        {**HANDS, "b": "r7 y2"},
        "r5",
        ("a: play r1", "b: uno"),
        {"refused": [("c", "catch", "nothing_to_catch")], "legal": {"a": set()}},
    ),
    Case(
        "own_moves_keep_the_window_open",
        PRESETS,
        {"a": "rskip g2", "b": "r7 y2 y3"},
        "r5",
        ("a: play rskip",),
        {"current": "a", "legal": {"b": {"catch"}, "a": {"uno", "draw"}}},
    ),
    Case(
        "not_now_with_three_cards_or_out_of_turn",
        PRESETS,
        {**HANDS, "a": "r1 g2 g3", "b": "r7 y2"},
        "r5",
        (),
        {
            "refused": [("a", "uno", "uno_not_now"), ("b", "uno", "uno_not_now")],
            "legal": {"a": {"play r1", "draw"}},
        },
    ),
    Case(
        "not_now_with_nothing_to_play",
        PRESETS,
        {**HANDS, "a": "g1 g2"},
        "r5",
        (),
        {"refused": [("a", "uno", "uno_not_now")], "legal": {"a": {"draw"}}},
    ),
    Case(
        "false_catch_changes_nothing",
        PRESETS,
        HANDS,
        "r5",
        (),
        {"refused": [("b", "catch", "nothing_to_catch"), ("a", "catch", "nothing_to_catch")]},
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(CASES))
def test_uno_rules(case: Case, preset: str) -> None:
    run_case(case, preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_uno_events(preset: str) -> None:
    game = position(HANDS, "r5", preset=preset)
    assert one(act(game, "a", "uno"), UnoCalled).player == "a"
    game = position(HANDS, "r5", preset=preset)
    act(game, "a", "play r1")
    events = act(game, "c", "catch")
    caught = one(events, UnoCaught)
    assert (caught.catcher, caught.player) == ("c", "a")
    drawn = one(events, CardsDrawn)
    assert (drawn.player, drawn.count, drawn.reason) == ("a", 2, DrawReason.UNO_CAUGHT)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_call_not_followed_by_going_to_one_card_counts_for_nothing(preset: str) -> None:
    game = position(
        {"a": "r1 g2", "b": "r8 y2 y3", "c": "r9 y6 y7"}, "r5", preset=preset, draw="r7 b1 b2"
    )
    act(game, "a", "uno")
    act(game, "a", "draw")  # r7, playable: a holds three cards now
    assert legal(game, "a") == {"play r7", "pass"}
    act(game, "a", "play r7")  # back to two cards: nothing to catch, nothing called
    assert "catch" not in legal(game, "b")
    act(game, "b", "play r8")
    act(game, "c", "play r9")
    # The old call does not protect a now: a may (and must) call again.
    assert "uno" in legal(game, "a")
    act(game, "a", "play r1")
    assert "catch" in legal(game, "b")
    events = act(game, "b", "catch")
    assert names(events) == ["uno_caught", "cards_drawn"]
    assert hand(game, "a") == cards("g2 b1 b2")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_call_then_an_unplayable_draw_counts_for_nothing(preset: str) -> None:
    game = position(
        {"a": "r1 g2", "b": "b8 y2 y3", "c": "b9 y6 y7"}, "r5", preset=preset, draw="b7 b1 b2"
    )
    act(game, "a", "uno")
    assert names(act(game, "a", "draw")) == ["cards_drawn", "passed"]
    assert game.to_dict()["precall"] is None
    assert refused(game, "a", "uno") == "uno_not_now"


def test_uno_while_answering_a_penalty() -> None:
    """House: passing a Draw Two on with the second-to-last card needs the call too."""
    game = position({"a": "r+2 y1 y2", "b": "g+2 y3", "c": "y4 y6 y7"}, "r5", preset="house")
    act(game, "a", "play r+2")
    assert legal(game, "b") == {"accept", "play g+2", "uno"}
    act(game, "b", "uno")
    act(game, "b", "play g+2")
    assert "catch" not in legal(game, "a")
