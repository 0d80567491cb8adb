"""The use cases of a chat game, independent of any platform.

Every use case runs under the chat's lock and follows one order: load, act in the engine, commit
state + action log in one transaction, and only then hand back an `Outcome` for the adapter to
send. Computer players, turn timers and idle lobbies share one mechanism: each open game has at
most one stored deadline, and `run_due` acts on the games whose deadline has passed (after a
restart, `start` re-arms them from the database). `bot.deadlines` says when a turn's deadline
restarts and how long a lobby may wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot import rematch as rematch_rules
from bot.deadlines import DEFAULT_LOBBY_IDLE, fresh_turn, lobby_minutes, next_turn
from bot.service.refs import Refs
from bot.settings import ChatSettings
from bot.storage import (
    GameExists,
    GameRecord,
    LogEntry,
    PlayerResult,
    StatRow,
    Storage,
    VersionConflict,
)
from bot.views import (
    BOT_PREFIX,
    HandView,
    Seat,
    TableView,
    choices_for,
    hand_signature,
    is_bot,
    recent_events,
)
from core import actions as A
from core.actions import Action
from core.ai import choose_action
from core.cards import sort_hand
from core.errors import IllegalAction
from core.events import (
    CardsDrawn,
    ChallengeResolved,
    CreeperRevealed,
    Event,
    GameEnded,
    PlayerLeft,
    RoundEnded,
    UnoCaught,
    event_to_dict,
)
from core.game import Game
from core.rules import MAX_PLAYERS, MIN_PLAYERS, Scoring

logger = logging.getLogger(__name__)

MAX_TIMEOUTS = 3
RECENT_EVENTS = 8
MAX_BOT_STEPS = 2000
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
    id: str
    name: str
    lang: str | None = None  # the user's client language: the default for a new chat


@dataclass(frozen=True)
class Notice:
    """A message id from locales/ and its arguments."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)


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
    settings: ChatSettings | None = None  # the chat's settings after a settings change
    # Messages for the whole chat that no engine event carries (an idle lobby expired, a timeout
    # took out the last person): a timer's outcome has no command to answer, so adapters post
    # these with the announcements.
    notices: list[Notice] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

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


class UnoService:
    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        bot_delay: float = 1.5,
        lobby_idle: float | None = DEFAULT_LOBBY_IDLE,
        seed: Callable[[], int] = lambda: secrets.randbits(63),
    ) -> None:
        """`lobby_idle`: seconds an untouched lobby stays open (None: until someone /kills it)."""
        self.storage = storage
        self.refs = Refs(storage)  # the adapters' per-game facts: their only door to storage
        self.clock = clock
        self.bot_delay = bot_delay
        self.lobby_idle = lobby_idle if lobby_idle is None or lobby_idle > 0 else None
        self._seed = seed
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._games: dict[int, tuple[int, Game]] = {}  # game id -> (version, engine state)
        self._deadlines: dict[str, float] = {}
        self._wake = asyncio.Event()

    async def start(self) -> None:
        """Re-arm the deadlines of every lobby and running game (after a restart)."""
        for rec in await self.storage.open_games():
            due = self._lobby_due(rec) if rec.status == "lobby" else rec.deadline
            if due is not None:
                self._deadlines[rec.chat_key] = due

    # ------------------------------------------------------------------ settings

    async def settings(self, chat_key: str) -> ChatSettings:
        return ChatSettings.from_dict(await self.storage.get_settings(chat_key))

    async def personal(self, user_key: str) -> dict[str, Any]:
        """A person's own choices (e.g. hands by DM), stored apart from any chat's settings."""
        return await self.storage.get_settings(f"user:{user_key}") or {}

    async def set_personal(self, user_key: str, **values: Any) -> None:
        async with self._locks[f"user:{user_key}"]:
            data = {**await self.personal(user_key), **values}
            await self.storage.put_settings(f"user:{user_key}", data)

    async def toggle_personal(self, user_key: str, key: str, *, default: bool) -> bool:
        """Flip one of a person's own switches and return its new value.

        Read and write happen under that person's lock, so two quick presses are two flips.
        `default` is what the switch means while they never chose (the chat's setting).
        """
        async with self._locks[f"user:{user_key}"]:
            data = await self.personal(user_key)
            own = data.get(key)
            value = not (default if own is None else bool(own))
            await self.storage.put_settings(f"user:{user_key}", {**data, key: value})
            return value

    async def lang(self, chat_key: str, hint: str | None = None) -> str:
        lang = (await self.settings(chat_key)).lang
        return lang or _lang(hint)

    async def change_setting(
        self, chat_key: str, user: User, key: str, value: str, *, is_admin: bool = False
    ) -> Outcome:
        """Set one setting to `value` (its text form, see `ChatSettings.changed`)."""
        return await self._update_settings(
            chat_key, user, lambda s: s.changed(key, value), is_admin=is_admin
        )

    async def toggle_setting(
        self, chat_key: str, user: User, key: str, *, is_admin: bool = False
    ) -> Outcome:
        """Flip one switch (see `ChatSettings.toggled`); `Outcome.settings` holds the result.

        The current value is read under the chat's lock, next to the write: an adapter that
        read it itself and sent the opposite could lose one of two quick presses.
        """
        return await self._update_settings(
            chat_key, user, lambda s: s.toggled(key), is_admin=is_admin
        )

    async def _update_settings(
        self,
        chat_key: str,
        user: User,
        change: Callable[[ChatSettings], ChatSettings],
        *,
        is_admin: bool,
    ) -> Outcome:
        """Load, `change` (a ValueError refuses) and store the settings, under the chat's lock."""
        async with self._locks[chat_key]:
            settings = await self.settings(chat_key)
            lang = settings.lang or _lang(user.lang)
            rec = await self.storage.active_game(chat_key)
            allowed = is_admin or rec is None or rec.meta.get("creator") == user.id
            if not allowed:
                return Outcome(chat_key, lang, error=Notice("error-not-allowed"))
            try:
                new = change(settings)
            except ValueError:
                return Outcome(chat_key, lang, error=Notice("error-bad-setting"))
            if new.lang is None:
                new = ChatSettings.from_dict({**new.to_dict(), "lang": lang})
            if rec is not None and rec.status == "running" and new.timer != settings.timer:
                try:
                    rec = await self._restart_turn_timer(rec, new.timer)
                except VersionConflict:
                    return Outcome(chat_key, lang, error=Notice("error-conflict"))
            await self.storage.put_settings(chat_key, new.to_dict())
            out = Outcome(
                chat_key, new.lang or lang, info=Notice("info-settings-saved"), settings=new
            )
            if rec is not None and rec.status == "lobby":
                rec = await self._save_lobby(rec, _copy_meta(rec.meta))  # someone is still here
            if rec is not None:
                out.table = self._table(rec, self._engine(rec), new)
                out.names = dict(rec.meta["names"])
            return out

    async def _restart_turn_timer(self, rec: GameRecord, timer: int | None) -> GameRecord:
        """The chat's turn timer changed mid-game: the player to act gets a fresh full timer.

        Their stored deadline was set under the old timer (see `bot.deadlines.fresh_turn` for
        why it cannot stay). Computer players about to move keep their own, earlier deadline;
        the new turn deadline is stored with the turn and takes over after them.
        """
        game = self._engine(rec, take=True)
        assert game is not None
        meta = _copy_meta(rec.meta)
        turn = fresh_turn(game, timer, self.clock())
        meta["turn"] = turn
        bots_first = self._bots_want_to_act(game) and rec.deadline is not None
        deadline = rec.deadline if bots_first else turn["deadline"]
        try:
            new = await self.storage.commit(
                rec.id,
                rec.version,
                state=rec.state,
                meta=meta,
                status=rec.status,
                log=[],
                deadline=deadline,
            )
        except VersionConflict:
            self._games.pop(rec.id, None)
            raise
        self._games[rec.id] = (new.version, game)
        self._arm(rec.chat_key, deadline)
        return new

    # ------------------------------------------------------------------ lobby

    async def new_game(self, chat_key: str, user: User) -> Outcome:
        async with self._locks[chat_key]:
            settings = await self._settings_for(chat_key, user)
            lang = settings.lang or "ru"
            meta = {
                "creator": user.id,
                "players": [user.id],
                "names": {user.id: user.name},
                "closed": False,
                "bots": 0,
            }
            deadline = self._lobby_deadline()
            try:
                rec = await self.storage.create_game(chat_key, meta, deadline=deadline)
            except GameExists:
                rec2 = await self.storage.active_game(chat_key)
                out = Outcome(chat_key, lang, error=Notice("error-game-exists"))
                if rec2 is not None:
                    out.table = self._table(rec2, self._engine(rec2), settings)
                    out.names = dict(rec2.meta["names"])
                return out
            self._arm(chat_key, deadline)
            return self._lobby_outcome(rec, settings, Notice("info-lobby-created"))

    async def rematch(self, chat_key: str, user: User, *, game_id: int | None = None) -> Outcome:
        """A new lobby at the table of the chat's last match, which must have finished.

        The caller is joined, the computer players are back, the people are named but not
        joined (`bot.rematch` says why). `game_id` is the match a rematch button was shown
        under: a button of an older match, or one pressed once a lobby is open again, is
        refused and changes nothing (not even the chat's settings).
        """
        async with self._locks[chat_key]:
            settings = await self.settings(chat_key)
            active = await self.storage.active_game(chat_key)
            last = None if active is not None else await self.storage.last_game(chat_key)
            refused = rematch_rules.refusal(active, last, game_id)
            if refused is not None:
                lang = settings.lang or _lang(user.lang)
                return Outcome(chat_key, lang, error=Notice(refused))
            assert last is not None
            settings = await self._settings_for(chat_key, user)
            meta = rematch_rules.lobby_meta(last.meta, user.id, user.name)
            deadline = self._lobby_deadline()
            try:
                rec = await self.storage.create_game(chat_key, meta, deadline=deadline)
            except GameExists:  # another process opened one meanwhile
                return Outcome(chat_key, settings.lang or "ru", error=Notice("error-game-exists"))
            self._arm(chat_key, deadline)
            return self._lobby_outcome(rec, settings, Notice("info-rematch"))

    async def join(self, chat_key: str, user: User) -> Outcome:
        async with self._locks[chat_key]:
            rec, settings, error = await self._lobby(chat_key)
            if error is not None:
                return error
            assert rec is not None
            meta = _copy_meta(rec.meta)
            if user.id in meta["players"]:
                return self._err(rec, settings, "error-already-joined")
            if meta["closed"]:
                return self._err(rec, settings, "error-lobby-closed")
            if len(meta["players"]) >= MAX_PLAYERS:
                return self._err(rec, settings, "error-lobby-full")
            meta["players"].append(user.id)
            meta["names"][user.id] = user.name
            if user.id in meta.get("invited", ()):
                meta["invited"].remove(user.id)  # a rematch stops naming them, also if they leave
            rec = await self._save_lobby(rec, meta)
            return self._lobby_outcome(rec, settings, Notice("info-joined", {"name": user.name}))

    async def add_bot(self, chat_key: str, user: User) -> Outcome:
        async with self._locks[chat_key]:
            rec, settings, error = await self._lobby(chat_key)
            if error is not None:
                return error
            assert rec is not None
            meta = _copy_meta(rec.meta)
            if user.id not in meta["players"]:
                return self._err(rec, settings, "error-not-joined")
            if len(meta["players"]) >= MAX_PLAYERS:
                return self._err(rec, settings, "error-lobby-full")
            meta["bots"] += 1
            bot = f"{BOT_PREFIX}{meta['bots']}"
            meta["players"].append(bot)
            meta["names"][bot] = ""
            rec = await self._save_lobby(rec, meta)
            return self._lobby_outcome(rec, settings, Notice("info-bot-added"))

    async def set_closed(
        self, chat_key: str, user: User, closed: bool, *, is_admin: bool = False
    ) -> Outcome:
        async with self._locks[chat_key]:
            rec, settings, error = await self._lobby(chat_key)
            if error is not None:
                return error
            assert rec is not None
            if not (is_admin or rec.meta["creator"] == user.id):
                return self._err(rec, settings, "error-not-allowed")
            meta = _copy_meta(rec.meta)
            meta["closed"] = closed
            rec = await self._save_lobby(rec, meta)
            key = "info-lobby-closed" if closed else "info-lobby-opened"
            return self._lobby_outcome(rec, settings, Notice(key))

    async def start_game(self, chat_key: str, user: User, *, is_admin: bool = False) -> Outcome:
        async with self._locks[chat_key]:
            rec, settings, error = await self._lobby(chat_key)
            if error is not None:
                return error
            assert rec is not None
            meta = _copy_meta(rec.meta)
            if not (is_admin or user.id in meta["players"]):
                return self._err(rec, settings, "error-not-joined")
            if len(meta["players"]) < MIN_PLAYERS:
                return self._err(rec, settings, "error-not-enough-players", min=MIN_PLAYERS)
            if all(is_bot(p) for p in meta["players"]):
                return self._err(rec, settings, "error-not-enough-players", min=MIN_PLAYERS)
            game = Game.new(meta["players"], settings.rules(), self._seed())
            meta.update(timeouts={}, recent=[], hand_sig={}, hand_ver={})
            return await self._commit(
                rec, game, meta, settings, game.opening_events, [LogEntry(user.id, "start")]
            )

    async def leave(self, chat_key: str, user: User) -> Outcome:
        return await self._remove(chat_key, user, user.id, kicked=False, is_admin=False)

    async def kick(
        self, chat_key: str, user: User, target: str, *, is_admin: bool = False
    ) -> Outcome:
        return await self._remove(chat_key, user, target, kicked=True, is_admin=is_admin)

    async def kick_seat(
        self, chat_key: str, user: User, seat: int, *, is_admin: bool = False
    ) -> Outcome:
        """Remove whoever sits in `seat` (counted from 1 as the table lists them), computer
        players too: a computer player has no message to reply to and no member to pick. The
        number is read under the chat's lock, from the state the kick changes, and only after
        the rights are checked, so both platforms refuse alike: no game, not allowed, nobody
        in that seat."""
        return await self._remove(chat_key, user, seat, kicked=True, is_admin=is_admin)

    async def _remove(
        self, chat_key: str, user: User, target: str | int, *, kicked: bool, is_admin: bool
    ) -> Outcome:
        async with self._locks[chat_key]:
            rec = await self.storage.active_game(chat_key)
            settings = await self._settings_for(chat_key, user)
            if rec is None:
                return Outcome(chat_key, settings.lang or "ru", error=Notice("error-no-game"))
            if kicked and not (is_admin or rec.meta["creator"] == user.id):
                return self._err(rec, settings, "error-not-allowed")
            if isinstance(target, int):
                running = self._engine(rec)
                seats = rec.meta["players"] if running is None else running.players
                if not 1 <= target <= len(seats):
                    return self._err(rec, settings, "error-kick-seat")
                target = seats[target - 1]
            meta = _copy_meta(rec.meta)
            name = meta["names"].get(target, "")
            missing = "error-kick-target" if kicked else "error-not-joined"
            if rec.status == "lobby":
                if target not in meta["players"]:
                    return self._err(rec, settings, missing)
                meta["players"].remove(target)
                humans = [p for p in meta["players"] if not is_bot(p)]
                if not humans:
                    rec = await self._finish(rec, meta, "killed")
                    return self._lobby_outcome(rec, settings, Notice("info-lobby-empty"))
                if meta["creator"] == target:
                    meta["creator"] = humans[0]
                rec = await self._save_lobby(rec, meta)
                if is_bot(target):  # no stored name: said like "info-bot-added"
                    return self._lobby_outcome(rec, settings, Notice("info-bot-removed"))
                key = "info-kicked" if kicked else "info-left"
                return self._lobby_outcome(rec, settings, Notice(key, {"name": name}))
            game = self._engine(rec)
            assert game is not None
            if target not in game.hands:
                return self._err(
                    rec, settings, "error-kick-target" if kicked else "error-not-in-game"
                )
            events = game.remove_player(target)
            if meta["creator"] == target:
                # The game's rights pass to the next person still playing.
                meta["creator"] = next((p for p in game.players if not is_bot(p)), target)
            log = [LogEntry(target, "kicked" if kicked else "leave")]
            return await self._commit(rec, game, meta, settings, events, log)

    async def kill(self, chat_key: str, user: User, *, is_admin: bool = False) -> Outcome:
        async with self._locks[chat_key]:
            rec = await self.storage.active_game(chat_key)
            settings = await self._settings_for(chat_key, user)
            if rec is None:
                return Outcome(chat_key, settings.lang or "ru", error=Notice("error-no-game"))
            if not (is_admin or rec.meta["creator"] == user.id):
                return self._err(rec, settings, "error-not-allowed")
            rec = await self._finish(rec, _copy_meta(rec.meta), "killed")
            return self._lobby_outcome(rec, settings, Notice("info-killed"))

    # ------------------------------------------------------------------ playing

    async def act(
        self,
        user: User,
        action: Action | str | Callable[[Game, str], Action],
        *,
        chat_key: str | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Outcome:
        """A player's move, from a chat command (by chat) or a private button (by game id).

        `version` is the hand view's version the button was drawn for: a press on an outdated
        keyboard is refused with a fresh hand, so nobody acts on a state they never saw.
        """
        if chat_key is None:
            if game_id is None:
                raise ValueError("act needs a chat or a game")
            rec0 = await self.storage.get_game(game_id)
            if rec0 is None:
                return Outcome("", _lang(user.lang), error=Notice("error-no-game"))
            chat_key = rec0.chat_key
        async with self._locks[chat_key]:
            settings = await self._settings_for(chat_key, user)
            rec = await self.storage.active_game(chat_key)
            if (
                rec is None
                or rec.status != "running"
                or (game_id is not None and rec.id != game_id)
            ):
                return Outcome(chat_key, settings.lang or "ru", error=Notice("error-no-game"))
            game = self._engine(rec, take=True)
            assert game is not None
            self._games[rec.id] = (rec.version, game)
            if user.id not in game.hands:
                return self._err(rec, settings, "error-not-in-game")
            if version is not None and version != rec.meta["hand_ver"].get(user.id, rec.version):
                out = self._err(rec, settings, "error-stale")
                out.hands[user.id] = self._hand(rec, game, settings, user.id, rec.version)
                return out
            del self._games[rec.id]
            try:
                if isinstance(action, Action):
                    parsed = action
                elif isinstance(action, str):
                    parsed = Action.parse(action)
                else:
                    parsed = action(game, user.id)
                events = game.apply(user.id, parsed)
            except ValueError as exc:
                # The engine left the game as it was: keep it cached and show a fresh hand.
                self._games[rec.id] = (rec.version, game)
                key = (
                    "reason-" + exc.reason.replace("_", "-")
                    if isinstance(exc, IllegalAction)
                    else "error-bad-action"
                )
                out = self._err(rec, settings, key)
                out.hands[user.id] = self._hand(rec, game, settings, user.id, rec.version)
                return out
            meta = _copy_meta(rec.meta)
            meta["names"][user.id] = user.name
            meta["timeouts"].pop(user.id, None)
            log = [LogEntry(user.id, str(parsed))]
            return await self._commit(rec, game, meta, settings, events, log)

    async def uno(self, chat_key: str, user: User) -> Outcome:
        """`/uno`: catch whoever forgot, or call one's own UNO (RULES.md section 5).

        What the command means is decided under the lock, on the state the move applies to, so
        two racing `/uno`s are judged in the order they arrive.
        """
        return await self.act(user, uno_meaning, chat_key=chat_key)

    async def challenge(self, chat_key: str, user: User) -> Outcome:
        return await self.act(user, A.CHALLENGE, chat_key=chat_key)

    # ------------------------------------------------------------------ timers and bots

    def next_deadline(self, prefix: str = "") -> float | None:
        """The earliest deadline of the chats whose key starts with `prefix` (an adapter's)."""
        return min(
            (at for chat, at in self._deadlines.items() if chat.startswith(prefix)), default=None
        )

    async def run_due(self, now: float | None = None, *, prefix: str = "") -> list[Outcome]:
        """Act for every game whose deadline has passed: computer moves and turn timeouts.

        `prefix` limits this to one adapter's chats ("dc:"), so that each adapter's timer loop
        publishes only what it can send.
        """
        now = self.clock() if now is None else now
        due = [
            chat for chat, at in self._deadlines.items() if at <= now and chat.startswith(prefix)
        ]
        outcomes = []
        for chat in due:
            try:
                out = await self._on_deadline(chat, now)
            except Exception:
                # One broken game must not stall every other chat's timers: disarm it and go on.
                logger.exception("deadline of %s failed; disarmed", chat)
                self._deadlines.pop(chat, None)
                continue
            if out is not None:
                outcomes.append(out)
        return outcomes

    async def run_timers(self, publish: Callable[[Outcome], Any], *, prefix: str = "") -> None:
        """Forever: sleep until the next deadline (or a new earlier one), act, publish."""
        while True:
            deadline = self.next_deadline(prefix)
            delay = 3600.0 if deadline is None else max(0.0, deadline - self.clock())
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=min(delay, 3600.0))
            for out in await self.run_due(prefix=prefix):
                result = publish(out)
                if asyncio.iscoroutine(result):
                    await result

    async def _on_deadline(self, chat_key: str, now: float) -> Outcome | None:
        async with self._locks[chat_key]:
            rec = await self.storage.active_game(chat_key)
            if rec is not None and rec.status == "lobby":
                return await self._expire_lobby(rec, now)
            if rec is None or rec.status != "running" or rec.deadline is None:
                self._deadlines.pop(chat_key, None)
                return None
            if rec.deadline > now:
                self._deadlines[chat_key] = rec.deadline
                return None
            settings = await self.settings(chat_key)
            game = self._engine(rec, take=True)
            assert game is not None
            meta = _copy_meta(rec.meta)
            events: list[Event] = []
            log: list[LogEntry] = []
            if self._bots_want_to_act(game):
                self._run_bots(game, events, log)
            elif settings.timer is None:
                # The timer was switched off after this deadline was set: nobody times out.
                self._games[rec.id] = (rec.version, game)
                self._deadlines.pop(chat_key, None)
                return None
            else:
                self._time_out(game, meta, events, log)
            out = await self._commit(rec, game, meta, settings, events, log)
            if out.info is not None:
                # No command to answer (say, a timeout took out the last person and the game
                # stopped): what would have been the answer goes to the whole chat.
                out.notices.append(out.info)
                out.info = None
            return out

    async def _expire_lobby(self, rec: GameRecord, now: float) -> Outcome | None:
        """Close a lobby nobody touched for `lobby_idle`, so that the chat can open a new one."""
        due = self._lobby_due(rec)
        if due is None:
            self._deadlines.pop(rec.chat_key, None)
            return None
        if due > now:
            self._deadlines[rec.chat_key] = due
            return None
        assert self.lobby_idle is not None
        settings = await self.settings(rec.chat_key)
        rec = await self._finish(rec, _copy_meta(rec.meta), "killed")
        notice = Notice("info-lobby-expired", {"minutes": lobby_minutes(self.lobby_idle)})
        out = self._lobby_outcome(rec, settings, notice)
        out.info, out.notices = None, [notice]  # for the whole chat: no command to answer
        return out

    def _lobby_deadline(self) -> float | None:
        return None if self.lobby_idle is None else self.clock() + self.lobby_idle

    def _lobby_due(self, rec: GameRecord) -> float | None:
        """When a lobby expires: its stored deadline, or (a lobby opened before lobbies had
        one) its last change plus the idle time; None while lobbies do not expire."""
        if self.lobby_idle is None:
            return None
        return rec.deadline if rec.deadline is not None else rec.updated_at + self.lobby_idle

    def _bot_rng(self, game: Game, bot: str) -> random.Random:
        return random.Random(f"{game.seed}:{game.move_no}:{bot}")

    def _bot_choice(self, game: Game, bot: str) -> Action | None:
        return choose_action(game, bot, self._bot_rng(game, bot))

    def _bots_want_to_act(self, game: Game) -> bool:
        if game.is_over:
            return False
        current = game.current_player
        if is_bot(current):
            return True
        return any(
            self._bot_choice(game, p) is not None
            for p in game.players
            if is_bot(p) and game.legal_actions(p)
        )

    def _run_bots(self, game: Game, events: list[Event], log: list[LogEntry]) -> None:
        """Computer moves until a human may act (humans keep their chance to catch or jump in)."""
        for _ in range(MAX_BOT_STEPS):
            if game.is_over or all(is_bot(p) for p in game.players):
                return
            current = game.current_player
            acted = False
            for bot in game.players:
                if bot == current or not is_bot(bot) or not game.legal_actions(bot):
                    continue
                choice = self._bot_choice(game, bot)
                if choice is not None:
                    events += game.apply(bot, choice)
                    log.append(LogEntry(bot, str(choice)))
                    acted = True
                    break
            if not acted:
                if not is_bot(current):
                    return
                choice = self._bot_choice(game, current) or game.default_action(current)
                assert choice is not None
                events += game.apply(current, choice)
                log.append(LogEntry(current, str(choice)))
            if any(game.legal_actions(p) for p in game.players if not is_bot(p)):
                return

    def _time_out(
        self, game: Game, meta: dict[str, Any], events: list[Event], log: list[LogEntry]
    ) -> None:
        """The player to act ran out of time: draw and pass (or take the penalty)."""
        player = game.current_player
        count = meta["timeouts"].get(player, 0) + 1
        meta["timeouts"][player] = count
        while not game.is_over and game.current_player == player:
            action = game.default_action(player)
            assert action is not None
            events += game.apply(player, action)
            log.append(LogEntry(player, f"{action}"))
        if count >= MAX_TIMEOUTS and player in game.hands and not game.is_over:
            events += game.remove_player(player)
            log.append(LogEntry(player, "leave"))

    def _deadline(
        self, game: Game, meta: dict[str, Any], events: list[Event], settings: ChatSettings
    ) -> float | None:
        """The game's next deadline: computer players first, else the turn timer.

        The turn's own deadline lives in `meta["turn"]` (see `bot.deadlines.next_turn`), apart
        from the stored one: computer players moving in between must not restart it either.
        """
        if game.is_over:
            return None
        turn = next_turn(meta.get("turn"), game, events, settings.timer, self.clock())
        meta["turn"] = turn
        if self._bots_want_to_act(game):
            return self.clock() + self.bot_delay
        deadline: float | None = turn["deadline"]
        return deadline

    # ------------------------------------------------------------------ views

    async def table(self, chat_key: str) -> Outcome:
        settings = await self.settings(chat_key)
        rec = await self.storage.active_game(chat_key)
        lang = settings.lang or "ru"
        if rec is None:
            return Outcome(chat_key, lang, error=Notice("error-no-game"))
        return Outcome(
            chat_key,
            lang,
            table=self._table(rec, self._engine(rec), settings),
            names=dict(rec.meta["names"]),
        )

    async def hand(
        self, user: User, *, chat_key: str | None = None, game_id: int | None = None
    ) -> Outcome:
        """A player's private view on demand (the "my cards" button, /start in a DM)."""
        rec = None
        if game_id is not None:
            rec = await self.storage.get_game(game_id)
        elif chat_key is not None:
            rec = await self.storage.active_game(chat_key)
        if rec is None or rec.state is None:
            return Outcome(chat_key or "", _lang(user.lang), error=Notice("error-no-game"))
        settings = await self.settings(rec.chat_key)
        game = self._engine(rec)
        assert game is not None
        if user.id not in game.hands:
            return self._err(rec, settings, "error-not-in-game")
        out = Outcome(rec.chat_key, settings.lang or "ru", names=dict(rec.meta["names"]))
        out.hands[user.id] = self._hand(rec, game, settings, user.id, rec.version)
        return out

    async def running_games(self) -> list[GameRecord]:
        return [r for r in await self.storage.active_games() if r.status == "running"]

    async def leaderboard(self, chat_key: str, limit: int = 10) -> list[StatRow]:
        """The chat's best players, ties on wins settled the way its scoring counts points."""
        scoring = (await self.settings(chat_key)).rules().scoring
        return await self.storage.leaderboard(chat_key, limit, scoring=scoring)

    def _table(self, rec: GameRecord, game: Game | None, settings: ChatSettings) -> TableView:
        meta = rec.meta
        lang = settings.lang or "ru"
        common: dict[str, Any] = dict(
            chat_key=rec.chat_key,
            game_id=rec.id,
            version=rec.version,
            status=rec.status,
            lang=lang,
            colorblind=settings.colorblind,
            creator=meta["creator"],
            closed=meta.get("closed", False),
            timer=settings.timer,
            deadline=rec.deadline,
        )
        if game is None:
            seats = [
                Seat(p, meta["names"].get(p, ""), 0, 0, is_bot(p), False, False)
                for p in meta["players"]
            ]
            invited = rematch_rules.still_invited(meta)
            return TableView(rules=settings.rules(), seats=seats, invited=invited, **common)
        scores = game.scores
        seats = [
            Seat(
                p,
                meta["names"].get(p, ""),
                len(game.hands[p]),
                scores.get(p, 0),
                is_bot(p),
                not game.is_over and p == game.current_player,
                p in game.safe,
            )
            for p in game.players
        ]
        pending = game.pending
        return TableView(
            rules=game.rules,
            seats=seats,
            round_no=game.round_no,
            dealer=game.dealer,
            top=game.top_card,
            color=game.current_color,
            direction=game.direction,
            current=None if game.is_over else game.current_player,
            pending_target=None if pending is None else pending.target,
            pending_amount=0 if pending is None else pending.amount,
            draw_size=game.draw_pile_size,
            recent=recent_events(meta),
            winners=game.game_winners,
            **common,
        )

    def _hand(
        self, rec: GameRecord, game: Game, settings: ChatSettings, player: str, version: int
    ) -> HandView:
        meta = rec.meta
        in_game = player in game.hands
        current = None if game.is_over else game.current_player
        return HandView(
            chat_key=rec.chat_key,
            game_id=rec.id,
            player=player,
            version=meta.get("hand_ver", {}).get(player, version),
            lang=settings.lang or "ru",
            colorblind=settings.colorblind,
            status="finished" if game.is_over else rec.status,
            cards=sort_hand(game.hands[player]) if in_game else [],
            choices=choices_for(game.legal_actions(player)) if in_game else [],
            is_turn=current == player,
            current=current,
            current_name=meta["names"].get(current, "") if current else "",
            top=game.top_card,
            color=game.current_color,
            pending_amount=game.pending.amount
            if game.pending is not None and game.pending.target == player
            else 0,
            drawn=game.drawn if current == player else None,
            left=not in_game,
        )

    # ------------------------------------------------------------------ commit

    async def _commit(
        self,
        rec: GameRecord,
        game: Game,
        meta: dict[str, Any],
        settings: ChatSettings,
        events: list[Event],
        log: list[LogEntry],
    ) -> Outcome:
        """Write state, meta and log in one transaction; only a committed move is reported."""
        version = rec.version + 1
        recent = meta.setdefault("recent", [])
        for event in events:
            shown = public_event(event)
            if shown is not None:
                recent.append(event_to_dict(shown))
        del recent[:-RECENT_EVENTS]
        changed: list[str] = []
        signatures = meta.setdefault("hand_sig", {})
        versions = meta.setdefault("hand_ver", {})
        for player in meta["players"]:
            if is_bot(player):
                continue
            sig = hand_signature(game, player)
            if signatures.get(player) != sig:
                signatures[player] = sig
                versions[player] = version
                changed.append(player)
        status = "finished" if game.is_over else "running"
        deadline = self._deadline(game, meta, events, settings)
        abandoned = not game.is_over and all(is_bot(p) for p in game.players)
        if abandoned:
            # Computer players do not play on for nobody: the game stops with its last human.
            status, deadline = "killed", None
        try:
            new = await self.storage.commit(
                rec.id,
                rec.version,
                state=game.to_dict(),
                meta=meta,
                status=status,
                log=log,
                deadline=deadline,
            )
        except VersionConflict:
            self._games.pop(rec.id, None)
            return self._err(rec, settings, "error-conflict")
        if status == "running":
            self._games[rec.id] = (new.version, game)
        self._arm(rec.chat_key, deadline)
        if game.is_over:
            await self._record(new, game)
        out = Outcome(
            rec.chat_key,
            settings.lang or "ru",
            info=Notice("info-no-humans-left") if abandoned else None,
            table=self._table(new, game, settings),
            events=events,
            names=dict(meta["names"]),
        )
        for player in changed:
            out.hands[player] = self._hand(new, game, settings, player, new.version)
        return out

    def _arm(self, chat_key: str, deadline: float | None) -> None:
        if deadline is None:
            self._deadlines.pop(chat_key, None)
        else:
            previous = self._deadlines.get(chat_key)
            self._deadlines[chat_key] = deadline
            if previous is None or deadline < previous:
                self._wake.set()

    async def _record(self, rec: GameRecord, game: Game) -> None:
        names = rec.meta["names"]
        scores = game.scores
        results = [
            PlayerResult(p, names.get(p, p), p in game.game_winners, scores.get(p, 0))
            for p in rec.meta["players"]
            if not is_bot(p)
        ]
        await self.storage.record_match(rec.chat_key, rec.id, results, scoring=game.rules.scoring)

    async def _finish(self, rec: GameRecord, meta: dict[str, Any], status: str) -> GameRecord:
        self._deadlines.pop(rec.chat_key, None)
        self._games.pop(rec.id, None)
        return await self.storage.commit(
            rec.id, rec.version, state=rec.state, meta=meta, status=status, log=[], deadline=None
        )

    # ------------------------------------------------------------------ helpers

    def _engine(self, rec: GameRecord | None, *, take: bool = False) -> Game | None:
        """The engine state of a record, from memory when it is the committed version.

        A use case that will mutate the game `take`s it out of the cache, so that a reader never
        sees a move that is applied but not yet committed; `_commit` puts it back.
        """
        if rec is None or rec.state is None:
            return None
        cached = self._games.get(rec.id)
        if take and cached is not None and cached[0] == rec.version:
            del self._games[rec.id]
            return cached[1]
        return Game.from_dict(rec.state)

    async def _settings_for(self, chat_key: str, user: User) -> ChatSettings:
        settings = await self.settings(chat_key)
        if settings.lang is None:
            settings = ChatSettings.from_dict({**settings.to_dict(), "lang": _lang(user.lang)})
            await self.storage.put_settings(chat_key, settings.to_dict())
        return settings

    async def _lobby(self, chat_key: str) -> tuple[GameRecord | None, ChatSettings, Outcome | None]:
        settings = await self.settings(chat_key)
        rec = await self.storage.active_game(chat_key)
        if rec is None:
            return (
                None,
                settings,
                Outcome(chat_key, settings.lang or "ru", error=Notice("error-no-game")),
            )
        if rec.status != "lobby":
            return rec, settings, self._err(rec, settings, "error-game-running")
        return rec, settings, None

    async def _save_lobby(self, rec: GameRecord, meta: dict[str, Any]) -> GameRecord:
        """Store a changed lobby; any change restarts its idle time."""
        deadline = self._lobby_deadline()
        new = await self.storage.commit(
            rec.id, rec.version, state=None, meta=meta, status="lobby", log=[], deadline=deadline
        )
        self._arm(rec.chat_key, deadline)
        return new

    def _lobby_outcome(self, rec: GameRecord, settings: ChatSettings, info: Notice) -> Outcome:
        return Outcome(
            rec.chat_key,
            settings.lang or "ru",
            info=info,
            table=self._table(rec, self._engine(rec), settings),
            names=dict(rec.meta["names"]),
        )

    def _err(self, rec: GameRecord, settings: ChatSettings, key: str, **args: Any) -> Outcome:
        return Outcome(
            rec.chat_key,
            settings.lang or "ru",
            error=Notice(key, args),
            names=dict(rec.meta["names"]),
        )


def _lang(hint: str | None) -> str:
    return "uk" if hint and hint.lower().split("-")[0] in ("uk", "ua") else "ru"


def _copy_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """A deep-enough copy: the service never mutates a committed record's meta in place."""
    out: dict[str, Any] = {}
    for key, value in meta.items():
        if isinstance(value, dict):
            out[key] = dict(value)
        elif isinstance(value, list):
            out[key] = list(value)
        else:
            out[key] = value
    return out


def human_players(players: Iterable[str]) -> list[str]:
    return [p for p in players if not is_bot(p)]


def uno_meaning(game: Game, player: str) -> Action:
    """`/uno` by anyone else while someone is catchable catches them; otherwise it is a call.

    Catching comes first: a player about to call their own UNO must not let the forgetter off.
    With nothing to do it is refused as a call from a short hand, as a false catch otherwise.
    """
    legal = game.legal_actions(player)
    if A.CATCH in legal:
        return A.CATCH
    if A.UNO in legal:
        return A.UNO
    return A.UNO if len(game.hands[player]) <= 2 else A.CATCH
