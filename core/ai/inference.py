"""What the strong player believes about a hidden hand, from the public facts of `core.tells`.

Most players, and both baselines, draw on their turn only when nothing in their hand plays. So a
draw by choice on a top card says that the hand then held no card that plays on it: none of the
color in play, none of its number or symbol, no wild. The cards still held from then keep that
gap; the cards taken since (`Draws.since`) are unknown. A player who plays on after the draw may
have played from the old cards or the new ones, so at least `size - since` held cards are old.

Several draws stack: a card held at an earlier draw was also held at every later one, so the
oldest cards miss what played at every draw since. `layers` gives the hand as groups of cards
that each miss a set of cards, the surest first; the rest of the hand is unknown. The player
uses them twice: for the chance that the next player cannot follow a card (`chance_none`, in
`core.ai.easy`), and to deal worlds only where they fit (`core.ai.worlds`). Against a player who
draws holding a playable card (a human keeping a wild) the belief is wrong; dealing then falls
back to any card when too few fit.
"""

from __future__ import annotations

from collections import Counter

from core.cards import Card
from core.game import Game

Layer = tuple[int, frozenset[Card]]  # this many held cards are none of these


def layers(game: Game, player: str) -> list[Layer]:
    """The groups of `player`'s held cards known to miss a set of cards, the surest first."""
    draws = game.drew_on.get(player)
    if draws is None:
        return []
    size = len(game.hands[player])
    if game.has_drawn and game.current_player == player:
        size -= 1  # the card just drawn plays (that phase is public): it may be anything
    facts = draws.facts
    out: list[Layer] = []
    placed = 0
    for i, fact in enumerate(facts):
        old = size - draws.since(fact)  # held since this draw, at least
        if old <= placed:
            continue
        missing = frozenset().union(*(f.playable for f in facts[i:]))
        out.append((old - placed, missing))
        placed = old
    return out


def chance_none(
    unseen: Counter[Card], wanted: frozenset[Card], size: int, hand: list[Layer]
) -> float:
    """The chance that a hand of `size` unseen cards holds none of `wanted`, its `hand` layers
    dealt from the unseen cards they may be, the rest from all (hypergeometric per part)."""
    chance = 1.0
    rest = size
    for count, missing in hand:
        u = m = 0
        for card, n in unseen.items():
            if n > 0 and card not in missing:
                u += n
                if card in wanted:
                    m += n
        chance *= _none(u, m, count)
        rest -= count
    u = m = 0
    for card, n in unseen.items():
        if n > 0:
            u += n
            if card in wanted:
                m += n
    return chance * _none(u, m, rest)


def _none(u: int, m: int, k: int) -> float:
    """Drawing `k` of `u` cards, `m` of them wanted: the chance of drawing none wanted."""
    chance = 1.0
    for i in range(k):
        if u - i <= 0:
            break
        chance *= max(u - m - i, 0) / (u - i)
    return chance
