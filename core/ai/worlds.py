"""Determinization: complete positions consistent with what one seat knows.

A seat sees its own hand, the discard pile and every hand's size. The cards it cannot see (the
others' hands and the draw pile) are the full deck minus those it can; a world deals them out at
random, hand sizes kept, the rest becoming the draw pile in random order. A Wild Draw Four
waiting for a challenge gets the verdict the dealt hand implies (guilty if the offender holds a
card of the color that was in play before it), and the world's future reshuffles get a seed of
their own, so no world carries anything but public facts into a search.

Worlds are built on `Game.to_dict()` and read back with `Game.from_dict()`, touching only the
fields that hold hidden cards (`hands`, `draw`, the pending penalty's `legal`, `seed`). When the
cards do not add up (a deck this module does not know), `unseen_cards` answers None and the
caller plays without searching.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from core.cards import Card, Color, standard_deck
from core.game import Game


def unseen_cards(game: Game, me: str) -> list[Card] | None:
    """The cards `me` cannot see, in a fixed order; None when they do not add up."""
    missing = Counter(standard_deck(game.rules.creepers))
    missing.subtract(game.hands[me])
    missing.subtract(game.discard)
    if any(count < 0 for count in missing.values()):
        return None
    unseen = list(missing.elements())
    hidden = game.draw_pile_size + sum(n for p, n in game.hand_sizes().items() if p != me)
    if len(unseen) != hidden:
        return None
    return unseen


class Worlds:
    """Deals worlds for one decision of `me` (the state is serialized once, here)."""

    def __init__(self, game: Game, me: str, unseen: list[Card]) -> None:
        self.base = game.to_dict()
        self.me = me
        self.unseen = unseen
        self.others = [(p, n) for p, n in game.hand_sizes().items() if p != me]
        pending = self.base.get("pending")
        self.offender: str | None = None
        self.prev_color: Color | None = None
        if isinstance(pending, dict) and pending.get("offender") and pending.get("prev_color"):
            self.offender = pending["offender"]
            self.prev_color = Color.parse(pending["prev_color"])

    def deal(self, rng: random.Random) -> dict[str, Any]:
        """One world: a `to_dict()`-shaped position with the hidden cards dealt at random."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        data = dict(self.base)
        hands = dict(data["hands"])
        at = 0
        for player, size in self.others:
            hand = cards[at : at + size]
            at += size
            hands[player] = " ".join(c.text for c in hand)
            if player == self.offender and isinstance(data.get("pending"), dict):
                pending = dict(data["pending"])
                pending["legal"] = not any(c.color is self.prev_color for c in hand)
                data["pending"] = pending
        data["hands"] = hands
        data["draw"] = " ".join(c.text for c in cards[at:])
        data["seed"] = rng.randrange(1 << 30)
        return data

    @staticmethod
    def game(data: dict[str, Any]) -> Game:
        return Game.from_dict(data)
