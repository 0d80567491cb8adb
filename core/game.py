"""The game: one match of rounds to the target score, as a pure state machine (the facade).

Randomness is derived from the seed and a shuffle counter (`core.shuffle`), so `to_dict()` stays
small and a seed replays the same match.
"""

from __future__ import annotations

from typing import Any, Self

from core import leaving, phases, rounds, uno
from core.actions import Action, ActionType
from core.cards import Card, Color
from core.errors import IllegalAction
from core.events import Event, TimedOut
from core.phases import ChooseColor, Handler, Over, Phase, handler_of
from core.refusals import refusal
from core.rules import Rules
from core.shuffle import random_numbers
from core.state import State

_DEALER_NUMBERS = 24  # random numbers set aside for the dealer draw (more come if ties need them)

_PLAY = ActionType.PLAY
_UNO = ActionType.UNO
_CATCH = ActionType.CATCH


class Game(State):
    """A match, played through `legal_actions` and `apply`.

    `legal_actions(player)` is the single source of truth: `apply` accepts exactly the actions
    it lists (so the buttons an adapter draws can never disagree with what the engine accepts)
    and only when refusing asks `core.refusals` for a specific reason code.

    Where each rule lives:

    - the turn's phases, what the player to act may do in each, and the moves: `core.phases`;
    - what a card does when played or flipped first: `core.effects`;
    - a penalty waiting for its answer, challenges, stacking: `core.penalty`;
    - UNO calls, catches and the catch window: `core.uno`;
    - drawing, reshuffling, which card plays on which: `core.piles`;
    - deal, first flip, going out, blocked rounds, scoring, the deal passing on: `core.rounds`;
    - leaving and timeouts: `core.leaving`.
    """

    __slots__ = ("_cache", "_cache_move", "_cache_player", "handler", "opening_events")

    # The phase, as its handler: derived from the state after every move (`phases.handler_of`).
    handler: type[Handler]

    # ------------------------------------------------------------------ construction

    def __init__(self) -> None:
        # The legal actions of `_cache_player` at move `_cache_move`: `apply` checks a move
        # against the list its caller has just asked for, without building it again.
        self._cache_player: str | None = None
        self._cache_move = -1
        self._cache: list[Action] = []
        # What `Game.new` did (dealer draw, deal, first flip); not part of the saved state.
        self.opening_events: list[Event] = []

    @staticmethod
    def new(players: list[str], rules: Rules | None = None, seed: int = 0) -> Game:
        """A new match: choose the dealer by draw, deal, flip (see `opening_events`)."""
        game = Game.blank(players, rules or Rules(), seed)
        events: list[Event] = []
        # One call for the random numbers of the dealer draw and of the first deal.
        deck_size = len(rounds.deck(game.rules.creepers))
        label = f"{seed}:0"
        numbers = random_numbers(label, deck_size + _DEALER_NUMBERS)
        game.shuffles = 1
        rounds.choose_dealer(game, events, numbers, deck_size, label)
        rounds.start(game, events, numbers)
        game.opening_events = events
        game.handler = handler_of(game)
        return game

    @staticmethod
    def from_position(
        players: list[str],
        hands: dict[str, str],
        discard: str,
        draw: str,
        rules: Rules | None = None,
        current: str | None = None,
        direction: int = 1,
        color: str | Color | None = None,
        *,
        seed: int = 0,
        scores: dict[str, int] | None = None,
    ) -> Game:
        """Any mid-round position, with nothing pending: the test-writer's constructor."""
        game = Game.blank(players, rules or Rules(), seed)
        game.clear_turn()
        if set(hands) != set(players):
            raise ValueError("hands must name exactly the players")
        game.hands = {p: Card.parse_many(hands[p]) for p in players}
        game.discard = Card.parse_many(discard)
        if not game.discard:
            raise ValueError("the discard pile needs at least its top card")
        game.draw_pile = Card.parse_many(draw)[::-1]
        if direction not in (1, -1):
            raise ValueError("direction is 1 or -1")
        game.direction = direction
        cur = current if current is not None else players[0]
        if cur not in players:
            raise ValueError(f"current player {cur!r} is not playing")
        game.turn_to(players.index(cur))
        top = game.discard[-1]
        if isinstance(color, str):
            color = Color.parse(color)
        if top.is_wild:
            if color is None:
                raise ValueError("a wild top card needs the color in play")
            game.color = color
        else:
            game.color = color or top.color
        game.dealer = players[(game.current - direction) % len(players)]
        game.first_turn_player = cur
        game.round_no = 1
        if scores:
            game.scores_.update(scores)
        game.handler = handler_of(game)
        return game

    # ------------------------------------------------------------------ public state

    @property
    def phase(self) -> Phase:
        return self.handler.phase

    @property
    def top_card(self) -> Card:
        return self.discard[-1]

    @property
    def current_color(self) -> Color | None:
        """The color to match; None only while the first player chooses it for a wild."""
        return self.color

    @property
    def needs_color(self) -> bool:
        return self.color is None

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.scores_)

    @property
    def is_over(self) -> bool:
        return self.winners is not None

    @property
    def game_winners(self) -> tuple[str, ...]:
        """Everyone sharing the win (more than one on a tie); empty while the match goes on."""
        return self.winners or ()

    @property
    def game_winner(self) -> str | None:
        """The match winner; None while it goes on or when the win is shared (see game_winners)."""
        if self.winners is not None and len(self.winners) == 1:
            return self.winners[0]
        return None

    def hand(self, player: str) -> list[Card]:
        return list(self.hands[player])

    def hand_sizes(self) -> dict[str, int]:
        return {p: len(self.hands[p]) for p in self.players}

    @property
    def draw_pile_size(self) -> int:
        return len(self.draw_pile)

    def next_player(self, steps: int = 1) -> str:
        return self.players[self.step(self.current, steps)]

    # ------------------------------------------------------------------ legality

    def legal_actions(self, player: str) -> list[Action]:
        """Exactly the actions `player` may take now, in any seat, on or out of turn.

        Each action is listed once, the plays first (in the order of the hand, a wild once per
        color, a 7 under seven-zero once per player it may swap with), then the others: a caller
        that wants only the plays can stop at the first action that is not one. The list is the
        caller's own.
        """
        if self._cache_move == self.move_no and self._cache_player == player:
            return self._cache.copy()
        # The phase's own actions for the player to act, a jump-in for anyone else, and for
        # everyone the UNO calls and catches of the moment; kept for the `apply` that follows.
        self._cache_player = player
        self._cache_move = self.move_no
        handler = self.handler
        if handler is Over or player not in self.hands:
            out = []
        elif player == self.current_player:
            out = handler.actions(self, player)
            if handler is not ChooseColor and self.catchable is not None:
                uno.add_calls_and_catches(self, player, out)
        else:
            out = phases.jump_in_actions(self, player)
            if self.catchable is not None:
                uno.add_calls_and_catches(self, player, out)
        self._cache = out
        return out.copy()

    # ------------------------------------------------------------------ applying

    def apply(self, player: str, action: Action) -> list[Event]:
        """Apply a legal action and return its events; an illegal one raises and changes nothing.

        Any own move resets the player's count of timeouts in a row."""
        if self._cache_move != self.move_no or self._cache_player != player:
            self.legal_actions(player)  # fills the cache the check below reads
        if action not in self._cache:  # actions are interned: identity tests
            raise refusal(self, player, action, self._cache)
        if self.timeouts:
            self.timeouts.pop(player, None)
        return self._make(player, action)

    def _make(self, player: str, action: Action) -> list[Event]:
        """Make a move `legal_actions` listed: the phase's handler, a jump-in, or UNO."""
        self.move_no += 1
        events: list[Event] = []
        t = action.type
        if self.top_played_by is not None and self.top_played_by != player:
            self.top_played_by = None  # another player acted since the top card was played
        if t is _CATCH:
            uno.catch(self, player, events)
        else:
            if self.catchable is not None:
                uno.close_window(self, player)
            if t is _UNO:
                uno.call(self, player, events)
            elif player != self.current_player:
                phases.play(self, player, action, events)  # a jump-in
            else:
                if t is not _PLAY:
                    self.jumped_over = None
                self.handler.moves[t](self, player, action, events)
        if self.precall is not None or self.safe or self.catchable is not None:
            uno.settle(self)
        self.handler = handler_of(self)
        return events

    # ------------------------------------------------------------------ leaving and timeouts

    def remove_player(self, player: str) -> list[Event]:
        """A player leaves mid-match and play goes on (`core.leaving.leave`)."""
        events: list[Event] = []
        leaving.leave(self, player, events)
        self.handler = handler_of(self)
        return events

    def default_action(self, player: str) -> Action | None:
        """What a player who ran out of time does (`core.leaving.default_action`)."""
        return leaving.default_action(self, player)

    def time_out(self, player: str) -> list[Event]:
        """The player to act ran out of time: they make their default moves until the turn
        passes. The third timeout in a row counts as leaving; any own move in between resets
        the count."""
        leaving.check(self, player, "timeout")
        if player != self.current_player:
            raise IllegalAction("not_your_turn", "timeout", player)
        count = self.timeouts.get(player, 0) + 1
        events: list[Event] = [TimedOut(player, count)]
        round_no = self.round_no
        while self.current_player == player and self.round_no == round_no:
            action = leaving.default_action(self, player)
            if action is None:
                break
            events += self._make(player, action)
        if count >= leaving.MAX_TIMEOUTS and self.winners is None:
            events += self.remove_player(player)
        elif self.winners is None:
            self.timeouts[player] = count
        return events

    # ------------------------------------------------------------------ serialisation

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """A game from `to_dict()`, of this version or an earlier one (missing keys default)."""
        game = super().from_dict(data)
        game.handler = handler_of(game)
        return game

    def copy(self) -> Game:
        return Game.from_dict(self.to_dict())
