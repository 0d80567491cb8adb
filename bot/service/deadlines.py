"""What a game's stored deadline is: the turn timer's rule and an idle lobby's expiry.

Every open game has at most one stored deadline, acted on by the service's clock
(`bot.service.clock`, re-armed from the database after a restart). These pure helpers decide
when the turn timer restarts and how long a lobby may wait, apart from the locking and storage
around them, so the rules can be read and tested on their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.service.views import is_bot
from core.events import CardPlayed, Event, RoundStarted
from core.game import Game

# Seconds a lobby may sit with no join, leave, settings change or start before it is closed:
# an abandoned lobby otherwise blocks its chat (one open game per chat) until someone /kills it.
DEFAULT_LOBBY_IDLE = 30 * 60.0

# A play always ends the turn it is made in (a jump-in ends someone else's); a deal starts one.
_TURN_ENDERS = (CardPlayed, RoundStarted)


@dataclass(frozen=True)
class Turn:
    """The turn in progress: who is to act, and when their time runs out (None: never)."""

    player: str | None = None
    deadline: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "deadline": self.deadline}

    @staticmethod
    def from_dict(data: dict[str, Any] | None) -> Turn | None:
        if data is None:
            return None
        deadline = data.get("deadline")
        return Turn(data.get("player"), None if deadline is None else float(deadline))


def new_turn(before: str | None, game: Game, events: Iterable[Event]) -> bool:
    """Whether the player to act after a commit starts a new turn.

    `before` is the player who was to act when the turn timer was last armed (None: unknown,
    e.g. the first deal). The turn changes hands when

    - another player is to act than before, or
    - a card was played: a play ends the turn it is made in, so a player still (or again) to act
      after it starts a new turn: two players and a Reverse or a Skip, a Draw Two taken at once,
      a jump-in that hands the turn back to the player it jumped, or
    - a new round was dealt.

    Nothing else ends a turn: a catch, an UNO call, a player leaving out of turn, drawing a
    playable card, choosing the first color, or winning a challenge (the challenger then plays on
    in the same turn). Those moves keep the deadline the player to act already has, so no one
    can keep another player's timer from running out by acting around them.
    """
    if game.is_over or game.current_player != before:
        return True
    return any(isinstance(event, _TURN_ENDERS) for event in events)


def next_turn(
    turn: Turn | None,
    game: Game,
    events: Iterable[Event],
    timer: float | None,
    now: float,
) -> Turn:
    """The turn in progress after a commit: who is to act and when their time runs out.

    `turn` is what the previous commit stored (None before the first). The deadline is `now`
    plus `timer` for a new turn (see `new_turn`), and the stored one otherwise; None when nobody
    can time out (the match is over, a computer player or nobody's timer is to act).
    """
    player = None if game.is_over else game.current_player
    if player is None or is_bot(player) or timer is None:
        return Turn(player, None)
    kept = None if turn is None else turn.deadline
    if kept is None or new_turn(None if turn is None else turn.player, game, events):
        return Turn(player, now + timer)
    return Turn(player, kept)


def fresh_turn(game: Game, timer: float | None, now: float) -> Turn:
    """The turn in progress right after the chat's turn timer was changed: a full `timer` from
    `now` for the player to act (None if it is off, or nobody can time out).

    A stored deadline belongs to the timer it was set under, and keeping it across a change
    goes wrong: switched off and on again, the old deadline is long past, so the next move
    that keeps the turn (a catch, an UNO call) times the player out at once; switched to a
    longer or shorter timer, the player still runs on the old one. The player could not plan
    for the new timer before it existed, so it starts with the change. Only the game's creator
    or an admin may change settings while it runs, and they may as well stop the game, so
    nobody gains a way to stall someone else's turn.
    """
    return next_turn(None, game, (), timer, now)


def lobby_minutes(idle: float) -> int:
    """The idle time as the whole minutes the expiry notice names (at least one)."""
    return max(1, round(idle / 60))
