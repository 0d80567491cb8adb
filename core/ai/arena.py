"""A table that plays one round between computer policies: what `bench/ai.py` and the tests
measure the players with.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from core.actions import Action
from core.events import Event, RoundEnded
from core.game import Game

Policy = Callable[[Game, str, random.Random], Action | None]
# Called with the game, the acting player and the action, before it is applied.
Observer = Callable[[Game, str, Action], None]


def _winner(events: list[Event]) -> str | None:
    for event in events:
        if isinstance(event, RoundEnded):
            return event.winner
    return None


def play_round(
    game: Game,
    policies: Mapping[str, Policy],
    rngs: Mapping[str, random.Random],
    table_rng: random.Random,
    observe: Observer | None = None,
    max_steps: int = 20_000,
) -> str:
    """Play until the current round ends and return its winner.

    Each step the current player acts once through its policy; before that, and after every
    action, the others get their chance to act out of turn (`_off_turn`). `policies` and `rngs`
    give each seat its player and that player's own rng, so that one player's choices never
    shift another's random stream.
    """
    for _ in range(max_steps):
        winner = _off_turn(game, policies, rngs, table_rng, observe)
        if winner is not None:
            return winner
        player = game.current_player
        action = policies[player](game, player, rngs[player])
        if action is None:
            raise AssertionError(f"{player} must act on its turn")
        if observe is not None:
            observe(game, player, action)
        winner = _winner(game.apply(player, action))
        if winner is not None:
            return winner
    raise AssertionError("the round did not end")


def _off_turn(
    game: Game,
    policies: Mapping[str, Policy],
    rngs: Mapping[str, random.Random],
    table_rng: random.Random,
    observe: Observer | None,
) -> str | None:
    """Everyone but the current player is asked, one by one in an order shuffled by the table's
    rng, whether to act out of turn (call their own forgotten UNO, catch, jump in); the first
    to return an action takes it, and the asking starts over until nobody acts. Without anybody
    catchable and without jump-in there is nothing to do out of turn, so nobody is asked."""
    while game.catchable is not None or game.rules.jump_in:
        order = [p for p in game.players if p != game.current_player]
        table_rng.shuffle(order)
        for other in order:
            off = policies[other](game, other, rngs[other])
            if off is not None:
                break
        else:
            return None
        if observe is not None:
            observe(game, other, off)
        winner = _winner(game.apply(other, off))
        if winner is not None:
            return winner
    return None
