"""A turn and the action cards (RULES.md section 4), as one table of cases run for each preset.

Penalties and their answers, challenges, Creepers, UNO, jump-in and scoring have their own files;
this table is the plain turn: matching, wilds, drawing, passing, the empty draw pile, Skip,
Reverse (two players too), Draw Two and Wild Draw Four where the presets agree or differ.
"""

from __future__ import annotations

import pytest

from core.events import CardsDrawn, DrawReason, PileReshuffled
from tests.core.helpers import PRESETS, Case, act, draw_pile_bottom_first, expand, one, run_case

ALL = PRESETS
NOT_HOUSE = ("classic", "minecraft")


def wilds(card: str) -> set[str]:
    return {f"play {card} {c}" for c in "rygb"}


THREE = {"a": "r9 g1 b1", "b": "y1 y2 y3", "c": "y4 y6 y7"}
FOUR = {"a": "rrev g1 b1", "b": "y1 y2 y3", "c": "y4 y6 y7", "d": "grev b6 b7"}

CASES = [
    # ---------------------------------------------------------------- matching
    Case(
        "color_match",
        ALL,
        THREE,
        "r5",
        ("a: play r9",),
        {"top": "r9", "color": "r", "current": "b", "events": ["card_played"]},
    ),
    Case(
        "number_match",
        ALL,
        {**THREE, "a": "g5 g1 b1"},
        "r5",
        ("a: play g5",),
        {"top": "g5", "color": "g", "current": "b", "hands": {"a": "g1 b1"}},
    ),
    Case(
        "skip_on_skip",
        ALL,
        {**THREE, "a": "gskip g1 b1"},
        "rskip",
        ("a: play gskip",),
        {"color": "g", "current": "c", "events": ["card_played", "player_skipped"]},
    ),
    Case(
        "reverse_on_reverse",
        ALL,
        {**FOUR, "a": "grev g1 b1", "d": "b5 b6 b7"},
        "rrev",
        ("a: play grev",),
        {"color": "g", "direction": -1, "current": "d"},
    ),
    Case(
        "draw_two_on_draw_two",
        NOT_HOUSE,
        {**THREE, "a": "g+2 g1 b1"},
        "r+2",
        ("a: play g+2",),
        {
            "color": "g",
            "current": "c",
            "events": ["card_played", "cards_drawn", "player_skipped"],
            "hands": {"b": 5},
        },
    ),
    Case(
        "no_match_only_draw",
        ALL,
        {**THREE, "a": "g7 b1 y0"},
        "r5",
        (),
        {"legal": {"a": {"draw"}}, "refused": [("a", "play g7", "does_not_match")]},
    ),
    Case(
        "others_wait_their_turn",
        NOT_HOUSE,
        THREE,
        "r5",
        (),
        {
            "legal": {"b": set(), "c": set()},
            "refused": [("b", "draw", "not_your_turn"), ("c", "play y4", "not_your_turn")],
        },
    ),
    Case(
        "others_wait_their_turn_or_jump_in",
        ("house",),
        THREE,
        "r5",
        (),
        {
            "legal": {"b": set(), "c": set()},
            "refused": [
                ("b", "draw", "not_your_turn"),
                ("c", "play y4", "jump_in_needs_identical"),
            ],
        },
    ),
    # ---------------------------------------------------------------- wild cards
    Case(
        "wild_on_anything_even_with_a_playable_card",
        ALL,
        {**THREE, "a": "r1 wild b2"},
        "r5",
        ("a: play wild b",),
        {"top": "wild", "color": "b", "current": "b", "events": ["card_played"]},
    ),
    Case(
        "wild_is_listed_with_every_color",
        ALL,
        {**THREE, "a": "r1 wild b2"},
        "r5",
        (),
        {"legal": {"a": {"play r1", "draw"} | wilds("wild")}},
    ),
    Case(
        "wild_may_choose_the_current_color",
        ALL,
        {**THREE, "a": "r1 wild b2"},
        "r5",
        ("a: play wild r",),
        {"color": "r", "current": "b"},
    ),
    Case(
        "the_chosen_color_is_matched",
        ALL,
        {**THREE, "a": "g3 r3 r7"},
        "r3 wild",
        (),
        {"legal": {"a": {"play g3", "draw"}}, "refused": [("a", "play r3", "does_not_match")]},
        color="g",
    ),
    Case(
        "wild_needs_a_color",
        ALL,
        {**THREE, "a": "r1 wild b2"},
        "r5",
        (),
        {"refused": [("a", "play wild", "wild_needs_color")]},
    ),
    Case(
        "wild_four_bluff_is_accepted",
        ALL,
        {**THREE, "a": "r1 wild4 b2"},
        "r5",
        ("a: play wild4 g",),
        {
            "color": "g",
            "top": "wild4",
            "current": "b",
            "events": ["card_played", "penalty_pending"],
            "legal": {"b": {"accept", "challenge"}},
        },
    ),
    Case(
        "wild_four_listed_while_holding_the_color",
        ALL,
        {**THREE, "a": "r1 wild4 b2"},
        "r5",
        (),
        {"legal": {"a": {"play r1", "draw"} | wilds("wild4")}},
    ),
    Case(
        "no_bluffing_refuses_wild_four_with_the_color",
        ALL,
        {**THREE, "a": "r1 wild4 b2"},
        "r5",
        (),
        {
            "legal": {"a": {"play r1", "draw"}},
            "refused": [("a", "play wild4 g", "wild_four_not_allowed")],
        },
        options={"no_bluffing": True},
    ),
    Case(
        "no_bluffing_allows_wild_four_over_number_and_wild",
        ALL,
        {**THREE, "a": "g5 wild wild4"},
        "r5",
        ("a: play wild4 g",),
        # Nothing to challenge, and b cannot defend: the penalty is applied at once.
        {
            "events": ["card_played", "cards_drawn", "player_skipped"],
            "hands": {"b": 7},
            "current": "c",
            "color": "g",
        },
        options={"no_bluffing": True},
    ),
    # ---------------------------------------------------------------- drawing and passing
    Case(
        "draw_a_playable_card_and_keep_the_turn",
        ALL,
        {**THREE, "a": "g1 g2 b3"},
        "r5",
        ("a: draw",),
        {
            "events": ["cards_drawn"],
            "current": "a",
            "hands": {"a": "g1 g2 b3 r7"},
            "legal": {"a": {"play r7", "pass"}},
        },
        draw="r7 b1 b2",
    ),
    Case(
        "play_the_drawn_card",
        ALL,
        {**THREE, "a": "g1 g2 b3"},
        "r5",
        ("a: draw", "a: play r7"),
        {"events": ["card_played"], "top": "r7", "current": "b", "hands": {"a": "g1 g2 b3"}},
        draw="r7 b1 b2",
    ),
    Case(
        "after_drawing_only_the_drawn_card",
        ALL,
        {**THREE, "a": "r1 g2 b3"},
        "r5",
        ("a: draw",),
        {
            "legal": {"a": {"play r7", "pass"}},
            "refused": [
                ("a", "play r1", "only_drawn_card"),
                ("a", "draw", "already_drawn"),
            ],
        },
        draw="r7 b1 b2",
    ),
    Case(
        "drawn_wild_may_be_played",
        ALL,
        {**THREE, "a": "g1 g2 b3"},
        "r5",
        ("a: draw",),
        {"legal": {"a": {"pass"} | wilds("wild")}},
        draw="wild b1 b2",
    ),
    Case(
        "draw_then_pass_keeps_the_card",
        ALL,
        {**THREE, "a": "r1 g2 b3"},
        "r5",
        ("a: draw", "a: pass"),
        {"events": ["passed"], "current": "b", "hands": {"a": "r1 g2 b3 r7"}, "top": "r5"},
        draw="r7 b1 b2",
    ),
    Case(
        "unplayable_drawn_card_passes_at_once",
        ALL,
        {**THREE, "a": "r1 g2 b3"},
        "r5",
        ("a: draw",),
        {"events": ["cards_drawn", "passed"], "current": "b", "hands": {"a": "r1 g2 b3 b7"}},
        draw="b7 b1 b2",
    ),
    Case(
        "pass_only_after_drawing",
        ALL,
        THREE,
        "r5",
        (),
        {"refused": [("a", "pass", "must_draw_first")]},
    ),
    # ---------------------------------------------------------------- the empty draw pile
    Case(
        "a_reshuffled_wild_has_lost_its_color",
        ALL,
        {**THREE, "a": "b1 b2 b3"},
        "wild g7",
        ("a: draw",),
        {
            "events": ["pile_reshuffled", "cards_drawn"],
            "hands": {"a": "b1 b2 b3 wild"},
            "legal": {"a": {"pass"} | wilds("wild")},
            "top": "g7",
            "color": "g",
        },
        draw="",
    ),
    Case(
        "nothing_to_draw_the_draw_is_skipped",
        ALL,
        {**THREE, "a": "b1 b2 b3"},
        "g7",
        ("a: draw",),
        {"events": ["cards_drawn", "passed"], "hands": {"a": "b1 b2 b3"}, "current": "b"},
        draw="",
    ),
    Case(
        "reshuffle_in_the_middle_of_a_penalty",
        NOT_HOUSE,
        {**THREE, "a": "r+2 g1 b1"},
        "r5",
        ("a: play r+2",),
        {
            "events": [
                "card_played",
                "pile_reshuffled",
                "cards_drawn",
                "player_skipped",
            ],
            "hands": {"b": "y1 y2 y3 b9 r5"},
            "top": "r+2",
            "current": "c",
        },
        draw="b9",
    ),
    # ---------------------------------------------------------------- Skip
    Case(
        "skip_skips_the_next_player",
        ALL,
        {**THREE, "a": "rskip g1 b1"},
        "r5",
        ("a: play rskip",),
        {"events": ["card_played", "player_skipped"], "current": "c"},
    ),
    Case(
        "skip_with_two_players_plays_again",
        ALL,
        {"a": "rskip g1 b1", "b": "y1 y2 y3"},
        "r5",
        ("a: play rskip",),
        {"events": ["card_played", "player_skipped"], "current": "a"},
    ),
    Case(
        "skip_counter_clockwise",
        ALL,
        {**FOUR, "a": "rskip g1 b1"},
        "r5",
        ("a: play rskip",),
        {"current": "c", "direction": -1},
        direction=-1,
    ),
    # ---------------------------------------------------------------- Reverse
    Case(
        "reverse_turns_play_to_the_right",
        ALL,
        FOUR,
        "r5",
        ("a: play rrev",),
        {"events": ["card_played", "direction_changed"], "direction": -1, "current": "d"},
    ),
    Case(
        "reverse_when_counter_clockwise",
        ALL,
        FOUR,
        "r5",
        ("a: play rrev",),
        {"direction": 1, "current": "b"},
        direction=-1,
    ),
    Case(
        "two_reverses_cancel",
        ALL,
        FOUR,
        "r5",
        ("a: play rrev", "d: play grev"),
        {"direction": 1, "current": "a"},
    ),
    Case(
        "two_players_reverse_acts_as_skip",
        ALL,
        {"a": "rrev g1 b1", "b": "y1 y2 y3"},
        "r5",
        ("a: play rrev",),
        {
            "events": ["card_played", "direction_changed", "player_skipped"],
            "current": "a",
            "direction": -1,
        },
    ),
    Case(
        "two_players_reverse_without_the_option",
        ALL,
        {"a": "rrev g1 b1", "b": "y1 y2 y3"},
        "r5",
        ("a: play rrev",),
        {"events": ["card_played", "direction_changed"], "current": "b"},
        options={"two_player_reverse_skips": False},
    ),
    # ---------------------------------------------------------------- Draw Two
    Case(
        "draw_two_next_draws_two_and_loses_the_turn",
        NOT_HOUSE,
        {**THREE, "a": "r+2 g1 b1", "b": "g+2 y2 y3"},
        "r5",
        ("a: play r+2",),
        {
            "events": ["card_played", "cards_drawn", "player_skipped"],
            "hands": {"b": "g+2 y2 y3 b1 b2"},
            "current": "c",
        },
    ),
    Case(
        "house_draw_two_without_an_answer_is_applied_at_once",
        ("house",),
        {**THREE, "a": "r+2 g1 b1"},
        "r5",
        ("a: play r+2",),
        {"events": ["card_played", "cards_drawn", "player_skipped"], "current": "c"},
    ),
    Case(
        "house_draw_two_waits_for_an_answer",
        ("house",),
        {**THREE, "a": "r+2 g1 b1", "b": "g+2 y2 y3"},
        "r5",
        ("a: play r+2",),
        {
            "events": ["card_played", "penalty_pending"],
            "current": "b",
            "legal": {"b": {"accept", "play g+2"}},
        },
    ),
    # ---------------------------------------------------------------- Wild Draw Four
    Case(
        "wild_four_accepted_draws_four_and_loses_the_turn",
        ALL,
        {**THREE, "a": "r1 wild4 b2"},
        "r5",
        ("a: play wild4 g", "b: accept"),
        {
            "events": ["cards_drawn", "player_skipped"],
            "hands": {"b": "y1 y2 y3 b1 b2 b3 b4"},
            "current": "c",
            "color": "g",
        },
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(CASES))
def test_turn_rules(case: Case, preset: str) -> None:
    run_case(case, preset)


def test_case_names_are_unique() -> None:
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("preset", PRESETS)
def test_reshuffle_keeps_the_top_card_and_shuffles_the_rest(preset: str) -> None:
    case = Case(
        "reshuffle",
        (preset,),
        {**THREE, "a": "g1 g2 b3"},
        "r1 r2 y2 b8 r3",
        draw="",
    )
    game, _ = run_case(case, preset)
    events = act(game, "a", "draw")
    assert one(events, PileReshuffled).count == 4
    drawn = one(events, CardsDrawn)
    assert drawn.reason is DrawReason.CHOICE and drawn.count == 1
    assert str(drawn.cards[0]) in {"r1", "r2", "y2", "b8"}
    assert str(game.top_card) == "r3"
    assert str(game.current_color) == "r"
    assert game.to_dict()["discard"] == "r3"
    rest = sorted([*draw_pile_bottom_first(game), str(drawn.cards[0])])
    assert rest == ["b8", "r1", "r2", "y2"]
