"""The draw pile and the discard pile: drawing (a Creeper drawn costs three more), reshuffling,
and what may be played on the top.

The draw pile's top is the last element of `game.draw_pile`, the discard pile's top the last of
`game.discard`. Which card plays on which is a precomputed table (`Card.playable_on`), so asking
"may this card be played" is one set lookup.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.cards import CREEPER, WILD_FOUR, Card
from core.events import CardsDrawn, CreeperRevealed, DrawReason, Event, PileReshuffled
from core.state import State

CREEPER_EXTRA = 3


def may_play_wild_four(game: State, hand: Iterable[Card]) -> bool:
    """A Wild Draw Four is played only without a card of the color in play (RULES.md 4). Only
    "no bluffing" makes the engine refuse it; otherwise this is what a challenge checks."""
    color = game.color
    return not any(c.color is color for c in hand)


def can_play(game: State, card: Card, hand: list[Card]) -> bool:
    if card not in game.discard[-1].playable_on[game.color]:  # type: ignore[index]
        return False
    return card is not WILD_FOUR or not game.rules.no_bluffing or may_play_wild_four(game, hand)


def take(game: State, count: int, events: list[Event]) -> list[Card]:
    """Up to `count` cards off the draw pile, reshuffling the discard pile into it when it runs
    out (wild cards lose their color: the color in play is kept apart in `game.color`). Fewer
    come when both piles are exhausted."""
    pile = game.draw_pile
    if len(pile) >= count:
        got = pile[: -count - 1 : -1]  # the top `count` cards, the top one first
        del pile[-count:]
        return got
    got = []
    # Under a pending Wild Draw Four the card beneath it stays too: a guilty player may have to
    # take the Wild Draw Four back and restore the pile (house rules).
    keep = 2 if game.pending is not None and game.pending.source is WILD_FOUR else 1
    for _ in range(count):
        if not pile:
            if len(game.discard) <= keep:
                break
            pile.extend(game.discard[:-keep])
            del game.discard[:-keep]
            game.shuffle(pile)
            events.append(PileReshuffled(len(pile)))
        got.append(pile.pop())
    return got


def draw(
    game: State, player: str, count: int, reason: DrawReason, events: list[Event]
) -> list[Card]:
    """`player` draws `count` cards (fewer from an exhausted table); a Creeper among them costs
    three more (`creeper_drawn`)."""
    got = take(game, count, events)
    game.hands[player] += got
    events.append(CardsDrawn(player, len(got), reason, tuple(got)))
    if game.rules.creepers and CREEPER in got:  # without the option a Creeper is a plain wild
        for card in got:
            if card is CREEPER:
                creeper_drawn(game, player, events)
    return got


def draw_until_playable(game: State, player: str, events: list[Event]) -> list[Card]:
    """The "draw until playable" option: draw one card at a time until one may be played or the
    table is exhausted; one event reports them all."""
    hand = game.hands[player]
    got: list[Card] = []
    while True:
        card = take(game, 1, events)
        if not card:
            break
        got += card
        hand += card
        if can_play(game, card[0], hand):
            break
    events.append(CardsDrawn(player, len(got), DrawReason.CHOICE, tuple(got)))
    if game.rules.creepers and got and got[-1] is CREEPER:  # only the last: it is playable
        creeper_drawn(game, player, events)
    return got


def creeper_drawn(game: State, player: str, events: list[Event]) -> None:
    """A Creeper taken from the draw pile is shown and costs three more cards; a Creeper among
    those three is an ordinary wild card."""
    events.append(CreeperRevealed(player))
    extra = take(game, CREEPER_EXTRA, events)
    game.hands[player] += extra
    events.append(CardsDrawn(player, len(extra), DrawReason.CREEPER, tuple(extra)))
