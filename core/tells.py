"""Public facts about hidden hands: the top cards each player drew on by choice.

Everyone at the table sees a player draw on their turn instead of playing, and on which top card
in which color. `Game.drew_on` keeps those facts, per player, oldest first (`DrewOn`). They are
facts, not beliefs: what a draw says about a hand (a player who draws usually holds nothing that
plays) is for the computer players to judge (`core.ai.inference`).

A fact speaks only of the cards that were in the hand then, so the cards that entered the hand
afterwards are counted (`Draws.since`): any later draw (penalties, catches, challenges, a
Creeper's extra cards, a later choice), a Wild Draw Four taken back, and the drawn card itself
when it could be played and was kept (passing in the phase after the draw). A fact with as many
new cards as the hand holds says nothing about the cards still held, and goes at the player's
next draw by choice. A new round forgets every fact; under seven-zero the facts follow the
hands.

Everything here is read off the events of a move (`note`), the same record the table sees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from core import actions as A
from core.actions import Action
from core.cards import Card, Color
from core.events import (
    CardsDrawn,
    DrawReason,
    Event,
    HandsPassed,
    HandsSwapped,
    RoundStarted,
    WildFourTakenBack,
)

if TYPE_CHECKING:
    from core.game import Game


class DrewOn(NamedTuple):
    """The player drew by choice while `top` was on top in `color`, when `taken` cards had
    entered their hand since their first fact (`Draws.taken`)."""

    top: Card
    color: Color
    taken: int = 0

    @property
    def playable(self) -> frozenset[Card]:
        """The cards that would have played then."""
        return self.top.playable_on[self.color]


@dataclass(slots=True)
class Draws:
    """One player's facts, oldest first, and the cards that entered their hand since the first:
    a fact's own count of new cards is `taken - fact.taken`, so a new card is one addition. (It
    changes in place: a copy of a game copies it, `copy`.)"""

    taken: int = 0
    facts: list[DrewOn] = field(default_factory=list)

    def since(self, fact: DrewOn) -> int:
        """The cards that entered the hand after `fact`."""
        return self.taken - fact.taken

    def copy(self) -> Draws:
        return Draws(self.taken, list(self.facts))


Facts = dict[str, Draws]


def note(game: Game, player: str, action: Action, events: list[Event]) -> None:
    """Update `game.drew_on` after `player`'s move `action` made `events`."""
    if action is _PASS:  # the card just drawn played, and was kept
        _took(game, player, 1)
    for event in events:
        update = _UPDATES.get(type(event))
        if update is not None:
            update(game, event)


def _drew(game: Game, event: CardsDrawn) -> None:
    player = event.player
    draws = game.drew_on.get(player)
    if draws is not None:
        draws.taken += event.count  # new to every earlier fact
    if event.reason is DrawReason.CHOICE and game.color is not None:
        if draws is None:
            draws = game.drew_on[player] = Draws()
        facts = draws.facts
        if facts and draws.since(facts[0]) >= len(game.hands[player]):
            # The oldest facts (the most new cards) no longer tell anything about the hand.
            facts[:] = [f for f in facts if draws.since(f) < len(game.hands[player])]
        facts.append(DrewOn(game.discard[-1], game.color, draws.taken))


def _took_back(game: Game, event: WildFourTakenBack) -> None:
    _took(game, event.player, 1)


def _swapped(game: Game, event: HandsSwapped) -> None:
    follow(game, {event.player: event.other, event.other: event.player})


def _passed_on(game: Game, event: HandsPassed) -> None:
    players = game.players
    n = len(players)
    follow(game, {p: players[(i + game.direction) % n] for i, p in enumerate(players)})


def _new_round(game: Game, event: RoundStarted) -> None:
    game.drew_on = {}


_PASS = A.PASS
# The events that change the facts, by type: most moves make none of them.
_UPDATES: dict[type[Event], Callable[[Game, Any], None]] = {
    CardsDrawn: _drew,
    WildFourTakenBack: _took_back,
    HandsSwapped: _swapped,
    HandsPassed: _passed_on,
    RoundStarted: _new_round,
}


def _took(game: Game, player: str, count: int) -> None:
    """`count` cards entered `player`'s hand."""
    draws = game.drew_on.get(player)
    if draws is not None:
        draws.taken += count


def follow(game: Game, moved: dict[str, str]) -> None:
    """Seven-zero: hands changed owners (`moved` maps old owner to new); the facts go with them."""
    game.drew_on = {moved.get(p, p): facts for p, facts in game.drew_on.items()}


def to_dict(facts: Facts) -> dict[str, dict[str, Any]]:
    return {
        p: {"taken": d.taken, "facts": [[f.top.text, f.color.value, f.taken] for f in d.facts]}
        for p, d in facts.items()
    }


def from_dict(data: dict[str, dict[str, Any]]) -> Facts:
    return {
        p: Draws(
            d["taken"],
            [DrewOn(Card.parse(top), Color.parse(c), taken) for top, c, taken in d["facts"]],
        )
        for p, d in data.items()
    }
