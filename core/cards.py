"""Cards and decks.

Every distinct card exists exactly once as an object (55 of them), so the engine compares cards by
identity and hands stay cheap lists of shared objects; `Card.parse` and `str()` are the notation
of the engine contract (`r7`, `gskip`, `brev`, `y+2`, `wild`, `wild4`, `creeper`).

Cards define no comparison operators on purpose: any Python-level `__eq__` or `__lt__` turns
every `card in hand` and `hand.remove(card)` into slow Python dispatch. Sort with `sort_hand`.
"""

from __future__ import annotations

import enum
from operator import attrgetter
from typing import Any


class Color(enum.Enum):
    RED = "r"
    YELLOW = "y"
    GREEN = "g"
    BLUE = "b"

    # Members are singletons compared by identity, so an identity hash is exact; `Enum`'s own
    # `__hash__` is a Python method, which makes every dict keyed by a color slow.
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Color:
        try:
            return _COLOR_BY_LETTER[text.strip().lower()]
        except KeyError:
            raise ValueError(f"not a color: {text!r} (expected one of r, y, g, b)") from None


COLORS: tuple[Color, ...] = tuple(Color)
_COLOR_BY_LETTER = {c.value: c for c in Color}


class Kind(enum.Enum):
    NUMBER = "number"
    SKIP = "skip"
    REVERSE = "rev"
    DRAW_TWO = "+2"
    WILD = "wild"
    WILD_FOUR = "wild4"
    CREEPER = "creeper"


WILD_KINDS = frozenset({Kind.WILD, Kind.WILD_FOUR, Kind.CREEPER})
ACTION_KINDS = frozenset({Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO})


class Card:
    """One card face. Never construct directly: use `Card.parse` or the module tables."""

    __slots__ = (
        "alone",
        "color",
        "face",
        "first_play",
        "is_wild",
        "kind",
        "number",
        "plain",
        "playable_on",
        "plays",
        "points",
        "rank",
        "text",
    )

    color: Color | None
    face: str
    is_wild: bool
    kind: Kind
    number: int | None
    points: int
    rank: int
    text: str
    # Played, it only passes the turn on (a number, Wild or Creeper): the one test the play of
    # most turns needs before moving to the next seat.
    plain: bool
    # `(card,)`, made once: what a draw of this one card reports.
    alone: tuple[Card]
    # This card's play actions (one per color for a wild), filled in by `core.actions` once
    # they exist: an attribute read is the cheapest way from a card to its actions.
    plays: tuple[Any, ...]
    # `plays[0]`, one attribute read away: listing the plays of a hand checks it against the
    # list so far, so that a card held twice is listed once.
    first_play: Any
    # With this card on top and a color in play, the cards that match it (same color, same
    # number or symbol) or are wild: one set lookup per card of a hand when listing plays.
    playable_on: dict[Color, frozenset[Card]]

    def __init__(self, kind: Kind, color: Color | None, number: int | None) -> None:
        self.kind = kind
        self.color = color
        self.number = number
        self.is_wild = kind in WILD_KINDS
        self.alone = (self,)
        self.plain = kind in (Kind.NUMBER, Kind.WILD, Kind.CREEPER)
        # `face` is what "same number or symbol" compares: "7", "skip", "+2"; wilds have a
        # unique face each so that matching by face never applies to them.
        self.face = str(number) if kind is Kind.NUMBER else kind.value
        prefix = "" if color is None else color.value
        self.text = prefix + self.face
        if kind is Kind.NUMBER:
            assert number is not None
            self.points = number
        elif kind in ACTION_KINDS:
            self.points = 20
        else:
            self.points = 50
        # Value when choosing the first dealer: numbers count, everything else is zero.
        self.rank = number if number is not None else 0

    @staticmethod
    def parse(text: str) -> Card:
        try:
            return _BY_TEXT[text.strip().lower()]
        except (KeyError, AttributeError):
            raise ValueError(f"not a card: {text!r}") from None

    @staticmethod
    def parse_many(text: str) -> list[Card]:
        """Cards separated by spaces, as in `Game.from_position` hands and piles."""
        return [Card.parse(t) for t in text.split()]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Card.parse, (self.text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self


def _build_faces() -> list[Card]:
    cards: list[Card] = []
    for color in COLORS:
        cards.extend(Card(Kind.NUMBER, color, n) for n in range(10))
        cards.extend(Card(kind, color, None) for kind in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO))
    cards.extend(Card(kind, None, None) for kind in (Kind.WILD, Kind.WILD_FOUR, Kind.CREEPER))
    return cards


ALL_CARDS: tuple[Card, ...] = tuple(_build_faces())
for _top in ALL_CARDS:
    _top.playable_on = {
        color: frozenset(
            c for c in ALL_CARDS if c.is_wild or c.color is color or c.face == _top.face
        )
        for color in COLORS
    }
_BY_TEXT: dict[str, Card] = {c.text: c for c in ALL_CARDS}
# Hands are shown grouped by color (in the order r, y, g, b), numbers before actions, wilds last.
SORT_KEY: dict[Card, int] = {c: i for i, c in enumerate(ALL_CARDS)}
WILD = _BY_TEXT["wild"]
WILD_FOUR = _BY_TEXT["wild4"]
CREEPER = _BY_TEXT["creeper"]


def standard_deck(creepers: int = 0) -> list[Card]:
    """108 cards (one 0 and two of every other face per color, 4 Wild, 4 Wild Draw Four)."""
    deck: list[Card] = []
    for card in ALL_CARDS:
        if card.kind is Kind.NUMBER:
            deck.extend([card] if card.number == 0 else [card, card])
        elif card.kind in ACTION_KINDS:
            deck.extend([card, card])
        elif card.kind is not Kind.CREEPER:
            deck.extend([card] * 4)
    deck.extend([CREEPER] * creepers)
    return deck


def sort_hand(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=SORT_KEY.__getitem__)


def hand_points(cards: list[Card]) -> int:
    return sum(map(_POINTS, cards))


_POINTS = attrgetter("points")
