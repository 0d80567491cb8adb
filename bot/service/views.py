"""What the table shows and what each player sees privately: plain data, no text.

The service builds these from the engine state and the game's metadata; `bot.presentation.render`
turns them into words with the locales, and each adapter into its own widgets.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from core.actions import Action, ActionType
from core.ai import Level
from core.cards import SORT_KEY, Card, Color, sort_hand
from core.events import Event
from core.game import Game
from core.rules import Rules

BOT_PREFIX = "ai:"


def is_bot(player: str) -> bool:
    return player.startswith(BOT_PREFIX)


@dataclass(frozen=True)
class Seat:
    id: str
    name: str
    cards: int
    score: int
    is_bot: bool
    is_current: bool
    uno: bool  # holds one card and has called UNO


@dataclass(frozen=True)
class TableView:
    chat_key: str
    game_id: int
    version: int
    status: str  # lobby | running | finished | killed
    lang: str
    colorblind: bool
    rules: Rules
    creator: str
    seats: list[Seat]
    closed: bool = False  # a lobby closed to new players
    round_no: int = 0
    dealer: str | None = None
    top: Card | None = None
    color: Color | None = None
    direction: int = 1
    current: str | None = None
    pending_target: str | None = None
    pending_amount: int = 0
    draw_size: int = 0
    recent: list[Event] = field(default_factory=list)
    winners: tuple[str, ...] = ()
    timer: int | None = None
    deadline: float | None = None
    invited: tuple[str, ...] = ()  # a rematch's lobby: the last match's people not joined yet
    bot_level: Level = Level.EASY  # the computer players' level (a lobby: the one they will play)


@dataclass(frozen=True)
class Choice:
    """One button: a card (a wild opens the four colors) or a plain action."""

    action: Action  # for a wild, the first of its four color actions
    colors: tuple[Action, ...] = ()  # the four `play wild <color>` actions of a wild card

    @property
    def key(self) -> str:
        if self.colors:
            assert self.action.card is not None
            return f"wild:{self.action.card.text}"
        return str(self.action)


@dataclass(frozen=True)
class HandView:
    chat_key: str
    game_id: int
    player: str
    version: int  # bumps only when this view changes: buttons carry it
    lang: str
    colorblind: bool
    status: str
    cards: list[Card]
    choices: list[Choice]
    is_turn: bool
    current: str | None
    current_name: str
    top: Card | None
    color: Color | None
    pending_amount: int = 0
    drawn: Card | None = None
    left: bool = False  # the player is no longer in this game

    @property
    def acting(self) -> bool:
        """The player is to act now, in a running game they are still in."""
        return self.is_turn and self.status == "running" and not self.left

    @property
    def waiting(self) -> bool:
        """A hand in a running game that can do nothing until its turn.

        Private messages are re-sent when their cards or moves change, not on every move, so
        such a hand must show nothing the next move could make wrong (whose turn, the top card).
        """
        return self.status == "running" and not self.left and not self.is_turn and not self.choices

    def action_for(self, key: str) -> list[Action]:
        for choice in self.choices:
            if choice.key == key:
                return list(choice.colors) or [choice.action]
        return []


def choices_for(actions: list[Action]) -> list[Choice]:
    """One choice per card, in the hand's order (wilds grouped), then the other actions."""
    wild_colors: dict[Card, list[Action]] = {}
    order: list[Action | Card] = []
    plays = sorted(
        (a for a in actions if a.type is ActionType.PLAY and a.card is not None),
        key=lambda a: SORT_KEY[a.card],  # type: ignore[index]
    )
    for action in plays + [a for a in actions if a.type is not ActionType.PLAY]:
        card = action.card
        if action.type is ActionType.PLAY and card is not None and card.is_wild:
            if card not in wild_colors:
                wild_colors[card] = []
                order.append(card)
            wild_colors[card].append(action)
        else:
            order.append(action)
    return [
        Choice(wild_colors[x][0], tuple(wild_colors[x])) if isinstance(x, Card) else Choice(x)
        for x in order
    ]


def hand_signature(game: Game, player: str) -> str:
    """What this player's private view depends on; the view is re-sent only when it changes."""
    if player not in game.hands:
        return "left"
    actions = game.legal_actions(player)
    parts: list[Any] = [" ".join(c.text for c in sort_hand(game.hands[player]))]
    parts.append(" ".join(str(a) for a in actions))
    if actions or game.current_player == player:
        parts += [game.top_card.text, game.current_color, game.current_player]
    parts.append(game.is_over)
    return hashlib.blake2s(repr(parts).encode(), digest_size=8).hexdigest()
