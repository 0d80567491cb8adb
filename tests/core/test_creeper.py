"""Creeper cards (`minecraft`, RULES.md section 4): a wild that costs 3 more cards when drawn."""

from __future__ import annotations

import pytest

from core.cards import Kind
from core.events import CardsDrawn, CreeperRevealed, DrawReason
from core.game import Game
from core.rules import Rules
from tests.core.helpers import (
    Case,
    act,
    expand,
    find_seed,
    names,
    of,
    one,
    position,
    run_case,
    seats,
)

MC = ("minecraft",)
HANDS = {"a": "g1 g2 b3", "b": "y1 y2 y3", "c": "y4 y6 y7"}
REVEAL = ["cards_drawn", "creeper_revealed", "cards_drawn"]

CASES = [
    Case(
        "drawn_creeper_is_shown_and_costs_three_more",
        MC,
        HANDS,
        "r5",
        ("a: draw",),
        {
            "events": REVEAL,
            "hands": {"a": "g1 g2 b3 creeper r1 r2 r3"},
            "current": "a",
            # The Creeper stays the drawn card: a wild, playable at once.
            "legal": {
                "a": {"pass", "play creeper r", "play creeper y", "play creeper g"}
                | {"play creeper b"}
            },
        },
        draw="creeper r1 r2 r3 b6",
    ),
    Case(
        "the_drawn_creeper_is_played_as_a_wild",
        MC,
        HANDS,
        "r5",
        ("a: draw", "a: play creeper b"),
        {
            "events": ["card_played"],
            "color": "b",
            "top": "creeper",
            "current": "b",
            "hands": {"a": "g1 g2 b3 r1 r2 r3", "b": "y1 y2 y3"},
        },
        draw="creeper r1 r2 r3 b6",
    ),
    Case(
        "a_creeper_among_the_three_is_kept_quietly",
        MC,
        HANDS,
        "r5",
        ("a: draw",),
        {"events": REVEAL, "hands": {"a": "g1 g2 b3 creeper r1 creeper r3"}},
        draw="creeper r1 creeper r3 b6",
    ),
    Case(
        "creeper_in_a_draw_two_penalty",
        MC,
        {**HANDS, "a": "r+2 g2 b3"},
        "r5",
        ("a: play r+2",),
        {
            "events": ["card_played", *REVEAL, "player_skipped"],
            "hands": {"b": "y1 y2 y3 creeper b6 b7 b8 b9"},
            "current": "c",
        },
        draw="creeper b6 b7 b8 b9 b1",
    ),
    Case(
        "two_creepers_in_a_wild_four_penalty_each_cost_three",
        MC,
        {**HANDS, "a": "wild4 g2 b3"},
        "r5",
        ("a: play wild4 g", "b: accept"),
        {
            "events": [*REVEAL, "creeper_revealed", "cards_drawn", "player_skipped"],
            "hands": {"b": 3 + 4 + 3 + 3},
        },
        draw="creeper b1 creeper b2 b3 b4 b6 b7 b8 b9 y1",
    ),
    Case(
        "creeper_when_caught",
        MC,
        {"a": "r1 g2", "b": "y1 y2 y3", "c": "y4 y6 y7"},
        "r5",
        ("a: play r1", "b: catch"),
        {"events": ["uno_caught", *REVEAL], "hands": {"a": "g2 b1 creeper b2 b3 b4"}},
        draw="b1 creeper b2 b3 b4",
    ),
    Case(
        "creeper_in_the_innocent_challengers_six",
        MC,
        {**HANDS, "a": "wild4 g2 b3"},
        "r5",
        ("a: play wild4 g", "b: challenge"),
        {
            "events": ["challenge_resolved", "hand_revealed", *REVEAL, "player_skipped"],
            "hands": {"b": 3 + 6 + 3},
        },
        draw="b1 b2 b3 b4 b6 creeper b7 b8 b9 y1",
    ),
    Case(
        "without_the_creeper_option_nothing_happens",
        ("classic",),
        HANDS,
        "r5",
        ("a: draw",),
        {"events": ["cards_drawn"], "hands": {"a": "g1 g2 b3 creeper"}},
        draw="creeper r1 r2 r3",
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(CASES))
def test_creeper_rules(case: Case, preset: str) -> None:
    run_case(case, preset)


def test_creeper_events() -> None:
    game = position(HANDS, "r5", preset="minecraft", draw="creeper r1 r2 r3 b6")
    events = act(game, "a", "draw")
    first, extra = of(events, CardsDrawn)
    assert (first.player, first.reason, [str(c) for c in first.cards]) == (
        "a",
        DrawReason.CHOICE,
        ["creeper"],
    )
    assert one(events, CreeperRevealed).player == "a"
    assert (extra.player, extra.count, extra.reason) == ("a", 3, DrawReason.CREEPER)
    assert [str(c) for c in extra.cards] == ["r1", "r2", "r3"]


def _creeper_dealt(game: Game) -> bool:
    dealt = any(c.kind is Kind.CREEPER for p in game.players for c in game.hand(p))
    return dealt and game.top_card.kind is Kind.NUMBER


def _creeper_flipped(game: Game) -> bool:
    return game.top_card.kind is Kind.CREEPER


def test_not_on_the_deal() -> None:
    seed = find_seed("minecraft", 4, "a creeper dealt", _creeper_dealt)
    game = Game.new(seats(4), Rules.preset("minecraft"), seed)
    assert any(c.kind is Kind.CREEPER for p in game.players for c in game.hand(p))
    assert "creeper_revealed" not in names(game.opening_events)
    assert all(len(game.hand(p)) == 7 for p in game.players)


def test_not_on_the_first_flip() -> None:
    seed = find_seed("minecraft", 4, "a creeper flipped", _creeper_flipped)
    game = Game.new(seats(4), Rules.preset("minecraft"), seed)
    assert str(game.top_card) == "creeper"
    assert "creeper_revealed" not in names(game.opening_events)
    assert game.current_color is None  # the first player chooses the color, as for a Wild
    assert all(len(game.hand(p)) == 7 for p in game.players)
