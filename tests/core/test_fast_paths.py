"""The engine's fast paths agree with its general path, move for move.

`legal_actions` and `apply` write out the calm ordinary turn and the play of a card just drawn
(`Game._sync_turn` says when those apply); every other position goes through the general code.
Here a match is played twice in lockstep: once as is, once with the fast paths switched off
before every call (a position whose `_fast`, `_drew` and `_owe` name nobody takes the general path).
Both must list the same actions, accept and refuse the same moves with the same reasons, and
produce the same events and states. The incremental bookkeeping is checked too: after every
move, `current_player`, `_fast`, `_drew` and `_owe` equal what `_sync_turn` computes from scratch.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions import Action, ActionType
from core.cards import ALL_CARDS, COLORS
from core.errors import IllegalAction
from core.events import Event
from core.game import Game
from core.rules import Rules, Scoring
from tests.core.helpers import PRESETS, seats

SPACE: tuple[Action, ...] = (
    *(Action(ActionType.PLAY, card, color) for card in ALL_CARDS for color in (None, *COLORS)),
    *(Action(t) for t in ActionType if t not in (ActionType.PLAY, ActionType.CHOOSE)),
    *(Action(ActionType.CHOOSE, color=color) for color in COLORS),
)


def _general(game: Game) -> Game:
    """A copy of `game` that can only take the general path for its next call."""
    copy = Game.from_dict(game.to_dict())
    copy._fast = copy._drew = copy._owe = ""
    return copy


def _outcome(game: Game, player: str, action: Action) -> tuple[str, list[Event] | str]:
    try:
        return "applied", game.apply(player, action)
    except IllegalAction as error:
        return "refused", error.reason


def _check_bookkeeping(game: Game) -> None:
    fresh = Game.from_dict(game.to_dict())  # from_dict derives them from the state
    assert game.current_player == game.players[game.current]
    assert (game._fast, game._drew, game._owe) == (fresh._fast, fresh._drew, fresh._owe)


def _play_lockstep(rules: Rules, n: int, seed: int, driver: int, probes: int) -> int:
    """Play a match; at every step compare with the general path. Returns the fast moves."""
    rng = random.Random(driver)
    game = Game.new(seats(n), rules, seed)
    fast_moves = 0
    for _ in range(1500):
        if game.is_over:
            break
        _check_bookkeeping(game)
        slow = _general(game)  # listing actions changes nothing, so one copy serves all
        for player in game.players:
            assert game.legal_actions(player) == slow.legal_actions(player)
        for action in rng.sample(SPACE, probes):
            player = rng.choice(game.players)
            fast = Game.from_dict(game.to_dict())
            slow = _general(game)
            assert _outcome(fast, player, action) == _outcome(slow, player, action)
            assert fast.to_dict() == slow.to_dict()
        # Mostly the player to act, so that the fast paths get most of the moves.
        player = game.current_player
        if rng.random() < 0.15:
            player = rng.choice(game.players)
        legal = game.legal_actions(player)
        if not legal:
            continue
        action = rng.choice(legal)
        fast_moves += player in (game._fast, game._drew, game._owe)
        slow = _general(game)
        events = game.apply(player, action)
        assert slow.apply(player, action) == events
        assert slow.to_dict() == game.to_dict()
    return fast_moves


@st.composite
def matches(draw: st.DrawFn, preset: str) -> tuple[Rules, int, int, int]:
    rules = dataclasses.replace(
        Rules.preset(preset),
        target=draw(st.integers(1, 60)),
        no_bluffing=draw(st.booleans()) and draw(st.booleans()),
        two_player_reverse_skips=draw(st.booleans()) or draw(st.booleans()),
        scoring=draw(st.sampled_from([Scoring.WINNER, Scoring.TALLY])),
    )
    return rules, draw(st.integers(2, 10)), draw(st.integers(0, 2**32)), draw(st.integers(0, 999))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_fast_and_general_paths_agree(preset: str, data: st.DataObject) -> None:
    rules, n, seed, driver = data.draw(matches(preset))
    _play_lockstep(rules, n, seed, driver, probes=2)


def test_most_moves_of_an_ordinary_match_take_the_fast_paths() -> None:
    """Not a speed test: it shows the comparison above exercised the fast paths at all."""
    fast = _play_lockstep(Rules.preset("classic"), 4, 11, 5, probes=0)
    assert fast > 20


def test_an_equal_but_distinct_player_id_gets_the_same_answers() -> None:
    """Ids that arrive from a chat are equal to the seated ones, not the same objects."""
    game = Game.new(seats(4), Rules.preset("classic"), 3)
    twin = Game.from_dict(game.to_dict())
    rng = random.Random(1)
    for _ in range(200):
        if game.is_over:
            break
        player = game.current_player
        other = "".join(list(player))  # a new string object, equal to the seated id
        assert other == player and other is not player
        legal = game.legal_actions(player)
        assert twin.legal_actions(other) == legal
        action = rng.choice(legal)
        assert twin.apply(other, action) == game.apply(player, action)
        assert twin.to_dict() == game.to_dict()


@pytest.mark.parametrize(
    ("text", "hand"),
    [
        ("play wild4 g", "wild4 b2"),  # a Wild Draw Four as the second-to-last card
        ("play r5", "r5 b2"),  # a number as the second-to-last card
        ("play r+2", "r+2 b2"),  # a Draw Two as the second-to-last card
        ("play rskip", "rskip b2"),
        ("play rrev", "rrev b2"),
    ],
)
@pytest.mark.parametrize("players", [2, 3])
def test_going_down_to_one_card_unannounced(text: str, hand: str, players: int) -> None:
    """The next turn is played with a catch in the air: both paths list it and close it."""
    names = ["a", "b", "c"][:players]
    hands = {"a": hand, "b": "g1 g3 y7", "c": "y1 y2 y3"}
    game = Game.from_position(
        names, {p: hands[p] for p in names}, "r9", "b5 b6 b7 b8 b9", Rules.preset("classic")
    )
    slow = _general(game)
    action = Action.parse(text)
    assert game.apply("a", action) == slow.apply("a", action)
    assert game.catchable == "a"
    for _ in range(3):  # the next moves, whoever makes them
        _check_bookkeeping(game)
        slow = _general(game)
        for player in names:
            assert game.legal_actions(player) == slow.legal_actions(player)
        player = game.current_player
        move = game.legal_actions(player)[0]
        assert game.apply(player, move) == slow.apply(player, move)
        assert game.to_dict() == slow.to_dict()
        if game.is_over:
            break
