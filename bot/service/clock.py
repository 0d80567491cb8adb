"""Time-driven use cases: computer players, turn timeouts, idle lobbies, and the timer loop.

Each open game has at most one stored deadline (`bot.service.deadlines` says which); the
database decides which process acts on a due one, and the alarms in memory
(`bot.service.alarms`) only say when to look. Each due deadline is worked on in a task of its
own, in its turn among every use case of the process by due time (`bot.service.gate`).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
from collections.abc import Callable
from typing import Any

from bot.service import computer, projection
from bot.service.alarms import Alarms
from bot.service.deadlines import lobby_minutes
from bot.service.match import Match
from bot.service.outcome import Notice, Outcome
from bot.service.unit_of_work import UnitOfWork, Work
from bot.storage import DeadlineStorage, GameRecord, LogEntry, StorageError
from core.events import Event

logger = logging.getLogger("bot.service")

DEADLINE_LEASE = 30.0  # seconds a claimed deadline is this process's before others may take it
DEADLINE_POLL = 5.0  # the loop reads the database's next deadline at least this often


class Clock:
    """Acts on the due deadlines this process claimed from the database.

    `run_due` claims the due deadlines of its adapter's chats (`DeadlineStorage.claim_deadlines`:
    each is one process's until a lease runs out), so with several bot processes over one
    database every turn timer, computer move and lobby expiry is handled by exactly one of
    them, and those a killed process claimed are taken over once its lease runs out (at once
    when it is known to be gone). One code path for every backend: on SQLite, the only process
    claims everything.

    Every claimed deadline is worked on in a task of its own, which takes its turn with every
    other use case of the process in order of due time (`bot.service.gate`): under load a
    computer's move goes before the presses that came after it was due, and one game's slow
    move does not hold back another's, each published as soon as it is done.

    This process's own commits arm the alarms, so a move here wakes the loop at once; the loop
    also reads the database's next deadline at least every `poll` seconds, for those set by
    other processes. A deadline whose work fails on the storage stays claimed and is retried
    with a growing backoff, with a warning naming the chat.
    """

    def __init__(
        self,
        uow: UnitOfWork,
        deadlines: DeadlineStorage,
        *,
        lease: float = DEADLINE_LEASE,
        poll: float = DEADLINE_POLL,
    ) -> None:
        self.uow = uow
        self.deadlines = deadlines
        self.alarms: Alarms = uow.alarms
        self.lease = lease
        self.poll = poll
        # Chats whose deadline this process claimed and is retrying (the work failed on the
        # storage): until when the claim is ours.
        self._held: dict[str, float] = {}
        # Chats this process acts on from its own alarm alone (found at start-up with no
        # deadline to claim: a row that cannot be read, a lobby stored before lobbies had one).
        self._unclaimed: set[str] = set()

    async def start(self) -> None:
        """After a restart: re-arm the deadline of every lobby and running game.

        A game whose row cannot be read is armed to come due at once: its chat is told, and
        the game set aside, by the first deadline run (`Work.active`), not at start-up.
        """
        now = self.uow.clock()
        for rec in await self.uow.storage.open_games():
            due = now if rec.corrupt else self._due(rec)
            if due is not None:
                self.alarms.arm(rec.chat_key, due)
                if rec.corrupt or rec.deadline is None:
                    self._unclaimed.add(rec.chat_key)

    def _due(self, rec: GameRecord) -> float | None:
        """When a game's deadline is: a lobby's expiry (a lobby stored before lobbies had one:
        its last change plus the idle time; None while lobbies do not expire)."""
        if rec.status != "lobby":
            return rec.deadline
        if self.uow.lobby_idle is None:
            return None
        return rec.deadline if rec.deadline is not None else rec.updated_at + self.uow.lobby_idle

    def next_deadline(self, prefix: str = "") -> float | None:
        """The earliest deadline of the chats whose key starts with `prefix` (an adapter's)."""
        return self.alarms.next(prefix)

    async def run_due(self, now: float | None = None, *, prefix: str = "") -> list[Outcome]:
        """Act for every game whose deadline has passed and that this process claimed:
        computer moves, turn timeouts, idle lobbies, each in its turn (`run_one`). `prefix`
        limits this to one adapter's chats ("dc:"), so that each adapter's timer loop
        publishes only what it can send."""
        now = self.uow.clock() if now is None else now
        due = await self._claim(now, prefix)
        outcomes = await asyncio.gather(*(self.run_one(chat, at, now) for chat, at in due))
        return [out for out in outcomes if out is not None]

    async def run_one(self, chat: str, due: float, now: float) -> Outcome | None:
        """The work of one claimed deadline, in its turn among every use case (`Gate`: by
        when it was `due`)."""
        self.alarms.running(chat)
        try:
            out = await self.uow.run_timed(
                chat, now, lambda work: self._on_deadline(work, now), due=due
            )
        except Exception:
            # A fault in the code, not in the data (that is set aside as broken) nor in the
            # storage (that is retried): one game must not stall every other chat's
            # timers, so this one waits for a restart (or another process's lease).
            logger.exception("deadline of chat %s failed; disarmed", chat)
            self.alarms.arm(chat, None)
            self._held.pop(chat, None)
            return None
        finally:
            self.alarms.done(chat)
        if not self.alarms.retrying(chat):
            self._held.pop(chat, None)  # done: its commit cleared the claim
        return out

    async def _claim(self, now: float, prefix: str) -> list[tuple[str, float]]:
        """The chats to act on now and when each came due: the due deadlines claimed from the
        database, and the due alarms of this process's own retries. Any other due alarm is
        dropped: its deadline moved, or another process claimed it."""
        try:
            claimed = await self.deadlines.claim_deadlines(prefix, now, self.lease)
        except StorageError as exc:
            logger.warning("claiming the due deadlines of %r failed: %s", prefix, exc)
            claimed = []
        chats = dict(claimed)
        for chat in chats:
            self._held[chat] = now + self.lease
        for chat in self.alarms.due(now, prefix):
            if chat in chats:
                continue
            if chat in self._unclaimed or self._held.get(chat, -math.inf) > now:
                self._unclaimed.discard(chat)
                chats[chat] = self.alarms.at(chat) or now
            else:
                self.alarms.arm(chat, None)
                self._held.pop(chat, None)
        return list(chats.items())

    async def stored_deadline(self, prefix: str = "") -> float | None:
        """The database's earliest claimable deadline of `prefix` (None if it cannot say)."""
        try:
            return await self.deadlines.next_deadline(prefix)
        except StorageError as exc:
            logger.warning("reading the next deadline of %r failed: %s", prefix, exc)
            return None

    async def run_timers(self, publish: Callable[[Outcome], Any], *, prefix: str = "") -> None:
        """Forever: sleep until the next deadline (or a new earlier one, or `wake`, or the next
        look at the database), then claim every due one and act on each in a task of its own,
        published as soon as it is done. The loop does not wait for them: it claims what
        comes due meanwhile, and each takes its turn with every other use case by due time
        (`Gate`), instead of the deadlines going one at a time behind every press."""
        tasks: set[asyncio.Task[None]] = set()
        try:
            while True:
                await self.alarms.sleep(
                    prefix,
                    self.uow.clock,
                    stored=lambda: self.stored_deadline(prefix),
                    most=self.poll,
                )
                now = self.uow.clock()
                for chat, due in await self._claim(now, prefix):
                    self.alarms.running(chat)  # not due again while its task waits its turn
                    task = asyncio.create_task(self._publish_one(chat, due, now, publish))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _publish_one(
        self, chat: str, due: float, now: float, publish: Callable[[Outcome], Any]
    ) -> None:
        out = await self.run_one(chat, due, now)
        if out is None:
            return
        try:
            result = publish(out)
            if inspect.isawaitable(result):
                await result
        except Exception:
            logger.exception("publishing the deadline of chat %s failed", chat)

    async def _on_deadline(self, work: Work, now: float) -> Outcome | None:
        chat_key = work.chat_key
        match = await work.active()
        if match is None:
            self.alarms.arm(chat_key, None)
            await work.settings()  # the language of a notice that the game was set aside
            return None
        if match.status == "lobby":
            return await self._expire_lobby(work, match, now)
        if match.deadline is None:
            self.alarms.arm(chat_key, None)
            return None
        if match.deadline > now:
            self.alarms.arm(chat_key, match.deadline)
            return None
        game = match.game
        assert game is not None
        settings = await work.settings()
        events: list[Event] = []
        log: list[LogEntry] = []
        if computer.want_to_act(game, match.table):
            computer.play(game, match.table, events, log)
        elif settings.timer is None:
            # The timer was switched off after this deadline was set: nobody times out.
            self.alarms.arm(chat_key, None)
            return None
        else:
            computer.time_out(game, events, log)
        # No command to answer: what would have been the answer (say, a timeout took out the
        # last person and the game stopped) goes to the whole chat (`Work.timed`).
        return await work.commit(match, events, log)

    async def _expire_lobby(self, work: Work, match: Match, now: float) -> Outcome | None:
        """Close a lobby nobody touched for `lobby_idle`, so that the chat can open a new one."""
        idle = self.uow.lobby_idle
        if idle is None:
            self.alarms.arm(match.chat_key, None)
            return None
        due = match.deadline if match.deadline is not None else match.updated_at + idle
        if due > now:
            self.alarms.arm(match.chat_key, due)
            return None
        settings = await work.settings()
        # For the whole chat (no command to answer), and in the outbox with the close.
        work.notices.append(Notice("info-lobby-expired", {"minutes": lobby_minutes(idle)}))
        await work.close(match)
        return projection.shown(match, settings)
