"""A match's state: every fact the rules read and change, and its stored form.

The rule modules act on a `State`; `core.game.Game` is the `State` that plays by them. The
phase is not kept here: it follows from these facts (`core.phases.handler_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from core.cards import WILD_FOUR, Card, Color
from core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from core.shuffle import random_numbers, shuffled


@dataclass(slots=True)
class Pending:
    """A Draw Two or Wild Draw Four waiting for its target's answer (its rules: `core.penalty`);
    `amount` is what taking it costs.

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


class State:
    """The facts of a match; the seat to act moves only through `turn_to` and `turn_to_next`,
    which keep `current_player` in step with `current`."""

    # Slots, not a __dict__: attribute reads are the engine's most frequent operation.
    __slots__ = (
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
        "timeouts",
        "top_played_by",
        "winners",
    )

    players: list[str]
    rules: Rules
    seed: int
    shuffles: int  # shuffles made so far: the next one's random numbers follow from it
    hands: dict[str, list[Card]]
    draw_pile: list[Card]  # top is the last element
    discard: list[Card]  # top is the last element
    current: int  # the seat to act
    current_player: str  # `players[current]`
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
    # Who played the top card, until any other player acts: nobody jumps in on their own Draw
    # Two before that.
    top_played_by: str | None
    jumped_over: str | None  # whose turn the last jump-in took
    round_winner: str | None
    winners: tuple[str, ...] | None
    left: list[str]
    move_no: int
    blocked_turns: int  # turns in a row with nothing to draw and nothing to play
    timeouts: dict[str, int]  # timeouts in a row, per player; any own move resets it

    @classmethod
    def blank(cls, players: list[str], rules: Rules, seed: int) -> Self:
        """A match before its first deal: players checked and seated, no scores, no round yet
        (the round's state comes from `core.rounds.start`, or from a position a test sets)."""
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"{MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(players)}")
        for p in players:
            if not isinstance(p, str) or not p:
                raise ValueError("player ids must be non-empty strings")
        if len(set(players)) != len(players):
            raise ValueError("player ids must be unique")
        game = cls()
        game.players = list(players)
        game.rules = rules
        game.seed = seed
        game.shuffles = 0
        game.dealer = players[0]
        game.round_no = 0
        game.current = 0
        game.current_player = players[0]
        game.first_turn_player = players[0]
        game.scores_ = dict.fromkeys(players, 0)
        game.round_winner = None
        game.winners = None
        game.left = []
        game.move_no = 0
        game.timeouts = {}
        return game

    def clear_turn(self) -> None:
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

    # ------------------------------------------------------------------ seats and shuffles

    def turn_to(self, seat: int) -> None:
        """The player in `seat` is to act."""
        self.current = seat
        self.current_player = self.players[seat]

    def turn_to_next(self, seat: int) -> None:
        """The player after `seat`, in the direction of play, is to act."""
        seat = (seat + self.direction) % len(self.players)
        self.current = seat
        self.current_player = self.players[seat]

    def step(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places after `seat` in the direction of play."""
        return (seat + steps * self.direction) % len(self.players)

    def numbers(self, count: int) -> Sequence[int]:
        """The random numbers of this match's next shuffle."""
        numbers = random_numbers(f"{self.seed}:{self.shuffles}", count)
        self.shuffles += 1
        return numbers

    def shuffle(self, cards: list[Card]) -> None:
        """Shuffle `cards` in place with the next seeded shuffle of this match."""
        cards[:] = shuffled(cards, self.numbers(len(cards)))

    # ------------------------------------------------------------------ stored form

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
            "timeouts": dict(self.timeouts),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """A state from `to_dict()`, of this version or an earlier one (missing keys default)."""
        g = cls()
        g.players = list(data["players"])
        g.rules = Rules.from_dict(data["rules"])
        g.seed = data["seed"]
        g.shuffles = data["shuffles"]
        g.hands = {k: Card.parse_many(v) for k, v in data["hands"].items()}
        g.draw_pile = Card.parse_many(data["draw"])
        g.discard = Card.parse_many(data["discard"])
        g.turn_to(data["current"])
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
        g.timeouts = dict(data.get("timeouts", {}))
        return g
