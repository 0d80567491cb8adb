"""Hand views built by hand, with the seven-zero option's actions (`play r7 @<player>`) before
the engine makes them: a test double with the same type, card, color and notation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.service.views import Choice, HandView, choices_for
from core.actions import Action, ActionType
from core.cards import Card, Color

PLAYERS = {"100": "Аня", "200": "Боря", "300": "Вика"}


@dataclass(frozen=True)
class Swap:
    """`play r7 @b` as the engine will list it: a play of a 7 that names a player."""

    card: Card
    player: str
    type: ActionType = field(default=ActionType.PLAY)
    color: Color | None = None

    def __str__(self) -> str:
        return f"play {self.card.text} @{self.player}"


def swaps(card: str, *players: str) -> list[Any]:
    return [Swap(Card.parse(card), p) for p in players]


def hand(*actions: Any, version: int = 4, **kw: Any) -> HandView:
    """A hand whose legal actions are `actions` (engine notation, or `Swap`s)."""
    parsed = [Action.parse(a) if isinstance(a, str) else a for a in actions]
    plain = [a for a in parsed if isinstance(a, Action)]
    choices: list[Choice] = choices_for(plain)
    choices[:0] = [Choice(a) for a in parsed if not isinstance(a, Action)]
    options: dict[str, Any] = dict(
        chat_key="tg:-100",
        game_id=12,
        player="100",
        version=version,
        lang="ru",
        colorblind=False,
        status="running",
        cards=[Card.parse(c) for c in ("r5", "r7", "wild4", "g2")],
        choices=choices,
        is_turn=True,
        current="100",
        current_name="Аня",
        top=Card.parse("r1"),
        color=Color.RED,
    )
    options.update(kw)
    return HandView(**options)


SEVEN_ZERO = (
    "play r5",
    *swaps("r7", "200", "300", "ai:1"),
    "play wild4 r",
    "play wild4 y",
    "play wild4 g",
    "play wild4 b",
    "draw",
)
