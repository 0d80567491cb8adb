"""The use cases of a chat game, independent of any platform.

`UnoService` wires them to one storage and is the facade the adapters hold: each use case
module (`lobby`, `play`, `settings`, `queries`, `statistics`, `clock`) and each door the
adapters have besides (`refs`, `outbox`) types its storage as the narrow port it uses; every
use case takes its turn through one `gate` (`bot.service.gate`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Collection
from typing import Any

from bot.service.alarms import Alarms
from bot.service.chat_settings import ChatSettings
from bot.service.clock import DEADLINE_LEASE, DEADLINE_POLL, Clock
from bot.service.deadlines import DEFAULT_LOBBY_IDLE
from bot.service.gate import WIDTH, Gate
from bot.service.live import LiveViews
from bot.service.lobby import LobbyCases
from bot.service.outbox import LEASE, OutboxPort
from bot.service.outcome import ANNOUNCED, Entries, Notice, Outcome, User, public_event
from bot.service.play import Move, PlayCases, uno_meaning
from bot.service.queries import Queries
from bot.service.refs import Refs
from bot.service.send_budget import SendBudget
from bot.service.settings import SettingsCases
from bot.service.settings_store import SettingsStore
from bot.service.statistics import Statistics, StatRow
from bot.service.unit_of_work import PATIENCE, UnitOfWork
from bot.storage import GameRecord, StoragePort
from core.ai import Level

__all__ = [
    "ANNOUNCED",
    "Entries",
    "Notice",
    "Outcome",
    "UnoService",
    "User",
    "public_event",
    "uno_meaning",
]


class UnoService:
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

        `clock` is the time of every deadline; a test that moves a fake clock calls `wake` so
        that a running timer loop looks again. `deadline_lease`: how long a due deadline this
        process claimed stays its own (another process takes it over after that, should this
        one die); `deadline_poll`: how often, at most, the timer loop reads the database's next
        deadline (those set by other processes). `settings_ttl`: seconds a chat's settings are
        kept in memory, for a database that other processes write too (None: until this
        process changes them, exact while it is the only one). `concurrency`: use cases
        running at once, the others waiting their turn by due time; `patience`: seconds a
        command waits for its turn before it is answered that the table is busy
        (`bot.service.gate`).
        """
        self.storage = storage
        self.clock = clock
        self.refs = Refs(storage)  # the adapters' per-game facts: their only door to storage
        self.alarms = Alarms()
        settings = SettingsStore(storage, ttl=settings_ttl, timer=clock)
        self.uow = UnitOfWork(
            storage,
            settings,
            self.alarms,
            clock=clock,
            bot_delay=bot_delay,
            lobby_idle=lobby_idle if lobby_idle is None or lobby_idle > 0 else None,
            outbox_lease=outbox_lease,
            gate=Gate(concurrency),
            patience=patience,
        )
        # The adapters' door to the outbox (`bot.service.outbox`), as `refs` is to their refs.
        self.outbox = OutboxPort(
            self.uow,
            storage,
            self.refs,
            SendBudget(storage, clock),
            sole_process=storage.sole_process,
        )
        self.changes = self.uow.changes  # committed changes, for views pushed live (web table)
        self._lobby = LobbyCases(self.uow, seed)
        self._play = PlayCases(self.uow)
        self._settings = SettingsCases(self.uow)
        self._queries = Queries(self.uow)
        self._live = LiveViews(self.uow)
        self._statistics = Statistics(storage, settings)
        self._clock = Clock(self.uow, storage, lease=deadline_lease, poll=deadline_poll)

    # ------------------------------------------------------------------ start and timers

    async def start(self) -> None:
        """Recover missing match statistics and re-arm every deadline (after a restart)."""
        await self._statistics.recover()
        await self._clock.start()

    def next_deadline(self, prefix: str = "") -> float | None:
        return self._clock.next_deadline(prefix)

    async def run_due(self, now: float | None = None, *, prefix: str = "") -> list[Outcome]:
        return await self._clock.run_due(now, prefix=prefix)

    async def run_timers(self, publish: Callable[[Outcome], Any], *, prefix: str = "") -> None:
        await self._clock.run_timers(publish, prefix=prefix)

    def wake(self) -> None:
        """Make the timer loops look at the deadlines now (a fake clock moved)."""
        self.alarms.wake()

    async def follow_changes(self) -> None:
        """Feed `changes` with other processes' commits until cancelled (`bot.service.changes`)."""
        await self.changes.follow(self.storage)

    # ------------------------------------------------------------------ settings

    async def settings(self, chat_key: str) -> ChatSettings:
        return await self._settings.settings(chat_key)

    async def lang(self, chat_key: str, hint: str | None = None) -> str:
        return await self._settings.lang(chat_key, hint)

    async def personal(self, user_key: str) -> dict[str, Any]:
        return await self._settings.personal(user_key)

    async def set_personal(self, user_key: str, **values: Any) -> None:
        await self._settings.set_personal(user_key, **values)

    async def toggle_personal(self, user_key: str, key: str, *, default: bool) -> bool:
        return await self._settings.toggle_personal(user_key, key, default=default)

    async def change_setting(
        self, chat_key: str, user: User, key: str, value: str, *, is_admin: bool = False
    ) -> Outcome:
        return await self._settings.change_setting(chat_key, user, key, value, is_admin=is_admin)

    async def toggle_setting(
        self, chat_key: str, user: User, key: str, *, is_admin: bool = False
    ) -> Outcome:
        return await self._settings.toggle_setting(chat_key, user, key, is_admin=is_admin)

    # ------------------------------------------------------------------ lobby

    async def new_game(self, chat_key: str, user: User) -> Outcome:
        return await self._lobby.new_game(chat_key, user)

    async def rematch(self, chat_key: str, user: User, *, game_id: int | None = None) -> Outcome:
        return await self._lobby.rematch(chat_key, user, game_id=game_id)

    async def join(self, chat_key: str, user: User) -> Outcome:
        return await self._lobby.join(chat_key, user)

    async def add_bot(self, chat_key: str, user: User) -> Outcome:
        return await self._lobby.add_bot(chat_key, user)

    async def set_bot_level(self, chat_key: str, user: User, level: Level) -> Outcome:
        return await self._lobby.set_bot_level(chat_key, user, level)

    async def set_closed(
        self, chat_key: str, user: User, closed: bool, *, is_admin: bool = False
    ) -> Outcome:
        return await self._lobby.set_closed(chat_key, user, closed, is_admin=is_admin)

    async def start_game(self, chat_key: str, user: User, *, is_admin: bool = False) -> Outcome:
        return await self._lobby.start_game(chat_key, user, is_admin=is_admin)

    async def leave(self, chat_key: str, user: User) -> Outcome:
        return await self._lobby.remove(chat_key, user, user.id, kicked=False, is_admin=False)

    async def kick(
        self, chat_key: str, user: User, target: str, *, is_admin: bool = False
    ) -> Outcome:
        return await self._lobby.remove(chat_key, user, target, kicked=True, is_admin=is_admin)

    async def kick_seat(
        self, chat_key: str, user: User, seat: int, *, is_admin: bool = False
    ) -> Outcome:
        """Remove whoever sits in `seat`, counted from 1 as the table lists them."""
        return await self._lobby.remove(chat_key, user, seat, kicked=True, is_admin=is_admin)

    async def kill(self, chat_key: str, user: User, *, is_admin: bool = False) -> Outcome:
        return await self._lobby.kill(chat_key, user, is_admin=is_admin)

    # ------------------------------------------------------------------ playing

    async def act(
        self,
        user: User,
        action: Move,
        *,
        chat_key: str | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Outcome:
        return await self._play.act(
            user, action, chat_key=chat_key, game_id=game_id, version=version
        )

    async def uno(self, chat_key: str, user: User) -> Outcome:
        return await self._play.uno(chat_key, user)

    async def challenge(self, chat_key: str, user: User) -> Outcome:
        return await self._play.challenge(chat_key, user)

    # ------------------------------------------------------------------ views

    async def table(self, chat_key: str) -> Outcome:
        return await self._queries.table(chat_key)

    async def game_table(self, game_id: int) -> Outcome:
        return await self._queries.game_table(game_id)

    async def hand(
        self, user: User, *, chat_key: str | None = None, game_id: int | None = None
    ) -> Outcome:
        return await self._queries.hand(user, chat_key=chat_key, game_id=game_id)

    async def live(self, game_id: int, players: Collection[str]) -> Outcome:
        """A game's table and the hands of `players` in it, for a page that shows it live."""
        return await self._live.views(game_id, players)

    async def running_games(self) -> list[GameRecord]:
        return await self._queries.running_games()

    async def games_of(self, user_id: str) -> list[int]:
        """The ids of the running games `user_id` plays in."""
        return await self._queries.games_of(user_id)

    async def leaderboard(self, chat_key: str, limit: int = 10) -> list[StatRow]:
        return await self._statistics.leaderboard(chat_key, limit)
