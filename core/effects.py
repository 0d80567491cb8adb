"""What a card does, one small function per effect, shared by a play (`core.phases.play`) and
the round's first flip (`core.rounds.start`, with the dealer as the seat that "played" it).
"""

from __future__ import annotations

from core import penalty, uno
from core.cards import WILD_FOUR, Card, Color
from core.events import DirectionChanged, Event, HandsPassed, HandsSwapped, PlayerSkipped
from core.state import Pending, State


def skip(game: State, seat: int, events: list[Event]) -> None:
    """The seat after `seat` loses its turn."""
    skipped = game.step(seat)
    events.append(PlayerSkipped(game.players[skipped]))
    game.turn_to_next(skipped)


def reverse(game: State, seat: int, events: list[Event], *, flipped: bool = False) -> None:
    """Play turns the other way. As the round's first card the dealer (`seat`) plays first; with
    two players (and the option on) it acts as a Skip: `seat` plays again."""
    game.direction = -game.direction
    events.append(DirectionChanged(game.direction))
    if flipped:
        game.turn_to(seat)
    elif len(game.players) == 2 and game.rules.two_player_reverse_skips:
        events.append(PlayerSkipped(game.players[game.step(seat)]))
        game.turn_to(seat)
    else:
        game.turn_to_next(seat)


def draw_two(game: State, seat: int, card: Card, events: list[Event]) -> None:
    """The next seat draws two (or answers first) and loses its turn."""
    target = game.players[game.step(seat)]
    penalty.aim(game, Pending(target, penalty.amount_of(game, card), card), events)


def wild_four(
    game: State,
    seat: int,
    player: str,
    prev_color: Color | None,
    was_first_flip: bool,
    events: list[Event],
) -> None:
    """The next seat draws four (or answers first). Whether the play was legal is judged now,
    against the hand as it stands, and kept for a challenge."""
    target = game.players[game.step(seat)]
    legal = not any(c.color is prev_color for c in game.hands[player])
    amount = penalty.amount_of(game, WILD_FOUR)
    pending = Pending(target, amount, WILD_FOUR, player, legal, prev_color, was_first_flip)
    penalty.aim(game, pending, events)


def swap_hands(game: State, player: str, other: str, events: list[Event]) -> None:
    """Seven-zero: a 7 swaps the player's hand with the one of the player it names."""
    hands = game.hands
    hands[player], hands[other] = hands[other], hands[player]
    uno.follow_hands(game, {player: other, other: player})
    events.append(HandsSwapped(player, other))


def pass_hands(game: State, events: list[Event]) -> None:
    """Seven-zero: a 0 passes every hand one seat in the direction of play."""
    players = game.players
    hands = game.hands
    moved = {p: players[(i + game.direction) % len(players)] for i, p in enumerate(players)}
    game.hands = {moved_to: hands[p] for p, moved_to in moved.items()}
    game.hands = {p: game.hands[p] for p in players}  # seat order, as everywhere
    uno.follow_hands(game, moved)
    events.append(HandsPassed(game.direction))
