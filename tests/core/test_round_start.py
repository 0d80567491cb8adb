"""A round's start (RULES.md section 3): first dealer by draw, deal, first card, order, next dealer.

Seeds are found by scanning `Game.new` at test time for the situation each test needs, so the
tests keep working when the shuffle changes; each test then checks the situation it got.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from core.actions import ActionType
from core.cards import Kind
from core.events import (
    CardsDrawn,
    ColorChosen,
    CreeperRevealed,
    DealerCardDrawn,
    DealerChosen,
    DirectionChanged,
    DrawReason,
    FirstCardFlipped,
    FirstCardReturned,
    PenaltyPending,
    PlayerSkipped,
    RoundStarted,
)
from core.game import Game
from core.rules import Rules
from tests.core.helpers import (
    PRESETS,
    all_cards,
    deck,
    draw_pile_bottom_first,
    legal,
    of,
    one,
    seats,
)
from tests.core.helpers import find_seed as _find_seed

# ------------------------------------------------------------------ the dealer draw


def _rank(text: str) -> int:
    """The dealer-draw value, written independently: numbers count, anything else is zero."""
    return int(text[1]) if len(text) == 2 and text[1].isdigit() else 0


def _dealer_rounds(game: Game) -> list[list[tuple[str, str]]]:
    """The dealer draw split into rounds of (player, card): all players, then each tie."""
    draws = [(e.player, str(e.card)) for e in of(game.opening_events, DealerCardDrawn)]
    rounds: list[list[tuple[str, str]]] = []
    size = len(game.players)
    while draws:
        rounds.append(draws[:size])
        draws = draws[size:]
        best = max(_rank(c) for _, c in rounds[-1])
        size = sum(_rank(c) == best for _, c in rounds[-1])
    return rounds


def _check_dealer_draw(game: Game) -> list[list[tuple[str, str]]]:
    """Everyone draws; the highest number deals; those who tie draw again among themselves."""
    events = game.opening_events
    rounds = _dealer_rounds(game)
    assert [p for p, _ in rounds[0]] == game.players
    for earlier, later in itertools.pairwise(rounds):
        best = max(_rank(c) for _, c in earlier)
        tied = [p for p, c in earlier if _rank(c) == best]
        assert len(tied) > 1
        assert [p for p, _ in later] == tied
    last = rounds[-1]
    best = max(_rank(c) for _, c in last)
    winners = [p for p, c in last if _rank(c) == best]
    assert len(winners) == 1
    chosen = one(events, DealerChosen)
    assert chosen.player == winners[0] == game.dealer
    # The draw comes first, then the deal.
    assert events.index(chosen) < events.index(one(events, RoundStarted))
    return rounds


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 7, 10])
def test_dealer_draw_for_many_seeds(preset: str, players: int) -> None:
    for seed in range(30):
        _check_dealer_draw(Game.new(seats(players), Rules.preset(preset), seed))


def _tie(game: Game) -> bool:
    """A tie that leaves somebody out of the redraw (with two players, any tie)."""
    rounds = _dealer_rounds(game)
    return len(rounds) >= 2 and (len(rounds[1]) < len(game.players) or len(game.players) == 2)


def _tie_at_zero_with_an_action_card(game: Game) -> bool:
    first = [e for e in of(game.opening_events, DealerCardDrawn)][: len(game.players)]
    ranks = [_rank(str(e.card)) for e in first]
    return max(ranks) == 0 and any(e.card.kind is not Kind.NUMBER for e in first)


def _tie_twice(game: Game) -> bool:
    return len(_dealer_rounds(game)) >= 3


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 4, 10])
def test_dealer_draw_tie_redraws_among_the_tied(preset: str, players: int) -> None:
    seed = _find_seed(preset, players, "a dealer-draw tie", _tie)
    game = Game.new(seats(players), Rules.preset(preset), seed)
    rounds = _check_dealer_draw(game)
    assert len(rounds) >= 2
    assert len(rounds[1]) < players or players == 2


@pytest.mark.parametrize("preset", PRESETS)
def test_action_and_wild_cards_count_zero_in_the_dealer_draw(preset: str) -> None:
    seed = _find_seed(preset, 2, "a tie at zero", _tie_at_zero_with_an_action_card)
    game = Game.new(seats(2), Rules.preset(preset), seed)
    rounds = _check_dealer_draw(game)
    assert len(rounds) >= 2  # an action card and a 0 (or another action card) tie
    assert all(_rank(c) == 0 for _, c in rounds[0])


def test_dealer_draw_repeated_ties() -> None:
    seed = _find_seed("classic", 3, "two ties", _tie_twice)
    rounds = _check_dealer_draw(Game.new(seats(3), Rules.preset("classic"), seed))
    assert len(rounds) >= 3


# ------------------------------------------------------------------ the deal


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 6, 10])
def test_deal_seven_each_and_the_rest_is_the_draw_pile(preset: str, players: int) -> None:
    rules = Rules.preset(preset)
    game = Game.new(seats(players), rules, seed=players)
    started = one(game.opening_events, RoundStarted)
    assert (started.number, started.dealer, started.hand_size) == (1, game.dealer, 7)
    penalty = sum(e.count for e in of(game.opening_events, CardsDrawn))
    assert sum(len(game.hand(p)) for p in game.players) == 7 * players + penalty
    size = 108 + rules.creepers
    assert game.draw_pile_size == size - 7 * players - 1 - penalty
    assert all_cards(game) == deck(rules.creepers)


def test_same_seed_same_opening_and_different_seeds_differ() -> None:
    rules = Rules.preset("classic")
    a = Game.new(seats(4), rules, seed=11)
    b = Game.new(seats(4), rules, seed=11)
    assert a.to_dict() == b.to_dict()
    assert a.opening_events == b.opening_events
    others = {str(Game.new(seats(4), rules, seed=s).to_dict()["hands"]) for s in range(12, 20)}
    assert len(others) == 8


# ------------------------------------------------------------------ the first card


def _flipped(game: Game) -> FirstCardFlipped:
    return one(game.opening_events, FirstCardFlipped)


def _flip_kind(kind: Kind) -> Callable[[Game], bool]:
    def predicate(game: Game) -> bool:
        return _flipped(game).card.kind is kind

    return predicate


FLIPS = {kind: _flip_kind(kind) for kind in Kind}


def _returned_kind(kind: Kind) -> Callable[[Game], bool]:
    def predicate(game: Game) -> bool:
        return any(e.card.kind is kind for e in of(game.opening_events, FirstCardReturned))

    return predicate


RETURNS = {kind: _returned_kind(kind) for kind in Kind}


def _new(preset: str, players: int, kind: Kind) -> Game:
    seed = _find_seed(preset, players, f"a first {kind.value}", FLIPS[kind])
    game = Game.new(seats(players), Rules.preset(preset), seed)
    assert _flipped(game).card.kind is kind  # the seed still gives what the test needs
    return game


def _left_of(game: Game, player: str, steps: int = 1) -> str:
    return game.players[(game.players.index(player) + steps) % len(game.players)]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_first_number_card_left_of_dealer_starts_clockwise(preset: str, players: int) -> None:
    game = _new(preset, players, Kind.NUMBER)
    card = _flipped(game).card
    assert game.top_card is card
    assert game.current_color is card.color
    assert game.direction == 1
    assert game.current_player == _left_of(game, game.dealer)
    assert not of(game.opening_events, FirstCardReturned)
    assert not of(game.opening_events, PlayerSkipped)


@pytest.mark.parametrize("preset", ["classic", "minecraft"])
@pytest.mark.parametrize("players", [2, 4])
def test_first_skip_skips_the_first_player(preset: str, players: int) -> None:
    game = _new(preset, players, Kind.SKIP)
    first = _left_of(game, game.dealer)
    assert one(game.opening_events, PlayerSkipped).player == first
    assert game.current_player == _left_of(game, game.dealer, 2)
    assert game.direction == 1
    assert len(game.hand(first)) == 7


@pytest.mark.parametrize("preset", ["classic", "minecraft"])
@pytest.mark.parametrize("players", [2, 4])
def test_first_reverse_dealer_plays_first_to_the_right(preset: str, players: int) -> None:
    game = _new(preset, players, Kind.REVERSE)
    assert one(game.opening_events, DirectionChanged).direction == -1
    assert game.direction == -1
    assert game.current_player == game.dealer
    assert game.next_player() == game.players[(game.players.index(game.dealer) - 1) % players]


@pytest.mark.parametrize("preset", ["classic", "minecraft"])
@pytest.mark.parametrize("players", [2, 4])
def test_first_draw_two_first_player_draws_two_and_is_skipped(preset: str, players: int) -> None:
    game = _new(preset, players, Kind.DRAW_TWO)
    first = _left_of(game, game.dealer)
    events = game.opening_events
    drawn = [e for e in of(events, CardsDrawn) if e.reason is DrawReason.DRAW_TWO]
    assert [(e.player, e.count) for e in drawn] == [(first, 2)]
    extra = sum(e.count for e in of(events, CardsDrawn) if e.reason is DrawReason.CREEPER)
    assert len(game.hand(first)) == 9 + extra
    assert one(events, PlayerSkipped).player == first
    assert not of(events, PenaltyPending)
    assert game.current_player == _left_of(game, game.dealer, 2)


@pytest.mark.parametrize(
    ("preset", "kind"),
    [("classic", Kind.WILD), ("minecraft", Kind.WILD), ("minecraft", Kind.CREEPER)],
)
def test_first_wild_first_player_chooses_then_plays(preset: str, kind: Kind) -> None:
    game = _new(preset, 4, kind)
    first = _left_of(game, game.dealer)
    assert game.current_player == first
    assert game.current_color is None
    assert legal(game, first) == {"choose r", "choose y", "choose g", "choose b"}
    for other in game.players:
        if other != first:
            assert game.legal_actions(other) == []
    assert not of(game.opening_events, CreeperRevealed)  # a flipped Creeper is not drawn
    events = game.apply(first, next(a for a in game.legal_actions(first) if "g" in str(a)))
    assert one(events, ColorChosen).color.value == "g"
    assert str(game.current_color) == "g"
    # Then a normal turn: still the first player, who may draw or play.
    assert game.current_player == first
    actions = game.legal_actions(first)
    assert {a.type for a in actions} >= {ActionType.DRAW}
    assert all(a.type is not ActionType.CHOOSE for a in actions)


@pytest.mark.parametrize("preset", ["classic", "minecraft"])
def test_first_wild_draw_four_goes_back_and_another_card_is_flipped(preset: str) -> None:
    seed = _find_seed(preset, 3, "a first wild4", RETURNS[Kind.WILD_FOUR])
    game = Game.new(seats(3), Rules.preset(preset), seed)
    returned = of(game.opening_events, FirstCardReturned)
    assert returned and all(e.card.kind is Kind.WILD_FOUR for e in returned)
    assert _flipped(game).card.kind is not Kind.WILD_FOUR
    assert game.top_card is _flipped(game).card
    assert len(game.to_dict()["discard"].split()) == 1
    assert "wild4" in draw_pile_bottom_first(game) or any(
        "wild4" in [str(c) for c in game.hand(p)] for p in game.players
    )
    assert all_cards(game) == deck(Rules.preset(preset).creepers)


@pytest.mark.parametrize("preset", ["classic", "minecraft"])
def test_only_wild_draw_four_is_returned_outside_house(preset: str) -> None:
    for seed in range(60):
        game = Game.new(seats(4), Rules.preset(preset), seed)
        assert all(
            e.card.kind is Kind.WILD_FOUR for e in of(game.opening_events, FirstCardReturned)
        )


HOUSE_RETURNED = [Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO, Kind.WILD, Kind.WILD_FOUR]


@pytest.mark.parametrize("kind", HOUSE_RETURNED, ids=lambda k: k.value)
def test_house_first_card_must_be_a_number(kind: Kind) -> None:
    seed = _find_seed("house", 4, f"a returned {kind.value}", RETURNS[kind])
    game = Game.new(seats(4), Rules.preset("house"), seed)
    events = game.opening_events
    returned = of(events, FirstCardReturned)
    assert any(e.card.kind is kind for e in returned)
    assert all(e.card.kind is not Kind.NUMBER for e in returned)
    card = _flipped(game).card
    assert card.kind is Kind.NUMBER
    assert events.index(returned[-1]) < events.index(_flipped(game))
    # No first-card effect: the player left of the dealer starts, clockwise, nothing pending.
    assert game.current_player == _left_of(game, game.dealer)
    assert game.direction == 1
    assert not of(events, PlayerSkipped) and not of(events, CardsDrawn)
    assert game.current_color is card.color
    # The returned cards went back into the draw pile, the first one into its middle half.
    pile = draw_pile_bottom_first(game)
    assert all_cards(game) == deck()
    middle = pile[len(pile) // 4 : 3 * len(pile) // 4 + 1]
    assert str(returned[0].card) in middle


def test_house_flips_only_numbers_over_many_seeds() -> None:
    for seed in range(80):
        game = Game.new(seats(3), Rules.preset("house"), seed)
        assert game.top_card.kind is Kind.NUMBER


# ------------------------------------------------------------------ next round's dealer


def _play_to_round_two(game: Game, rng: random.Random) -> RoundStarted:
    for _ in range(20_000):
        moves = [(p, a) for p in game.players for a in game.legal_actions(p)]
        player, action = rng.choice(moves)
        for event in game.apply(player, action):
            if isinstance(event, RoundStarted):
                return event
    raise AssertionError("the round did not end")


@pytest.mark.parametrize(
    ("preset", "kind", "first_turn"),
    [
        ("classic", Kind.NUMBER, 1),
        ("classic", Kind.SKIP, 2),
        ("classic", Kind.DRAW_TWO, 2),
        ("classic", Kind.REVERSE, 0),
        ("classic", Kind.WILD, 1),
        ("minecraft", Kind.CREEPER, 1),
        ("house", Kind.NUMBER, 1),
    ],
)
def test_next_dealer_is_left_of_the_dealer(preset: str, kind: Kind, first_turn: int) -> None:
    """RULES.md 3.5: the deal passes one seat to the left every round, whatever the first card
    did (who took the first turn does not matter)."""
    game = _new(preset, 4, kind)
    dealer = game.dealer
    assert game.current_player == _left_of(game, dealer, first_turn)
    started = _play_to_round_two(game, random.Random(7))
    assert started.number == 2
    assert started.dealer == _left_of(game, dealer)
    assert game.dealer == started.dealer
    assert game.round_no == 2
