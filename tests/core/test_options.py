"""The options from other tables (RULES.md section 6): stacking, seven-zero, draw until playable.

Each is off in every preset and may be switched on in any of them; every case runs on every
preset it names, with the option switched on through `Rules.with_option` (as the settings do).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from core.events import CardsDrawn, HandsPassed, HandsSwapped, RoundEnded
from core.rules import Rules
from tests.core.helpers import (
    PRESETS,
    Case,
    act,
    cards,
    expand,
    hand,
    legal,
    names,
    of,
    one,
    position,
    refused,
    run_case,
)

ALL = PRESETS
WILDS_G = {"play wild4 r", "play wild4 y", "play wild4 g", "play wild4 b"}


def _with(preset: str, **options: Any) -> dict[str, Any]:
    """The options of `preset` after switching `options` on through `Rules.with_option`."""
    rules = Rules.preset(preset)
    for name, value in options.items():
        rules = rules.with_option(name, value)
    base = Rules.preset(preset)
    return {
        f.name: getattr(rules, f.name)
        for f in dataclasses.fields(Rules)
        if getattr(rules, f.name) != getattr(base, f.name)
    }


def _run(case: Case, preset: str, **options: Any) -> None:
    merged = {**_with(preset, **options), **case.options}
    run_case(dataclasses.replace(case, options=merged), preset)


# ------------------------------------------------------------------ Rules.with_option


@pytest.mark.parametrize("preset", PRESETS)
def test_stacking_switches_passing_and_defending_off_and_back(preset: str) -> None:
    rules = Rules.preset(preset).with_option("stacking", True)
    assert rules.stacking and not rules.pass_draw_two and not rules.defend_wild_four
    assert rules.jump_in == Rules.preset(preset).jump_in  # nothing else changes
    passing = rules.with_option("pass_draw_two", True)
    assert passing.pass_draw_two and not passing.stacking
    defending = rules.with_option("defend_wild_four", True)
    assert defending.defend_wild_four and not defending.stacking
    off = rules.with_option("stacking", False)
    assert not off.stacking and not off.pass_draw_two  # nothing to restore them from
    back = rules.with_option("stacking", False, Rules.preset(preset))
    assert back == Rules.preset(preset)  # the preset's own values come back
    with pytest.raises(ValueError, match="not a rule option"):
        rules.with_option("stack", True)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_new_options_are_off_in_every_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    assert (rules.stacking, rules.seven_zero, rules.draw_until_playable) == (False, False, False)
    old = rules.to_dict()
    for name in ("stacking", "seven_zero", "draw_until_playable"):
        del old[name]
    assert Rules.from_dict(old) == rules  # rules stored before the options load as off


# ------------------------------------------------------------------ stacking

FOUR = {"a": "r+2 r1 g9", "b": "g+2 y5 b7", "c": "y1 y2 y3", "d": "b1 b2 b3"}

STACKING = [
    Case(
        "a_draw_two_on_a_draw_two_adds_up",
        ALL,
        FOUR,
        "r5",
        ("a: play r+2", "b: play g+2"),
        {
            "events": ["card_played", "cards_drawn", "player_skipped"],
            "hands": {"c": 7, "b": "y5 b7"},
            "current": "d",
        },
    ),
    Case(
        "the_target_may_stack_or_take_the_sum",
        ALL,
        {**FOUR, "c": "y+2 y2 y3"},
        "r5",
        ("a: play r+2", "b: play g+2"),
        {
            "events": ["card_played", "penalty_pending"],
            "legal": {"c": {"play y+2", "accept"}},
            "current": "c",
        },
    ),
    Case(
        "whoever_stops_draws_the_sum",
        ALL,
        {**FOUR, "c": "y+2 y2 y3"},
        "r5",
        ("a: play r+2", "b: play g+2", "c: play y+2"),
        {"hands": {"d": 9}, "current": "a"},
    ),
    Case(
        "never_a_wild_draw_four_on_a_draw_two",
        ALL,
        {**FOUR, "b": "wild4 y5 b7"},
        "r5",
        ("a: play r+2",),
        {"hands": {"b": 5}, "current": "c"},  # no answer: taken at once
    ),
    Case(
        "never_a_draw_two_on_a_wild_draw_four",
        ALL,
        {**FOUR, "a": "wild4 g1 g3", "b": "g+2 y5 y6"},
        "r5",
        ("a: play wild4 g",),
        {
            "legal": {"b": {"accept", "challenge"}},
            "refused": [("b", "play g+2", "not_an_answer")],
        },
    ),
    Case(
        "a_wild_draw_four_on_a_wild_draw_four_adds_up",
        ALL,
        {**FOUR, "a": "wild4 g1 g3", "b": "wild4 y5 y6", "c": "b4 b5"},
        "r5",
        ("a: play wild4 g", "b: play wild4 y"),
        {
            "events": ["card_played", "penalty_pending"],
            "legal": {"c": {"accept", "challenge"}},
        },
    ),
    Case(
        "the_stacked_sum_is_taken",
        ALL,
        {**FOUR, "a": "wild4 g1 g3", "b": "wild4 y5 y6", "c": "b4 b5"},
        "r5",
        ("a: play wild4 g", "b: play wild4 y", "c: accept"),
        {"hands": {"c": 10}, "current": "d", "color": "y"},
    ),
    Case(
        "a_stacked_bluff_costs_the_offender_the_sum",
        ("classic", "minecraft"),
        {**FOUR, "a": "wild4 g1 g3", "b": "wild4 g5 g6", "c": "b4 b5"},
        "r5",
        ("a: play wild4 g", "b: play wild4 y", "c: challenge"),
        {"hands": {"b": 10, "c": 2}, "current": "c", "color": "y", "top": "wild4"},
    ),
    Case(
        "a_stacked_bluff_in_house_takes_the_card_back",
        ("house",),
        {**FOUR, "a": "wild4 g1 g3", "b": "wild4 g5 g6", "c": "b4 b5"},
        "r5",
        ("a: play wild4 g", "b: play wild4 y", "c: challenge"),
        {"hands": {"b": 11, "c": 2}, "current": "c", "color": "g", "top": "wild4"},
    ),
    Case(
        "an_honest_stack_costs_the_challenger_the_sum_and_two",
        ALL,
        {**FOUR, "a": "wild4 g1 g3", "b": "wild4 y5 y6", "c": "b4 b5"},
        "r5",
        ("a: play wild4 g", "b: play wild4 y", "c: challenge"),
        {"hands": {"b": 2, "c": 12}, "current": "d"},
        draw=" ".join(["b1 b2 b3 b4 b6 b7 b8 b9 y1 y2 y3 y4 y6 y7 y8 y9"] * 2),
    ),
    Case(
        "no_bluffing_leaves_nothing_to_stack_while_holding_the_color",
        ALL,
        {**FOUR, "a": "wild4 y1 y3", "b": "wild4 g5 g6", "c": "b4 b5"},
        "r5",
        ("a: play wild4 g",),
        {"hands": {"b": 7}, "current": "c"},  # b may not stack: taken at once
        options={"no_bluffing": True},
    ),
    Case(
        "the_last_card_hits_with_the_whole_stack",
        ALL,
        {**FOUR, "b": "g+2"},
        "r5",
        ("a: play r+2", "b: play g+2"),
        {"hands": {"c": 7}},
        options={"target": 1},
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(STACKING))
def test_stacking(case: Case, preset: str) -> None:
    _run(case, preset, stacking=True)


@pytest.mark.parametrize("preset", PRESETS)
def test_without_stacking_a_draw_two_does_not_add_up(preset: str) -> None:
    game = position(FOUR, "r5", preset=preset, pass_draw_two=True, jump_in=False)
    act(game, "a", "play r+2")
    act(game, "b", "play g+2")
    assert len(game.hand("c")) == 5  # two, not four


@pytest.mark.parametrize("preset", PRESETS)
def test_the_offender_of_a_stacked_wild_four_leaving(preset: str) -> None:
    hands = {**FOUR, "a": "wild4 g1 g3", "b": "wild4 y5 y6", "c": "wild4 b5 b6"}
    game = position(hands, "r5", preset=preset, **_with(preset, stacking=True))
    act(game, "a", "play wild4 g")
    act(game, "b", "play wild4 y")
    game.remove_player("b")  # no challenge any more; c may still stack
    assert legal(game, "c") == {"accept", "play wild4 r", "play wild4 y", "play wild4 g"} | {
        "play wild4 b"
    }
    assert refused(game, "c", "challenge") == "nothing_to_challenge"
    act(game, "c", "accept")
    assert len(game.hand("c")) == 11


# ------------------------------------------------------------------ seven-zero

THREE = {"a": "r7 g1 g2", "b": "y1 y2", "c": "b1 b2 b3"}

SEVEN_ZERO = [
    Case(
        "a_seven_names_each_other_player",
        ALL,
        THREE,
        "r5",
        (),
        {
            "legal": {"a": {"play r7 @b", "play r7 @c", "draw"}},
            "refused": [
                ("a", "play r7", "seven_needs_target"),
                ("a", "play r7 @a", "not_a_target"),
                ("a", "play r7 @zed", "not_a_target"),
                ("a", "play g1 @b", "target_not_allowed"),
            ],
        },
    ),
    Case(
        "a_seven_swaps_hands",
        ALL,
        THREE,
        "r5",
        ("a: play r7 @c",),
        {
            "events": ["card_played", "hands_swapped"],
            "hands": {"a": "b1 b2 b3", "b": "y1 y2", "c": "g1 g2"},
            "current": "b",
            "top": "r7",
        },
    ),
    Case(
        "a_zero_passes_every_hand_on",
        ALL,
        {**THREE, "a": "r0 g1 g2"},
        "r5",
        ("a: play r0",),
        {
            "events": ["card_played", "hands_passed"],
            "hands": {"a": "b1 b2 b3", "b": "g1 g2", "c": "y1 y2"},
            "current": "b",
        },
    ),
    Case(
        "a_zero_passes_them_the_other_way_after_a_reverse",
        ALL,
        {**THREE, "a": "r0 g1 g2"},
        "r5",
        ("a: play r0",),
        {
            "hands": {"a": "y1 y2", "b": "b1 b2 b3", "c": "g1 g2"},
            "current": "c",
        },
        direction=-1,
    ),
    Case(
        "the_last_card_a_seven_goes_out_without_a_swap",
        ALL,
        {**THREE, "a": "r7"},
        "r5",
        (),
        {"legal": {"a": {"play r7", "draw"}}},
    ),
    Case(
        "an_uncalled_uno_follows_the_hand",
        ALL,
        {**THREE, "a": "r7 g1"},
        "r5",
        ("a: play r7 @c",),
        {
            "hands": {"a": "b1 b2 b3", "c": "g1"},
            "legal": {"c": {"uno"}, "b": {"draw", "catch"}},
        },
        options={"jump_in": False},
    ),
    Case(
        "the_catch_falls_on_the_new_holder",
        ALL,
        {**THREE, "a": "r7 g1"},
        "r5",
        ("a: play r7 @c", "b: catch"),
        {"hands": {"c": 3, "a": 3}},
    ),
    Case(
        "a_called_uno_follows_the_hand",
        ALL,
        {**THREE, "a": "r7 g1"},
        "r5",
        ("a: uno", "a: play r7 @c"),
        {"legal": {"b": {"draw"}, "c": set()}},
        options={"jump_in": False},
    ),
    Case(
        "a_jump_in_with_a_seven_names_a_player_too",
        ("house",),
        {"a": "r7 g1 g2", "b": "y1 y2", "c": "r7 b2 b3"},
        "r5",
        ("a: play r7 @b",),
        {"legal": {"c": {"play r7 @a", "play r7 @b"}}},
    ),
    Case(
        "seven_zero_off_a_seven_is_a_number",
        ALL,
        THREE,
        "r5",
        ("a: play r7",),
        {
            "events": ["card_played"],
            "hands": {"a": "g1 g2", "c": "b1 b2 b3"},
        },
        options={"seven_zero": False},
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(SEVEN_ZERO))
def test_seven_zero(case: Case, preset: str) -> None:
    _run(case, preset, seven_zero=True)


def test_seven_zero_events() -> None:
    game = position(THREE, "r5", seven_zero=True)
    swapped = one(act(game, "a", "play r7 @b"), HandsSwapped)
    assert (swapped.player, swapped.other) == ("a", "b")
    game = position({**THREE, "a": "r0 g1"}, "r5", seven_zero=True, direction=-1)
    assert one(act(game, "a", "play r0"), HandsPassed).direction == -1


# ------------------------------------------------------------------ draw until playable

UNTIL = [
    Case(
        "draws_until_a_card_plays",
        ALL,
        {"a": "g1 g2", "b": "y1 y2", "c": "b1 b2"},
        "r5",
        ("a: draw",),
        {
            "events": ["cards_drawn"],
            "hands": {"a": "g1 g2 b1 y2 r3"},
            "legal": {"a": {"play r3", "pass"}},
        },
        draw="b1 y2 r3 y4",
    ),
    Case(
        "a_number_of_the_same_face_plays_too",
        ALL,
        {"a": "g1 g2", "b": "y1 y2", "c": "b1 b2"},
        "r5",
        ("a: draw", "a: pass"),
        {"hands": {"a": "g1 g2 b1 y5"}, "current": "b"},
        draw="b1 y5 r3",
    ),
    Case(
        "an_exhausted_table_stops_the_drawing",
        ALL,
        {"a": "g1 g2", "b": "y1 y2", "c": "b1 b2"},
        "r5",
        ("a: draw",),
        {"events": ["cards_drawn", "passed"], "hands": {"a": "g1 g2 b1 y2"}, "current": "b"},
        draw="b1 y2",
    ),
    Case(
        "penalties_are_unchanged",
        ALL,
        {"a": "r+2 g2", "b": "y1 y2", "c": "b1 b2"},
        "r5",
        ("a: play r+2",),
        {"hands": {"b": "y1 y2 b1 y2"}},
        draw="b1 y2 r3 y4",
        options={"jump_in": False},
    ),
]


@pytest.mark.parametrize(("case", "preset"), expand(UNTIL))
def test_draw_until_playable(case: Case, preset: str) -> None:
    _run(case, preset, draw_until_playable=True)


def test_draw_until_playable_reports_one_draw() -> None:
    game = position({"a": "g1", "b": "y1"}, "r5", draw="b1 b2 b3 r9", draw_until_playable=True)
    drawn = one(act(game, "a", "draw"), CardsDrawn)
    assert (drawn.count, [str(c) for c in drawn.cards]) == (4, ["b1", "b2", "b3", "r9"])


def test_draw_until_playable_stops_at_a_creeper() -> None:
    game = position(
        {"a": "g1", "b": "y1"},
        "r5",
        preset="minecraft",
        draw="b1 creeper b2 b3 b4 b6",
        draw_until_playable=True,
    )
    events = act(game, "a", "draw")
    assert names(events) == ["cards_drawn", "creeper_revealed", "cards_drawn"]
    assert hand(game, "a") == cards("g1 b1 creeper b2 b3 b4")
    assert {"play creeper r", "pass"} <= legal(game, "a")
    assert not of(events, RoundEnded)
