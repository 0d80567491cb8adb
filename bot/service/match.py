"""The match aggregate: the engine's game plus the lobby and table state the service keeps.

Storage holds a game as an opaque engine state and a `meta` JSON object; this module is the one
place that knows that object's keys, and every other module works with the typed `Lobby`,
`TableState` and `Match`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.service.deadlines import Turn
from bot.service.outcome import public_event
from bot.service.views import BOT_PREFIX, hand_signature, is_bot
from bot.storage import GameRecord
from core.actions import Action
from core.ai import Level, Memory
from core.events import Event, event_from_dict, event_to_dict
from core.game import Game

RECENT_EVENTS = 8  # public events the table lists under the cards


@dataclass
class Lobby:
    """Who sits at the table (seat order as dealt), their names, and who may change it."""

    creator: str
    players: list[str]
    names: dict[str, str]
    closed: bool = False
    bots: int = 0  # computer players added so far: the next one is numbered bots + 1
    invited: list[str] = field(default_factory=list)  # a rematch's people, named, not joined
    # The robots' level chosen in the lobby. None follows the chat's setting, so that a change
    # in /settings while the lobby is open still counts, and lobbies stored before the choice
    # existed keep working.
    bot_level: Level | None = None

    @staticmethod
    def opened_by(user_id: str, name: str) -> Lobby:
        return Lobby(creator=user_id, players=[user_id], names={user_id: name})

    @property
    def humans(self) -> list[str]:
        return [p for p in self.players if not is_bot(p)]

    def still_invited(self) -> tuple[str, ...]:
        """The previous match's people the lobby is still waiting for (not joined yet)."""
        joined = set(self.players)
        return tuple(p for p in self.invited if p not in joined)

    def join(self, user_id: str, name: str) -> None:
        self.players.append(user_id)
        self.names[user_id] = name
        if user_id in self.invited:
            self.invited.remove(user_id)  # a rematch stops naming them, also if they leave

    def add_bot(self) -> str:
        self.bots += 1
        bot = f"{BOT_PREFIX}{self.bots}"
        self.players.append(bot)
        self.names[bot] = ""
        return bot

    def remove(self, player: str) -> None:
        """Take `player` out of the lobby; the creator's rights pass to the next person."""
        self.players.remove(player)
        humans = self.humans
        if self.creator == player and humans:
            self.creator = humans[0]


@dataclass
class TableState:
    """What the service remembers about a running match between moves."""

    recent: list[dict[str, Any]] = field(default_factory=list)  # public events, stored form
    hand_sig: dict[str, str] = field(default_factory=dict)  # what each private view showed
    hand_ver: dict[str, int] = field(default_factory=dict)  # the version it was drawn at
    turn: Turn | None = None
    bot_level: Level = Level.EASY  # the lobby's or the chat's choice, fixed when the game starts
    # What the table has seen of the hands this round (who could not play on what): the strong
    # computer players read it, every move updates it (`apply`).
    seen: Memory = field(default_factory=Memory)

    def remember(self, events: list[Event]) -> None:
        """Keep the last public events for the table (drawn cards only as a count)."""
        for event in events:
            shown = public_event(event)
            if shown is not None:
                self.recent.append(event_to_dict(shown))
        del self.recent[:-RECENT_EVENTS]

    def recent_events(self) -> list[Event]:
        return [event_from_dict(d) for d in self.recent]

    def apply(self, game: Game, player: str, action: Action) -> list[Event]:
        """Make a person's or a computer's move, the table seeing it (`seen`); a move the engine
        refuses raises and leaves both as they were."""
        seen = self.seen.after(game, player, action)
        events = game.apply(player, action)
        self.seen = seen
        return events


@dataclass
class Match:
    """One game of a chat as the service sees it: the stored row, typed, with its engine.

    `game` is None for a lobby. A use case changes the lobby, the table state and the game in
    place and hands the match to the unit of work, which commits it as one new version.
    """

    id: int
    chat_key: str
    status: str  # lobby | running | finished | killed
    version: int
    deadline: float | None
    updated_at: float
    lobby: Lobby
    table: TableState
    game: Game | None = None

    @staticmethod
    def from_record(rec: GameRecord, game: Game | None) -> Match:
        """The typed match of a stored row; KeyError/TypeError/ValueError if `meta` is not one."""
        lobby, table = meta_from_dict(rec.meta)
        return Match(
            id=rec.id,
            chat_key=rec.chat_key,
            status=rec.status,
            version=rec.version,
            deadline=rec.deadline,
            updated_at=rec.updated_at,
            lobby=lobby,
            table=table,
            game=game,
        )

    def meta(self) -> dict[str, Any]:
        return meta_to_dict(self.lobby, self.table)

    @property
    def names(self) -> dict[str, str]:
        return self.lobby.names

    def bot_level(self, strong_bots: bool) -> Level:
        """The level the robots play (or will play) at: fixed once dealt; in a lobby, its own
        choice, or the chat's setting `strong_bots` until someone chooses."""
        if self.game is not None:
            return self.table.bot_level
        if self.lobby.bot_level is not None:
            return self.lobby.bot_level
        return Level.STRONG if strong_bots else Level.EASY

    def seated(self) -> list[str]:
        """The seats in table order: the game's players once dealt, the lobby's before."""
        return self.lobby.players if self.game is None else self.game.players

    def hand_version(self, player: str) -> int:
        """The version a player's private view was last drawn at (buttons carry it)."""
        return self.table.hand_ver.get(player, self.version)

    def refresh_hands(self, version: int) -> list[str]:
        """The people whose private view changed with this move; their views get `version`."""
        assert self.game is not None
        changed = []
        for player in self.lobby.humans:
            sig = hand_signature(self.game, player)
            if self.table.hand_sig.get(player) != sig:
                self.table.hand_sig[player] = sig
                self.table.hand_ver[player] = version
                changed.append(player)
        return changed


def meta_from_dict(meta: dict[str, Any]) -> tuple[Lobby, TableState]:
    """Read a stored `meta` object (older rows may lack the table keys, `invited` or
    `lobby_bot_level`)."""
    chosen = meta.get("lobby_bot_level")
    lobby = Lobby(
        creator=str(meta["creator"]),
        players=[str(p) for p in meta["players"]],
        names={str(k): str(v) for k, v in meta["names"].items()},
        closed=bool(meta.get("closed", False)),
        bots=int(meta.get("bots", 0)),
        invited=[str(p) for p in meta.get("invited", ())],
        bot_level=None if chosen is None else Level(chosen),
    )
    table = TableState(
        recent=list(meta.get("recent", ())),
        hand_sig=dict(meta.get("hand_sig", {})),
        hand_ver={str(k): int(v) for k, v in meta.get("hand_ver", {}).items()},
        turn=Turn.from_dict(meta.get("turn")),
        bot_level=Level(meta.get("bot_level", Level.EASY.value)),
        seen=Memory.from_dict(meta.get("seen", {})),
    )
    return lobby, table


def meta_to_dict(lobby: Lobby, table: TableState) -> dict[str, Any]:
    """The stored form, which `meta_from_dict` reads (its keys are stored data: a renamed key
    would need a migration)."""
    meta: dict[str, Any] = {
        "creator": lobby.creator,
        "players": list(lobby.players),
        "names": dict(lobby.names),
        "closed": lobby.closed,
        "bots": lobby.bots,
        "invited": list(lobby.invited),
        "lobby_bot_level": None if lobby.bot_level is None else lobby.bot_level.value,
        "recent": list(table.recent),
        "hand_sig": dict(table.hand_sig),
        "hand_ver": dict(table.hand_ver),
        "bot_level": table.bot_level.value,
        "seen": table.seen.to_dict(),
    }
    if table.turn is not None:
        meta["turn"] = table.turn.to_dict()
    return meta
