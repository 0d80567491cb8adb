"""Leaving a match and running out of time (RULES.md section 6): who plays on and from where.

A player who leaves takes their cards out of play (under the draw pile) and every claim on them
with it; the third timeout in a row counts as leaving. `core.game.Game` makes the timed-out
player's default moves itself, since each is an ordinary move of the phase.
"""

from __future__ import annotations

from collections import Counter

from core import actions as A
from core import penalty, rounds, uno
from core.actions import Action
from core.cards import COLORS
from core.errors import IllegalAction
from core.events import Event, PlayerLeft
from core.state import State

MAX_TIMEOUTS = 3  # timeouts in a row that count as leaving


def check(game: State, player: str, what: str) -> None:
    """Refuse leaving or timing out once the match is over or for someone not playing."""
    if game.winners is not None:
        raise IllegalAction("game_over", what, player)
    if player not in game.hands:
        raise IllegalAction("not_a_player", what, player)


def leave(game: State, player: str, events: list[Event]) -> None:
    """`player` leaves mid-match: their cards go under the draw pile and play goes on. A penalty
    aimed at them is dropped, a Wild Draw Four they played can no longer be challenged, and the
    last player left wins the match."""
    check(game, player, "leave")
    game.move_no += 1
    idx = game.players.index(player)
    was_current = idx == game.current
    cards = game.hands.pop(player)
    game.draw_pile[0:0] = cards
    game.players.pop(idx)
    game.left.append(player)
    del game.scores_[player]
    game.timeouts.pop(player, None)
    n = len(game.players)
    events.append(PlayerLeft(player, len(cards)))
    uno.forget(game, player)
    if game.top_played_by == player:
        game.top_played_by = None
    if game.jumped_over == player:
        game.jumped_over = None
    if game.first_turn_player == player:
        game.first_turn_player = game.players[idx % n]
    if game.dealer == player:
        game.dealer = game.players[(idx - 1) % n]
    if n == 1:
        game.turn_to(0)
        rounds.end_match(game, (game.players[0],), events)
        return
    if idx < game.current:
        game.turn_to(game.current - 1)
    elif was_current:
        game.turn_to(idx % n if game.direction == 1 else (idx - 1) % n)
        game.has_drawn = False
        game.drawn = None
        if game.pending is not None and game.pending.target == player:
            game.pending = None
    else:
        game.turn_to(game.current)
    if game.pending is not None and game.pending.offender == player:
        penalty.offender_left(game, events)


def default_action(game: State, player: str) -> Action | None:
    """What a player who ran out of time does: accept the penalty, or draw, then pass (a wild
    first card's color is chosen for them first: the color they hold most of)."""
    if game.winners is not None or player != game.current_player:
        return None
    if game.color is None:
        counts = Counter(c.color for c in game.hands[player] if c.color is not None)
        return A.CHOOSE[max(COLORS, key=lambda c: counts[c])]
    if game.pending is not None:
        return A.ACCEPT
    return A.PASS if game.has_drawn else A.DRAW
