"""What happened, as typed events: adapters render these and the state, never re-derive rules.

Privacy is part of the type: `CardsDrawn.cards` is for the drawer's eyes only (everyone else sees
`count`), and `HandRevealed` exists only for `viewer`. `is_private_to` says who may see an event
in full; `event_to_dict` / `event_from_dict` round-trip every event for storage.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, ClassVar

from core.cards import Card, Color


class DrawReason(enum.Enum):
    CHOICE = "choice"  # a voluntary draw on one's turn
    DRAW_TWO = "draw_two"
    WILD_FOUR = "wild_four"
    CHALLENGE_GUILTY = "challenge_guilty"  # the offender draws 4
    CHALLENGE_INNOCENT = "challenge_innocent"  # the challenger draws 6
    UNO_CAUGHT = "uno_caught"
    CREEPER = "creeper"  # the 3 extra cards after revealing a Creeper


@dataclasses.dataclass(slots=True)
class Event:
    name: ClassVar[str] = "event"

    def is_private_to(self) -> str | None:
        """The one player who may see this event in full; None when it is public."""
        return None


@dataclasses.dataclass(slots=True)
class DealerCardDrawn(Event):
    name: ClassVar[str] = "dealer_card_drawn"
    player: str
    card: Card


@dataclasses.dataclass(slots=True)
class DealerChosen(Event):
    name: ClassVar[str] = "dealer_chosen"
    player: str


@dataclasses.dataclass(slots=True)
class RoundStarted(Event):
    name: ClassVar[str] = "round_started"
    number: int
    dealer: str
    hand_size: int


@dataclasses.dataclass(slots=True)
class FirstCardReturned(Event):
    """The flipped card may not start the round (Wild Draw Four, or a non-number in `house`)."""

    name: ClassVar[str] = "first_card_returned"
    card: Card


@dataclasses.dataclass(slots=True)
class FirstCardFlipped(Event):
    name: ClassVar[str] = "first_card_flipped"
    card: Card


@dataclasses.dataclass(slots=True)
class CardPlayed(Event):
    name: ClassVar[str] = "card_played"
    player: str
    card: Card
    color: Color  # the color now in play (the chosen one for a wild)
    jump_in: bool
    cards_left: int


@dataclasses.dataclass(slots=True)
class ColorChosen(Event):
    """The first player chose the color for a wild first card."""

    name: ClassVar[str] = "color_chosen"
    player: str
    color: Color


@dataclasses.dataclass(slots=True)
class CardsDrawn(Event):
    name: ClassVar[str] = "cards_drawn"
    player: str
    count: int
    reason: DrawReason
    cards: tuple[Card, ...]  # private to `player`: the table sees only `count`


@dataclasses.dataclass(slots=True)
class CreeperRevealed(Event):
    name: ClassVar[str] = "creeper_revealed"
    player: str


@dataclasses.dataclass(slots=True)
class PileReshuffled(Event):
    name: ClassVar[str] = "pile_reshuffled"
    count: int


@dataclasses.dataclass(slots=True)
class PlayerSkipped(Event):
    name: ClassVar[str] = "player_skipped"
    player: str


@dataclasses.dataclass(slots=True)
class DirectionChanged(Event):
    name: ClassVar[str] = "direction_changed"
    direction: int  # 1 clockwise, -1 counter-clockwise


@dataclasses.dataclass(slots=True)
class PenaltyPending(Event):
    """`target` must take `amount` cards or answer first (challenge, pass on, defend)."""

    name: ClassVar[str] = "penalty_pending"
    target: str
    amount: int
    source: Card


@dataclasses.dataclass(slots=True)
class Passed(Event):
    name: ClassVar[str] = "passed"
    player: str


@dataclasses.dataclass(slots=True)
class UnoCalled(Event):
    name: ClassVar[str] = "uno_called"
    player: str


@dataclasses.dataclass(slots=True)
class UnoCaught(Event):
    name: ClassVar[str] = "uno_caught"
    catcher: str
    player: str


@dataclasses.dataclass(slots=True)
class ChallengeResolved(Event):
    name: ClassVar[str] = "challenge_resolved"
    challenger: str
    offender: str
    guilty: bool


@dataclasses.dataclass(slots=True)
class HandRevealed(Event):
    """The challenged hand, for the challenger only."""

    name: ClassVar[str] = "hand_revealed"
    viewer: str
    owner: str
    cards: tuple[Card, ...]

    def is_private_to(self) -> str | None:
        return self.viewer


@dataclasses.dataclass(slots=True)
class WildFourTakenBack(Event):
    """House rule: a guilty player takes the Wild Draw Four back; pile and color are restored."""

    name: ClassVar[str] = "wild_four_taken_back"
    player: str
    color: Color


@dataclasses.dataclass(slots=True)
class HandsSwapped(Event):
    """Seven-zero: `player` played a 7 and swapped hands with `other`."""

    name: ClassVar[str] = "hands_swapped"
    player: str
    other: str


@dataclasses.dataclass(slots=True)
class HandsPassed(Event):
    """Seven-zero: a 0 passed every hand one seat in the direction of play."""

    name: ClassVar[str] = "hands_passed"
    direction: int  # 1 clockwise, -1 counter-clockwise


@dataclasses.dataclass(slots=True)
class TimedOut(Event):
    """`player` ran out of time (`count` times in a row); at the third they leave the game."""

    name: ClassVar[str] = "timed_out"
    player: str
    count: int


@dataclasses.dataclass(slots=True)
class PlayerLeft(Event):
    name: ClassVar[str] = "player_left"
    player: str
    cards_returned: int


@dataclasses.dataclass(slots=True)
class RoundEnded(Event):
    name: ClassVar[str] = "round_ended"
    winner: str
    hand_points: dict[str, int]  # what each hand held at the end
    gained: dict[str, int]  # what each player scored this round
    scores: dict[str, int]  # the match totals after this round
    blocked: bool = False  # nobody could play or draw: the lowest hand won


@dataclasses.dataclass(slots=True)
class GameEnded(Event):
    name: ClassVar[str] = "game_ended"
    winners: tuple[str, ...]  # more than one when the win is shared
    scores: dict[str, int]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.name: cls
    for cls in (
        DealerCardDrawn,
        DealerChosen,
        RoundStarted,
        FirstCardReturned,
        FirstCardFlipped,
        CardPlayed,
        ColorChosen,
        CardsDrawn,
        CreeperRevealed,
        PileReshuffled,
        PlayerSkipped,
        DirectionChanged,
        PenaltyPending,
        Passed,
        UnoCalled,
        UnoCaught,
        ChallengeResolved,
        HandRevealed,
        WildFourTakenBack,
        HandsSwapped,
        HandsPassed,
        TimedOut,
        PlayerLeft,
        RoundEnded,
        GameEnded,
    )
}


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return value.text
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    data = {f.name: _encode(getattr(event, f.name)) for f in dataclasses.fields(event)}
    data["event"] = event.name
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    cls = EVENT_TYPES[data["event"]]
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:  # a field added after the event was stored: its default
            continue
        value = data[f.name]
        if f.name == "card" or f.name == "source":
            value = Card.parse(value)
        elif f.name == "cards":
            value = tuple(Card.parse(c) for c in value)
        elif f.name == "color":
            value = Color.parse(value)
        elif f.name == "reason":
            value = DrawReason(value)
        elif f.name == "winners":
            value = tuple(value)
        kwargs[f.name] = value
    return cls(**kwargs)
