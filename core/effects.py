"""What a card does, one small function per effect, shared by a play and the round's first flip.

`play` is the one way a card leaves a hand for the discard pile (a turn's play, a drawn card, an
answer to a penalty, a jump-in); it then hands the turn on through the card's effect. The first
flip of a round (`core.rounds`) uses the same effect functions with the dealer as the seat that
"played" it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core import penalty, piles, rounds, uno
from core.actions import Action
from core.cards import WILD_FOUR, Card, Color, Kind
from core.events import (
    CardPlayed,
    CardsDrawn,
    CreeperRevealed,
    DirectionChanged,
    DrawReason,
    Event,
    HandsPassed,
    HandsSwapped,
    PlayerSkipped,
)

if TYPE_CHECKING:
    from core.game import Game

CREEPER_EXTRA = 3
_SKIP = Kind.SKIP
_REVERSE = Kind.REVERSE
_DRAW_TWO = Kind.DRAW_TWO


def play(game: Game, player: str, action: Action, events: list[Event]) -> None:
    """`player` plays `action`'s card: on their turn, or out of turn as a jump-in. A number or
    a wild (a `plain` card) only hands the turn to the next seat."""
    card = action.card
    assert card is not None
    seat = game.current
    jump_in = game.current_player != player
    if jump_in:
        game.jumped_over = game.current_player
        seat = game.players.index(player)
        game.turn_to(seat)
    else:
        game.jumped_over = None
    hand = game.hands[player]
    hand.remove(card)
    game.blocked_turns = 0
    game.has_drawn = False
    game.drawn = None
    prev_color = game.color
    was_first_flip = game.first_flip
    game.first_flip = False
    game.discard.append(card)
    game.top_played_by = player
    color = action.next_color
    assert color is not None
    game.color = color
    left = len(hand)
    events.append(CardPlayed(player, card, color, jump_in, left))
    if left == 1:
        uno.down_to_one(game, player)
    elif not left:
        rounds.go_out(game, player, card, events)
        return
    if card.plain:
        if game.rules.seven_zero:
            if action.target is not None:
                swap_hands(game, player, action.target, events)
            elif card.number == 0:
                pass_hands(game, events)
        game.turn_to_next(seat)
    elif card.kind is _SKIP:
        skip(game, seat, events)
    elif card.kind is _REVERSE:
        reverse(game, seat, events)
    elif card.kind is _DRAW_TWO:
        draw_two(game, seat, card, events)
    else:
        wild_four(game, seat, player, prev_color, was_first_flip, events)


def skip(game: Game, seat: int, events: list[Event]) -> None:
    """The seat after `seat` loses its turn."""
    skipped = game.step(seat)
    events.append(PlayerSkipped(game.players[skipped]))
    game.turn_to_next(skipped)


def reverse(game: Game, seat: int, events: list[Event], *, flipped: bool = False) -> None:
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


def draw_two(game: Game, seat: int, card: Card, events: list[Event]) -> None:
    """The next seat draws two (or answers first) and loses its turn."""
    target = game.players[game.step(seat)]
    penalty.aim(game, penalty.Pending(target, penalty.amount_of(game, card), card), events)


def wild_four(
    game: Game,
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
    pending = penalty.Pending(target, amount, WILD_FOUR, player, legal, prev_color, was_first_flip)
    penalty.aim(game, pending, events)


def creeper_drawn(game: Game, player: str, events: list[Event]) -> None:
    """A Creeper taken from the draw pile is shown and costs three more cards; a Creeper among
    those three is an ordinary wild card."""
    events.append(CreeperRevealed(player))
    extra = piles.take(game, CREEPER_EXTRA, events)
    game.hands[player] += extra
    events.append(CardsDrawn(player, len(extra), DrawReason.CREEPER, tuple(extra)))


def swap_hands(game: Game, player: str, other: str, events: list[Event]) -> None:
    """Seven-zero: a 7 swaps the player's hand with the one of the player it names."""
    hands = game.hands
    hands[player], hands[other] = hands[other], hands[player]
    uno.follow_hands(game, {player: other, other: player})
    events.append(HandsSwapped(player, other))


def pass_hands(game: Game, events: list[Event]) -> None:
    """Seven-zero: a 0 passes every hand one seat in the direction of play."""
    players = game.players
    hands = game.hands
    moved = {p: players[(i + game.direction) % len(players)] for i, p in enumerate(players)}
    game.hands = {moved_to: hands[p] for p, moved_to in moved.items()}
    game.hands = {p: game.hands[p] for p in players}  # seat order, as everywhere
    uno.follow_hands(game, moved)
    events.append(HandsPassed(game.direction))
