"""Jump-in (RULES.md section 4, `house` only): identical card, out of turn, as a race."""

from __future__ import annotations

import pytest

from core.events import CardPlayed, PlayerSkipped, RoundEnded
from core.game import Game
from core.rules import Rules
from tests.core.helpers import (
    Case,
    act,
    expand,
    find_seed,
    legal,
    one,
    position,
    refused,
    run_case,
    seats,
)

HOUSE = ("house",)
NOT_HOUSE = ("classic", "minecraft")
HANDS = {"a": "r5 g1 g2", "b": "r7 y2 y3", "c": "r5 g5 wild", "d": "b1 b2 b3"}

CASES = [
    Case(
        "only_the_identical_card",
        HOUSE,
        HANDS,
        "r3",
        ("a: play r5",),
        {
            "current": "b",
            "legal": {"c": {"play r5"}, "d": set(), "b": {"play r7", "draw"}},
            "refused": [
                ("c", "play g5", "jump_in_needs_identical"),
                ("c", "play wild r", "jump_in_not_with_wild"),
                ("d", "play b1", "jump_in_needs_identical"),
            ],
        },
    ),
    Case(
        "jump_in_takes_the_turn_and_play_continues_from_the_jumper",
        HOUSE,
        HANDS,
        "r3",
        ("a: play r5", "c: play r5"),
        {
            "events": ["card_played"],
            "current": "d",
            "direction": 1,
            "hands": {"c": "g5 wild", "b": "r7 y2 y3"},
            "refused": [
                ("b", "play r7", "turn_taken_by_jump_in"),
                ("b", "draw", "turn_taken_by_jump_in"),
                ("b", "play wild r", "card_not_in_hand"),
            ],
        },
    ),
    Case(
        "the_overtaken_player_hears_the_usual_reason_after_the_next_move",
        HOUSE,
        HANDS,
        "r3",
        ("a: play r5", "c: play r5", "d: draw"),
        {"current": "a", "refused": [("b", "draw", "not_your_turn")]},
    ),
    Case(
        "counter_clockwise_play_continues_from_the_jumper",
        HOUSE,
        {**HANDS, "b": "r5 y2 y3", "c": "r7 g6 g7"},
        "r3",
        ("a: play r5", "b: play r5"),
        {"current": "a", "direction": -1, "refused": [("d", "draw", "turn_taken_by_jump_in")]},
        direction=-1,
    ),
    Case(
        "overtaken_after_drawing",
        HOUSE,
        HANDS,
        "r3",
        ("a: play r5", "b: draw", "c: play r5"),
        {
            "current": "d",
            "hands": {"b": "r7 y2 y3 r9"},
            "refused": [
                ("b", "play r9", "turn_taken_by_jump_in"),
                ("b", "pass", "turn_taken_by_jump_in"),
            ],
        },
        draw="r9 b6 b7",
    ),
    Case(
        "jump_in_with_a_skip_skips_the_player_after_the_jumper",
        HOUSE,
        {**HANDS, "a": "rskip g1 g2", "b": "rskip y2 y3"},
        "r3",
        ("a: play rskip", "b: play rskip"),
        {"events": ["card_played", "player_skipped"], "current": "d"},
    ),
    Case(
        "reverses_add_up",
        HOUSE,
        {"a": "rrev g1 g2", "b": "rrev y2 y3", "c": "rrev g5 g6", "d": "b1 b2 b3"},
        "r3",
        ("a: play rrev", "c: play rrev", "b: play rrev"),
        # a: counter-clockwise (d next); c: clockwise again from c (d); b: reversed from b (a).
        {"direction": -1, "current": "a"},
    ),
    Case(
        "jump_in_on_a_pending_draw_two_moves_it_on",
        HOUSE,
        {"a": "r+2 g1 g2", "b": "y+2 y2 y3", "c": "r+2 g5 g6", "d": "b1 b2 b3"},
        "r3",
        ("a: play r+2", "c: play r+2"),
        {
            "events": ["card_played", "cards_drawn", "player_skipped"],
            "hands": {"b": "y+2 y2 y3", "d": "b1 b2 b3 b1 b2"},
            "current": "a",
            "refused": [("b", "accept", "turn_taken_by_jump_in")],
        },
    ),
    Case(
        "not_on_your_own_draw_two",
        HOUSE,
        {"a": "r+2 r+2 g2", "b": "y2 y3 y4", "c": "g5 g6 g7", "d": "b1 b2 b3"},
        "r3",
        ("a: play r+2",),
        {
            "current": "c",
            "legal": {"a": set()},
            "refused": [("a", "play r+2", "one_draw_card_per_turn")],
        },
    ),
    Case(
        "not_on_your_own_pending_draw_two",
        HOUSE,
        {"a": "r+2 r+2 g2", "b": "y+2 y3 y4", "c": "g5 g6 g7", "d": "b1 b2 b3"},
        "r3",
        ("a: play r+2",),
        {"current": "b", "refused": [("a", "play r+2", "one_draw_card_per_turn")]},
    ),
    Case(
        "another_player_may_jump_in_on_a_draw_two",
        HOUSE,
        {"a": "r+2 g1 g2", "b": "y2 y3 y4", "c": "g5 g6 g7", "d": "r+2 b2 b3"},
        "r3",
        ("a: play r+2", "d: play r+2"),
        {"hands": {"a": "g1 g2 b3 b4", "b": "y2 y3 y4 b1 b2"}, "current": "b"},
    ),
    Case(
        "not_with_a_wild_even_on_a_wild",
        HOUSE,
        {**HANDS, "a": "wild g1 g2", "c": "wild wild4 g5"},
        "r3",
        ("a: play wild r",),
        {
            "legal": {"c": set()},
            "refused": [
                ("c", "play wild r", "jump_in_not_with_wild"),
                ("c", "play wild4 r", "jump_in_not_with_wild"),
            ],
        },
    ),
    Case(
        "jumper_going_to_one_card_is_catchable",
        HOUSE,
        {**HANDS, "c": "r5 g5"},
        "r3",
        ("a: play r5", "c: play r5"),
        {"legal": {"c": {"uno"}, "a": {"catch"}, "b": {"catch"}}},
    ),
    Case(
        "jump_in_off_outside_house",
        NOT_HOUSE,
        HANDS,
        "r3",
        ("a: play r5",),
        {
            "legal": {"c": set()},
            "refused": [("c", "play r5", "jump_in_off"), ("c", "play g5", "not_your_turn")],
        },
    ),
    Case(
        "jump_in_option_on_a_classic_table",
        ("classic",),
        HANDS,
        "r3",
        ("a: play r5", "c: play r5"),
        {"current": "d", "refused": [("b", "play r7", "turn_taken_by_jump_in")]},
        options={"jump_in": True},
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(CASES))
def test_jump_in_rules(case: Case, preset: str) -> None:
    run_case(case, preset)


def test_the_jump_in_event() -> None:
    game = position(HANDS, "r3", preset="house")
    assert one(act(game, "a", "play r5"), CardPlayed).jump_in is False
    played = one(act(game, "c", "play r5"), CardPlayed)
    assert (played.player, str(played.card), played.jump_in, played.cards_left) == (
        "c",
        "r5",
        True,
        2,
    )


def test_jump_in_with_a_skip_names_the_skipped_player() -> None:
    game = position({**HANDS, "a": "rskip g1 g2", "b": "rskip y2 y3"}, "r3", preset="house")
    assert one(act(game, "a", "play rskip"), PlayerSkipped).player == "b"
    assert one(act(game, "b", "play rskip"), PlayerSkipped).player == "c"


def test_going_out_with_a_jump_in() -> None:
    game = position({**HANDS, "c": "r5"}, "r3", preset="house")
    act(game, "a", "play r5")
    ended = one(act(game, "c", "play r5"), RoundEnded)
    assert ended.winner == "c"


def _first_flip_held_by_another(game: Game) -> bool:
    top = game.top_card
    return any(top in game.hands[p] for p in game.players if p != game.current_player)


def test_not_on_the_first_flipped_card() -> None:
    seed = find_seed(
        "house", 6, "the first flip held by a waiting player", _first_flip_held_by_another
    )
    game = Game.new(seats(6), Rules.preset("house"), seed)
    top = str(game.top_card)
    holder = next(
        p for p in game.players if p != game.current_player and top in map(str, game.hand(p))
    )
    assert f"play {top}" not in legal(game, holder)
    assert refused(game, holder, f"play {top}") == "jump_in_not_on_first_card"
