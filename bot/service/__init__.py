"""The use cases of a chat game, independent of any platform.

`Service` wires them to one storage; the adapters call the use cases themselves
(`service.lobby.join(...)`, `service.queries.table(...)`), so each case is written and documented
once, where it runs. Every use case module types its storage as the narrow port it uses, and
every use case takes its turn through one `gate` (`bot.service.gate`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from bot.service.alarms import Alarms
from bot.service.clock import DEADLINE_LEASE, DEADLINE_POLL, Clock
from bot.service.deadlines import DEFAULT_LOBBY_IDLE
from bot.service.gate import WIDTH, Gate
from bot.service.live import LiveViews
from bot.service.lobby import LobbyCases
from bot.service.outbox import LEASE, OutboxPort
from bot.service.outcome import ANNOUNCED, Entries, Notice, Outcome, User, public_event
from bot.service.play import PlayCases, uno_meaning
from bot.service.queries import Queries
from bot.service.refs import Refs
from bot.service.send_budget import SendBudget
from bot.service.settings import SettingsCases
from bot.service.settings_store import SettingsStore
from bot.service.statistics import Statistics
from bot.service.unit_of_work import PATIENCE, UnitOfWork
from bot.storage import StoragePort

__all__ = [
    "ANNOUNCED",
    "Entries",
    "Notice",
    "Outcome",
    "Service",
    "User",
    "public_event",
    "uno_meaning",
]


class Service:
    """The use cases of one storage, each group an attribute named for its role: `lobby`,
    `play`, `settings`, `queries`, `live`, `statistics`, `clock` (the deadlines); and the doors
    the adapters have besides: `refs`, `outbox`, `send_budget`, `alarms`, `changes`."""

    def __init__(
        self,
        storage: StoragePort,
        *,
        clock: Callable[[], float] = time.time,
        bot_delay: float = 1.5,
        lobby_idle: float | None = DEFAULT_LOBBY_IDLE,
        seed: Callable[[], int] = lambda: secrets.randbits(63),
        deadline_lease: float = DEADLINE_LEASE,
        deadline_poll: float = DEADLINE_POLL,
        settings_ttl: float | None = None,
        outbox_lease: float = LEASE,
        concurrency: int = WIDTH,
        patience: float = PATIENCE,
    ) -> None:
        """`lobby_idle`: seconds an untouched lobby stays open (None: until someone /kills it).
        `outbox_lease`: seconds an outbox entry stays claimed by the process delivering it.

        `clock` is the time of every deadline; a test that moves a fake clock calls
        `alarms.wake` so that a running timer loop looks again. `deadline_lease`: how long a due
        deadline this process claimed stays its own (another process takes it over after that,
        should this one die); `deadline_poll`: how often, at most, the timer loop reads the
        database's next deadline (those set by other processes). `settings_ttl`: seconds a
        chat's settings are kept in memory, for a database that other processes write too
        (None: until this process changes them, exact while it is the only one).
        `concurrency`: use cases running at once, the others waiting their turn by due time;
        `patience`: seconds a command waits for its turn before it is answered that the table
        is busy (`bot.service.gate`).
        """
        self.storage = storage
        self.refs = Refs(storage)  # the adapters' per-game facts: their only door to storage
        self.alarms = Alarms()
        store = SettingsStore(storage, ttl=settings_ttl, timer=clock)
        self.uow = UnitOfWork(
            storage,
            store,
            self.alarms,
            clock=clock,
            bot_delay=bot_delay,
            lobby_idle=lobby_idle if lobby_idle is None or lobby_idle > 0 else None,
            outbox_lease=outbox_lease,
            gate=Gate(concurrency),
            patience=patience,
        )
        self.send_budget = SendBudget(storage, clock)  # each chat's sends, shared by processes
        # The adapters' door to the outbox (`bot.service.outbox`), as `refs` is to their refs.
        self.outbox = OutboxPort(self.uow, storage, self.refs, sole_process=storage.sole_process)
        self.changes = self.uow.changes  # committed changes, for views pushed live
        self.lobby = LobbyCases(self.uow, seed)
        self.play = PlayCases(self.uow)
        self.settings = SettingsCases(self.uow)
        self.queries = Queries(self.uow)
        self.live = LiveViews(self.uow)
        self.statistics = Statistics(storage, store)
        self.clock = Clock(self.uow, storage, lease=deadline_lease, poll=deadline_poll)

    async def start(self) -> None:
        """Recover missing match statistics and re-arm every deadline (after a restart)."""
        await self.statistics.recover()
        await self.clock.start()

    async def follow_changes(self) -> None:
        """Feed `changes` with other processes' commits until cancelled (`bot.service.changes`):
        here, since the adapter that shows them live never holds the storage they come from."""
        await self.changes.follow(self.storage)
