"""The public facts about hidden hands (`core.tells`): what each player was seen to draw on by
choice, and how many cards entered their hand since."""

from __future__ import annotations

import dataclasses
import random

import pytest

from core.ai import inference
from core.ai.baselines import greedy_player, random_player
from core.game import Game
from core.rules import Rules
from tests.core.helpers import PRESETS, act, position


def _facts(game: Game, player: str) -> list[tuple[str, str, int]]:
    """`player`'s facts as (top card, color, cards new to it), oldest first."""
    draws = game.drew_on.get(player)
    if draws is None:
        return []
    return [(f.top.text, f.color.value, draws.since(f)) for f in draws.facts]


def test_a_draw_by_choice_records_the_top_card_and_color() -> None:
    game = position({"a": "b5 y7", "b": "g1 g2"}, "r9 r3", draw="g4 b1 b2")
    act(game, "a", "draw")  # g4 does not play on r3: kept, the turn passes
    assert _facts(game, "a") == [("r3", "r", 0)]
    assert list(game.drew_on) == ["a"]


def test_a_playable_drawn_card_kept_is_a_new_card_to_the_fact() -> None:
    game = position({"a": "b5 y7", "b": "g1 g2"}, "r9 r3", draw="r4 b1 b2")
    act(game, "a", "draw")
    assert _facts(game, "a") == [("r3", "r", 0)]
    act(game, "a", "pass")
    assert _facts(game, "a") == [("r3", "r", 1)]


def test_later_draws_are_new_cards_to_the_earlier_facts() -> None:
    game = position({"a": "b5", "b": "r1 g2", "c": "y1 y2"}, "r3", draw="g4 b2 b3 b4")
    act(game, "a", "draw")  # g4 kept: b5 and g4 are old to the fact
    act(game, "b", "play r1")
    act(game, "c", "draw")
    act(game, "a", "draw")  # b3 kept: new to the first fact, old to the second
    assert _facts(game, "a") == [("r3", "r", 1), ("r1", "r", 0)]
    assert _facts(game, "c") == [("r1", "r", 0)]


def test_penalty_cards_are_new_to_the_facts() -> None:
    game = position({"a": "b5 y7", "b": "g1 g2", "c": "r+2 y1"}, "r3", draw="g4 b1 b2 b3 b4")
    act(game, "a", "draw")
    act(game, "b", "draw")
    act(game, "c", "play r+2")  # a holds nothing to answer with: takes two at once
    assert len(game.hands["a"]) == 5
    assert _facts(game, "a") == [("r3", "r", 2)]


def test_a_new_round_forgets_every_fact() -> None:
    game = position({"a": "b5 y7", "b": "r1"}, "r3", draw="g4 b1 b2 b3 b4 b6 b7 b8 b9")
    act(game, "a", "draw")
    assert game.drew_on
    act(game, "b", "play r1")  # b goes out: the next round is dealt
    assert game.round_no == 2
    assert game.drew_on == {}


def test_under_seven_zero_the_facts_follow_the_hands() -> None:
    game = position(
        {"a": "b5 y7", "b": "r7 g2 g3", "c": "y1 y2"}, "r9 r3", draw="g4 b1 b2", seven_zero=True
    )
    act(game, "a", "draw")
    act(game, "b", "play r7 @a")
    assert list(game.drew_on) == ["b"]
    assert _facts(game, "b") == [("r3", "r", 0)]


def test_the_facts_round_trip_and_old_states_load_without_them() -> None:
    game = position({"a": "b5 y7", "b": "g1 g2"}, "r9 r3", draw="r4 b1 b2")
    act(game, "a", "draw")
    act(game, "a", "pass")
    data = game.to_dict()
    assert data["drew_on"] == {"a": {"taken": 1, "facts": [["r3", "r", 0]]}}
    assert _facts(Game.from_dict(data), "a") == [("r3", "r", 1)]
    del data["drew_on"]
    assert Game.from_dict(data).drew_on == {}


@pytest.mark.parametrize("preset", PRESETS)
def test_players_who_draw_only_when_nothing_plays_hold_what_the_facts_imply(preset: str) -> None:
    """Against the baselines (they draw only when nothing plays and play a playable drawn card)
    the belief read from the facts is never wrong: at every step, every player holds at least
    as many cards outside each layer's set as the layer says. Seven-zero and "draw until
    playable" move and count cards in ways of their own, so some rounds have them."""
    checked = 0
    players = ["p0", "p1", "p2", "p3"]
    for seed in range(12):
        rules = dataclasses.replace(
            Rules.preset(preset),
            target=1,
            seven_zero=seed % 2 == 1,
            draw_until_playable=seed % 4 == 3,
        )
        game = Game.new(players, rules, seed=seed)
        policy = greedy_player if seed % 3 else random_player
        rngs = {p: random.Random(f"{seed}:{p}") for p in players}
        for _ in range(2000):
            if game.is_over:
                break
            mover = next(
                (p, a)
                for p in [game.current_player, *players]
                if p in game.hands and (a := policy(game, p, rngs[p])) is not None
            )
            game.apply(*mover)
            for p in game.players:
                for count, missing in inference.layers(game, p):
                    assert sum(1 for c in game.hands[p] if c not in missing) >= count
                    checked += 1
    assert checked > 500
