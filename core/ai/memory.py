"""What the table has seen of the hands this round: who could not play on what (`Memory`), a
belief the strong player reads (`core.ai.worlds`, `core.ai.chances`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.actions import Action, ActionType
from core.cards import Card, Color
from core.game import Game

# Facts kept per player: older ones are mostly implied by newer ones, and each costs a check per
# card dealt in every world.
KEEP = 3

# A player's known cards as layers, narrowest first: (k, cards) says that their cards up to the
# k-th, beyond the previous layer's, are none of `cards` (every fact covering them, together).
Layers = list[tuple[int, frozenset[Card]]]


@dataclass(slots=True)
class Void:
    """`count` of a player's cards are none of `excluded`: they could not play on `top` in
    `color`."""

    top: Card
    color: Color
    count: int
    excluded: frozenset[Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.excluded = self.top.playable_on[self.color]


@dataclass(slots=True)
class Memory:
    """The table's recollection of the round, public and the same for every seat.

    Everyone at a table sees a player draw instead of playing, and most players play whenever
    they can (the baselines always do). So a draw by choice says: none of the drawer's cards
    plays on the top card in the color in play, no wild among them either; passing after the
    draw says the same of the drawn card. That stays true of those cards until they are played,
    while the cards drawn since are unknown: each play may have come from them, so it lowers a
    `Void`'s count by one unless the played card is itself excluded (then it was drawn since);
    nothing else lowers it, and cards drawn later never raise it. A swap of hands (seven-zero)
    forgets everything, as does a new round. A computer player ignores what it says of its own
    hand, which it sees.

    It sees every move before it is applied (`observe`; `after` for a caller that must keep the
    old memory until the move has landed). It is a belief, not a rule: a player who draws while
    holding a playable card makes it wrong, and whoever reads it falls back to the plain unseen
    cards where its facts cannot all hold at once.
    """

    round_no: int = -1
    voids: dict[str, list[Void]] = field(default_factory=dict)

    def observe(self, game: Game, player: str, action: Action) -> None:
        """`player` is about to make the legal `action` in `game` (called before it is applied)."""
        if game.round_no != self.round_no:
            self.round_no = game.round_no
            self.voids.clear()
        card = action.card
        if card is not None:  # a play
            if action.target is not None or (game.rules.seven_zero and card.face == "0"):
                self.voids.clear()  # hands change owners: what was known goes with them
            else:
                self._played(player, card, len(game.hands[player]) - 1)
            return
        color = game.current_color
        if player != game.current_player or game.pending is not None or color is None:
            return
        top = game.discard[-1]
        size = len(game.hands[player])
        if action.type is ActionType.DRAW:
            facts = self.voids.setdefault(player, [])
            facts.append(Void(top, color, size))
            del facts[:-KEEP]
        elif action.type is ActionType.PASS and game.has_drawn:
            for fact in self.voids.get(player, ()):
                if fact.top is top and fact.color is color:
                    fact.count = size  # the drawn card did not play either

    def after(self, game: Game, player: str, action: Action) -> Memory:
        """The memory once `action` has landed; this one stays as it was."""
        memory = Memory(
            self.round_no,
            {p: [Void(f.top, f.color, f.count) for f in facts] for p, facts in self.voids.items()},
        )
        memory.observe(game, player, action)
        return memory

    def _played(self, player: str, card: Card, left: int) -> None:
        facts = self.voids.get(player)
        if not facts:
            return
        for fact in facts:
            if card not in fact.excluded:
                fact.count -= 1
            fact.count = min(fact.count, left)
        facts[:] = [f for f in facts if f.count > 0]

    def of(self, player: str) -> list[Void]:
        """What is known of `player`'s cards, the widest fact first."""
        return sorted(self.voids.get(player, ()), key=lambda f: -f.count)

    def layers(self, player: str) -> Layers:
        """What is known of `player`'s cards, as `Layers`: the reading every user shares."""
        facts = self.of(player)
        layers: Layers = []
        for i, fact in enumerate(reversed(facts)):
            wider = facts[: len(facts) - i]
            layers.append((fact.count, frozenset().union(*(f.excluded for f in wider))))
        return layers

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round_no,
            "voids": {
                p: [[str(f.top), str(f.color), f.count] for f in facts]
                for p, facts in self.voids.items()
                if facts
            },
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Memory:
        """The stored memory; anything unreadable is forgotten (it is only a belief)."""
        try:
            memory = Memory(round_no=int(data.get("round", -1)))
            for player, facts in dict(data.get("voids", {})).items():
                memory.voids[str(player)] = [
                    Void(Card.parse(top), Color.parse(color), int(count))
                    for top, color, count in facts
                ]
        except (AttributeError, TypeError, ValueError):
            return Memory()
        return memory
