"""A hand's buttons in one or two steps, and what a press on them means, for every platform.

Some moves are chosen in two steps: a wild card, then its color (`play wild4 g`); under the
seven-zero option a 7, then the player to swap hands with (`play r7 @b`). Both are the same
thing: several legal actions sharing a first part (`play wild4`, `play r7`). The first level shows
one button per first part (`pick <first part>`, see `bot.presentation.buttons`); the second lists
the actions sharing it, and a way back. Which actions are grouped is read from the hand's legal
actions, so a new kind of two-step move needs no change here.

`press` turns a hand button into a service call: a move goes to `service.play.act` (which refuses an
outdated version with a fresh hand); opening a step, going back or turning a page only reads
the hand, and is refused as stale when the hand changed since the button was drawn or holds
nothing the button names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.presentation.buttons import PICK, HandKey
from bot.presentation.render import Renderer
from bot.service import Notice, Outcome, User
from bot.service.views import HandView
from core.actions import Action, ActionType
from core.cards import Color

STALE = Notice("error-stale")
NOT_IN_GAME = Notice("error-not-in-game")


def first_part(action: Action) -> str | None:
    """`play wild4` of `play wild4 g`, `play r7` of `play r7 @b`; None when the action is
    complete in one step."""
    words = str(action).split(" ")
    return f"{words[0]} {words[1]}" if len(words) == 3 and words[0] == "play" else None


def target(action: Action) -> str | None:
    """The player a seven-zero 7 swaps hands with (`b` of `play r7 @b`)."""
    words = str(action).split(" ")
    return words[2][1:] if len(words) == 3 and words[2].startswith("@") else None


@dataclass(frozen=True)
class Option:
    """One button of the hand's first level."""

    action: Action  # the action, or the first of the actions this button opens
    act: str  # what the button sends (bot.presentation.buttons.HandKey.act)
    opens: str | None = None  # the first part whose second step it opens

    @property
    def card(self) -> bool:
        """A card (or a first color): shown with the cards, not with draw, pass, UNO..."""
        return self.action.type in (ActionType.PLAY, ActionType.CHOOSE)


def _actions(view: HandView) -> list[Action]:
    return [a for choice in view.choices for a in (choice.colors or (choice.action,))]


def options(view: HandView) -> list[Option]:
    """The first level: one button per action or per first part, in the hand's order."""
    seen: set[str] = set()
    out = []
    for action in _actions(view):
        head = first_part(action)
        act = str(action) if head is None else PICK + head
        if act not in seen:
            seen.add(act)
            out.append(Option(action, act, head))
    return out


def second_step(view: HandView, head: str) -> list[Action]:
    """The actions sharing `head`, in the hand's order (empty: the hand holds no such card)."""
    return [a for a in _actions(view) if first_part(a) == head]


def option_label(r: Renderer, view: HandView, option: Option) -> str:
    return r.action(
        view.lang, option.action, view.colorblind, view.pending_amount, wild_menu=bool(option.opens)
    )


def second_label(r: Renderer, view: HandView, action: Action, names: Mapping[str, str]) -> str:
    """A second step's button: a wild's color, or the player a 7 swaps with."""
    player = target(action)
    if player is not None:
        return r.name(view.lang, player, names)
    assert action.color is not None
    return r.color(view.lang, action.color, view.colorblind)


def second_color(action: Action) -> Color | None:
    """The color a second step's button stands for (None: a player)."""
    return None if target(action) is not None else action.color


def step_title(r: Renderer, view: HandView, head: str) -> str:
    """The question above a second step."""
    actions = second_step(view, head)
    card = actions[0].card if actions else None
    assert card is not None
    label = r.card(view.lang, card, view.colorblind)
    key = "step-swap-title" if target(actions[0]) is not None else "step-color-title"
    return r.t(view.lang, key, card=label)


# ---------------------------------------------------------------------------------- a press


class Mover(Protocol):
    async def act(
        self,
        user: User,
        action: str,
        *,
        chat_key: str | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Outcome: ...


class HandReader(Protocol):
    async def hand(
        self, user: User, *, chat_key: str | None = None, game_id: int | None = None
    ) -> Outcome: ...


class HandService(Protocol):
    """The two use cases a press may call (`bot.service.Service` has them)."""

    @property
    def play(self) -> Mover: ...

    @property
    def queries(self) -> HandReader: ...


@dataclass(frozen=True)
class Press:
    """What a hand button did: the outcome, the hand to show and in which step."""

    out: Outcome
    hand: HandView | None  # the presser's hand as it is now (None: they have none)
    error: Notice | None = None  # for the presser only
    moved: bool = False  # the press was a move (`out` is the service's answer to it)
    step: str | None = None  # show the second step of this first part
    page: int = 0


async def press(
    service: HandService, user: User, key: HandKey, *, chat_key: str | None = None
) -> Press:
    """A hand button's press; `chat_key` (when the adapter knows the game's chat) saves the
    service a lookup by game id."""
    if key.is_move:
        out = await service.play.act(
            user, key.act, chat_key=chat_key, game_id=key.game, version=key.version
        )
        return Press(out, out.hands.get(user.id), out.error, moved=True)
    out = await service.queries.hand(user, game_id=key.game)
    hand = out.hands.get(user.id)
    if out.error is not None or hand is None:
        return Press(out, None, out.error or NOT_IN_GAME)
    opens = key.opens
    if (
        hand.version != key.version
        or key.holds  # a card only shown (an inline result), never a button
        or (opens is not None and not second_step(hand, opens))
    ):
        return Press(out, hand, STALE)
    return Press(out, hand, step=opens, page=key.page or 0)


# ------------------------------------------------------------------------- the lobby's buttons


class TableReader(Protocol):
    async def table(self, chat_key: str) -> Outcome: ...


async def lobby_refusal(queries: TableReader, chat_key: str, game: int) -> Notice | None:
    """Why a lobby button of `game` is refused in this chat (None: it is the open lobby's).

    No game: `error-no-game`. Another game's button (an older lobby, or forged data): stale,
    and nothing of anyone's is shown. The read refused for a reason that passes (the process
    too busy): that refusal, not "no game".
    """
    out = await queries.table(chat_key)
    if out.passing:
        return out.error
    current = out.table
    if current is None:
        return Notice("error-no-game")
    if current.game_id != game:
        return STALE
    return None
