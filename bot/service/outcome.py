"""What a use case hands back to an adapter: who acted, the notices, the views, the events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.service.chat_settings import ChatSettings
from bot.service.identity import person_id, storable
from bot.service.views import HandView, TableView
from core.events import (
    CardsDrawn,
    ChallengeResolved,
    CreeperRevealed,
    Event,
    GameEnded,
    PlayerLeft,
    RoundEnded,
    UnoCaught,
)
from core.rules import Scoring

# Public events that deserve a message of their own rather than a line in the table.
ANNOUNCED: tuple[type[Event], ...] = (
    RoundEnded,
    GameEnded,
    UnoCaught,
    ChallengeResolved,
    PlayerLeft,
    CreeperRevealed,
)


@dataclass(frozen=True)
class User:
    """Someone who acts; the name is kept storable (`bot.service.identity.storable`)."""

    id: str
    name: str
    lang: str | None = None  # the user's client language: the default for a new chat

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", storable(self.name))

    @classmethod
    def of(cls, platform: str, number: int, name: str, lang: str | None) -> User:
        """The platform's user `number` as the service knows them: no id ("") outside the
        platform's range, which every use case refuses (`bot.service.identity`)."""
        return cls(person_id(platform, number), name, lang)


@dataclass(frozen=True)
class Notice:
    """A message id from locales/ and its arguments."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)


# The refusals that say nothing of a game, only that the service could not act on it now (the
# process too busy, the storage failing, another process committing first): asked again a
# moment later, the same may well succeed.
PASSING = frozenset({"error-busy", "error-storage", "error-conflict"})


@dataclass
class Entries:
    """The outbox entries an outcome delivers (`bot.service.outbox`): the adapter marks them
    sent once its sends went out."""

    game_id: int | None
    ids: list[int]
    attempts: int = 0  # failed deliveries so far
    delivered: set[str] = field(default_factory=set)  # items already sent: a re-delivery skips
    tracked: bool = False  # handed to a delivery, which finishes or retries them
    # A re-delivery that shows the state of an entry that dealt the game (collapsed into a later
    # entry of the same game): the table and the hands may have to be sent new, as the deal's.
    dealt: bool = False
    # Likewise for the entry that opened the lobby (its version 0): the lobby message may never
    # have gone out (the process that opened it died first), so it may be sent new.
    opened: bool = False


@dataclass
class Outcome:
    """What a use case changed: everything an adapter needs to update the chat and the hands."""

    chat_key: str
    lang: str
    error: Notice | None = None  # for the acting user only, the state is unchanged
    info: Notice | None = None  # a confirmation for the chat
    table: TableView | None = None
    hands: dict[str, HandView] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    # The chat's settings in force with this outcome (a settings change's: the new ones), and
    # each changed person's own switches (`bot.service.in_force`): what publishing it needs.
    # None, or a player missing: not read (a refusal, an outcome built by hand); read them.
    settings: ChatSettings | None = None
    switches: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Messages for the whole chat that no engine event carries (an idle lobby expired, a timeout
    # took out the last person, a game that could not be loaded was set aside): a timer's
    # outcome has no command to answer, so adapters post these with the announcements.
    notices: list[Notice] = field(default_factory=list)
    # The player whose turn this change began (another player than before is to act), so an
    # adapter can notify them without remembering what it showed last: with several bot
    # processes, the one that showed the previous state may not be this one.
    turn_began: str | None = None
    outbox: Entries | None = None  # the outbox entries committed with this outcome

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def passing(self) -> bool:
        """Refused for a reason that passes (`PASSING`): nothing of the game was read or done."""
        return self.error is not None and self.error.key in PASSING

    @property
    def scoring(self) -> Scoring:
        """How the game this outcome is about counts points (its score lists rank by it).

        The game's own rules, not the chat's current settings: a chat may switch scoring while
        a match runs, and that match still counts the way it started.
        """
        return self.table.rules.scoring if self.table is not None else Scoring.WINNER

    @property
    def match_finished(self) -> bool:
        """Whether this outcome ended a match with a result (not stopped): adapters offer a
        rematch under the message that announces it."""
        return (
            self.table is not None
            and self.table.status == "finished"
            and any(isinstance(e, GameEnded) for e in self.events)
        )

    @property
    def announcements(self) -> list[Event]:
        return [e for e in self.events if isinstance(e, ANNOUNCED)]

    def private_events(self, player: str) -> list[Event]:
        """Events only `player` may see in full: their own draws and a hand shown to them."""
        return [
            e
            for e in self.events
            if e.is_private_to() == player or (isinstance(e, CardsDrawn) and e.player == player)
        ]


def public_event(event: Event) -> Event | None:
    """The event as everyone may see it: drawn cards become a count, private ones vanish."""
    if event.is_private_to() is not None:
        return None
    if isinstance(event, CardsDrawn) and event.cards:
        return CardsDrawn(event.player, event.count, event.reason, ())
    return event


def lang_of(hint: str | None) -> str:
    """A supported language from a client's language code (Russian unless it is Ukrainian)."""
    return "uk" if hint and hint.lower().split("-")[0] in ("uk", "ua") else "ru"
