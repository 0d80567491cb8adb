"""Player actions and their text notation (`play r7`, `play wild4 g`, `draw`, `choose g`, ...).

Actions are interned: `Action(type, card, color, target)` returns the one object for that
combination, so equal actions are the same object. The engine then checks a move against its list
of legal actions by identity, at C speed, instead of calling a Python `__eq__` for every entry.

Under the seven-zero option a 7 names the player it swaps hands with: `play r7 @b`. The target
is a player id, so those actions are interned per id seen (a few dozen objects per player).
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

from core.cards import ALL_CARDS, COLORS, Card, Color, Kind


class ActionType(enum.Enum):
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    ACCEPT = "accept"  # take a pending penalty
    CHALLENGE = "challenge"  # challenge a Wild Draw Four played on you
    UNO = "uno"  # call your own UNO
    CATCH = "catch"  # catch whoever forgot to call UNO
    CHOOSE = "choose"  # choose the color when the first flipped card is a wild

    # Members are singletons: an identity hash is exact (`Enum`'s own is a slow Python method).
    __hash__ = object.__hash__


class Action:
    """One action; immutable and interned (compare with `==` or `is`, both mean the same)."""

    __slots__ = ("card", "color", "matches", "next_color", "target", "type")
    __match_args__ = ("type", "card", "color", "target")
    _interned: ClassVar[dict[tuple[ActionType, Card | None, Color | None, str | None], Action]] = {}

    type: ActionType
    card: Card | None
    color: Color | None
    target: str | None  # the player a 7 swaps hands with (seven-zero), else None
    # The color in play after this action: the chosen one (a wild, or `choose`), else the
    # played card's own, else None.
    next_color: Color | None
    # For a play, the cards that may follow it: `card.playable_on[next_color]`.
    matches: frozenset[Card] | None

    def __new__(
        cls,
        type: ActionType,
        card: Card | None = None,
        color: Color | None = None,
        target: str | None = None,
    ) -> Action:
        key = (type, card, color, target)
        action = cls._interned.get(key)
        if action is None:
            if not isinstance(type, ActionType):
                raise TypeError(f"not an action type: {type!r}")
            if target is not None and (not isinstance(target, str) or not target or card is None):
                raise ValueError(f"a target is a player id, named by a play: {target!r}")
            action = object.__new__(cls)
            object.__setattr__(action, "type", type)
            object.__setattr__(action, "card", card)
            object.__setattr__(action, "color", color)
            object.__setattr__(action, "target", target)
            next_color = color if color is not None or card is None else card.color
            object.__setattr__(action, "next_color", next_color)
            matches = None
            if card is not None and next_color is not None:
                matches = card.playable_on[next_color]
            object.__setattr__(action, "matches", matches)
            cls._interned[key] = action
        return action

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(
        self,
    ) -> tuple[Any, tuple[ActionType, Card | None, Color | None, str | None]]:
        return (Action, (self.type, self.card, self.color, self.target))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        return self

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        words = text.split()
        if not words:
            raise ValueError("empty action")
        try:
            kind = ActionType(words[0].lower())
        except ValueError:
            raise ValueError(f"not an action: {text!r}") from None
        if kind is ActionType.PLAY:
            target = None
            if len(words) == 3 and words[2].startswith("@"):
                target = words.pop()[1:]
                if not target:
                    raise ValueError(f"@ names a player: {text!r}")
            if len(words) not in (2, 3):
                raise ValueError(f"play takes a card and, for a wild, a color: {text!r}")
            card = Card.parse(words[1])
            color = Color.parse(words[2]) if len(words) == 3 else None
            if color is not None and not card.is_wild:
                raise ValueError(f"only a wild card takes a color: {text!r}")
            if target is not None and card.kind is not Kind.NUMBER:
                raise ValueError(f"only a number card names a player: {text!r}")
            return Action(kind, card, color, target)
        if kind is ActionType.CHOOSE:
            if len(words) != 2:
                raise ValueError(f"choose takes one color: {text!r}")
            return Action(kind, color=Color.parse(words[1]))
        if len(words) != 1:
            raise ValueError(f"{kind.value} takes no argument: {text!r}")
        return SIMPLE[kind]

    def __str__(self) -> str:
        parts = [self.type.value]
        if self.card is not None:
            parts.append(self.card.text)
        if self.color is not None:
            parts.append(self.color.value)
        if self.target is not None:
            parts.append("@" + self.target)
        return " ".join(parts)


SIMPLE: dict[ActionType, Action] = {
    t: Action(t) for t in ActionType if t not in (ActionType.PLAY, ActionType.CHOOSE)
}
DRAW = SIMPLE[ActionType.DRAW]
PASS = SIMPLE[ActionType.PASS]
ACCEPT = SIMPLE[ActionType.ACCEPT]
CHALLENGE = SIMPLE[ActionType.CHALLENGE]
UNO = SIMPLE[ActionType.UNO]
CATCH = SIMPLE[ActionType.CATCH]
CHOOSE: dict[Color, Action] = {c: Action(ActionType.CHOOSE, color=c) for c in COLORS}
PLAY: dict[Card, Action] = {c: Action(ActionType.PLAY, c) for c in ALL_CARDS if not c.is_wild}
PLAY_WILD: dict[Card, tuple[Action, ...]] = {
    c: tuple(Action(ActionType.PLAY, c, color) for color in COLORS) for c in ALL_CARDS if c.is_wild
}

# Every play action of a card: one for a colored card, one per color for a wild.
PLAYS: dict[Card, tuple[Action, ...]] = {
    c: PLAY_WILD[c] if c.is_wild else (PLAY[c],) for c in ALL_CARDS
}
for _card in ALL_CARDS:
    _card.plays = PLAYS[_card]
    _card.first_play = PLAYS[_card][0]


def play(card: Card, color: Color | None = None, target: str | None = None) -> Action:
    return Action(ActionType.PLAY, card, color, target)
