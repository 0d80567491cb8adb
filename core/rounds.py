"""A round from deal to score (RULES.md sections 3, 5 and 6): the first dealer, the deal, the first
flip, going out, a blocked round, scoring, and the deal passing on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from core import effects, penalty, piles
from core.cards import WILD_FOUR, Card, Kind, hand_points, standard_deck
from core.events import (
    DealerCardDrawn,
    DealerChosen,
    DrawReason,
    Event,
    FirstCardFlipped,
    FirstCardReturned,
    GameEnded,
    RoundEnded,
    RoundStarted,
)
from core.rules import Scoring
from core.shuffle import more_numbers, shuffled
from core.state import State

HAND_SIZE = 7
_DECKS: dict[int, tuple[Card, ...]] = {}


def deck(creepers: int) -> tuple[Card, ...]:
    """`standard_deck(creepers)`, built once per creeper count."""
    cards = _DECKS.get(creepers)
    if cards is None:
        cards = _DECKS[creepers] = tuple(standard_deck(creepers))
    return cards


def choose_dealer(
    game: State, events: list[Event], numbers: Sequence[int], first: int, label: str
) -> None:
    """Everyone draws a card; the highest number deals; ties draw again among themselves.

    Each draw takes a uniformly random card of those left: the same as drawing from the top of a
    shuffled deck, without shuffling the hundred cards nobody draws. The draws use `numbers`
    from index `first` on, then (after many ties) the stream after `label`'s.
    """
    cards = list(deck(game.rules.creepers))
    contenders = game.players
    stream: Iterator[int] = iter(numbers[first:])
    while True:
        best = -1
        tied: list[str] = []
        for p in contenders:
            if not cards:
                cards = list(deck(game.rules.creepers))
            number = next(stream, None)
            if number is None:
                stream = more_numbers(label)
                number = next(stream)
            j = number % len(cards)
            card = cards[j]
            cards[j] = cards[-1]
            cards.pop()
            events.append(DealerCardDrawn(p, card))
            if card.rank > best:
                best = card.rank
                tied = [p]
            elif card.rank == best:
                tied.append(p)
        if len(tied) == 1:
            break
        contenders = tied
    game.dealer = tied[0]
    events.append(DealerChosen(game.dealer))


def start(game: State, events: list[Event], numbers: Sequence[int] | None = None) -> None:
    """Deal seven each and flip the first card, which takes its effect (`core.effects`)."""
    game.round_no += 1
    full = deck(game.rules.creepers)
    pile = shuffled(full, game.numbers(len(full)) if numbers is None else numbers)
    players = game.players
    # The deck is in random order, so dealing seven at a time is the same as one at a time.
    at = start_at = len(pile) - HAND_SIZE * len(players)
    game.hands = {}
    for p in players:
        game.hands[p] = pile[at : at + HAND_SIZE]
        at += HAND_SIZE
    del pile[start_at:]
    game.draw_pile = pile
    game.discard = []
    game.direction = 1
    game.clear_turn()
    events.append(RoundStarted(game.round_no, game.dealer, HAND_SIZE))
    card = flip(game, events)
    dealer = players.index(game.dealer)
    game.color = card.color  # None for a wild: the first player chooses it
    if card.kind is Kind.SKIP:
        effects.skip(game, dealer, events)
    elif card.kind is Kind.REVERSE:
        effects.reverse(game, dealer, events, flipped=True)
    elif card.kind is Kind.DRAW_TWO:
        effects.draw_two(game, dealer, card, events)
    else:
        game.turn_to_next(dealer)
    game.first_turn_player = game.current_player


def flip(game: State, events: list[Event]) -> Card:
    """The round's first card: a Wild Draw Four goes back and the pile is reshuffled; with
    "first card a number" any other card goes back into the middle of the pile."""
    pile = game.draw_pile
    while True:
        card = pile.pop()
        if game.rules.first_card_number and card.kind is not Kind.NUMBER:
            pile.insert(len(pile) // 2, card)
        elif card is WILD_FOUR:
            pile.append(card)
            game.shuffle(pile)
        else:
            break
        events.append(FirstCardReturned(card))
    game.discard.append(card)
    game.first_flip = True
    events.append(FirstCardFlipped(card))
    return card


def go_out(game: State, winner: str, card: Card, events: list[Event]) -> None:
    """The last card still hits the next player, with no answer possible; then score."""
    game.catchable = None
    if card.kind is Kind.DRAW_TWO or card is WILD_FOUR:
        amount = penalty.amount_of(game, card)
        game.pending = None
        target = game.players[game.step(game.current)]
        reason = DrawReason.DRAW_TWO if card.kind is Kind.DRAW_TWO else DrawReason.WILD_FOUR
        piles.draw(game, target, amount, reason, events)
    game.pending = None
    end(game, winner, events)


def count_blocked_turn(game: State, events: list[Event]) -> None:
    """Nothing to draw and nothing to play, all round the table: the round cannot go on. It
    ends, and the lowest hand wins it (on a tie the earliest seat after the dealer), scoring as
    if that player had gone out (RULES.md 6, cases no sheet covers)."""
    game.blocked_turns += 1
    n = len(game.players)
    if game.blocked_turns < n:
        return
    dealer = game.players.index(game.dealer)
    order = [game.players[(dealer + i) % n] for i in range(1, n + 1)]
    winner = min(order, key=lambda p: hand_points(game.hands[p]))
    end(game, winner, events, blocked=True)


def end(game: State, winner: str, events: list[Event], *, blocked: bool = False) -> None:
    """Score the round; the match ends at the target, or the deal passes one seat to the left
    and the next round starts."""
    game.catchable = None
    points = {p: hand_points(game.hands[p]) for p in game.players}
    totals = game.scores_
    tally = game.rules.scoring is Scoring.TALLY
    if tally:
        gained = dict(points)
    else:
        gained = dict.fromkeys(game.players, 0)
        gained[winner] = sum(points.values()) - points[winner]
    for p in game.players:
        totals[p] += gained[p]
    game.round_winner = winner
    events.append(RoundEnded(winner, points, gained, dict(totals), blocked))
    if max(totals.values()) >= game.rules.target:
        best = (min if tally else max)(totals.values())
        end_match(game, tuple(p for p in game.players if totals[p] == best), events)
        return
    players = game.players
    game.dealer = players[(players.index(game.dealer) + 1) % len(players)]
    start(game, events)


def end_match(game: State, winners: tuple[str, ...], events: list[Event]) -> None:
    game.winners = winners
    game.pending = None
    events.append(GameEnded(winners, dict(game.scores_)))
