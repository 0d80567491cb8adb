"""Every refusal code in `core.errors.REASONS`, each reached by a real position.

An illegal action raises `IllegalAction` (a `ValueError`) with a stable `.reason` code that the
adapters translate, and leaves the game exactly as it was (`refused` checks `to_dict()`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from core import actions as A
from core.actions import Action
from core.cards import Card, Color, Kind
from core.errors import REASONS, IllegalAction
from core.game import Game
from core.rules import Rules
from tests.core.helpers import act, find_seed, position, refused, seats

HANDS = {"a": "r1 g7 wild wild4 r+2", "b": "y1 y2 g+2 r+2", "c": "r5 y6 y7 wild", "d": "b1 b2 b3"}


def _at(
    preset: str = "classic", *moves: str, a: str | None = None, **options: Any
) -> Callable[[], Game]:
    """A builder: HANDS (a's hand replaced by `a`) on r5, then the moves."""
    hands = HANDS if a is None else {**HANDS, "a": a}

    def build() -> Game:
        game = position(hands, "r3 r5", preset=preset, draw="r9 b6 b7 b8", **options)
        for move in moves:
            player, _, text = move.partition(":")
            act(game, player.strip(), text.strip())
        return game

    return build


def _over() -> Game:
    game = position({"a": "r1", "b": "y1", "c": "y2"}, "r5", scores={"a": 499})
    act(game, "a", "play r1")
    assert game.is_over
    return game


def _wild_first(game: Game) -> bool:
    return game.top_card.kind is Kind.WILD


def _first_wild() -> Game:
    return Game.new(
        seats(3), Rules.preset("classic"), find_seed("classic", 3, "a wild", _wild_first)
    )


def _flip_held(game: Game) -> bool:
    return any(game.top_card in game.hands[p] for p in game.players if p != game.current_player)


def _first_flip_held() -> Game:
    return Game.new(seats(6), Rules.preset("house"), find_seed("house", 6, "held flip", _flip_held))


def _holder_of_first_flip(game: Game) -> str:
    return next(
        p for p in game.players if p != game.current_player and game.top_card in game.hands[p]
    )


@dataclasses.dataclass(frozen=True)
class Refusal:
    reason: str
    setup: Callable[[], Game]
    player: str | Callable[[Game], str]
    action: str | Action | Callable[[Game], str]


CASES = [
    Refusal("game_over", _over, "b", "draw"),
    Refusal("not_a_player", _at(), "zed", "draw"),
    Refusal("not_your_turn", _at(), "b", "draw"),
    Refusal("turn_taken_by_jump_in", _at("house", "c: play r5"), "a", "draw"),
    Refusal("card_not_in_hand", _at(), "a", "play b9"),
    Refusal("does_not_match", _at(), "a", "play g7"),
    Refusal("wild_needs_color", _at(), "a", "play wild"),
    Refusal("color_not_allowed", _at(), "a", A.play(Card.parse("r1"), Color.RED)),
    Refusal("wild_four_not_allowed", _at("classic", no_bluffing=True), "a", "play wild4 g"),
    Refusal("must_choose_color", _first_wild, lambda g: g.current_player, "draw"),
    Refusal("nothing_to_choose", _at(), "a", "choose g"),
    Refusal("must_answer_penalty", _at("house", "a: play r+2"), "b", "draw"),
    Refusal("not_an_answer", _at("house", "a: play wild4 g"), "b", "play r+2"),
    Refusal("only_drawn_card", _at("classic", "a: draw"), "a", "play r1"),
    Refusal("already_drawn", _at("classic", "a: draw"), "a", "draw"),
    Refusal("must_draw_first", _at(), "a", "pass"),
    Refusal("nothing_to_accept", _at(), "a", "accept"),
    Refusal("nothing_to_challenge", _at(), "a", "challenge"),
    Refusal("not_your_challenge", _at("classic", "a: play wild4 g"), "c", "challenge"),
    Refusal("uno_not_now", _at(), "a", "uno"),
    Refusal("uno_already_called", _at("classic", "a: uno", a="r1 g7"), "a", "uno"),
    Refusal("nothing_to_catch", _at(), "b", "catch"),
    Refusal("cannot_catch_yourself", _at("classic", "a: play r1", a="r1 g7"), "a", "catch"),
    Refusal("jump_in_off", _at("minecraft"), "c", "play r5"),
    Refusal("jump_in_needs_identical", _at("house"), "c", "play y6"),
    Refusal(
        "jump_in_not_on_first_card",
        _first_flip_held,
        _holder_of_first_flip,
        lambda g: f"play {g.top_card}",
    ),
    Refusal("jump_in_not_with_wild", _at("house"), "c", "play wild g"),
    Refusal("one_draw_card_per_turn", _at("house", "a: play r+2", a="r+2 r+2 g7"), "a", "play r+2"),
    Refusal("seven_needs_target", _at(a="r7 g7", seven_zero=True), "a", "play r7"),
    Refusal("target_not_allowed", _at(a="r7 r1"), "a", "play r7 @b"),
    Refusal("not_a_target", _at(a="r7 g7", seven_zero=True), "a", "play r7 @zed"),
]


def _refuse(case: Refusal) -> str:
    game = case.setup()
    player = case.player if isinstance(case.player, str) else case.player(game)
    action = case.action(game) if callable(case.action) else case.action
    return refused(game, player, action)


@pytest.mark.parametrize("case", CASES, ids=[c.reason for c in CASES])
def test_reason(case: Refusal) -> None:
    assert _refuse(case) == case.reason


def test_every_reason_is_reached() -> None:
    reached = {_refuse(case) for case in CASES}
    assert reached == set(REASONS)
    assert len(REASONS) == len(set(REASONS))


def test_illegal_action_is_a_value_error_naming_the_move() -> None:
    game = _at()()
    with pytest.raises(ValueError) as info:
        act(game, "b", "play y1")
    error = info.value
    assert isinstance(error, IllegalAction)
    assert (error.reason, error.action, error.player) == ("not_your_turn", "play y1", "b")
    assert "play y1" in str(error) and "not_your_turn" in str(error)
