"""The computer players, at two levels, and the yardsticks they are measured against.

`choose_action(game, player, rng, level)` answers "what does the computer in this seat do now?",
on its turn and off it (None: nothing to do now). Both levels read only what a human at the
table could know, never choose an action that `game.legal_actions(player)` does not list, and
give the same answer for the same position and the same `rng` state.

- `Level.EASY` (`core.ai.easy`): rules of thumb, a few microseconds a move.
- `Level.STRONG` (`core.ai.strong`): the same rules reweighted, reading what the table has seen
  of the hands this round (`core.ai.memory`, fed with every move by whoever runs the table), and
  checked by playouts of the rest of the round in worlds dealt from the unseen cards, within a
  fixed budget of engine moves.

`core.ai.baselines` holds the random and greedy players the levels are measured against, and
`core.ai.arena` the table that plays a round between any of them (`bench/ai.py`).
"""

from __future__ import annotations

import enum
import random

from core.actions import Action
from core.ai import easy, strong
from core.ai.easy import guilt_probability, random_action
from core.ai.memory import Memory
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
        return strong.choose_action(game, player, rng, memory=memory)
    return easy.choose_action(game, player, rng)
