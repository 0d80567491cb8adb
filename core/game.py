"""The game: one match of rounds to the target score, as a pure state machine.

`legal_actions(player)` is the single source of truth: `apply` accepts exactly the actions it
lists (so the buttons an adapter draws can never disagree with what the engine accepts) and only
when refusing asks `_diagnose` for a specific reason code. Randomness is derived from the seed and
a shuffle counter, so `to_dict()` stays small and a seed replays the same match.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core import actions as A
from core.actions import Action, ActionType
from core.cards import COLORS, WILD_FOUR, Card, Color, Kind, hand_points, standard_deck
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
from core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, Scoring

HAND_SIZE = 7
CREEPER_EXTRA = 3
INNOCENT_EXTRA = 2
# What the player whose turn a jump-in just took would otherwise hear for their ordinary move.
_TURN_TAKEN_REASONS = frozenset(
    {"not_your_turn", "jump_in_needs_identical", "jump_in_not_with_wild"}
)
_DECKS: dict[int, tuple[Card, ...]] = {}


def _new_deck(creepers: int) -> list[Card]:
    """`standard_deck(creepers)`, built once per creeper count and copied (a speed-up)."""
    deck = _DECKS.get(creepers)
    if deck is None:
        deck = _DECKS[creepers] = tuple(standard_deck(creepers))
    return list(deck)


@dataclass(frozen=True, slots=True)
class Pending:
    """A penalty waiting for its target's answer.

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


class Game:
    players: list[str]
    rules: Rules
    seed: int
    shuffles: int
    hands: dict[str, list[Card]]
    draw_pile: list[Card]  # top is the last element
    discard: list[Card]  # top is the last element
    current: int
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
        self._cache_move = -1
        self._cache_player = ""
        self._cache: list[Action] = []
        # What `Game.new` did (dealer draw, deal, first flip); not part of the saved state.
        self.opening_events: list[Event] = []

    @staticmethod
    def new(players: list[str], rules: Rules | None = None, seed: int = 0) -> Game:
        """A new match: choose the dealer by draw, deal, flip (see `opening_events`)."""
        game = Game._blank(players, rules or Rules(), seed)
        events: list[Event] = []
        bits = game._bits()  # one source for the dealer draw and the first deal
        game._choose_dealer(events, bits)
        game._start_round(events, bits)
        game.opening_events = events
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
        return game

    @staticmethod
    def _blank(players: list[str], rules: Rules, seed: int) -> Game:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"{MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ValueError("player ids must be unique")
        game = Game()
        game.players = list(players)
        game.rules = rules
        game.seed = seed
        game.shuffles = 0
        game.hands = {p: [] for p in players}
        game.draw_pile = []
        game.discard = []
        game.current = 0
        game.direction = 1
        game.color = None
        game.dealer = players[0]
        game.round_no = 0
        game.first_turn_player = players[0]
        game.scores_ = dict.fromkeys(players, 0)
        game.pending = None
        game.has_drawn = False
        game.drawn = None
        game.precall = None
        game.safe = set()
        game.catchable = None
        game.first_flip = False
        game.top_played_by = None
        game.jumped_over = None
        game.round_winner = None
        game.winners = None
        game.left = []
        game.move_no = 0
        game.blocked_turns = 0
        return game

    def _bits(self) -> Callable[[int], int]:
        """A random source for the next shuffle, derived from the seed and a counter."""
        self.shuffles += 1
        return random.Random(f"{self.seed}:{self.shuffles - 1}").getrandbits

    def _shuffle(self, cards: list[Card], bits: Callable[[int], int] | None = None) -> None:
        # `random.Random(...).shuffle(cards)` inlined: the same Fisher-Yates steps drawing the same
        # bits as `Random._randbelow` (CPython 3.11-3.13), so the same order, about twice as fast.
        getrandbits = bits or self._bits()
        for i in range(len(cards) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            cards[i], cards[j] = cards[j], cards[i]

    def _choose_dealer(self, events: list[Event], bits: Callable[[int], int]) -> None:
        """Everyone draws a card; the highest number deals; ties draw again among themselves.

        Each draw is one step of a Fisher-Yates shuffle done lazily: the same as drawing from a
        fully shuffled deck, without shuffling the 100 cards nobody draws.
        """
        deck = _new_deck(self.rules.creepers)
        contenders = list(self.players)
        while len(contenders) > 1:
            ranks: dict[str, int] = {}
            for p in contenders:
                if not deck:
                    deck = _new_deck(self.rules.creepers)
                n = len(deck)
                k = n.bit_length()
                j = bits(k)
                while j >= n:
                    j = bits(k)
                deck[j], deck[-1] = deck[-1], deck[j]
                card = deck.pop()
                events.append(DealerCardDrawn(p, card))
                ranks[p] = card.rank
            best = max(ranks.values())
            contenders = [p for p in contenders if ranks[p] == best]
        self.dealer = contenders[0]
        events.append(DealerChosen(self.dealer))

    def _start_round(self, events: list[Event], bits: Callable[[int], int] | None = None) -> None:
        self.round_no += 1
        deck = _new_deck(self.rules.creepers)
        self._shuffle(deck, bits)
        n = len(self.players)
        dealer_idx = self.players.index(self.dealer)
        self.hands = {p: [] for p in self.players}
        for _ in range(HAND_SIZE):
            for i in range(1, n + 1):
                self.hands[self.players[(dealer_idx + i) % n]].append(deck.pop())
        self.draw_pile = deck
        self.discard = []
        self.direction = 1
        self.pending = None
        self.has_drawn = False
        self.drawn = None
        self.precall = None
        self.safe = set()
        self.catchable = None
        self.top_played_by = None
        self.jumped_over = None
        self.blocked_turns = 0
        events.append(RoundStarted(self.round_no, self.dealer, HAND_SIZE))
        while True:
            card = self.draw_pile.pop()
            if self.rules.first_card_number and card.kind is not Kind.NUMBER:
                self.draw_pile.insert(len(self.draw_pile) // 2, card)
            elif card is WILD_FOUR:
                self.draw_pile.append(card)
                self._shuffle(self.draw_pile)
            else:
                break
            events.append(FirstCardReturned(card))
        self.discard.append(card)
        self.first_flip = True
        events.append(FirstCardFlipped(card))
        first = (dealer_idx + 1) % n
        self.color = card.color
        self.current = first
        if card.kind is Kind.SKIP:
            events.append(PlayerSkipped(self.players[first]))
            self.current = (first + 1) % n
        elif card.kind is Kind.REVERSE:
            self.direction = -1
            events.append(DirectionChanged(-1))
            self.current = dealer_idx
        elif card.kind is Kind.DRAW_TWO:
            self._set_penalty(first, 2, card, events)
        self.first_turn_player = self.players[self.current]

    # ------------------------------------------------------------------ public state

    @property
    def current_player(self) -> str:
        return self.players[self.current]

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
        """Exactly the actions `player` may take now, in any seat, on or out of turn."""
        return list(self._legal(player))

    def _legal(self, player: str) -> list[Action]:
        """`legal_actions` without the defensive copy, cached until the next move."""
        if self._cache_move == self.move_no and self._cache_player == player:
            return self._cache
        actions = self._compute_legal(player)
        self._cache_move = self.move_no
        self._cache_player = player
        self._cache = actions
        return actions

    def _compute_legal(self, player: str) -> list[Action]:
        if self.winners is not None or player not in self.hands:
            return []
        hand = self.hands[player]
        out: list[Action] = []
        if player == self.players[self.current]:
            if self.color is None:
                return [A.CHOOSE[c] for c in COLORS]
            if self.pending is not None:
                out.append(A.ACCEPT)
                if self._challengeable():
                    out.append(A.CHALLENGE)
                for card in dict.fromkeys(hand):
                    if self._answers_penalty(card):
                        out.append(A.PLAY[card])
            elif self.has_drawn:
                drawn = self.drawn
                if drawn is not None and self._playable(drawn, hand):
                    out.extend(A.PLAYS[drawn])
                out.append(A.PASS)
            else:
                # The hot loop of every turn: `_playable` inlined.
                color = self.color
                face = self.discard[-1].face
                bluff_check = self.rules.no_bluffing
                plays = A.PLAYS
                for card in dict.fromkeys(hand):
                    if card.is_wild:
                        if not (bluff_check and card is WILD_FOUR) or self._wild_four_legal(hand):
                            out.extend(plays[card])
                    elif card.color is color or card.face == face:
                        out.extend(plays[card])
                out.append(A.DRAW)
            if (
                len(hand) == 2
                and self.precall != player
                and any(a.type is ActionType.PLAY for a in out)
            ):
                out.append(A.UNO)
        elif self._can_jump_in(player):
            out.append(A.PLAY[self.discard[-1]])
        if self.catchable is not None:
            out.append(A.UNO if self.catchable == player else A.CATCH)
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

    def _challengeable(self) -> bool:
        p = self.pending
        return (
            p is not None
            and p.is_wild_four
            and p.offender is not None
            and not self.rules.no_bluffing
        )

    def _answers_penalty(self, card: Card) -> bool:
        p = self.pending
        assert p is not None
        if card.kind is not Kind.DRAW_TWO:
            return False
        if p.is_wild_four:
            return self.rules.defend_wild_four and card.color is self.color
        if self.rules.pass_draw_two:
            return True
        # Jump-in rules let the target answer with the identical card too.
        return self.rules.jump_in and not self.first_flip and card is self.discard[-1]

    def _can_jump_in(self, player: str) -> bool:
        if not self.rules.jump_in or self.first_flip or self.color is None:
            return False
        top = self.discard[-1]
        if top.is_wild or top not in self.hands[player]:
            return False
        return not (top.kind is Kind.DRAW_TWO and self.top_played_by == player)

    def _diagnose(self, player: str, action: Action) -> str:
        """Why `action` is not legal for `player`: the most specific reason code."""
        if self.winners is not None:
            return "game_over"
        if player not in self.hands:
            return "not_a_player"
        hand = self.hands[player]
        is_current = player == self.players[self.current]
        t = action.type
        p = self.pending
        if t is ActionType.CATCH:
            return "cannot_catch_yourself" if self.catchable == player else "nothing_to_catch"
        if t is ActionType.UNO:
            if player in self.safe or self.precall == player:
                return "uno_already_called"
            return "uno_not_now"
        if not is_current and t is not ActionType.PLAY:
            if t is ActionType.CHALLENGE and (p is None or not p.is_wild_four):
                return "nothing_to_challenge"
            if t is ActionType.CHALLENGE:
                return "not_your_challenge"
            if t is ActionType.CHOOSE and self.color is not None:
                return "nothing_to_choose"
            return "not_your_turn"
        if t is ActionType.CHOOSE:
            return "nothing_to_choose" if self.color is not None else "not_your_turn"
        if self.color is None:
            return "must_choose_color"
        if t is ActionType.CHALLENGE:
            return "nothing_to_challenge"
        if t is ActionType.ACCEPT:
            return "nothing_to_accept"
        if t is ActionType.DRAW:
            if p is not None:
                return "must_answer_penalty"
            return "already_drawn" if self.has_drawn else "not_your_turn"
        if t is ActionType.PASS:
            return "must_answer_penalty" if p is not None else "must_draw_first"
        card = action.card
        assert card is not None
        if card not in hand:
            return "card_not_in_hand"
        if card.is_wild and action.color is None:
            return "wild_needs_color"
        if not card.is_wild and action.color is not None:
            return "color_not_allowed"
        if not is_current:
            if not self.rules.jump_in:
                return "jump_in_off" if card is self.discard[-1] else "not_your_turn"
            if self.first_flip:
                return "jump_in_not_on_first_card"
            if card.is_wild:
                return "jump_in_not_with_wild"
            if card is not self.discard[-1]:
                return "jump_in_needs_identical"
            if card.kind is Kind.DRAW_TWO and self.top_played_by == player:
                return "one_draw_card_per_turn"
            return "not_your_turn"
        if p is not None:
            return "not_an_answer" if card.kind is Kind.DRAW_TWO else "must_answer_penalty"
        if self.has_drawn and card is not self.drawn:
            return "only_drawn_card"
        if card is WILD_FOUR and self.rules.no_bluffing:
            return "wild_four_not_allowed"
        return "does_not_match"

    # ------------------------------------------------------------------ applying

    def apply(self, player: str, action: Action) -> list[Event]:
        """Apply a legal action and return its events; an illegal one raises and changes nothing."""
        if action not in self._legal(player):
            reason = self._diagnose(player, action)
            if reason in _TURN_TAKEN_REASONS and player == self.jumped_over:
                reason = "turn_taken_by_jump_in"
            raise IllegalAction(reason, str(action), player)
        self.move_no += 1
        events: list[Event] = []
        t = action.type
        if t is ActionType.UNO:
            # Even a call before the play is a move that closes the window to catch another.
            if self.catchable is not None and self.catchable != player:
                self.catchable = None
            self._call_uno(player, events)
            return events
        if t is ActionType.CATCH:
            self._catch(player, events)
            return events
        # Any other move by somebody else closes the window for catching a forgotten UNO.
        if self.catchable is not None and self.catchable != player:
            self.catchable = None
        self.jumped_over = None
        if t is ActionType.PLAY:
            assert action.card is not None
            self._play(player, action.card, action.color, events)
        elif t is ActionType.DRAW:
            self._draw_voluntarily(player, events)
        elif t is ActionType.PASS:
            self._pass(player, events)
        elif t is ActionType.ACCEPT:
            self._take_penalty(events)
        elif t is ActionType.CHALLENGE:
            self._challenge(player, events)
        elif t is ActionType.CHOOSE:
            assert action.color is not None
            self.color = action.color
            events.append(ColorChosen(player, action.color))
        self._settle_uno_state()
        return events

    def _settle_uno_state(self) -> None:
        """A UNO call only counts while it is still true: drop the ones the move made stale."""
        if self.winners is not None:
            return
        if self.precall is not None and (
            self.players[self.current] != self.precall or len(self.hands[self.precall]) != 2
        ):
            self.precall = None
        if self.safe:
            self.safe = {p for p in self.safe if p in self.hands and len(self.hands[p]) == 1}
        c = self.catchable
        if c is not None and (c not in self.hands or len(self.hands[c]) != 1):
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

    def _play(self, player: str, card: Card, color: Color | None, events: list[Event]) -> None:
        hand = self.hands[player]
        idx = self.current if self.players[self.current] == player else self.players.index(player)
        if idx != self.current:
            self.jumped_over = self.players[self.current]
            self.current = idx
            jump_in = True
        else:
            jump_in = False
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
        new_color = color if card.is_wild else card.color
        assert new_color is not None
        self.color = new_color
        events.append(CardPlayed(player, card, new_color, jump_in, len(hand)))
        if len(hand) == 1:
            if self.precall == player:
                self.precall = None
                self.safe.add(player)
            else:
                self.catchable = player
        if not hand:
            self._go_out(player, card, events)
            return
        kind = card.kind
        n = len(self.players)
        if kind is Kind.SKIP:
            skipped = self._step(idx)
            events.append(PlayerSkipped(self.players[skipped]))
            self.current = self._step(idx, 2)
        elif kind is Kind.REVERSE:
            self.direction = -self.direction
            events.append(DirectionChanged(self.direction))
            if n == 2 and self.rules.two_player_reverse_skips:
                events.append(PlayerSkipped(self.players[self._step(idx)]))
                self.current = idx
            else:
                self.current = self._step(idx)
        elif kind is Kind.DRAW_TWO:
            self._set_penalty(self._step(idx), 2, card, events)
        elif card is WILD_FOUR:
            legal = not any(c.color is prev_color for c in hand)
            self._set_penalty(
                self._step(idx),
                4,
                card,
                events,
                offender=player,
                legal=legal,
                prev_color=prev_color,
                prev_first_flip=was_first_flip,
            )
        else:
            self.current = self._step(idx)

    def _set_penalty(
        self, target: int, amount: int, source: Card, events: list[Event], **wild_four: Any
    ) -> None:
        """Aim a penalty at `target`; it waits only when the target has an answer to give."""
        self.current = target
        name = self.players[target]
        self.pending = Pending(name, amount, source, **wild_four)
        if self._challengeable() or any(self._answers_penalty(c) for c in self.hands[name]):
            events.append(PenaltyPending(name, amount, source))
        else:
            self._take_penalty(events)

    def _take_penalty(self, events: list[Event]) -> None:
        p = self.pending
        assert p is not None
        self.pending = None
        reason = DrawReason.WILD_FOUR if p.is_wild_four else DrawReason.DRAW_TWO
        self._draw(p.target, p.amount, reason, events)
        events.append(PlayerSkipped(p.target))
        self.current = self._step(self.players.index(p.target))

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

    def _draw_voluntarily(self, player: str, events: list[Event]) -> None:
        got = self._draw(player, 1, DrawReason.CHOICE, events)
        self.has_drawn = True
        self.drawn = got[0] if got else None
        hand = self.hands[player]
        stuck = not got and not any(self._playable(c, hand) for c in hand)
        if not stuck:
            self.blocked_turns = 0  # this player got a card or could play: not blocked
        # With nothing playable drawn the turn passes at once: there is no choice left to make.
        if self.drawn is None or not self._playable(self.drawn, hand):
            self._pass(player, events)
            if stuck:
                self._count_blocked_turn(events)

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
        events.append(Passed(player))
        self.current = self._step(self.current)

    def _draw(self, player: str, count: int, reason: DrawReason, events: list[Event]) -> list[Card]:
        """Draw from the pile, reshuffling when it runs out; a drawn Creeper costs 3 more."""
        got = self._take(count, events)
        self.hands[player].extend(got)
        events.append(CardsDrawn(player, len(got), reason, tuple(got)))
        if self.rules.creepers:
            for card in got:
                if card.kind is Kind.CREEPER:
                    events.append(CreeperRevealed(player))
                    extra = self._take(CREEPER_EXTRA, events)
                    self.hands[player].extend(extra)
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
        keep = 2 if self.pending is not None and self.pending.is_wild_four else 1
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
        if card.kind is Kind.DRAW_TWO or card is WILD_FOUR:
            target = self.players[self._step(self.current)]
            reason = DrawReason.DRAW_TWO if card.kind is Kind.DRAW_TWO else DrawReason.WILD_FOUR
            self._draw(target, 2 if card.kind is Kind.DRAW_TWO else 4, reason, events)
        self._end_round(winner, events)

    def _end_round(self, winner: str, events: list[Event], *, blocked: bool = False) -> None:
        """Score the round; the match ends at the target, or the next round is dealt."""
        self.catchable = None
        points = {p: hand_points(self.hands[p]) for p in self.players}
        if self.rules.scoring is Scoring.WINNER:
            gained = dict.fromkeys(self.players, 0)
            gained[winner] = sum(v for p, v in points.items() if p != winner)
        else:
            gained = dict(points)
        for p, g in gained.items():
            self.scores_[p] += g
        self.round_winner = winner
        events.append(RoundEnded(winner, points, gained, dict(self.scores_), blocked))
        totals = self.scores_
        if max(totals.values()) >= self.rules.target:
            best = (max if self.rules.scoring is Scoring.WINNER else min)(totals.values())
            self.winners = tuple(p for p in self.players if totals[p] == best)
            self.pending = None
            events.append(GameEnded(self.winners, dict(totals)))
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
            self._set_penalty(target, p.amount, p.source, events, offender=None)
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
        return g

    def copy(self) -> Game:
        return Game.from_dict(self.to_dict())
