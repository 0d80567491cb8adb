"""A penalty waiting for its target: a Draw Two or Wild Draw Four not yet taken (RULES.md 4, 6).

The one place that knows a pending penalty's (`State.pending`) answers (pass a Draw Two on,
defend a Wild Draw Four, the identical Draw Two under jump-in, stack under the stacking option),
whether it may be challenged, how it is taken and how a challenge is settled. `aim` is how a Draw
Two or a Wild Draw Four becomes one: it waits while its target has an answer, else it is taken.
"""

from __future__ import annotations

from core import piles
from core.actions import Action
from core.cards import WILD_FOUR, Card, Kind
from core.events import (
    ChallengeResolved,
    DrawReason,
    Event,
    HandRevealed,
    PenaltyPending,
    PlayerSkipped,
    WildFourTakenBack,
)
from core.state import Pending, State

INNOCENT_EXTRA = 2  # what a wrong challenge costs on top of the penalty
_DRAW_TWO = Kind.DRAW_TWO


def can_be_challenged(game: State, pending: Pending) -> bool:
    return (
        pending.source is WILD_FOUR and pending.offender is not None and not game.rules.no_bluffing
    )


def answers(game: State, pending: Pending) -> list[Action]:
    """The plays by the target that answer `pending` instead of taking it."""
    rules = game.rules
    hand = game.hands[pending.target]
    out: list[Action] = []
    if rules.stacking:  # +2 on +2, +4 on +4, never mixed; the sum goes on
        if pending.source is WILD_FOUR:
            bluff_refused = rules.no_bluffing and not piles.may_play_wild_four(game, hand)
            if WILD_FOUR in hand and not bluff_refused:
                out += WILD_FOUR.plays
            return out
        wanted = None  # any Draw Two
    elif pending.source is WILD_FOUR:
        if not rules.defend_wild_four:
            return out
        wanted = game.color  # a Draw Two of the color just chosen defends
    elif rules.pass_draw_two:
        wanted = None  # any Draw Two passes it on
    elif rules.jump_in and not game.first_flip:
        top = game.discard[-1]
        return [top.first_play] if top in hand else out  # the identical card moves it on
    else:
        return out
    for c in hand:
        fits = c.kind is _DRAW_TWO and (wanted is None or c.color is wanted)
        if fits and c.first_play not in out:
            out.append(c.first_play)
    return out


def waits(game: State, pending: Pending) -> bool:
    """The target has something to say before drawing: an answer, or a challenge."""
    return can_be_challenged(game, pending) or bool(answers(game, pending))


def take(game: State, pending: Pending, events: list[Event]) -> None:
    """The target draws the penalty and loses the turn."""
    game.pending = None
    reason = DrawReason.WILD_FOUR if pending.source is WILD_FOUR else DrawReason.DRAW_TWO
    seat = game.players.index(pending.target)
    piles.draw(game, pending.target, pending.amount, reason, events)
    events.append(PlayerSkipped(pending.target))
    game.turn_to_next(seat)


def challenge(game: State, pending: Pending, events: list[Event]) -> None:
    """The target challenges the Wild Draw Four on top (RULES.md 4, and 6 when stacked)."""
    offender = pending.offender
    assert offender is not None
    challenger = pending.target
    guilty = not pending.legal
    game.pending = None
    events.append(ChallengeResolved(challenger, offender, guilty))
    events.append(HandRevealed(challenger, offender, tuple(game.hands[offender])))
    if not guilty:
        amount = pending.amount + INNOCENT_EXTRA
        piles.draw(game, challenger, amount, DrawReason.CHALLENGE_INNOCENT, events)
        events.append(PlayerSkipped(challenger))
        game.turn_to_next(game.current)
        return
    if game.rules.guilty_takes_back:
        game.hands[offender].append(game.discard.pop())
        assert pending.prev_color is not None
        game.color = pending.prev_color
        game.first_flip = pending.prev_first_flip
        game.top_played_by = None
        events.append(WildFourTakenBack(offender, pending.prev_color))
    piles.draw(game, offender, pending.amount, DrawReason.CHALLENGE_GUILTY, events)
    # The challenger is not skipped: it is their turn now (game.current already).


def amount_of(game: State, card: Card) -> int:
    """What a Draw Two or Wild Draw Four just played costs: its own 2 or 4, plus the stack it
    answers under the stacking option."""
    own = 4 if card is WILD_FOUR else 2
    pending = game.pending
    if pending is not None and game.rules.stacking:
        return own + pending.amount
    return own


def aim(game: State, pending: Pending, events: list[Event]) -> None:
    """A penalty hits its target: it waits while they have an answer, else it is taken now."""
    game.pending = None
    game.turn_to(game.players.index(pending.target))
    if waits(game, pending):
        game.pending = pending
        events.append(PenaltyPending(pending.target, pending.amount, pending.source))
    else:
        take(game, pending, events)


def offender_left(game: State, events: list[Event]) -> None:
    """The player of a pending Wild Draw Four left: it stands, no longer open to a challenge."""
    pending = game.pending
    assert pending is not None
    pending.offender = None
    aim(game, pending, events)
