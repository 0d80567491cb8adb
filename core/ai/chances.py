"""What the cards one seat has not seen make likely: the chances both computer players weigh.

Each is hypergeometric: a hand is taken for a random draw from the unseen cards, narrowed by what
the table remembers of it (`core.ai.memory`).
"""

from __future__ import annotations

import functools
from collections import Counter

from core.ai.memory import Layers, Memory
from core.cards import ALL_CARDS, COLORS, Card
from core.game import Game
from core.rounds import deck

_OF_COLOR = {color: frozenset(c for c in ALL_CARDS if c.color is color) for color in COLORS}


def unseen_counts(game: Game, player: str) -> Counter[Card]:
    """The cards `player` has not seen (the others' hands and the draw pile), counted; a count
    below zero means a deck this module does not know."""
    unseen = _deck_counts(game.rules.creepers).copy()
    unseen.subtract(game.hands[player])
    unseen.subtract(game.discard)
    return unseen


@functools.cache
def _deck_counts(creepers: int) -> Counter[Card]:
    """The whole deck, counted once per creeper count (every strong decision starts from it;
    callers copy it)."""
    return Counter(deck(creepers))


def chance_of_none(
    unseen: Counter[Card], wanted: frozenset[Card], layers: Layers, size: int
) -> float:
    """The chance that a hand of `size` cards holds none of `wanted`, were it a random draw
    from the `unseen` cards, except that the cards `layers` cover (what the table
    remembers of it: `Memory.layers`) are drawn from outside what their layer forbids: a
    hypergeometric chance per layer, then one for the rest of the hand."""
    chance = 1.0
    dealt = 0
    for count, forbidden in layers:
        u = sum(n for c, n in unseen.items() if n > 0 and c not in forbidden)
        m = sum(n for c in wanted if c not in forbidden and (n := unseen[c]) > 0)
        chance *= _none_of(u, m, min(count, size) - dealt)
        dealt = min(count, size)
    m = sum(n for c in wanted if (n := unseen[c]) > 0)
    return chance * _none_of(max(unseen.total(), 1), m, size - dealt)


def _none_of(u: int, m: int, k: int) -> float:
    """The chance that `k` cards drawn from `u`, `m` of them wanted, hold none wanted."""
    chance = 1.0
    for i in range(k):
        if u - i <= 0:
            break
        chance *= max(u - m - i, 0) / (u - i)
    return chance


def guilt_probability(
    game: Game, player: str, bluff_odds: float = 1.0, memory: Memory | None = None
) -> float:
    """The chance that the pending Wild Draw Four was a bluff, from public information only.

    The offender's hand (the cards they kept when they played it) is a random draw from the
    cards `player` has not seen: the whole deck minus `player`'s own hand and the discard pile.
    The offender was guilty if at least one of their `k` cards has the previous color; with `u`
    unseen cards of which `m` have it, the hypergeometric chance of none is
    (u-m)/u * (u-m-1)/(u-1) * ... (k factors), taken layer by layer where the table remembers
    the offender unable to play (`chance_of_none`).
    With `bluff_odds` below 1 it also weighs that a player holding the old color is less likely
    to play a Wild Draw Four than one without it (Bayes: the odds of guilt times `bluff_odds`),
    except when the offender named the old color again: a player who holds none would rather
    name a color they hold, so that choice tells nothing in the honest player's favour.
    """
    pending = game.pending
    if pending is None or pending.offender is None or pending.prev_color is None:
        return 0.0
    prev = pending.prev_color
    k = game.hand_sizes().get(pending.offender, 0)
    unseen = unseen_counts(game, player)
    # Cards the offender was seen unable to play on the old color hold none of it.
    layers = memory.layers(pending.offender) if memory is not None else []
    none = chance_of_none(unseen, _OF_COLOR[prev], layers, k)
    guilty = 1.0 - none
    if bluff_odds >= 1.0 or game.color is prev:
        return guilty
    return guilty * bluff_odds / (guilty * bluff_odds + none)
