"""A penalty waiting for its target: a Draw Two or Wild Draw Four not yet taken (RULES.md 4, 6).

`Pending` is the one object that knows a penalty's answers (pass a Draw Two on, defend a Wild
Draw Four, the identical Draw Two under jump-in, stack under the stacking option), whether it
may be challenged, how it is taken and how a challenge is settled. `aim` is how a Draw Two or a
Wild Draw Four becomes one: it waits while its target has an answer, else it is taken at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from core import piles
from core.actions import Action
from core.cards import WILD_FOUR, Card, Color, Kind
from core.events import (
    ChallengeResolved,
    DrawReason,
    Event,
    HandRevealed,
    PenaltyPending,
    PlayerSkipped,
    WildFourTakenBack,
)

if TYPE_CHECKING:
    from core.game import Game

INNOCENT_EXTRA = 2  # what a wrong challenge costs on top of the penalty
_DRAW_TWO = Kind.DRAW_TWO


@dataclass(slots=True)
class Pending:
    """A penalty waiting for its target's answer; `amount` is what taking it costs.

    For a Wild Draw Four, `offender` is who played it (None once they left: it can no longer be
    challenged), `legal` whether they held no card of `prev_color` at that moment, and
    `prev_first_flip` whether the card under it was the round's first flip (restored when a
    guilty player takes the card back).
    """

    target: str
    amount: int
    source: Card
    offender: str | None = None
    legal: bool = True
    prev_color: Color | None = None
    prev_first_flip: bool = False

    @property
    def is_wild_four(self) -> bool:
        return self.source is WILD_FOUR

    def can_be_challenged(self, game: Game) -> bool:
        return self.source is WILD_FOUR and self.offender is not None and not game.rules.no_bluffing

    def answers(self, game: Game) -> list[Action]:
        """The plays by the target that answer this penalty instead of taking it."""
        rules = game.rules
        hand = game.hands[self.target]
        out: list[Action] = []
        if rules.stacking:  # +2 on +2, +4 on +4, never mixed; the sum goes on
            if self.source is WILD_FOUR:
                bluff_refused = rules.no_bluffing and not piles.may_play_wild_four(game, hand)
                if WILD_FOUR in hand and not bluff_refused:
                    out += WILD_FOUR.plays
                return out
            wanted = None  # any Draw Two
        elif self.source is WILD_FOUR:
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

    def waits(self, game: Game) -> bool:
        """The target has something to say before drawing: an answer, or a challenge."""
        return self.can_be_challenged(game) or bool(self.answers(game))

    def take(self, game: Game, events: list[Event]) -> None:
        """The target draws the penalty and loses the turn."""
        game.pending = None
        reason = DrawReason.WILD_FOUR if self.source is WILD_FOUR else DrawReason.DRAW_TWO
        seat = game.players.index(self.target)
        piles.draw(game, self.target, self.amount, reason, events)
        events.append(PlayerSkipped(self.target))
        game.turn_to_next(seat)

    def challenge(self, game: Game, events: list[Event]) -> None:
        """The target challenges the Wild Draw Four on top (RULES.md 4, and 6 when stacked)."""
        offender = self.offender
        assert offender is not None
        challenger = self.target
        guilty = not self.legal
        game.pending = None
        events.append(ChallengeResolved(challenger, offender, guilty))
        events.append(HandRevealed(challenger, offender, tuple(game.hands[offender])))
        if not guilty:
            amount = self.amount + INNOCENT_EXTRA
            piles.draw(game, challenger, amount, DrawReason.CHALLENGE_INNOCENT, events)
            events.append(PlayerSkipped(challenger))
            game.turn_to_next(game.current)
            return
        if game.rules.guilty_takes_back:
            game.hands[offender].append(game.discard.pop())
            assert self.prev_color is not None
            game.color = self.prev_color
            game.first_flip = self.prev_first_flip
            game.top_played_by = None
            events.append(WildFourTakenBack(offender, self.prev_color))
        piles.draw(game, offender, self.amount, DrawReason.CHALLENGE_GUILTY, events)
        # The challenger is not skipped: it is their turn now (game.current already).


def amount_of(game: Game, card: Card) -> int:
    """What a Draw Two or Wild Draw Four just played costs: its own 2 or 4, plus the stack it
    answers under the stacking option."""
    own = 4 if card is WILD_FOUR else 2
    pending = game.pending
    if pending is not None and game.rules.stacking:
        return own + pending.amount
    return own


def aim(game: Game, penalty: Pending, events: list[Event]) -> None:
    """A penalty hits its target: it waits while they have an answer, else it is taken now."""
    game.pending = None
    game.turn_to(game.players.index(penalty.target))
    if penalty.waits(game):
        game.pending = penalty
        events.append(PenaltyPending(penalty.target, penalty.amount, penalty.source))
    else:
        penalty.take(game, events)


def offender_left(game: Game, events: list[Event]) -> None:
    """The player of a pending Wild Draw Four left: it stands, no longer open to a challenge."""
    pending = game.pending
    assert pending is not None
    pending.offender = None
    aim(game, pending, events)
