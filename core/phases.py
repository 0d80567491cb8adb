"""The phases of a turn, one handler each: what the player to act may do, and the moves that do
it. A phase follows from the state (`handler_of`) and is never saved: `to_dict` keeps the facts
it comes from.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import ClassVar

from core import actions as A
from core import effects, penalty, piles, rounds, uno
from core.actions import Action, ActionType
from core.cards import COLORS, WILD_FOUR, Card, Kind
from core.events import CardPlayed, ColorChosen, DrawReason, Event, Passed
from core.state import State


class Phase(enum.Enum):
    """Where the turn stands, and what the player to act may do in it:

    | phase          | the player to act...                                   | handler       |
    |----------------|--------------------------------------------------------|---------------|
    | `CHOOSE_COLOR` | names the color of a wild first card                   | `ChooseColor` |
    | `TURN`         | plays a matching card or draws                         | `Turn`        |
    | `DRAWN`        | plays the card just drawn or keeps it (passes)         | `Drawn`       |
    | `PENALTY`      | answers a pending penalty, challenges it, or takes it  | `Penalty`     |
    | `OVER`         | nothing: the round ended the match                     | `Over`        |

    A round that ends without ending the match deals the next one at once, so after a round
    comes the next round's first phase. What anyone may do out of turn (a jump-in, UNO calls and
    catches) is not a phase: see `core.game.Game.legal_actions`.
    """

    CHOOSE_COLOR = "choose_color"
    TURN = "turn"
    DRAWN = "drawn"
    PENALTY = "penalty"
    OVER = "over"

    # Members are singletons: an identity hash is exact (`Enum`'s own is a slow Python method).
    __hash__ = object.__hash__


_PLAY = ActionType.PLAY
_SEVEN_ZERO_NUMBER = 7
_SKIP = Kind.SKIP
_REVERSE = Kind.REVERSE
_DRAW_TWO = Kind.DRAW_TWO


def plays(game: State, player: str, cards: list[Card] | tuple[Card, ...]) -> list[Action]:
    """The play actions of `cards` (a hand, or the one card just drawn) that match the top card,
    once each, in the order of `cards`: a wild once per color, and under seven-zero a 7 once per
    player it may swap with (unless it is the last card, which goes out)."""
    matching = game.discard[-1].playable_on[game.color]  # type: ignore[index]
    out: list[Action] = []
    for c in cards:
        if c in matching and c.first_play not in out:
            out += c.plays
    rules = game.rules
    bluffing_refused = out and rules.no_bluffing and WILD_FOUR in cards
    if bluffing_refused and not piles.may_play_wild_four(game, game.hands[player]):
        out = [a for a in out if a.card is not WILD_FOUR]
    if out and rules.seven_zero:
        out = with_targets(game, player, out)
    return out


def with_targets(game: State, player: str, out: list[Action]) -> list[Action]:
    """Seven-zero: each play of a 7 becomes one play per other player, `play r7 @b`."""
    if len(game.hands[player]) < 2:
        return out  # the last card: the round ends, nobody to swap with
    others = [p for p in game.players if p != player]
    named: list[Action] = []
    for a in out:
        card = a.card
        if card is not None and card.number == _SEVEN_ZERO_NUMBER:
            named += [Action(_PLAY, card, None, p) for p in others]
        else:
            named.append(a)
    return named


Move = Callable[[State, str, Action, list[Event]], None]


class Handler:
    """One phase: the actions of the player to act, and the move each type of action makes
    (already checked against the actions)."""

    phase: ClassVar[Phase]
    moves: ClassVar[dict[ActionType, Move]]

    @staticmethod
    def actions(game: State, player: str) -> list[Action]:
        raise NotImplementedError


def play(game: State, player: str, action: Action, events: list[Event]) -> None:
    """`player` plays `action`'s card: on their turn, or out of turn as a jump-in.

    The one way a card leaves a hand for the discard pile (a turn's play, a drawn card, an
    answer to a penalty, a jump-in); the card's effect (`core.effects`) then hands the turn on.
    A number or a wild (a `plain` card) only hands it to the next seat."""
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
                effects.swap_hands(game, player, action.target, events)
            elif card.number == 0:
                effects.pass_hands(game, events)
        game.turn_to_next(seat)
    elif card.kind is _SKIP:
        effects.skip(game, seat, events)
    elif card.kind is _REVERSE:
        effects.reverse(game, seat, events)
    elif card.kind is _DRAW_TWO:
        effects.draw_two(game, seat, card, events)
    else:
        effects.wild_four(game, seat, player, prev_color, was_first_flip, events)


def choose_color(game: State, player: str, action: Action, events: list[Event]) -> None:
    assert action.color is not None
    game.color = action.color
    events.append(ColorChosen(player, action.color))


def draw(game: State, player: str, action: Action, events: list[Event]) -> None:
    """Draw on one's turn (one card, or until one plays under "draw until playable"). A card
    that cannot be played passes the turn at once: there is no choice left to make. Drawing
    from an exhausted table passes too, and counts toward a blocked round if nothing plays."""
    hand = game.hands[player]
    if game.rules.draw_until_playable:
        got = piles.draw_until_playable(game, player, events)
    else:
        got = piles.draw(game, player, 1, DrawReason.CHOICE, events)
    card = got[-1] if got else None
    if card is not None and piles.can_play(game, card, hand):
        game.has_drawn = True
        game.drawn = card
        game.blocked_turns = 0
        return
    stuck = card is None and not any(piles.can_play(game, c, hand) for c in hand)
    pass_turn(game, player, action, events)
    if stuck:
        rounds.count_blocked_turn(game, events)
    else:
        game.blocked_turns = 0


def pass_turn(game: State, player: str, action: Action, events: list[Event]) -> None:
    """Keep the card just drawn: the turn passes."""
    game.has_drawn = False
    game.drawn = None
    events.append(Passed(player))
    game.turn_to_next(game.current)


def take_penalty(game: State, player: str, action: Action, events: list[Event]) -> None:
    assert game.pending is not None
    penalty.take(game, game.pending, events)


def challenge(game: State, player: str, action: Action, events: list[Event]) -> None:
    assert game.pending is not None
    penalty.challenge(game, game.pending, events)


class ChooseColor(Handler):
    """The first flipped card is a wild: the first player names the color, then plays on."""

    phase = Phase.CHOOSE_COLOR
    moves: ClassVar[dict[ActionType, Move]] = {ActionType.CHOOSE: choose_color}
    _ACTIONS: ClassVar[tuple[Action, ...]] = tuple(A.CHOOSE[c] for c in COLORS)

    @staticmethod
    def actions(game: State, player: str) -> list[Action]:
        return list(ChooseColor._ACTIONS)


class Turn(Handler):
    """An ordinary turn: play a matching card, or draw."""

    phase = Phase.TURN
    moves: ClassVar[dict[ActionType, Move]] = {_PLAY: play, ActionType.DRAW: draw}

    @staticmethod
    def actions(game: State, player: str) -> list[Action]:
        out = plays(game, player, game.hands[player])
        can_play = bool(out)
        out.append(A.DRAW)
        if can_play and uno.may_call_before_play(game, player):
            out.append(A.UNO)
        return out


class Drawn(Handler):
    """A playable card was just drawn: play it (no other card) or keep it and pass."""

    phase = Phase.DRAWN
    moves: ClassVar[dict[ActionType, Move]] = {_PLAY: play, ActionType.PASS: pass_turn}

    @staticmethod
    def actions(game: State, player: str) -> list[Action]:
        drawn = game.drawn
        out = [] if drawn is None else plays(game, player, (drawn,))
        can_play = bool(out)
        out.append(A.PASS)
        if can_play and uno.may_call_before_play(game, player):
            out.append(A.UNO)
        return out


class Penalty(Handler):
    """A penalty waits for its target: answer it with a card, challenge it, or take it."""

    phase = Phase.PENALTY
    moves: ClassVar[dict[ActionType, Move]] = {
        _PLAY: play,
        ActionType.ACCEPT: take_penalty,
        ActionType.CHALLENGE: challenge,
    }

    @staticmethod
    def actions(game: State, player: str) -> list[Action]:
        pending = game.pending
        assert pending is not None
        out = penalty.answers(game, pending)
        if game.rules.seven_zero:
            out = with_targets(game, player, out)
        can_play = bool(out)
        out.append(A.ACCEPT)
        if penalty.can_be_challenged(game, pending):
            out.append(A.CHALLENGE)
        if can_play and uno.may_call_before_play(game, player):
            out.append(A.UNO)
        return out


class Over(Handler):
    """The match is over: nothing to do."""

    phase = Phase.OVER
    moves: ClassVar[dict[ActionType, Move]] = {}

    @staticmethod
    def actions(game: State, player: str) -> list[Action]:
        return []


def handler_of(game: State) -> type[Handler]:
    """The phase the state is in, as its handler (what `Game.handler` holds between moves)."""
    if game.winners is not None:
        return Over
    if game.color is None:
        return ChooseColor
    if game.pending is not None:
        return Penalty
    if game.has_drawn:
        return Drawn
    return Turn


def phase_of(game: State) -> Phase:
    return handler_of(game).phase


def jump_in_actions(game: State, player: str) -> list[Action]:
    """Out of turn, under jump-in: the card identical to the top one (RULES.md 4). Not on the
    round's first card, not with a wild, and not on one's own Draw Two until another player has
    acted since (`top_played_by` is cleared by the next move of anyone else)."""
    if not game.rules.jump_in or game.first_flip or game.color is None:
        return []
    top = game.discard[-1]
    if top.is_wild or top not in game.hands[player]:
        return []
    if top.kind is Kind.DRAW_TWO and game.top_played_by == player:
        return []
    out = [top.first_play]
    return with_targets(game, player, out) if game.rules.seven_zero else out
