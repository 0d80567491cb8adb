"""One update of one chat: lock, load, act, commit, answer.

Every use case runs as a `Work` under its chat's lock: it loads the chat's match (the engine
from memory when the committed version is cached there), changes it, and commits it as one
storage transaction; only a committed change is reported. Every use case first waits for its
turn (`bot.service.gate`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from bot.service import computer, in_force, projection
from bot.service.alarms import Alarms
from bot.service.changes import Changes
from bot.service.chat_settings import ChatSettings
from bot.service.deadlines import next_turn
from bot.service.engines import Engines
from bot.service.gate import Busy, Gate
from bot.service.identity import STRANGER, is_person, refusal
from bot.service.ids import valid_game_id
from bot.service.match import Lobby, Match, TableState, meta_to_dict
from bot.service.outbox_entry import payload
from bot.service.outcome import Entries, Notice, Outcome, User, lang_of
from bot.service.settings_store import SettingsStore
from bot.service.statistics import match_record
from bot.service.views import is_bot
from bot.storage import GameRecord, GameStorage, LogEntry, StorageError, VersionConflict
from core.events import Event, GameEnded

logger = logging.getLogger("bot.service")

BROKEN = Notice("notice-game-broken")
PATIENCE = 3.0  # seconds a command waits for its turn before it is answered as busy
BUSY = Notice("error-busy", {"seconds": 5})  # ... and when to try again


class UnitOfWork:
    """The chat locks, the cache of engine states, and the `Work` that uses them.

    The one place that turns the storage's failures into answers:

    - `VersionConflict` (another process committed first): "the game just changed, try again";
    - `StorageError` (locked, full, read-only, closed): "try again", in the chat's language,
      for the user who acted; nothing was changed;
    - `Busy` (the process is so loaded that the command's turn did not come within its
      `patience`, `bot.service.gate`): "the table is busy, try again in a few seconds";
      nothing was changed;
    - a stored game that cannot be loaded: it is set aside (`mark_broken`), the operator is
      told in the log and the chat in the answer, and the use case goes on as if the chat had
      no game, so the chat can start a new one (`Work.active`).
    """

    def __init__(
        self,
        storage: GameStorage,
        settings: SettingsStore,
        alarms: Alarms,
        *,
        clock: Callable[[], float],
        bot_delay: float,
        lobby_idle: float | None,
        outbox_lease: float,
        gate: Gate | None = None,
        patience: float = PATIENCE,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.alarms = alarms
        self.clock = clock
        self.bot_delay = bot_delay
        self.lobby_idle = lobby_idle
        # Commits of chats with these key prefixes write outbox entries (an adapter delivers
        # them), claimed for `outbox_lease` seconds by this process.
        self.outbox_prefixes: set[str] = set()
        self.outbox_lease = outbox_lease
        self.changes = Changes()  # every commit of a game, for views pushed live (the web table)
        # A lock exists while someone holds or awaits it: an idle chat's lock is dropped.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.engines = Engines()  # the running games' engines, kept between their moves
        # Every use case waits its turn here, by due time; a command at most `patience` s.
        self.gate = gate or Gate()
        self.patience = patience

    def lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    @property
    def in_memory(self) -> tuple[int, int]:
        """(engines cached, locks alive): both drop to zero when nothing runs."""
        return len(self.engines), len(self._locks)

    @asynccontextmanager
    async def open(self, chat_key: str, hint: str | None = None) -> AsyncIterator[Work]:
        """The chat's lock and a `Work` on it; storage failures propagate to the caller."""
        async with self.lock(chat_key):
            work = Work(self, chat_key, hint)
            try:
                yield work
            except BaseException:
                work.forget()
                raise
            work.release()

    async def run(
        self,
        chat_key: str,
        hint: str | None,
        use_case: Callable[[Work], Awaitable[Outcome]],
        *,
        user: User | None = None,
    ) -> Outcome:
        """Run a command's use case of `user`; every failure becomes an answer for them. A chat
        key or a user id that cannot name one (`bot.service.identity`) is refused first."""
        refused = refusal(chat_key, None if user is None else user.id)
        if refused is not None:
            return Outcome(chat_key, lang_of(hint), error=Notice(refused))
        try:
            async with self.gate.turn(self.clock(), self.patience):
                return await self._run(chat_key, hint, use_case)
        except Busy:
            return Outcome(chat_key, lang_of(hint), error=BUSY)

    async def _run(
        self, chat_key: str, hint: str | None, use_case: Callable[[Work], Awaitable[Outcome]]
    ) -> Outcome:
        work: Work | None = None
        try:
            async with self.open(chat_key, hint) as work:
                out = await use_case(work)
        except VersionConflict:
            out = Outcome(chat_key, _lang(work, hint), error=Notice("error-conflict"))
        except StorageError as exc:
            logger.warning("storage failed for chat %s: %s", chat_key, exc)
            out = Outcome(chat_key, _lang(work, hint), error=Notice("error-storage"))
        if work is not None:
            out.notices[:0] = work.notices
            out.outbox = work.entries
            await in_force.fill(out, self.settings, work.settings_read)  # after the chat's lock
        return out

    async def run_for_game(
        self,
        game_id: int,
        hint: str | None,
        use_case: Callable[[Work], Awaitable[Outcome]],
        *,
        user: User | None = None,
    ) -> Outcome:
        """`run` in the chat of a game named by user data (a button): an id that cannot name a
        game, or names none, is answered as "no game" without reaching the storage."""
        lang = lang_of(hint)
        if user is not None and not is_person(user.id):
            return Outcome("", lang, error=Notice(STRANGER))
        if not valid_game_id(game_id):
            return Outcome("", lang, error=Notice("error-no-game"))
        try:
            async with self.gate.turn(self.clock(), self.patience):
                try:
                    rec = await self.storage.get_game(game_id)
                except StorageError as exc:
                    logger.warning("storage failed looking up game %d: %s", game_id, exc)
                    return Outcome("", lang, error=Notice("error-storage"))
                if rec is None:
                    return Outcome("", lang, error=Notice("error-no-game"))
                return await self._run(rec.chat_key, hint, use_case)
        except Busy:
            return Outcome("", lang, error=BUSY)

    async def run_timed(
        self,
        chat_key: str,
        now: float,
        use_case: Callable[[Work], Awaitable[Outcome | None]],
        *,
        due: float | None = None,
    ) -> Outcome | None:
        """Run a deadline's use case in its turn (`due`: when the deadline passed; never
        refused as busy). A storage failure keeps the deadline armed and retries it
        after a backoff (with a warning naming the chat); a game another process moved is
        looked at again at once. Nothing is answered then: no user acted."""
        try:
            async with self.gate.turn(now if due is None else due), self.open(chat_key) as work:
                work.timed = True
                out = await use_case(work)
        except StorageError as exc:
            delay = self.alarms.failed(chat_key, self.clock())
            logger.warning(
                "deadline of chat %s failed on the storage (%s); retrying in %.0f s",
                chat_key,
                exc,
                delay,
            )
            return None
        except VersionConflict:
            self.alarms.arm(chat_key, now)
            return None
        self.alarms.succeeded(chat_key)
        if out is not None:
            out.notices[:0] = [n for n in work.notices if n not in out.notices]
        elif work.notices:  # no game left to speak of, but the chat must hear why
            out = Outcome(chat_key, work.lang, notices=list(work.notices))
        if out is not None:
            out.outbox = work.entries
            await in_force.fill(out, self.settings, work.settings_read)
        return out

    def lobby_deadline(self) -> float | None:
        return None if self.lobby_idle is None else self.clock() + self.lobby_idle


def _lang(work: Work | None, hint: str | None) -> str:
    return lang_of(hint) if work is None else work.lang


class Work:
    """One use case's access to its chat, under the chat's lock."""

    def __init__(self, uow: UnitOfWork, chat_key: str, hint: str | None) -> None:
        self.uow = uow
        self.chat_key = chat_key
        self.hint = hint
        self.notices: list[Notice] = []  # for the whole chat, whatever the use case answers
        self.timed = False  # a deadline's work: no command to answer, all goes to the chat
        self.entries: Entries | None = None  # the outbox entries committed so far
        self.settings_read: ChatSettings | None = None  # (the outcome carries them)
        self._taken: Match | None = None

    # ------------------------------------------------------------------ settings

    async def settings(self, *, fresh: bool = False) -> ChatSettings:
        """The chat's settings, read once per update (`fresh`: from the database, not from
        this process's cache, for an update that changes them)."""
        if self.settings_read is None or fresh:
            self.settings_read = await self.uow.settings.chat(self.chat_key, fresh=fresh)
        return self.settings_read

    @property
    def lang(self) -> str:
        """The chat's language, else the acting user's (nothing is stored for a refusal)."""
        stored = None if self.settings_read is None else self.settings_read.lang
        return stored or lang_of(self.hint)

    async def put_settings(self, settings: ChatSettings) -> None:
        await self.uow.settings.put_chat(self.chat_key, settings)
        self.settings_read = settings

    def refuse(self, key: str, **args: Any) -> Outcome:
        """A refusal with no game to speak of (no names, no table)."""
        return Outcome(self.chat_key, self.lang, error=Notice(key, args))

    # ------------------------------------------------------------------ loading

    async def active(self, *, take: bool = True) -> Match | None:
        """The chat's lobby or running game; None if it has none (or it had to be set aside)."""
        rec = await self.uow.storage.active_game(self.chat_key)
        if rec is None:
            return None
        if rec.corrupt:
            await self._set_aside(rec, "its stored state is not JSON")
            return None
        try:
            match = self.uow.engines.match_of(rec, take=take)
        except Exception as exc:  # the engine or the meta reader refused the stored state
            await self._set_aside(rec, f"{type(exc).__name__}: {exc}")
            return None
        if take:
            self._taken = match
        return match

    async def last(self) -> Match | None:
        """The chat's newest game of any status (None also if it cannot be loaded)."""
        return self._readable(await self.uow.storage.last_game(self.chat_key))

    async def stored(self, game_id: int) -> Match | None:
        """One of the chat's games by id, whatever its status (None: not one that loads)."""
        rec = await self.uow.storage.get_game(game_id)
        if rec is None or rec.chat_key != self.chat_key:
            return None
        return self._readable(rec)

    def _readable(self, rec: GameRecord | None) -> Match | None:
        if rec is None or rec.corrupt:
            return None
        try:
            return self.uow.engines.match_of(rec, take=False)
        except Exception:
            return None

    async def _set_aside(self, rec: GameRecord, why: str) -> None:
        logger.error(
            "chat %s: game %d cannot be loaded (%s); it is set aside as broken",
            rec.chat_key,
            rec.id,
            why,
        )
        await self.uow.storage.mark_broken(rec.id)
        self.uow.engines.drop(rec.id)
        self.uow.alarms.arm(rec.chat_key, None)
        self.notices.append(BROKEN)

    # ------------------------------------------------------------------ writing

    async def create(self, lobby: Lobby) -> Match:
        """Open a lobby (GameExists if the chat has a game). Creating is what decides a new
        chat's language: the creator's, stored only now that something was created.

        Like every commit the chat sees, the creation writes its outbox entry in the same
        transaction (when the chat's adapter delivers them): a process that dies before the
        lobby message went out leaves it to a delivery loop, instead of a lobby nobody sees
        that refuses every new /new until it expires."""
        deadline = self.uow.lobby_deadline()
        settings = await self.settings()
        lang = settings.lang or lang_of(self.hint)
        outbox, claim = self._outbox_payload(lang, lobby.names)
        rec = await self.uow.storage.create_game(
            self.chat_key,
            meta_to_dict(lobby, TableState()),
            deadline=deadline,
            outbox=outbox,
            claim=claim,
        )
        self._entries(rec.id, rec.outbox)
        self.uow.alarms.arm(self.chat_key, deadline)
        self.uow.changes.publish(rec.id, rec.version)
        if settings.lang is None:
            chosen = ChatSettings.from_dict({**settings.to_dict(), "lang": lang})
            try:
                await self.put_settings(chosen)
            except StorageError as exc:  # the lobby is open; its language is only not kept
                logger.warning("chat %s: storing the language failed: %s", self.chat_key, exc)
                self.settings_read = chosen
        return Match.from_record(rec, None)

    def _outbox_payload(
        self,
        lang: str,
        names: dict[str, str],
        *,
        events: list[Event] | None = None,
        info: Notice | None = None,
        hands: list[str] | None = None,
        finished: bool = False,
        began: str | None = None,
    ) -> tuple[list[dict[str, Any]], float]:
        """A commit's outbox payload and how long it stays claimed, when the chat's adapter
        delivers entries (`bot.service.outbox`); else none."""
        uow = self.uow
        if not any(self.chat_key.startswith(p) for p in uow.outbox_prefixes):
            return [], 0.0
        entry = payload(lang, names, events or [], self.notices, info, hands or [], finished, began)
        return [entry], uow.clock() + uow.outbox_lease

    def _entries(self, game_id: int, ids: tuple[int, ...]) -> None:
        """Add the outbox entries a commit of `game_id` wrote to what the outcome delivers."""
        if not ids:
            return
        if self.entries is None or self.entries.game_id != game_id:
            self.entries = Entries(game_id, [])
        self.entries.ids.extend(ids)

    async def save_lobby(self, match: Match) -> Match:
        """Store a changed lobby; any change restarts its idle time."""
        return await self._store(match, "lobby", [], self.uow.lobby_deadline())

    async def close(self, match: Match, status: str = "killed") -> Match:
        """Stop a lobby or game (killed, expired, emptied): no deadline, no statistics."""
        return await self._store(match, status, [], None)

    async def restart_turn(self, match: Match, deadline: float | None) -> Match:
        """Store the match with `deadline` and no move: the turn timer changed, or another
        setting the chat is to be shown (the commit writes the outbox entry)."""
        return await self._store(match, match.status, [], deadline)

    async def commit(self, match: Match, events: list[Event], log: list[LogEntry]) -> Outcome:
        """Commit a move of the engine and answer with what it changed.

        State, meta, log, the next deadline and (for the move that ends the match) the match's
        statistics are one transaction: a match can neither be lost from the statistics nor be
        counted twice, whatever fails or stops in between.
        """
        game = match.game
        assert game is not None
        settings = await self.settings()
        match.table.remember(events)
        changed = match.refresh_hands(match.version + 1)
        status = "finished" if game.is_over else "running"
        before = None if match.table.turn is None else match.table.turn.player
        deadline = self._deadline(match, events, settings)
        abandoned = not game.is_over and all(is_bot(p) for p in game.players)
        info = None
        if abandoned:
            # Computer players do not play on for nobody: the game stops with its last human.
            status, deadline = "killed", None
            info = Notice("info-no-humans-left")
            if self.timed:  # no command to answer: what would have been the answer goes to all
                self.notices.append(info)
                info = None
        began = None if game.is_over or game.current_player == before else game.current_player
        await self._store(
            match, status, log, deadline, events=events, hands=changed, info=info, began=began
        )
        out = projection.shown(match, settings, info)
        out.events = events
        out.turn_began = began
        for player in changed:
            out.hands[player] = projection.hand_view(match, settings, player)
        return out

    async def _store(
        self,
        match: Match,
        status: str,
        log: list[LogEntry],
        deadline: float | None,
        *,
        events: list[Event] | None = None,
        hands: list[str] | None = None,
        info: Notice | None = None,
        began: str | None = None,
    ) -> Match:
        """The one storage write of a use case; `match` becomes the committed version.

        With the outbox on for the chat, what the chat must be shown of it is written with it
        (see `bot.service.outbox`), claimed by this process for the outbox lease.
        """
        storage = self.uow.storage
        record = match_record(match) if status == "finished" else None
        finished = status == "finished" and any(isinstance(e, GameEnded) for e in events or ())
        outbox, claim = self._outbox_payload(
            self.lang, match.names, events=events, info=info, hands=hands, finished=finished,
            began=began,
        )  # fmt: skip
        try:
            new = await storage.commit(
                match.id,
                match.version,
                state=None if match.game is None else match.game.to_dict(),
                meta=match.meta(),
                status=status,
                log=log,
                deadline=deadline,
                match=record,
                outbox=outbox,
                claim=claim,
            )
        except BaseException:
            self.uow.engines.drop(match.id)
            self._taken = None
            raise
        match.version, match.status = new.version, new.status
        match.deadline, match.updated_at = new.deadline, new.updated_at
        self._entries(match.id, new.outbox)
        self.uow.engines.keep(match)
        self._taken = None
        self.uow.alarms.arm(self.chat_key, deadline)
        self.uow.changes.publish(match.id, match.version)
        return match

    def _deadline(self, match: Match, events: list[Event], settings: ChatSettings) -> float | None:
        """The game's next deadline: computer players first, else the turn timer.

        The turn's own deadline lives in the table state (see `bot.service.deadlines.next_turn`),
        apart from the stored one: computer players moving in between must not restart it either.
        """
        game = match.game
        assert game is not None
        if game.is_over:
            return None
        now = self.uow.clock()
        match.table.turn = next_turn(match.table.turn, game, events, settings.timer, now)
        if computer.want_to_act(game, match.table):
            return now + self.uow.bot_delay
        return match.table.turn.deadline

    # ------------------------------------------------------------------ the end of the work

    def release(self) -> None:
        """Nothing was committed and nothing failed: the engine taken is unchanged, keep it."""
        if self._taken is not None:
            self.uow.engines.keep(self._taken)
            self._taken = None

    def forget(self) -> None:
        """Something failed while the engine was out: it may hold an uncommitted move."""
        if self._taken is not None:
            self.uow.engines.drop(self._taken.id)
            self._taken = None
