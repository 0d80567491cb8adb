"""Determinization: complete positions (worlds) consistent with what one seat knows, in which
the strong player plays the rest of a round out.

A seat sees its own hand, the discard pile and every hand's size; a world deals the cards it
cannot see at random, hand sizes kept, so no world carries anything but public facts into a
search.
"""

from __future__ import annotations

import dataclasses
import random

from core.ai.chances import unseen_counts
from core.ai.memory import Layers, Memory
from core.cards import Card, Color
from core.game import Game
from core.state import State


def clone(game: Game) -> Game:
    """An independent copy of `game`: moves made on it never reach the original.

    The engine's own state object with its lists and sets copied, no serialization: a search
    plays many moves from each world, so copying is the cost that matters, and this is many
    times cheaper than a round trip through `to_dict()` and `from_dict()`."""
    copy = Game()
    for name in State.__slots__:
        setattr(copy, name, getattr(game, name))
    copy.handler = game.handler
    copy.players = list(game.players)
    copy.hands = {p: list(hand) for p, hand in game.hands.items()}
    copy.draw_pile = list(game.draw_pile)
    copy.discard = list(game.discard)
    copy.safe = set(game.safe)
    copy.scores_ = dict(game.scores_)
    copy.timeouts = dict(game.timeouts)
    copy.left = list(game.left)
    if game.pending is not None:
        copy.pending = dataclasses.replace(game.pending)
    return copy


def unseen_cards(game: Game, me: str) -> list[Card] | None:
    """The cards `me` cannot see (the others' hands and the draw pile: the full deck minus the
    cards `me` can see), in a fixed order; None when they do not add up (a deck this module does
    not know), and the caller plays without searching."""
    missing = unseen_counts(game, me)
    if any(count < 0 for count in missing.values()):
        return None
    unseen = list(missing.elements())
    hidden = game.draw_pile_size + sum(n for p, n in game.hand_sizes().items() if p != me)
    if len(unseen) != hidden:
        return None
    return unseen


class Worlds:
    """Deals worlds for one decision of `me` (the position is copied once, here).

    A world replaces only the fields that hold hidden cards: the others' `hands` and the
    `draw_pile` (the rest of the unseen cards, in random order); a Wild Draw Four waiting for a
    challenge gets the verdict the dealt hand implies (`Pending.legal`: guilty if the offender
    holds a card of the color in play before it), and the world's reshuffles a `seed` of their
    own.

    With a `memory`, each hand is dealt consistently with what is remembered of it: its first
    cards are drawn from those outside every fact that covers them (`Void.count` cards each),
    the widest-known hands first; a card no fact forbids comes from anywhere. A hand whose facts
    cannot be met (the memory was wrong) takes what is left.
    """

    def __init__(
        self, game: Game, me: str, unseen: list[Card], memory: Memory | None = None
    ) -> None:
        self.base = clone(game)
        self.me = me
        self.unseen = unseen
        others = [(p, n) for p, n in game.hand_sizes().items() if p != me]
        self.known: dict[str, Layers] = {}
        if memory is not None:
            self.known = {p: layers for p, _ in others if (layers := memory.layers(p))}
        # Hands with facts first, so that the cards they may hold are still there for them.
        self.others = sorted(others, key=lambda item: item[0] not in self.known)
        pending = game.pending
        self.offender: str | None = None
        self.prev_color: Color | None = None
        if pending is not None and pending.offender is not None:
            self.offender = pending.offender
            self.prev_color = pending.prev_color

    def deal(self, rng: random.Random) -> Game:
        """One world: the position with the hidden cards dealt at random (copy it before
        playing on it: `clone`)."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        world = clone(self.base)
        hands = world.hands
        at = 0
        for player, size in self.others:
            layers = self.known.get(player)
            hand = _constrained(cards, at, size, layers) if layers else cards[at : at + size]
            at += size
            hands[player] = hand
            if player == self.offender and world.pending is not None:
                world.pending.legal = not any(c.color is self.prev_color for c in hand)
        world.draw_pile = cards[at:]
        world.seed = rng.randrange(1 << 30)
        return world


def _constrained(cards: list[Card], at: int, size: int, layers: Layers) -> list[Card]:
    """Deal `size` cards from `cards[at:]` (shuffled), each outside its layer's cards: the chosen
    card is swapped to position `at + j`, so `cards[at + size:]` stays the undealt rest."""
    j = 0
    for count, forbidden in layers:
        while j < min(count, size):
            for k in range(at + j, len(cards)):
                card = cards[k]
                if card not in forbidden:
                    cards[at + j], cards[k] = card, cards[at + j]
                    break
            j += 1
    return cards[at : at + size]
