"""Calling UNO and catching whoever forgot (RULES.md section 5): the whole rule, in one place.

Its state is `precall`, `safe` and `catchable` (`core.state.State`). The window to catch closes
with the next move of any other player; a call only counts while it is true (`settle`), and
under seven-zero the calls follow the hands (`follow_hands`).
"""

from __future__ import annotations

from core import actions as A
from core import piles
from core.actions import Action
from core.events import DrawReason, Event, UnoCalled, UnoCaught
from core.state import State

CATCH_PENALTY = 2


def may_call_before_play(game: State, player: str) -> bool:
    """On one's turn, holding two cards with one to play (the caller knows there is one): UNO
    may be called before the play."""
    return len(game.hands[player]) == 2 and game.precall != player


def add_calls_and_catches(game: State, player: str, out: list[Action]) -> None:
    """While somebody is catchable they may still call UNO, and anyone else may catch them."""
    catchable = game.catchable
    if catchable is not None:
        out.append(A.UNO if catchable == player else A.CATCH)


def close_window(game: State, actor: str) -> None:
    """Any other player's move closes the window to catch a forgotten UNO."""
    if game.catchable is not None and game.catchable != actor:
        game.catchable = None


def call(game: State, player: str, events: list[Event]) -> None:
    if game.catchable == player:
        game.catchable = None
        game.safe.add(player)
    else:
        game.precall = player
    events.append(UnoCalled(player))


def catch(game: State, catcher: str, events: list[Event]) -> None:
    caught = game.catchable
    assert caught is not None
    game.catchable = None
    events.append(UnoCaught(catcher, caught))
    piles.draw(game, caught, CATCH_PENALTY, DrawReason.UNO_CAUGHT, events)


def down_to_one(game: State, player: str) -> None:
    """A play left `player` one card: safe if UNO was called before the play, else catchable."""
    if game.precall == player:
        game.precall = None
        game.safe.add(player)
    else:
        game.catchable = player


def settle(game: State) -> None:
    """Drop the calls a move made stale: a call before a play that did not come, a safe or
    catchable player who no longer holds one card (or left)."""
    if game.winners is not None:
        return
    hands = game.hands
    precall = game.precall
    if precall is not None and (game.current_player != precall or len(hands[precall]) != 2):
        game.precall = None
    if game.safe:
        game.safe = {p for p in game.safe if p in hands and len(hands[p]) == 1}
    caught = game.catchable
    if caught is not None and (caught not in hands or len(hands[caught]) != 1):
        game.catchable = None


def follow_hands(game: State, moved: dict[str, str]) -> None:
    """Seven-zero: hands changed owners (`moved` maps old owner to new); the calls go with them."""
    game.safe = {moved.get(p, p) for p in game.safe}
    if game.catchable is not None:
        game.catchable = moved.get(game.catchable, game.catchable)
    game.precall = None  # it was for the hand just played from, which has been played
    settle(game)


def forget(game: State, player: str) -> None:
    """`player` left the table: nothing about their UNO remains."""
    if game.precall == player:
        game.precall = None
    if game.catchable == player:
        game.catchable = None
    game.safe.discard(player)
