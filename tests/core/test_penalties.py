"""Penalties and their answers (RULES.md section 4, "Action cards" and the paragraph after it).

A target with a possible answer (challenge, pass on, defend) answers before drawing and accepts
explicitly; a target without one takes the penalty at once and play moves on.
"""

from __future__ import annotations

import pytest

from core.cards import Card
from core.events import CardsDrawn, DrawReason, PenaltyPending, PlayerSkipped
from tests.core.helpers import PRESETS, Case, act, expand, one, position, run_case

ALL = PRESETS
NOT_HOUSE = ("classic", "minecraft")
THREE = {"a": "r+2 wild4 r1 b1", "b": "y1 y2 y3", "c": "y4 y6 y7"}

CASES = [
    Case(
        "classic_draw_two_has_no_answer",
        NOT_HOUSE,
        {**THREE, "b": "g+2 r+2 y3"},
        "r5",
        ("a: play r+2",),
        {"events": ["card_played", "cards_drawn", "player_skipped"], "hands": {"b": 5}},
    ),
    Case(
        "house_pass_on_with_any_draw_two",
        ("house",),
        {**THREE, "b": "g+2 y2 y3", "c": "b+2 y6 y7"},
        "r5",
        ("a: play r+2", "b: play g+2"),
        {
            "events": ["card_played", "penalty_pending"],
            "current": "c",
            "color": "g",
            "legal": {"c": {"accept", "play b+2"}},
        },
    ),
    Case(
        "house_passing_on_does_not_add_up",
        ("house",),
        {**THREE, "b": "g+2 y2 y3"},
        "r5",
        ("a: play r+2", "b: play g+2"),
        # c cannot answer: c draws only 2 (not 4) and loses the turn; a plays next.
        {
            "events": ["card_played", "cards_drawn", "player_skipped"],
            "hands": {"b": "y2 y3", "c": "y4 y6 y7 b1 b2"},
            "current": "a",
        },
    ),
    Case(
        "house_chain_ends_with_an_explicit_accept",
        ("house",),
        {**THREE, "b": "g+2 y2 y3", "c": "b+2 y6 y7"},
        "r5",
        ("a: play r+2", "b: play g+2", "c: accept"),
        {
            "events": ["cards_drawn", "player_skipped"],
            "hands": {"c": "b+2 y6 y7 b1 b2"},
            "current": "a",
        },
    ),
    Case(
        "house_answer_before_anything_else",
        ("house",),
        {**THREE, "b": "g+2 y2 wild"},
        "r5",
        ("a: play r+2",),
        {
            "legal": {"b": {"accept", "play g+2"}},
            "refused": [
                ("b", "draw", "must_answer_penalty"),
                ("b", "pass", "must_answer_penalty"),
                ("b", "play y2", "must_answer_penalty"),
                ("b", "play wild g", "must_answer_penalty"),
                ("b", "challenge", "nothing_to_challenge"),
            ],
        },
    ),
    Case(
        "house_defend_wild_four_with_a_draw_two_of_the_new_color",
        ("house",),
        {**THREE, "b": "g+2 r+2 y3"},
        "r5",
        ("a: play wild4 g",),
        {
            "events": ["card_played", "penalty_pending"],
            "legal": {"b": {"accept", "challenge", "play g+2"}},
            "refused": [("b", "play r+2", "not_an_answer"), ("b", "draw", "must_answer_penalty")],
        },
    ),
    Case(
        "house_defended_next_player_faces_an_ordinary_draw_two",
        ("house",),
        {**THREE, "b": "g+2 r+2 y3"},
        "r5",
        ("a: play wild4 g", "b: play g+2"),
        {
            "events": ["card_played", "cards_drawn", "player_skipped"],
            "hands": {"b": "r+2 y3", "c": "y4 y6 y7 b1 b2"},
            "current": "a",
            "top": "g+2",
        },
    ),
    Case(
        "house_defended_draw_two_may_be_passed_on",
        ("house",),
        {**THREE, "b": "g+2 r+2 y3", "c": "y+2 y6 y7"},
        "r5",
        ("a: play wild4 g", "b: play g+2"),
        {"events": ["card_played", "penalty_pending"], "legal": {"c": {"accept", "play y+2"}}},
    ),
    Case(
        "classic_wild_four_cannot_be_defended",
        NOT_HOUSE,
        {**THREE, "b": "g+2 r+2 y3"},
        "r5",
        ("a: play wild4 g",),
        {
            "legal": {"b": {"accept", "challenge"}},
            "refused": [("b", "play g+2", "not_an_answer")],
        },
    ),
    Case(
        "no_bluffing_wild_four_without_defence_is_applied_at_once",
        ALL,
        {**THREE, "a": "wild4 g1 b1", "b": "r+2 y2 y3"},
        "r5",
        ("a: play wild4 g",),
        {
            "events": ["card_played", "cards_drawn", "player_skipped"],
            "hands": {"b": 7},
            "current": "c",
        },
        options={"no_bluffing": True},
    ),
    Case(
        "no_bluffing_house_defence_still_waits",
        ("house",),
        {**THREE, "a": "wild4 g1 b1", "b": "g+2 y2 y3"},
        "r5",
        ("a: play wild4 g",),
        {
            "events": ["card_played", "penalty_pending"],
            "legal": {"b": {"accept", "play g+2"}},
            "refused": [("b", "challenge", "nothing_to_challenge")],
        },
        options={"no_bluffing": True},
    ),
    Case(
        "jump_in_alone_lets_the_target_answer_with_the_identical_draw_two",
        ("classic",),
        {**THREE, "b": "r+2 g+2 y3"},
        "r5",
        ("a: play r+2",),
        {
            "events": ["card_played", "penalty_pending"],
            "legal": {"b": {"accept", "play r+2"}},
            "refused": [("b", "play g+2", "not_an_answer")],
        },
        options={"jump_in": True},
    ),
    Case(
        "nothing_to_accept_without_a_penalty",
        ALL,
        THREE,
        "r5",
        (),
        {"refused": [("a", "accept", "nothing_to_accept"), ("b", "accept", "not_your_turn")]},
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(CASES))
def test_penalty_rules(case: Case, preset: str) -> None:
    run_case(case, preset)


@pytest.mark.parametrize(
    ("preset", "card", "amount", "reason"),
    [
        ("house", "r+2", 2, DrawReason.DRAW_TWO),
        ("classic", "wild4", 4, DrawReason.WILD_FOUR),
        ("house", "wild4", 4, DrawReason.WILD_FOUR),
        ("minecraft", "wild4", 4, DrawReason.WILD_FOUR),
    ],
)
def test_pending_penalty_event_and_accept(
    preset: str, card: str, amount: int, reason: DrawReason
) -> None:
    game = position({**THREE, "b": "g+2 y2 y3"}, "r5", preset=preset)
    played = f"play {card} r" if card == "wild4" else f"play {card}"
    pending = one(act(game, "a", played), PenaltyPending)
    assert (pending.target, pending.amount, pending.source) == ("b", amount, Card.parse(card))
    events = act(game, "b", "accept")
    drawn = one(events, CardsDrawn)
    assert (drawn.player, drawn.count, drawn.reason) == ("b", amount, reason)
    assert [str(c) for c in drawn.cards] == ["b1", "b2", "b3", "b4"][:amount]
    assert one(events, PlayerSkipped).player == "b"
    assert game.current_player == "c"


@pytest.mark.parametrize("preset", PRESETS)
def test_penalty_applied_at_once_reports_its_reason(preset: str) -> None:
    game = position(THREE, "r5", preset=preset)
    events = act(game, "a", "play r+2")
    drawn = one(events, CardsDrawn)
    assert (drawn.player, drawn.count, drawn.reason) == ("b", 2, DrawReason.DRAW_TWO)
    assert [str(c) for c in drawn.cards] == ["b1", "b2"]
    assert one(events, PlayerSkipped).player == "b"
    assert game.current_player == "c"
