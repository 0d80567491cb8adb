"""What the service may ask of storage, whatever the database: the port, split by concern.

The storage knows nothing about UNO: a game is a row holding an opaque JSON object (the engine's
``to_dict()``), a ``meta`` object, a status and a *version*.  Each concern is a small protocol
(games, the outbox, deadlines, settings, statistics, refs, the send budget, other processes'
commits, the lifecycle), so
that each service module names what it uses; :class:`StoragePort` is all of them, what every
database adapter implements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final, Protocol, Self

from core.rules import Scoring

__all__ = [
    "STATUSES",
    "ChangeStorage",
    "DatabaseInUse",
    "DeadlineStorage",
    "GameExists",
    "GameNotFound",
    "GameRecord",
    "GameStorage",
    "LogEntry",
    "MatchRecord",
    "OutboxEntry",
    "OutboxStorage",
    "PlayerResult",
    "RefStorage",
    "SchemaTooNew",
    "SendBudgetStorage",
    "SendSlot",
    "SettingsStorage",
    "StatRow",
    "StatisticsStorage",
    "StorageError",
    "StorageLifecycle",
    "StoragePort",
    "VersionConflict",
]

KEEP_SENT: Final = 3600.0
"""Seconds a sent outbox entry is kept (for an operator to look at) before it is deleted."""

STATUSES: Final = frozenset({"lobby", "running", "finished", "killed", "broken"})
"""A game's life: ``lobby`` and ``running`` are open (one per chat); ``finished`` and
``killed`` ended; ``broken`` was set aside because its stored state could not be loaded."""


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class StorageError(Exception):
    """The database failed (locked past the busy timeout, full, read-only, I/O error, closed).

    Nothing of the failed call was stored.  The backend's own exception is ``__cause__``.  It is
    a fault of the machine, not of the request: the same call may succeed when retried later.
    """


class DatabaseInUse(StorageError):
    """Another process has this database open; two bot processes must not share one file."""

    def __init__(self, path: str, holder: str = "") -> None:
        who = f" (process {holder})" if holder else ""
        super().__init__(
            f"the database {path} is already in use by another bot process{who};"
            " stop that process first, or give this one another database"
        )
        self.path = path


class SchemaTooNew(StorageError, RuntimeError):
    """The database was migrated by newer code; refusing to run rather than corrupt it."""


class VersionConflict(Exception):
    """Someone else committed to this game first; reload it and decide again."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, found {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameExists(Exception):
    """The chat already has a lobby or running game (only one may be open per chat)."""

    def __init__(self, chat_key: str) -> None:
        super().__init__(f"chat {chat_key} already has an open game")
        self.chat_key = chat_key


class GameNotFound(LookupError):
    """No game with that id (games are never deleted, so an unknown id is a stale or forged one)."""


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    id: int
    chat_key: str
    status: str
    version: int
    state: dict[str, Any] | None
    meta: dict[str, Any]
    deadline: float | None
    created_at: float
    updated_at: float
    # True when the stored state or meta is not a JSON object: then ``state`` is None and
    # ``meta`` is {} -- the service sets the game aside (:meth:`GameStorage.mark_broken`).
    corrupt: bool = False
    # The ids of the outbox entries the commit that returned this record wrote, in order (a
    # fact of that call, not of the row: records read back have none, and equality ignores it).
    outbox: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class LogEntry:
    actor: str
    action: str
    version: int = 0  # the version this action produced; filled in by commit
    at: float = 0.0  # 0.0 means "now" (the storage clock at commit time)


@dataclass(frozen=True)
class PlayerResult:
    user_id: str
    name: str
    won: bool
    points: int


@dataclass(frozen=True)
class MatchRecord:
    """A finished match's statistics, recorded by :meth:`GameStorage.commit` with its last move."""

    results: tuple[PlayerResult, ...] | list[PlayerResult]
    scoring: Scoring = Scoring.WINNER


@dataclass(frozen=True)
class OutboxEntry:
    """What a committed change still has to show in its chat (see :meth:`GameStorage.commit`).

    `payload` is the service's own JSON (the storage never looks inside); `attempts` counts the
    deliveries that failed, so a delivery that keeps failing can be given up on and logged.
    """

    id: int
    chat_key: str
    game_id: int | None
    version: int
    payload: dict[str, Any]
    created_at: float
    attempts: int = 0


@dataclass(frozen=True)
class SendSlot:
    """A send taken from a chat's shared budget (:meth:`SendBudgetStorage.take_send_slot`).

    A platform counts a call when it arrives, which is after it was taken, by however long the
    call took to go out: while it is in flight, the send is recorded at `mark` (the time it was
    taken plus the longest a call may be in flight), and once the call has completed,
    :meth:`SendBudgetStorage.land_send_slot` moves it to that time, which is no earlier than the
    arrival.  A process killed in flight leaves it at `mark`: still no earlier than the
    arrival, so it is counted for as long as the platform counts the call.
    """

    chat_key: str
    mark: float


@dataclass(frozen=True)
class StatRow:
    """A player's totals in one chat.

    `points` sums the `winner`-scored games only; `tally_points` sums the `tally`-scored ones,
    of which there were `tally_games`: the two measure opposite things (the others' cards, more
    is better; your own cards, fewer is better), so one sum of both would be meaningless.
    """

    user_id: str
    name: str
    games: int
    wins: int
    points: int
    tally_games: int = 0
    tally_points: int = 0


# --------------------------------------------------------------------------------------------
# The port, one protocol per concern
# --------------------------------------------------------------------------------------------


class GameStorage(Protocol):
    """Games: open, read, commit, set aside.  The service does load -> lock -> apply ->
    :meth:`commit` -> send, so every adapter promises:

    * **No double moves.**  :meth:`commit` is an optimistic compare-and-swap on the version: of
      two writers (coroutines, processes) that loaded the same version, one wins and the other
      gets :class:`VersionConflict` with nothing of its write kept.
    * **Atomic move.**  State, meta, deadline, the action-log rows, the outbox entries and --
      for the last move of a match -- the match statistics are one transaction.
    * **Durable before visible.**  No caller learns the outcome of a write before the
      transaction holding it is durably committed, so a move already shown in a chat cannot
      vanish.
    * **One open game per chat**, decided by the database, not by a check-then-insert.
    * **Reads never raise on bad data.**  A row whose state or meta is not a JSON object reads
      as a :class:`GameRecord` with ``corrupt=True``; a game id outside the database's integer
      range reads as "no such game".
    """

    async def create_game(
        self,
        chat_key: str,
        meta: dict[str, Any],
        *,
        deadline: float | None = None,
        outbox: Sequence[dict[str, Any]] = (),
        claim: float = 0.0,
    ) -> GameRecord:
        """Open a lobby (version 0, no state); :class:`GameExists` if the chat has one open.

        Each ``outbox`` payload becomes an :class:`OutboxEntry` of the new game at version 0 in
        the same transaction, claimed until ``claim``, as :meth:`commit` writes them: a process
        that dies right after opening a lobby leaves it to be shown by another.  The returned
        record's ``outbox`` holds their ids.
        """

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    async def active_game(self, chat_key: str) -> GameRecord | None:
        """The chat's lobby or running game, if any."""

    async def last_game(self, chat_key: str) -> GameRecord | None:
        """The chat's newest game, whatever its status."""

    async def active_games(self) -> list[GameRecord]:
        """Every running game, oldest first."""

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first: the deadlines to re-arm at start-up."""

    async def commit(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: dict[str, Any] | None,
        meta: dict[str, Any],
        status: str,
        log: Sequence[LogEntry] = (),
        deadline: float | None = None,
        match: MatchRecord | None = None,
        outbox: Sequence[dict[str, Any]] = (),
        claim: float = 0.0,
    ) -> GameRecord:
        """Replace the game's row, append ``log`` (and record ``match``) as version + 1.

        Each ``outbox`` payload becomes one :class:`OutboxEntry` of this chat, game and new
        version, in the same transaction, claimed until ``claim`` (the committing process
        delivers it at once; if it dies, another takes it over once the claim runs out).  The
        returned record's ``outbox`` holds their ids.
        """

    async def mark_broken(self, game_id: int) -> None:
        """Set aside a game that cannot be loaded: no longer open, no deadline."""

    async def log(self, game_id: int) -> list[LogEntry]:
        """The game's applied actions in the order they were committed."""


class OutboxStorage(Protocol):
    """The outbox: what committed changes still have to show, each entry claimed by one
    process at a time (the entries are written by :meth:`GameStorage.commit`)."""

    async def claim_outbox(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[OutboxEntry]:
        """Unsent entries of chats whose key starts with ``prefix`` and whose claim ran out
        (claimed_until <= now), oldest first, each claimed until ``now + lease``. Two processes
        never get the same entry while its claim runs (PostgreSQL: FOR UPDATE SKIP LOCKED).
        An entry waits while an older unsent entry of its game is still claimed, so a game's
        entries are handed out in order. Entries sent more than `KEEP_SENT` seconds before
        ``now`` are deleted meanwhile: the outbox holds what is pending and what was just sent."""

    async def extend_outbox(self, entry_ids: Sequence[int], until: float) -> None:
        """Keep the claims of entries still being delivered until at least ``until`` (a live
        process renews what it holds, so nobody takes it over while it sends)."""

    async def finish_outbox(self, entry_id: int, now: float) -> None:
        """Mark an entry sent (idempotent)."""

    async def retry_outbox(self, entry_id: int, at: float) -> None:
        """A delivery failed: count the attempt; the entry may be claimed again from ``at``."""


class DeadlineStorage(Protocol):
    """The open games' deadlines, each due one claimed by one process at a time (the deadlines
    are written by :meth:`GameStorage.commit`)."""

    async def claim_deadlines(
        self, prefix: str, now: float, lease: float, limit: int = 100
    ) -> list[tuple[str, float]]:
        """(chat key, deadline) of open games whose deadline is due (<= now) and not claimed
        (deadline_claimed_until <= now), earliest first, each claimed until ``now + lease``
        (PostgreSQL: FOR UPDATE SKIP LOCKED). Two claimers never get the same deadline while
        its claim runs. A commit of the game (which sets its next deadline) clears the claim.
        A claim whose owner is known to be gone is no claim: SQLite takes every claim back when
        it opens the file alone, PostgreSQL frees those of a process whose session ended."""

    async def next_deadline(self, prefix: str) -> float | None:
        """The earliest deadline of the open games of chats whose key starts with ``prefix``,
        counting a claimed one from when its claim runs out (then it can be claimed again),
        unless its owner is gone."""


class SettingsStorage(Protocol):
    """Settings by key: a chat's, or a person's own (the service chooses the keys)."""

    async def get_settings(self, chat_key: str) -> dict[str, Any] | None: ...

    async def put_settings(self, chat_key: str, settings: dict[str, Any]) -> None:
        """Replace the settings wholesale (the caller merges if it wants to)."""


class StatisticsStorage(Protocol):
    """Each chat's statistics: the finished matches' results, and the standings they make."""

    async def record_match(
        self,
        chat_key: str,
        game_id: int,
        results: Sequence[PlayerResult],
        *,
        scoring: Scoring = Scoring.WINNER,
    ) -> None:
        """Add a finished game's results to the chat's statistics, at most once per game."""

    async def unrecorded_finished_games(self) -> list[GameRecord]:
        """Finished games whose match statistics were never recorded, oldest first."""

    async def leaderboard(
        self, chat_key: str, limit: int = 10, *, scoring: Scoring = Scoring.WINNER
    ) -> list[StatRow]: ...

    async def player_stats(self, chat_key: str, user_id: str) -> StatRow | None: ...


class RefStorage(Protocol):
    """Small per-game facts the adapters keep between updates (message ids), by key."""

    async def put_ref(self, game_id: int, key: str, value: str) -> None: ...

    async def get_ref(self, game_id: int, key: str) -> str | None: ...

    async def refs(self, game_id: int) -> dict[str, str]: ...

    async def claim_ref(
        self, game_id: int, key: str, value: str, *, replacing: str | None = None
    ) -> str | None:
        """Store ``value`` only if the ref is still ``replacing`` (None: not stored yet), in
        one transaction; the value it holds afterwards (``value`` if this call stored it).
        Two processes that each sent a message meant to be the only one: the first stored
        wins, and the other learns which. :class:`GameNotFound` for an unknown game."""


class SendBudgetStorage(Protocol):
    """Each chat's budget of sends, shared by every process that sends to it."""

    async def take_send_slot(
        self, chat_key: str, clock: Callable[[], float], count: int, period: float, flight: float
    ) -> SendSlot | float:
        """Reserve one send in the chat's budget, shared by every process.  ``now`` is read
        from ``clock`` once no other taker of the chat can go first (a time read before waiting
        for the database would record the send too early).  When fewer than ``count`` sends are
        recorded after ``now - period`` (one in flight at its mark), record this one in flight,
        at ``now + flight`` (see :class:`SendSlot`), and return it; otherwise record nothing
        and return the seconds until a slot frees up (``period`` when the slot that frees first
        is still in flight: it completes no earlier than ``now``)."""

    async def land_send_slot(self, slot: SendSlot, at: float) -> None:
        """The call of a slot completed (answered or failed) at ``at``: the send is recorded at
        that time from now on (a slot no longer recorded is left alone)."""


class ChangeStorage(Protocol):
    """The commits other processes make, for views pushed live (`bot.service.changes`)."""

    async def listen_changes(
        self, publish: Callable[[int, int], None], gap: Callable[[], None]
    ) -> None:
        """Hand every other process's commit to `publish` (game id, version) until cancelled,
        calling `gap` when some may have been missed; a database only this process writes has
        nothing to hand on and just waits."""


class StorageLifecycle(Protocol):
    """Opening is each adapter's own (its options differ); closing and what the database
    allows about other processes are common."""

    @property
    def sole_process(self) -> bool:
        """No other process can use this database while it is open (SQLite's file lock): a
        claim found at start-up was left by a process that is gone."""
        ...

    async def close(self) -> None:
        """Finish the writes already accepted, then release the database; idempotent."""

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class StoragePort(
    GameStorage,
    OutboxStorage,
    DeadlineStorage,
    SettingsStorage,
    StatisticsStorage,
    RefStorage,
    SendBudgetStorage,
    ChangeStorage,
    StorageLifecycle,
    Protocol,
):
    """Every concern at once: what each database adapter implements, and what the wiring
    (`bot.__main__`, `Service`) hands on to the service's modules.

    **Faults are told apart from answers.**  A backend failure (locked past the busy timeout,
    disk full, read-only, I/O error, closed storage) raises :class:`StorageError` with the
    backend's exception as ``__cause__``, and nothing of the call was stored; the storage's
    answers (:class:`VersionConflict`, :class:`GameExists`, :class:`GameNotFound`) are not
    :class:`StorageError`.
    """
