"""The computer players, at two levels: `choose_action(game, player, rng, level)` says what the
computer in a seat does now, on its turn and off it.

Both levels read only what a human at the table could know, choose only actions that
`game.legal_actions(player)` lists, and answer the same for the same position and `rng` state.
`Level.EASY` (`core.ai.easy`) plays by rules of thumb; `Level.STRONG` (`core.ai.strong`) by the
same rules reweighted, with what the table remembers of the round (`core.ai.memory`), checked by
playouts near the round's end. `core.ai.baselines` holds the players they are measured against,
`core.ai.arena` the table that plays a round between any of them.
"""

from __future__ import annotations

import enum
import random

from core.actions import Action
from core.ai.baselines import random_action
from core.ai.chances import guilt_probability
from core.ai.easy import choose_action as easy_action
from core.ai.memory import Memory
from core.ai.strong import choose_action as strong_action
from core.game import Game

__all__ = ["Level", "Memory", "choose_action", "guilt_probability", "random_action"]


class Level(enum.Enum):
    EASY = "easy"
    STRONG = "strong"

    def __str__(self) -> str:
        return self.value


def choose_action(
    game: Game,
    player: str,
    rng: random.Random | None = None,
    level: Level = Level.EASY,
    memory: Memory | None = None,
) -> Action | None:
    """What the computer player `player` does now at `level`; None when it has nothing to do.

    `memory` is the table's recollection of the round (`core.ai.memory`); only the strong level
    reads it, and without it that level plays as if it had just sat down.

    Without `rng`, the easy level breaks ties by the first candidate, and the strong level deals
    its worlds from an rng seeded by what the seat sees (its hand, the discard pile, the hand
    sizes), so the answer is then a pure function of the public position.
    """
    if level is Level.STRONG:
        if rng is None:
            seen = (player, game.hand(player), game.discard, game.hand_sizes(), game.draw_pile_size)
            rng = random.Random(repr(seen))
        return strong_action(game, player, rng, memory=memory)
    return easy_action(game, player, rng)
