"""Property tests over random matches of every preset with 2-10 players.

A match is driven by a random choice among ALL players' legal actions (on turn and off turn:
catches, UNO calls, jump-ins), so every rule gets exercised; half the time it picks among the
plays only, so that rounds end (`_pick`). Checked:

- the total number of cards never changes (and at round ends, the exact deck composition);
- the legal actions are listed once each, the plays first (`legal_actions` promises both);
- every listed action applies, and only listed actions do: at sampled steps the whole action
  space (every card with no color or each color, plus draw/pass/accept/challenge/uno/catch and
  choose x4) is tried for every player and a stranger: `apply` succeeds on a copy iff listed;
- an illegal action raises `IllegalAction` and leaves `to_dict()` unchanged (one random illegal
  action at every step, the whole space at the sampled steps);
- `from_dict(to_dict())` is identical at every step: a twin game is rebuilt from its dict before
  every move and must stay equal to the original, event for event;
- the same seed replays the same match (the twin is a second `Game.new` with the same seed);
- `default_action` is always legal for the player to act and None for everyone else;
- every match ends, with winners and a score at the target (or one player left: now and then
  somebody leaves mid-game, or times out).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions import Action, ActionType
from core.cards import ALL_CARDS, COLORS, Card
from core.errors import IllegalAction
from core.events import (
    CardsDrawn,
    Event,
    GameEnded,
    HandRevealed,
    RoundEnded,
    event_from_dict,
    event_to_dict,
)
from core.game import Game
from core.rules import Rules, Scoring
from tests.core.helpers import PRESETS, all_cards, deck, seats

SPACE: tuple[Action, ...] = (
    *(Action(ActionType.PLAY, card, color) for card in ALL_CARDS for color in (None, *COLORS)),
    # seven-zero: a 7 naming a player (and a 5, which may not)
    *(
        Action(ActionType.PLAY, Card.parse(card), None, player)
        for card in ("r7", "y7", "g7", "b7", "r5")
        for player in seats(10)
    ),
    *(Action(t) for t in ActionType if t not in (ActionType.PLAY, ActionType.CHOOSE)),
    *(Action(ActionType.CHOOSE, color=color) for color in COLORS),
)
MAX_STEPS = 60_000
OPTIONS = (
    "stacking",
    "seven_zero",
    "draw_until_playable",
    "jump_in",
    "pass_draw_two",
    "defend_wild_four",
)


@st.composite
def matches(draw: st.DrawFn, preset: str) -> tuple[Rules, int, int, int]:
    """(rules, players, seed, driver seed) for a preset, options switched now and then (the
    options from other tables included, switched through `Rules.with_option`)."""
    rules = Rules.preset(preset)
    rules = dataclasses.replace(
        rules,
        target=draw(st.integers(1, 120)),
        no_bluffing=draw(st.booleans()) and draw(st.booleans()),
        scoring=draw(st.sampled_from([Scoring.WINNER, Scoring.WINNER, Scoring.TALLY])),
    )
    for name in OPTIONS:
        if draw(st.booleans()):
            rules = rules.with_option(name, not getattr(rules, name), Rules.preset(preset))
    return rules, draw(st.integers(2, 10)), draw(st.integers(0, 2**32)), draw(st.integers(0, 999))


def _moves(game: Game) -> list[tuple[str, Action]]:
    return [(p, a) for p in game.players for a in game.legal_actions(p)]


def _pick(moves: list[tuple[str, Action]], rng: random.Random) -> tuple[str, Action]:
    """A random move; half the time a random play when there is one. Uniform over every move,
    two random players draw far more than they play (under "draw until playable" a draw takes
    many cards, and seven-zero keeps swapping the hands), and a round can run for hundreds of
    thousands of moves; with the bias every match ends in a few thousand."""
    plays = [m for m in moves if m[1].type is ActionType.PLAY]
    if plays and rng.random() < 0.5:
        return rng.choice(plays)
    return rng.choice(moves)


def _check_events(events: list[Event]) -> None:
    for event in events:
        assert event_from_dict(event_to_dict(event)) == event
        if isinstance(event, CardsDrawn):
            assert event.count == len(event.cards)
        private = event.is_private_to()
        assert private is None or (isinstance(event, HandRevealed) and private == event.viewer)


def _check_whole_space(game: Game) -> None:
    """Every action of the space for every player (and a stranger): applies iff listed."""
    before = game.to_dict()
    total = sum(all_cards(game).values())
    for player in [*game.players, "stranger"]:
        listed = game.legal_actions(player)
        assert len(set(listed)) == len(listed), f"duplicates for {player}: {listed}"
        is_play = [a.type is ActionType.PLAY for a in listed]
        assert is_play == sorted(is_play, reverse=True), f"plays not first: {listed}"
        for action in SPACE:
            if action in listed:
                copy = Game.from_dict(before)
                events = copy.apply(player, action)
                _check_events(events)
                assert sum(all_cards(copy).values()) == total
            else:
                try:
                    game.apply(player, action)
                except IllegalAction as error:
                    assert error.reason  # a known code (IllegalAction asserts it)
                else:
                    raise AssertionError(f"unlisted {action} by {player} was applied")
        assert game.to_dict() == before, f"a refused action by {player} changed the game"


def _check_default_action(game: Game) -> None:
    current = game.current_player
    for player in game.players:
        default = game.default_action(player)
        if player == current:
            assert default is not None and default in game.legal_actions(player)
        else:
            assert default is None


def _finish(game: Game) -> None:
    assert game.is_over
    winners = game.game_winners
    assert winners and set(winners) <= set(game.players)
    scores = game.scores
    if len(game.players) == 1:  # everybody else left
        assert winners == tuple(game.players)
    else:
        assert max(scores.values()) >= game.rules.target
        best = (min if game.rules.scoring is Scoring.TALLY else max)(scores.values())
        assert {p for p in game.players if scores[p] == best} == set(winners)
    for player in game.players:
        assert game.legal_actions(player) == []
        assert game.default_action(player) is None


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10)
@given(data=st.data())
def test_random_matches(preset: str, data: st.DataObject) -> None:
    rules, n, seed, driver = data.draw(matches(preset))
    rng = random.Random(driver)
    game = Game.new(seats(n), rules, seed)
    twin = Game.new(seats(n), rules, seed)
    state = game.to_dict()
    assert twin.to_dict() == state
    assert twin.opening_events == game.opening_events
    _check_events(game.opening_events)
    size = 108 + rules.creepers
    assert all_cards(game) == deck(rules.creepers)
    for step in range(MAX_STEPS):
        if game.is_over:
            break
        moves = _moves(game)
        assert moves, "nobody can move in a match that is not over"
        assert any(p == game.current_player for p, _ in moves)
        _check_default_action(game)
        if step % 4 == 0:
            # A random illegal action by a random player: refused, nothing changed.
            player = rng.choice(game.players)
            listed = game.legal_actions(player)
            action = rng.choice(SPACE)
            while action in listed:
                action = rng.choice(SPACE)
            with pytest.raises(IllegalAction):
                game.apply(player, action)
            assert game.to_dict() == state, f"refused {action} by {player} changed the game"
        # The twin is rebuilt from its own dict before every move.
        twin = Game.from_dict(twin.to_dict())
        if rng.random() < 0.001:  # now and then somebody leaves
            leaver = rng.choice(game.players)
            events, twin_events = game.remove_player(leaver), twin.remove_player(leaver)
        elif rng.random() < 0.01:  # or runs out of time
            late = game.current_player
            events, twin_events = game.time_out(late), twin.time_out(late)
        else:
            player, action = _pick(moves, rng)
            events, twin_events = game.apply(player, action), twin.apply(player, action)
        _check_events(events)
        assert twin_events == events
        state = game.to_dict()
        assert twin.to_dict() == state
        discard = len(state["discard"].split())
        assert sum(game.hand_sizes().values()) + game.draw_pile_size + discard == size
        if any(isinstance(e, (RoundEnded, GameEnded)) for e in events):
            assert all_cards(game) == deck(rules.creepers)
    else:
        raise AssertionError(f"no end after {MAX_STEPS} steps")
    _finish(game)


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10)
@given(data=st.data())
def test_only_listed_actions_are_legal(preset: str, data: st.DataObject) -> None:
    """At a few random steps of a match, the whole action space for every player."""
    rules, n, seed, driver = data.draw(matches(preset))
    pick = data.draw(st.integers(0, 999))
    rng = random.Random(driver)
    game = Game.new(seats(n), rules, seed)
    sampled = {0, *random.Random(pick).sample(range(1, 400), 3)}
    for step in range(400):
        if game.is_over:
            break
        if step in sampled:
            _check_whole_space(game)
        game.apply(*_pick(_moves(game), rng))
    _check_whole_space(game)  # the last position, or a finished match


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=4)
@given(data=st.data())
def test_same_seed_replays_the_same_match(preset: str, data: st.DataObject) -> None:
    """Two runs with the same seed and the same choices: the same events and states."""
    rules, n, seed, driver = data.draw(matches(preset))

    def run() -> tuple[list[dict[str, object]], dict[str, object]]:
        rng = random.Random(driver)
        game = Game.new(seats(n), rules, seed)
        log = [event_to_dict(e) for e in game.opening_events]
        for _ in range(MAX_STEPS):
            if game.is_over:
                break
            log.extend(event_to_dict(e) for e in game.apply(*_pick(_moves(game), rng)))
        return log, game.to_dict()

    first, second = run(), run()
    assert first == second
    assert first[1]["winners"]
