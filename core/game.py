"""The game: one match of rounds to the target score, as a pure state machine.

`legal_actions(player)` is the single source of truth: `apply` accepts exactly the actions it
lists (so the buttons an adapter draws can never disagree with what the engine accepts) and only
when refusing asks `core.refusals` for a specific reason code. Randomness is derived from the
seed and a shuffle counter (`core.shuffle`), so `to_dict()` stays small and a seed replays the
same match.

Speed matters here (bots play whole matches in a benchmark, and a busy service applies every
move under a lock). Most turns are calm - nothing pending, no UNO call or catch in the air, no
jump-in to remember - and for those `legal_actions` and `apply` take fast paths written out in
full, with the bookkeeping they need kept up to date move by move (`_sync_turn` says when a turn
is calm). In a calm turn `apply` checks a move against the same rule `legal_actions` lists by,
written out, instead of building the list; every other position is checked against the list
itself. tests/core/test_fast_paths.py plays matches against a copy whose fast paths are off and
requires the same lists, refusals, events and states.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from core import actions as A
from core.actions import Action, ActionType
from core.cards import (
    COLORS,
    CREEPER,
    WILD_FOUR,
    Card,
    Color,
    Kind,
    hand_points,
    standard_deck,
)
from core.errors import IllegalAction
from core.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColorChosen,
    CreeperRevealed,
    DealerCardDrawn,
    DealerChosen,
    DirectionChanged,
    DrawReason,
    Event,
    FirstCardFlipped,
    FirstCardReturned,
    GameEnded,
    HandRevealed,
    Passed,
    PenaltyPending,
    PileReshuffled,
    PlayerLeft,
    PlayerSkipped,
    RoundEnded,
    RoundStarted,
    UnoCalled,
    UnoCaught,
    WildFourTakenBack,
)
from core.refusals import refusal
from core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, Scoring
from core.shuffle import more_numbers, random_numbers, shuffled

HAND_SIZE = 7
_DEALER_NUMBERS = 24  # random numbers set aside for the dealer draw (more come if ties need them)
CREEPER_EXTRA = 3
INNOCENT_EXTRA = 2
_DECKS: dict[int, tuple[Card, ...]] = {}

# The events of every turn are built without their dataclass `__init__`, their fields set one by
# one: calling the class costs twice as much (it runs `__init__` as a Python frame), and a
# `partial` of `object.__new__` is the cheapest call that makes an instance without it. The
# property tests round-trip every event through `event_to_dict`, which reads every field.
_card_played = partial(object.__new__, CardPlayed)
_cards_drawn = partial(object.__new__, CardsDrawn)
_passed = partial(object.__new__, Passed)
_player_skipped = partial(object.__new__, PlayerSkipped)
_direction_changed = partial(object.__new__, DirectionChanged)
_penalty_pending = partial(object.__new__, PenaltyPending)
_dealer_card_drawn = partial(object.__new__, DealerCardDrawn)
_dealer_chosen = partial(object.__new__, DealerChosen)
_round_started = partial(object.__new__, RoundStarted)
_first_card_flipped = partial(object.__new__, FirstCardFlipped)
_round_ended = partial(object.__new__, RoundEnded)
_game_ended = partial(object.__new__, GameEnded)
_NOTHING: frozenset[Card] = frozenset()
# For each number of players, the seat after each seat clockwise and counter-clockwise.
_SEATS: dict[int, tuple[list[int], list[int]]] = {
    n: ([(i + 1) % n for i in range(n)], [(i - 1) % n for i in range(n)])
    for n in range(1, MAX_PLAYERS + 1)
}

# Module constants for the hot paths (a global lookup is cheaper than an attribute chain).
_PLAY = ActionType.PLAY
_DRAW = ActionType.DRAW
_ACCEPT = ActionType.ACCEPT
_PASS = ActionType.PASS
_CHALLENGE = ActionType.CHALLENGE
_UNO = ActionType.UNO
_CATCH = ActionType.CATCH
_NUMBER = Kind.NUMBER
_SKIP = Kind.SKIP
_REVERSE = Kind.REVERSE
_DRAW_TWO = Kind.DRAW_TWO
_CREEPER = Kind.CREEPER
_CHOICE = DrawReason.CHOICE
_WINNER_SCORING = Scoring.WINNER
_DRAW_TWO_REASON = DrawReason.DRAW_TWO
_WILD_FOUR_REASON = DrawReason.WILD_FOUR
_DRAW_ACTION = A.DRAW
_PASS_ACTION = A.PASS
_UNO_ACTION = A.UNO
_CATCH_ACTION = A.CATCH
_ACCEPT_ACTION = A.ACCEPT
_CHALLENGE_ACTION = A.CHALLENGE


def _deck(creepers: int) -> tuple[Card, ...]:
    """`standard_deck(creepers)`, built once per creeper count (a speed-up)."""
    deck = _DECKS.get(creepers)
    if deck is None:
        deck = _DECKS[creepers] = tuple(standard_deck(creepers))
    return deck


@dataclass(slots=True)
class Pending:
    """A penalty waiting for its target's answer. Never changed once made (not frozen: speed).

    For a Wild Draw Four, `offender` is who played it (None once they left, so it can no longer
    be challenged), `legal` whether they held no card of `prev_color` at that moment, and
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


_new_pending = partial(object.__new__, Pending)  # see `_card_played`


class Game:
    # Slots, not a __dict__: with this many attributes an instance dict stops sharing its keys
    # and every attribute read on the hot paths takes the slow generic lookup.
    __slots__ = (
        "_cache",
        "_cache_move",
        "_cache_player",
        "_drew",
        "_fast",
        "_matches",
        "_next_seat",
        "_owe",
        "blocked_turns",
        "catchable",
        "color",
        "current",
        "current_player",
        "dealer",
        "direction",
        "discard",
        "draw_pile",
        "drawn",
        "first_flip",
        "first_turn_player",
        "hands",
        "has_drawn",
        "jumped_over",
        "left",
        "move_no",
        "opening_events",
        "pending",
        "players",
        "precall",
        "round_no",
        "round_winner",
        "rules",
        "safe",
        "scores_",
        "seed",
        "shuffles",
        "top_played_by",
        "winners",
    )

    players: list[str]
    rules: Rules
    seed: int
    shuffles: int
    hands: dict[str, list[Card]]
    draw_pile: list[Card]  # top is the last element
    discard: list[Card]  # top is the last element
    current: int
    # `players[current]`, kept in step with `current` by every public method that moves it: the
    # name is read on every call, and a property would cost as much as the lookup it saves.
    current_player: str
    # The current player while their turn is a calm, ordinary one, else "" (never a player id,
    # and a string either way, so that comparing with it stays the interpreter's fast string
    # comparison): see `_sync_turn`.
    _fast: str
    # The current player while the card they just drew waits to be played in an otherwise
    # calm turn, else "": the fast path for playing it.
    _drew: str
    # The current player while a penalty waits for their answer in an otherwise calm turn,
    # else "": the fast path for taking it.
    _owe: str
    # What may be played on the top card in the color in play (empty while no color is):
    # `discard[-1].playable_on[color]`, kept current by every move.
    _matches: frozenset[Card]
    # The seat after each seat in the direction of play (one of the shared tables of `_SEATS`,
    # never changed): moving the turn on is one list read.
    _next_seat: list[int]
    direction: int
    color: Color | None
    dealer: str
    round_no: int
    first_turn_player: str
    scores_: dict[str, int]
    pending: Pending | None
    has_drawn: bool
    drawn: Card | None
    precall: str | None  # called UNO holding two cards, before the play
    safe: set[str]  # holding one card, UNO called
    catchable: str | None  # holding one card, UNO not called, window open
    first_flip: bool  # the top card is the round's first flip: no jump-in on it
    top_played_by: str | None
    jumped_over: str | None  # whose turn the last jump-in took
    round_winner: str | None
    winners: tuple[str, ...] | None
    left: list[str]
    move_no: int
    blocked_turns: int  # turns in a row with nothing to draw and nothing to play

    # ------------------------------------------------------------------ construction

    def __init__(self) -> None:
        # The legal actions of `_cache_player` at move `_cache_move`, outside the calm ordinary
        # turn (whose list is cheaper to build than to keep).
        self._cache_player: str | None = None
        self._cache_move = -1
        self._cache: list[Action] = []
        # What `Game.new` did (dealer draw, deal, first flip); not part of the saved state.
        self.opening_events: list[Event] = []

    @staticmethod
    def new(players: list[str], rules: Rules | None = None, seed: int = 0) -> Game:
        """A new match: choose the dealer by draw, deal, flip (see `opening_events`)."""
        game = Game._blank(players, rules or Rules(), seed)
        events: list[Event] = []
        # One call for the random numbers of the dealer draw and of the first deal.
        deck_size = len(_deck(game.rules.creepers))
        label = f"{seed}:0"
        numbers = random_numbers(label, deck_size + _DEALER_NUMBERS)
        game.shuffles = 1
        game._choose_dealer(events, numbers, deck_size, label)
        game._start_round(events, numbers)
        game.opening_events = events
        game._sync_turn()
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
        game = Game._blank(players, rules or Rules(), seed)
        game._clear_turn()
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
        game.current = players.index(cur)
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
        game._sync_turn()
        return game

    @staticmethod
    def _blank(players: list[str], rules: Rules, seed: int) -> Game:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"{MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(players)}")
        scores: dict[str, int] = {}
        for p in players:  # one plain loop checks the ids and starts the scores
            if not isinstance(p, str) or not p:
                # "" is what `_fast`, `_drew` and `_owe` hold when they name nobody.
                raise ValueError("player ids must be non-empty strings")
            scores[p] = 0
        if len(scores) != len(players):
            raise ValueError("player ids must be unique")
        game = Game()
        game.players = list(players)
        game.rules = rules
        game.seed = seed
        game.shuffles = 0
        game.dealer = players[0]
        game.round_no = 0
        game.first_turn_player = players[0]
        game.scores_ = scores
        game.round_winner = None
        game.winners = None
        game.left = []
        game.move_no = 0
        return game  # the round's state comes from `_start_round` or `from_position`

    def _clear_turn(self) -> None:
        """Nothing pending, drawn, called or remembered: the state a round starts from."""
        self.pending = None
        self.has_drawn = False
        self.drawn = None
        self.precall = None
        self.safe = set()
        self.catchable = None
        self.first_flip = False
        self.top_played_by = None
        self.jumped_over = None
        self.blocked_turns = 0

    def _numbers(self, count: int) -> array[int]:
        """The random numbers of this match's next shuffle."""
        numbers = random_numbers(f"{self.seed}:{self.shuffles}", count)
        self.shuffles += 1
        return numbers

    def _shuffle(self, cards: list[Card]) -> None:
        """Shuffle `cards` in place with the next seeded shuffle of this match."""
        cards[:] = shuffled(cards, self._numbers(len(cards)))

    def _choose_dealer(
        self, events: list[Event], numbers: Sequence[int], first: int, label: str
    ) -> None:
        """Everyone draws a card; the highest number deals; ties draw again among themselves.

        Each draw takes a uniformly random card of those left: the same as drawing from the top
        of a shuffled deck, without shuffling the hundred cards nobody draws. The draws use
        `numbers` from index `first` on, then (after many ties) the stream after `label`'s.
        """
        deck = list(_deck(self.rules.creepers))
        contenders = self.players
        stream: Iterator[int] = iter(numbers[first:])
        while True:
            best = -1
            tied: list[str] = []
            for p in contenders:
                if not deck:
                    deck = list(_deck(self.rules.creepers))
                number = next(stream, None)
                if number is None:
                    stream = more_numbers(label)
                    number = next(stream)
                j = number % len(deck)
                card = deck[j]
                deck[j] = deck[-1]
                deck.pop()
                drawn = _dealer_card_drawn()
                drawn.player = p
                drawn.card = card
                events.append(drawn)
                rank = card.rank
                if rank > best:
                    best = rank
                    tied = [p]
                elif rank == best:
                    tied.append(p)
            if len(tied) == 1:
                break
            contenders = tied
        self.dealer = tied[0]
        chosen = _dealer_chosen()
        chosen.player = self.dealer
        events.append(chosen)

    def _start_round(self, events: list[Event], numbers: Sequence[int] | None = None) -> None:
        self.round_no += 1
        cards = _deck(self.rules.creepers)
        deck = shuffled(cards, self._numbers(len(cards)) if numbers is None else numbers)
        players = self.players
        dealer_idx = players.index(self.dealer)
        # The deck is in random order, so dealing seven at a time is the same as one at a time.
        hands: dict[str, list[Card]] = {}
        start = at = len(deck) - HAND_SIZE * len(players)
        for p in players:
            hands[p] = deck[at : at + HAND_SIZE]
            at += HAND_SIZE
        del deck[start:]
        self.hands = hands
        self.draw_pile = deck
        self.discard = []
        self.direction = 1
        self._clear_turn()
        started = _round_started()
        started.number = self.round_no
        started.dealer = self.dealer
        started.hand_size = HAND_SIZE
        events.append(started)
        while True:
            card = deck.pop()
            if self.rules.first_card_number and card.kind is not _NUMBER:
                deck.insert(len(deck) // 2, card)
            elif card is WILD_FOUR:
                deck.append(card)
                self._shuffle(deck)
            else:
                break
            events.append(FirstCardReturned(card))
        self.discard.append(card)
        self.first_flip = True
        flipped = _first_card_flipped()
        flipped.card = card
        events.append(flipped)
        n = len(players)
        first = (dealer_idx + 1) % n
        self.color = card.color
        self.current = first
        if card.kind is _SKIP:
            events.append(PlayerSkipped(players[first]))
            self.current = (first + 1) % n
        elif card.kind is _REVERSE:
            self.direction = -1
            events.append(DirectionChanged(-1))
            self.current = dealer_idx
        elif card.kind is _DRAW_TWO:
            self._aim_draw_two(first, card, events)
        self.first_turn_player = players[self.current]

    # ------------------------------------------------------------------ public state

    def _sync_turn(self) -> None:
        """Recompute the bookkeeping of the fast paths after a move that may have changed it:
        `current_player`, `_next_seat`, `_matches`, and which fast path, if any, the player to
        act takes.

        A turn is calm when nothing but the plain rules can apply to it: a color in play, the
        match going on, no UNO call in the air nor a catch of the player to act, no jump-in or
        blocked turn to remember, bluffing allowed. (The round's first card may still be on top:
        a play in a calm turn covers it.) In a calm turn `_fast` names the player when nothing
        is pending or drawn, `_drew` when the card they just drew can be played, `_owe` when a
        penalty waits for their answer. That is most turns of most games, and for them
        `legal_actions` and `apply` take short paths that skip every one of those checks
        (`_legal_general` and `_apply_checked` handle all the rest; tests/core/test_fast_paths.py
        holds both to the same results).
        """
        players = self.players
        name = self.current_player = players[self.current]
        seats = _SEATS[len(players)]
        self._next_seat = seats[0] if self.direction == 1 else seats[1]
        self._fast = self._drew = self._owe = ""
        color = self.color
        self._matches = _NOTHING if color is None else self.discard[-1].playable_on[color]
        catchable = self.catchable
        if (
            color is not None
            and self.winners is None
            and (catchable is None or (catchable != name and not self.has_drawn))
            and self.precall is None
            and not self.safe
            and self.jumped_over is None
            and not self.blocked_turns
            and not self.rules.no_bluffing
        ):
            if self.pending is not None:
                self._owe = name
            elif not self.has_drawn:
                self._fast = name
            elif self.drawn is not None and self.drawn in self._matches:
                self._drew = name

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
        return self.players[(self.current + steps * self.direction) % len(self.players)]

    # ------------------------------------------------------------------ legality

    def legal_actions(self, player: str) -> list[Action]:
        """Exactly the actions `player` may take now, in any seat, on or out of turn.

        Each action is listed once, the plays first (in the order of the hand, a wild once per
        color), then the others: a caller that wants only the plays can stop at the first
        action that is not one. The list is the caller's own.
        """
        if player == self._fast:
            # The calm ordinary turn (see `_sync_turn`), written out: what matches the color or
            # the top card's face, once each (a hand may hold a card twice), then draw, and UNO
            # before playing the second-to-last card. `apply` checks a move against the same
            # rule in its own fast path.
            hand = self.hands[player]
            playable = self._matches
            out: list[Action] = []
            for c in hand:
                if c in playable and c.first_play not in out:
                    out += c.plays
            out.append(_DRAW_ACTION)
            if len(hand) == 2 and len(out) > 1:
                out.append(_UNO_ACTION)
            if self.catchable is not None:
                out.append(_CATCH_ACTION)  # somebody else forgot their UNO
            return out
        if (
            player == self._owe
            and self.pending.source is WILD_FOUR  # type: ignore[union-attr]
            and not self.rules.defend_wild_four
        ):  # nothing to answer it with: take it or challenge (or catch a forgotten UNO)
            if self.catchable is None:
                return [_ACCEPT_ACTION, _CHALLENGE_ACTION]
            return [_ACCEPT_ACTION, _CHALLENGE_ACTION, _CATCH_ACTION]
        if player == self._drew:  # the card just drawn, playable (see `_sync_turn`), or pass
            out = list(self.drawn.plays)  # type: ignore[union-attr]
            out.append(_PASS_ACTION)
            if len(self.hands[player]) == 2:
                out.append(_UNO_ACTION)
            return out
        if self._cache_player is not player or self._cache_move != self.move_no:
            self._cache = self._legal_general(player)
            self._cache_player = player
            self._cache_move = self.move_no
        return self._cache.copy()

    def _legal_general(self, player: str) -> list[Action]:
        """`legal_actions` in every position, the calm ordinary turn included."""
        if (
            player != self.current_player
            or self.winners is not None
            or self.pending is not None
            or self.has_drawn
            or self.color is None
        ):
            return self._other_legal(player)
        hand = self.hands[player]
        playable = self.discard[-1].playable_on[self.color]
        # The same listing as the fast path of `legal_actions`, which keeps its own copy: a
        # call there would cost more than the loop. The lockstep tests hold the two together.
        out: list[Action] = []
        for c in hand:
            if c in playable and c.first_play not in out:
                out += c.plays
        if out and self.rules.no_bluffing and not self._wild_four_legal(hand):
            out = [a for a in out if a.card is not WILD_FOUR]
        out.append(_DRAW_ACTION)
        if len(hand) == 2 and self.precall != player and len(out) > 1:
            out.append(_UNO_ACTION)  # a card to play: UNO may be called before it
        catchable = self.catchable
        if catchable is not None:
            out.append(_UNO_ACTION if catchable == player else _CATCH_ACTION)
        return out

    def _other_legal(self, player: str) -> list[Action]:
        """`legal_actions` in every case but the ordinary turn: out of turn, the first color,
        a pending penalty, after a draw, the game over."""
        if self.winners is not None:
            return []
        hand = self.hands.get(player)
        if hand is None:
            return []
        out: list[Action] = []
        if player == self.current_player:
            if self.color is None:
                return [A.CHOOSE[c] for c in COLORS]
            p = self.pending
            if p is not None:
                out = self._penalty_answers(p, hand)
                can_play = bool(out)
                out.append(_ACCEPT_ACTION)
                if p.offender is not None and p.source is WILD_FOUR and not self.rules.no_bluffing:
                    out.append(_CHALLENGE_ACTION)
            else:
                assert self.has_drawn, "the ordinary turn is legal_actions' own case"
                drawn = self.drawn
                can_play = drawn is not None and self._playable(drawn, hand)
                if can_play:
                    assert drawn is not None
                    out += drawn.plays
                out.append(_PASS_ACTION)
            if can_play and len(hand) == 2 and self.precall != player:
                out.append(_UNO_ACTION)
        elif self._can_jump_in(player):
            out.append(self.discard[-1].first_play)
        catchable = self.catchable
        if catchable is not None:
            out.append(_UNO_ACTION if catchable == player else _CATCH_ACTION)
        return out

    def _penalty_answers(self, p: Pending, hand: list[Card]) -> list[Action]:
        """The plays that answer the pending penalty `p` instead of taking it: a Draw Two of
        the new color against a Wild Draw Four (defending), any Draw Two against a Draw Two
        (passing it on), or under jump-in rules the identical Draw Two."""
        rules = self.rules
        out: list[Action] = []
        if p.source is WILD_FOUR:
            if not rules.defend_wild_four:
                return out
            color = self.color
            for c in hand:
                if c.kind is _DRAW_TWO and c.color is color and c.first_play not in out:
                    out.append(c.first_play)
        elif rules.pass_draw_two:
            for c in hand:
                if c.kind is _DRAW_TWO and c.first_play not in out:
                    out.append(c.first_play)
        elif rules.jump_in and not self.first_flip:
            top = self.discard[-1]
            if top in hand:
                out.append(top.first_play)
        return out

    def _playable(self, card: Card, hand: list[Card]) -> bool:
        if card.is_wild:
            if card is WILD_FOUR and self.rules.no_bluffing:
                return self._wild_four_legal(hand)
            return True
        return card.color is self.color or card.face == self.discard[-1].face

    def _wild_four_legal(self, hand: list[Card]) -> bool:
        color = self.color
        return not any(c.color is color for c in hand)

    def _can_jump_in(self, player: str) -> bool:
        if not self.rules.jump_in or self.first_flip or self.color is None:
            return False
        top = self.discard[-1]
        if top.is_wild or top not in self.hands[player]:
            return False
        return not (top.kind is _DRAW_TWO and self.top_played_by == player)

    # ------------------------------------------------------------------ applying

    def apply(self, player: str, action: Action) -> list[Event]:
        """Apply a legal action and return its events; an illegal one raises and changes nothing.

        The moves of most turns - a play or a draw in a calm ordinary turn, playing the card
        just drawn (see `_sync_turn`) - are checked and made here, written out in full (see the
        module docstring); `_apply_checked` takes every other move.
        """
        # Typed as a card for the plays below; None (a draw, or no play) is handled first.
        card: Card = action.card  # type: ignore[assignment]
        if player == self._fast:
            if card is None:
                pile = self.draw_pile
                if action is not _DRAW_ACTION or not pile or pile[-1] is CREEPER:
                    return self._apply_checked(player, action)
                if self.catchable is not None:
                    self.catchable = None  # any other player's move closes the window to catch
                self.move_no += 1
                card = pile.pop()
                self.hands[player].append(card)
                drawn = _cards_drawn()
                drawn.player = player
                drawn.count = 1
                drawn.reason = _CHOICE
                drawn.cards = card.alone
                if card in self._matches:
                    self.has_drawn = True
                    self.drawn = card
                    self._fast = ""
                    self._drew = player  # and the turn is still as calm as it was
                    return [drawn]
                # Nothing playable drawn: nothing to decide, the turn passes at once.
                passed = _passed()
                passed.player = player
                idx = self.current = self._next_seat[self.current]
                self.current_player = self._fast = self.players[idx]
                return [drawn, passed]
            # Legal exactly as `legal_actions` lists it in this turn: a card of the hand that
            # matches, with a color if and only if it is wild.
            if action not in card.plays or card not in self._matches:
                return self._apply_checked(player, action)
            hand = self.hands[player]
            if len(hand) < 2:
                if not hand or hand[0] is not card:
                    return self._apply_checked(player, action)  # refused there, with the reason
                # The last card: the general path plays it and scores the round. It is legal
                # (this turn's list holds every card that matches), so no list is built first.
                self.move_no += 1
                return self._apply_general(player, action)
            try:
                hand.remove(card)
            except ValueError:  # not in the hand: refused there, with the reason
                return self._apply_checked(player, action)
            if self.catchable is not None:
                self.catchable = None  # any other player's move closes the window to catch
        elif player == self._drew and card is self.drawn and action in card.plays:
            hand = self.hands[player]
            if len(hand) < 2:  # the last card: the round ends, the general path scores it
                return self._apply_checked(player, action)
            hand.remove(card)
            self.has_drawn = False
            self.drawn = None
            self._drew = ""
        elif action is _ACCEPT_ACTION and player == self._owe:
            return self._accept()
        else:
            return self._apply_checked(player, action)
        self.move_no += 1
        first_flip = self.first_flip
        if first_flip:
            self.first_flip = False  # the round's first card is covered: jump-ins may follow
        prev_color = self.color
        self.discard.append(card)
        self.top_played_by = player
        color = self.color = action.next_color
        self._matches = action.matches  # type: ignore[assignment]
        left = len(hand)
        played = _card_played()  # the fields one by one, without the dataclass __init__
        played.player = player
        played.card = card
        played.color = color  # type: ignore[assignment]
        played.jump_in = False
        played.cards_left = left
        events: list[Event] = [played]
        if left == 1:
            self.catchable = self.current_player  # UNO not called: anyone may catch them
        if card.plain:
            idx = self.current = self._next_seat[self.current]
            self.current_player = self._fast = self.players[idx]
            return events
        kind = card.kind
        players = self.players
        if kind is _SKIP:
            skipped = self._next_seat[self.current]
            event = _player_skipped()
            event.player = players[skipped]
            events.append(event)
            idx = self.current = self._next_seat[skipped]
        elif kind is _REVERSE:
            direction = self.direction = -self.direction
            seats = _SEATS[len(players)]
            self._next_seat = seats[0] if direction == 1 else seats[1]
            changed = _direction_changed()
            changed.direction = direction
            events.append(changed)
            idx = self._next_seat[self.current]
            if len(players) == 2 and self.rules.two_player_reverse_skips:
                event = _player_skipped()  # and the player goes again
                event.player = players[idx]
                events.append(event)
                idx = self.current
            else:
                self.current = idx
        elif kind is _DRAW_TWO:
            target = self._next_seat[self.current]
            rules = self.rules
            if rules.pass_draw_two or rules.jump_in or rules.creepers or len(self.draw_pile) < 2:
                self._aim_draw_two(target, card, events)  # it may wait for an answer
                if self.pending is not None or (left == 1 and len(players) == 2):
                    self._sync_turn()  # an answer to wait for, or their own UNO
                    return events
            else:  # nothing can answer it and no Creeper can turn up
                events += self._take_at_once(target, 2, _DRAW_TWO_REASON)
            idx = self.current  # the penalty was taken: the seat after its target plays
        else:
            # A Wild Draw Four waits for its target to take it or challenge it (bluffing is
            # allowed in a calm turn): `_aim_wild_four` written out. Its legality is judged
            # now, against the hand as it stands.
            legal = True
            for c in hand:
                if c.color is prev_color:
                    legal = False
                    break
            target = self.current = self._next_seat[self.current]
            name = players[target]
            pending = _new_pending()
            pending.target = name
            pending.amount = 4
            pending.source = WILD_FOUR
            pending.offender = player
            pending.legal = legal
            pending.prev_color = prev_color
            pending.prev_first_flip = first_flip
            self.pending = pending
            waiting = _penalty_pending()
            waiting.target = name
            waiting.amount = 4
            waiting.source = WILD_FOUR
            events.append(waiting)
            # The target's turn is as calm as this one was: their answer takes the fast path.
            self.current_player = self._owe = name
            self._fast = ""
            return events
        if left == 1 and len(players) == 2:
            self._sync_turn()  # the player at one card goes again: their own UNO is pending
        else:
            self.current_player = self._fast = players[idx]
        return events

    def _accept(self) -> list[Event]:
        """Take the pending penalty in an otherwise calm turn (see `_sync_turn`)."""
        if self.catchable is not None:
            self.catchable = None  # any other player's move closes the window to catch
        self.move_no += 1
        p = self.pending
        assert p is not None
        reason = _WILD_FOUR_REASON if p.source is WILD_FOUR else _DRAW_TWO_REASON
        if self.rules.creepers or len(self.draw_pile) < p.amount:
            events: list[Event] = []
            self._penalize(p.target, self.current, p.amount, reason, events)  # may reshuffle
        else:
            events = self._take_at_once(self.current, p.amount, reason)
        self.current_player = self._fast = self.players[self.current]
        self._owe = ""
        return events

    def _take_at_once(self, target: int, amount: int, reason: DrawReason) -> list[Event]:
        """`_penalize` for the fast paths, which have checked that the pile holds `amount`
        cards and that no Creeper can turn up: the player in seat `target` takes the top cards
        and is skipped. Returns its events."""
        name = self.players[target]
        self.pending = None
        pile = self.draw_pile
        got = pile[-amount:]
        del pile[-amount:]
        got.reverse()
        self.hands[name] += got
        drawn = _cards_drawn()
        drawn.player = name
        drawn.count = amount
        drawn.reason = reason
        drawn.cards = tuple(got)
        skipped = _player_skipped()
        skipped.player = name
        self.current = self._next_seat[target]
        return [drawn, skipped]

    def _apply_checked(self, player: str, action: Action) -> list[Event]:
        """`apply` outside its fast paths: check against `legal_actions`, then make the move."""
        if self._cache_player is not player or self._cache_move != self.move_no:
            self._cache = self._legal_general(player)
            self._cache_player = player
            self._cache_move = self.move_no
        if action not in self._cache:  # actions are interned: an identity test per entry
            raise refusal(self, player, action)
        self.move_no += 1
        return self._apply_general(player, action)

    def _apply_general(self, player: str, action: Action) -> list[Event]:
        """Make any legal move in any position (`apply` has checked that it is legal)."""
        t = action.type
        if t is not _PLAY:
            other = self._apply_other(player, action, t)
            self._sync_turn()
            return other
        # Any other player's move closes the window for catching a forgotten UNO.
        catchable = self.catchable
        if catchable is not None and catchable != player:
            self.catchable = None
        card = action.card
        assert card is not None
        players = self.players
        idx = self.current
        jump_in = players[idx] != player
        if jump_in:
            self.jumped_over = players[idx]
            idx = self.current = players.index(player)
        else:
            self.jumped_over = None
        hand = self.hands[player]
        hand.remove(card)
        self.blocked_turns = 0
        prev_color = self.color
        was_first_flip = self.first_flip
        self.pending = None
        self.has_drawn = False
        self.drawn = None
        self.discard.append(card)
        self.first_flip = False
        self.top_played_by = player
        color = action.color
        if color is None:
            color = card.color
            assert color is not None
        self.color = color
        left = len(hand)
        played = _card_played()
        played.player = player
        played.card = card
        played.color = color
        played.jump_in = jump_in
        played.cards_left = left
        events: list[Event] = [played]
        if left == 1:
            if self.precall == player:
                self.precall = None
                self.safe.add(player)
            else:
                self.catchable = player
        elif not left:
            self._go_out(player, card, events)
            self._sync_turn()
            return events  # the round is over: no UNO call left to settle
        kind = card.kind
        n = len(players)
        if card.plain:
            self.current = (idx + self.direction) % n
        elif kind is _SKIP:
            skipped = _player_skipped()
            skipped.player = players[(idx + self.direction) % n]
            events.append(skipped)
            self.current = (idx + 2 * self.direction) % n
        elif kind is _REVERSE:
            self.direction = -self.direction
            events.append(DirectionChanged(self.direction))
            if n == 2 and self.rules.two_player_reverse_skips:
                events.append(PlayerSkipped(players[(idx + self.direction) % n]))
                self.current = idx
            else:
                self.current = (idx + self.direction) % n
        elif kind is _DRAW_TWO:
            self._aim_draw_two((idx + self.direction) % n, card, events)
        else:  # Wild Draw Four: its legality is judged now, against the hand as it stands
            legal = True
            for c in hand:
                if c.color is prev_color:
                    legal = False
                    break
            self._aim_wild_four(
                (idx + self.direction) % n, player, legal, prev_color, was_first_flip, events
            )
        if self.precall is not None or self.safe or self.catchable is not None:
            self._settle_uno_state()
        self._sync_turn()
        return events

    def _apply_other(self, player: str, action: Action, t: ActionType) -> list[Event]:
        """Every legal move but a play."""
        events: list[Event]
        if t is _UNO:
            # Even a call before the play is a move that closes the window to catch another.
            if self.catchable is not None and self.catchable != player:
                self.catchable = None
            events = []
            self._call_uno(player, events)
            return events
        if t is _CATCH:
            events = []
            self._catch(player, events)
            return events
        # Any other player's move closes the window for catching a forgotten UNO.
        if self.catchable is not None and self.catchable != player:
            self.catchable = None
        self.jumped_over = None
        if t is _DRAW:
            events = self._draw_voluntarily(player)
        else:
            events = []
            if t is _ACCEPT:
                self._take_penalty(events)
            elif t is _PASS:
                self._pass(player, events)
            elif t is _CHALLENGE:
                self._challenge(player, events)
            else:  # choose
                assert action.color is not None
                self.color = action.color
                events.append(ColorChosen(player, action.color))
        if self.precall is not None or self.safe or self.catchable is not None:
            self._settle_uno_state()
        return events

    def _settle_uno_state(self) -> None:
        """A UNO call only counts while it is still true: drop the ones the move made stale."""
        if self.winners is not None:
            return
        hands = self.hands
        precall = self.precall
        if precall is not None and (
            self.players[self.current] != precall or len(hands[precall]) != 2
        ):
            self.precall = None
        if self.safe:
            self.safe = {p for p in self.safe if p in hands and len(hands[p]) == 1}
        c = self.catchable
        if c is not None and (c not in hands or len(hands[c]) != 1):
            self.catchable = None

    def _call_uno(self, player: str, events: list[Event]) -> None:
        if self.catchable == player:
            self.catchable = None
            self.safe.add(player)
        else:
            self.precall = player
        events.append(UnoCalled(player))

    def _catch(self, catcher: str, events: list[Event]) -> None:
        caught = self.catchable
        assert caught is not None
        self.catchable = None
        events.append(UnoCaught(catcher, caught))
        self._draw(caught, 2, DrawReason.UNO_CAUGHT, events)

    def _step(self, index: int, steps: int = 1) -> int:
        return (index + steps * self.direction) % len(self.players)

    def _aim_draw_two(self, target: int, card: Card, events: list[Event]) -> None:
        """A Draw Two hits seat `target`: it waits while the target has an answer (pass it on,
        or the identical card under jump-in rules), else it is taken at once."""
        self.current = target
        name = self.players[target]
        rules = self.rules
        if rules.pass_draw_two or (rules.jump_in and not self.first_flip):
            for c in self.hands[name]:
                if c.kind is _DRAW_TWO and (rules.pass_draw_two or c is card):
                    self.pending = Pending(name, 2, card)
                    events.append(PenaltyPending(name, 2, card))
                    return
        self._penalize(name, target, 2, _DRAW_TWO_REASON, events)

    def _aim_wild_four(
        self,
        target: int,
        offender: str | None,
        legal: bool,
        prev_color: Color | None,
        prev_first_flip: bool,
        events: list[Event],
    ) -> None:
        """A Wild Draw Four hits seat `target`: it waits while it can be challenged (its
        `offender` is still playing, bluffing is allowed) or defended, else it is taken."""
        self.current = target
        name = self.players[target]
        rules = self.rules
        waits = offender is not None and not rules.no_bluffing
        if not waits and rules.defend_wild_four:
            color = self.color
            waits = any(c.kind is _DRAW_TWO and c.color is color for c in self.hands[name])
        if waits:
            self.pending = Pending(name, 4, WILD_FOUR, offender, legal, prev_color, prev_first_flip)
            events.append(PenaltyPending(name, 4, WILD_FOUR))
        else:
            self._penalize(name, target, 4, _WILD_FOUR_REASON, events)

    def _penalize(
        self, name: str, target: int, amount: int, reason: DrawReason, events: list[Event]
    ) -> None:
        """`name`, in seat `target`, takes `amount` cards and loses the turn."""
        self.pending = None
        self._draw(name, amount, reason, events)
        skipped = _player_skipped()
        skipped.player = name
        events.append(skipped)
        self.current = (target + self.direction) % len(self.players)

    def _take_penalty(self, events: list[Event]) -> None:
        p = self.pending
        assert p is not None
        reason = _WILD_FOUR_REASON if p.source is WILD_FOUR else _DRAW_TWO_REASON
        self._penalize(p.target, self.players.index(p.target), p.amount, reason, events)

    def _challenge(self, challenger: str, events: list[Event]) -> None:
        p = self.pending
        assert p is not None and p.offender is not None
        offender = p.offender
        guilty = not p.legal
        self.pending = None
        events.append(ChallengeResolved(challenger, offender, guilty))
        events.append(HandRevealed(challenger, offender, tuple(self.hands[offender])))
        if guilty:
            if self.rules.guilty_takes_back:
                self.hands[offender].append(self.discard.pop())
                assert p.prev_color is not None
                self.color = p.prev_color
                self.first_flip = p.prev_first_flip
                self.top_played_by = None
                events.append(WildFourTakenBack(offender, p.prev_color))
            self._draw(offender, 4, DrawReason.CHALLENGE_GUILTY, events)
            # The challenger is not skipped: it is their turn now (self.current already).
        else:
            self._draw(challenger, 4 + INNOCENT_EXTRA, DrawReason.CHALLENGE_INNOCENT, events)
            events.append(PlayerSkipped(challenger))
            self.current = self._step(self.current)

    def _draw_voluntarily(self, player: str) -> list[Event]:
        """Draw one on one's turn; a card that cannot be played passes the turn at once.

        The general case (an empty pile to reshuffle, Creepers); `apply` writes out the usual
        one."""
        hand = self.hands[player]
        events: list[Event] = []
        drawn = self._draw(player, 1, _CHOICE, events)
        got = bool(drawn)
        card = drawn[0] if drawn else None
        self.has_drawn = True
        self.drawn = card
        stuck = not got and not any(self._playable(c, hand) for c in hand)
        if not stuck:
            self.blocked_turns = 0  # this player got a card or could play: not blocked
        # With nothing playable drawn the turn passes at once: there is no choice left to make.
        if card is None or not self._playable(card, hand):
            self._pass(player, events)
            if stuck:
                self._count_blocked_turn(events)
        return events

    def _count_blocked_turn(self, events: list[Event]) -> None:
        """Nothing to draw and nothing to play, all round the table: the round cannot go on.

        No rule sheet covers a blocked round; it ends, and the lowest hand wins it (the earliest
        in turn order on a tie), scoring as if that player had gone out.
        """
        self.blocked_turns += 1
        if self.blocked_turns < len(self.players):
            return
        n = len(self.players)
        order = [self.players[(self.current + i * self.direction) % n] for i in range(n)]
        winner = min(order, key=lambda p: hand_points(self.hands[p]))
        self._end_round(winner, events, blocked=True)

    def _pass(self, player: str, events: list[Event]) -> None:
        self.has_drawn = False
        self.drawn = None
        passed = _passed()
        passed.player = player
        events.append(passed)
        self.current = (self.current + self.direction) % len(self.players)

    def _draw(self, player: str, count: int, reason: DrawReason, events: list[Event]) -> list[Card]:
        """Draw from the pile, reshuffling when it runs out; a drawn Creeper costs 3 more."""
        pile = self.draw_pile
        if len(pile) >= count:
            got = pile[-count:]
            del pile[-count:]
            got.reverse()
        else:
            got = self._take(count, events)
        hand = self.hands[player]
        hand += got
        drawn = _cards_drawn()
        drawn.player = player
        drawn.count = len(got)
        drawn.reason = reason
        drawn.cards = tuple(got)
        events.append(drawn)
        if self.rules.creepers:
            for card in got:
                if card.kind is _CREEPER:
                    events.append(CreeperRevealed(player))
                    extra = self._take(CREEPER_EXTRA, events)
                    hand += extra
                    events.append(CardsDrawn(player, len(extra), DrawReason.CREEPER, tuple(extra)))
        return got

    def _take(self, count: int, events: list[Event]) -> list[Card]:
        pile = self.draw_pile
        if len(pile) >= count:
            got = pile[-count:]
            del pile[-count:]
            got.reverse()
            return got
        got = []
        # Under a pending Wild Draw Four the card beneath it stays too: a guilty player may have
        # to take the Wild Draw Four back and restore the pile (house rules).
        keep = 2 if self.pending is not None and self.pending.source is WILD_FOUR else 1
        for _ in range(count):
            if not pile:
                if len(self.discard) <= keep:
                    break
                pile.extend(self.discard[:-keep])
                del self.discard[:-keep]
                self._shuffle(pile)
                events.append(PileReshuffled(len(pile)))
            got.append(pile.pop())
        return got

    def _go_out(self, winner: str, card: Card, events: list[Event]) -> None:
        """The last card still hits the next player, with no answer possible; then score."""
        self.catchable = None
        if card.kind is _DRAW_TWO or card is WILD_FOUR:
            target = self.players[self._step(self.current)]
            reason = _DRAW_TWO_REASON if card.kind is _DRAW_TWO else _WILD_FOUR_REASON
            self._draw(target, 2 if card.kind is _DRAW_TWO else 4, reason, events)
        self._end_round(winner, events)

    def _end_round(self, winner: str, events: list[Event], *, blocked: bool = False) -> None:
        """Score the round; the match ends at the target, or the next round is dealt."""
        self.catchable = None
        hands = self.hands
        totals = self.scores_
        points: dict[str, int] = {}
        gained: dict[str, int] = {}
        left_over = 0  # the points in the other hands: the winner's gain under `winner`
        tally = self.rules.scoring is not _WINNER_SCORING
        for p in self.players:
            held = 0
            for c in hands[p]:  # a plain loop: faster here than sum(map(attrgetter(...)))
                held += c.points
            points[p] = held
            left_over += held
            if tally:
                gained[p] = held
                totals[p] += held
            else:
                gained[p] = 0
        if not tally:
            left_over -= points[winner]
            gained[winner] = left_over
            totals[winner] += left_over
        self.round_winner = winner
        ended = _round_ended()
        ended.winner = winner
        ended.hand_points = points
        ended.gained = gained
        ended.scores = dict(totals)
        ended.blocked = blocked
        events.append(ended)
        if max(totals.values()) >= self.rules.target:
            best = (min if tally else max)(totals.values())
            winners = []
            for p in self.players:
                if totals[p] == best:
                    winners.append(p)
            self.winners = tuple(winners)
            self.pending = None
            over = _game_ended()
            over.winners = self.winners
            over.scores = dict(totals)
            events.append(over)
            return
        self.dealer = self.first_turn_player
        self._start_round(events)

    # ------------------------------------------------------------------ leaving and timeouts

    def remove_player(self, player: str) -> list[Event]:
        """A player leaves mid-match: their cards go under the draw pile, play goes on."""
        if self.winners is not None:
            raise IllegalAction("game_over", "leave", player)
        if player not in self.hands:
            raise IllegalAction("not_a_player", "leave", player)
        self.move_no += 1
        events: list[Event] = []
        idx = self.players.index(player)
        was_current = idx == self.current
        cards = self.hands.pop(player)
        self.draw_pile[0:0] = cards
        self.players.pop(idx)
        self.left.append(player)
        del self.scores_[player]
        n = len(self.players)
        events.append(PlayerLeft(player, len(cards)))
        for attr in ("precall", "catchable", "top_played_by", "jumped_over"):
            if getattr(self, attr) == player:
                setattr(self, attr, None)
        self.safe.discard(player)
        if self.first_turn_player == player:
            self.first_turn_player = self.players[idx % n]
        if self.dealer == player:
            self.dealer = self.players[(idx - 1) % n]
        if n == 1:
            self.winners = (self.players[0],)
            self.current = 0
            self.pending = None
            events.append(GameEnded(self.winners, dict(self.scores_)))
            self._sync_turn()
            return events
        if idx < self.current:
            self.current -= 1
        elif was_current:
            self.current = idx % n if self.direction == 1 else (idx - 1) % n
            self.has_drawn = False
            self.drawn = None
            if self.pending is not None and self.pending.target == player:
                self.pending = None
        p = self.pending
        if p is not None and p.offender == player:
            target = self.players.index(p.target)
            self._aim_wild_four(target, None, True, None, False, events)
        self._sync_turn()
        return events

    def default_action(self, player: str) -> Action | None:
        """What a player who ran out of time does: accept the penalty, or draw, then pass."""
        if self.winners is not None or player != self.players[self.current]:
            return None
        if self.color is None:
            counts = Counter(c.color for c in self.hands[player] if c.color is not None)
            return A.CHOOSE[max(COLORS, key=lambda c: counts[c])]
        if self.pending is not None:
            return A.ACCEPT
        return A.PASS if self.has_drawn else A.DRAW

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> dict[str, Any]:
        p = self.pending
        return {
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "shuffles": self.shuffles,
            "hands": {k: " ".join(c.text for c in v) for k, v in self.hands.items()},
            "draw": " ".join(c.text for c in self.draw_pile),
            "discard": " ".join(c.text for c in self.discard),
            "current": self.current,
            "direction": self.direction,
            "color": None if self.color is None else self.color.value,
            "dealer": self.dealer,
            "round_no": self.round_no,
            "first_turn_player": self.first_turn_player,
            "scores": dict(self.scores_),
            "pending": None
            if p is None
            else {
                "target": p.target,
                "amount": p.amount,
                "source": p.source.text,
                "offender": p.offender,
                "legal": p.legal,
                "prev_color": None if p.prev_color is None else p.prev_color.value,
                "prev_first_flip": p.prev_first_flip,
            },
            "has_drawn": self.has_drawn,
            "drawn": None if self.drawn is None else self.drawn.text,
            "precall": self.precall,
            "safe": sorted(self.safe),
            "catchable": self.catchable,
            "first_flip": self.first_flip,
            "top_played_by": self.top_played_by,
            "jumped_over": self.jumped_over,
            "round_winner": self.round_winner,
            "winners": None if self.winners is None else list(self.winners),
            "left": list(self.left),
            "move_no": self.move_no,
            "blocked_turns": self.blocked_turns,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Game:
        g = Game()
        g.players = list(data["players"])
        g.rules = Rules.from_dict(data["rules"])
        g.seed = data["seed"]
        g.shuffles = data["shuffles"]
        g.hands = {k: Card.parse_many(v) for k, v in data["hands"].items()}
        g.draw_pile = Card.parse_many(data["draw"])
        g.discard = Card.parse_many(data["discard"])
        g.current = data["current"]
        g.direction = data["direction"]
        g.color = None if data["color"] is None else Color.parse(data["color"])
        g.dealer = data["dealer"]
        g.round_no = data["round_no"]
        g.first_turn_player = data["first_turn_player"]
        g.scores_ = dict(data["scores"])
        pd = data["pending"]
        g.pending = (
            None
            if pd is None
            else Pending(
                pd["target"],
                pd["amount"],
                Card.parse(pd["source"]),
                pd["offender"],
                pd["legal"],
                None if pd["prev_color"] is None else Color.parse(pd["prev_color"]),
                pd["prev_first_flip"],
            )
        )
        g.has_drawn = data["has_drawn"]
        g.drawn = None if data["drawn"] is None else Card.parse(data["drawn"])
        g.precall = data["precall"]
        g.safe = set(data["safe"])
        g.catchable = data["catchable"]
        g.first_flip = data["first_flip"]
        g.top_played_by = data["top_played_by"]
        g.jumped_over = data["jumped_over"]
        g.round_winner = data["round_winner"]
        g.winners = None if data["winners"] is None else tuple(data["winners"])
        g.left = list(data["left"])
        g.move_no = data["move_no"]
        g.blocked_turns = data.get("blocked_turns", 0)
        g._sync_turn()
        return g

    def copy(self) -> Game:
        return Game.from_dict(self.to_dict())
