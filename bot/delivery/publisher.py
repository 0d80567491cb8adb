"""What every adapter decides the same way when several processes show one game.

Any process may publish any game (a move, a deadline, an outbox entry it claimed), so what one
remembers of a game's messages may be out of date, two may publish the same turn, and an older
state's edit may land after a newer one. The rules for that live here, once: when to read the
refs again (`GameRefs.catch_up`), who sends a turn's hand new (`claim_turn`), which stored
message a new one replaces (`store_sent`), the newer state to converge on (`newer_table`,
`newer_hand`) and the games to show again at start (`open_games`), each read made again while
it is refused for a reason that passes (`read_again`). The adapters keep only their message
operations.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Protocol

from cachetools import LRUCache
from tenacity import (
    AsyncRetrying,
    before_sleep_log,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
)

from bot.service import Outcome, User
from bot.service.refs import Refs
from bot.service.views import HandView, TableView

log = logging.getLogger(__name__)

KEPT_GAMES = 10_000  # games whose messages a process remembers (the least recently shown go)
RESULTS = "results"  # the item of an outcome's public results (see `bot.delivery.outbox_loop`)
# A read refused for a reason that passes is made again, this many times in all, after pauses
# from READ_WAIT seconds, doubling (each read already waited its `patience` to run).
READ_TRIES = 4
READ_WAIT = 0.5


class Record(Protocol):
    """A running game, as `Queries.running_games` lists it."""

    @property
    def id(self) -> int: ...

    @property
    def chat_key(self) -> str: ...


class HasRefs(Protocol):
    """The service's door to the adapters' per-game facts."""

    @property
    def refs(self) -> Refs: ...


class Queries(Protocol):
    """The service's reads the publisher needs (`bot.service.queries.Queries`)."""

    async def table(self, chat_key: str) -> Outcome: ...

    async def game_table(self, game_id: int) -> Outcome: ...

    async def hand(
        self, user: User, *, chat_key: str | None = None, game_id: int | None = None
    ) -> Outcome: ...

    async def running_games(self) -> Sequence[Record]: ...


def delivered(out: Outcome, item: str) -> bool:
    """Whether `item` of an outcome (`RESULTS`, say) went out already: an outcome delivered
    again from the outbox skips what its entries list as sent, so nothing is posted twice."""
    return out.outbox is not None and item in out.outbox.delivered


def behind(seen: int | None, version: int) -> bool:
    """Whether a process that last showed `seen` of a game must read its refs again before
    showing `version`: other processes committed versions in between (a gap), or it never
    showed one (None, or -1: it read the refs for a hand alone, perhaps long ago)."""
    return seen is None or seen < 0 or version > seen + 1


class _Games(LRUCache[int, int]):
    """An LRU cache of game -> newest version shown, whose evicted games are forgotten."""

    def __init__(self, maxsize: int, forget: Callable[[int], None]) -> None:
        super().__init__(maxsize)
        self._forget = forget

    def popitem(self) -> tuple[int, int]:
        game_id, version = super().popitem()
        self._forget(game_id)
        return game_id, version


class GameRefs:
    """The refs (stored message ids) of the games a process shows, read once and remembered
    until another process may have changed them (`catch_up`). `shared`: other processes of the
    bot use the database too. A game past `KEPT_GAMES` shown ones is forgotten (`forget`, which
    an adapter extends with what it remembers of the game besides)."""

    def __init__(self, doors: HasRefs, shared: Callable[[], bool]) -> None:
        self._doors = doors
        self._shared = shared
        self.seen: _Games = _Games(KEPT_GAMES, self.forget)  # game -> newest version shown
        self.known: dict[int, dict[str, str | None]] = {}  # game -> the refs read or written

    @property
    def shared(self) -> bool:
        return self._shared()

    @property
    def store(self) -> Refs:
        return self._doors.refs

    def catch_up(self, game_id: int, version: int) -> None:
        """Before showing `version` of a game: the refs remembered are dropped (and read again)
        when other processes may have changed them since this one last showed it."""
        seen = self.seen.get(game_id)
        if behind(seen, version):
            self.known.pop(game_id, None)
        self.seen[game_id] = version if seen is None else max(seen, version)

    def forget(self, game_id: int) -> None:
        self.seen.pop(game_id, None)
        self.known.pop(game_id, None)

    async def get(self, game_id: int, key: str) -> str | None:
        """A ref, read once and then remembered. With other processes (`shared`) a missing one
        is read again each time: another process may be storing it (the table of a lobby it
        is still posting), and a message sent because of a stale "none" would be a second."""
        known = self.known.setdefault(game_id, {})
        if key in known and (known[key] is not None or not self.shared):
            return known[key]
        known[key] = value = await self.store.get(game_id, key)
        return value

    async def fresh(self, game_id: int, key: str) -> str | None:
        """A ref read from the database again (another process may have changed it)."""
        value = await self.store.get(game_id, key)
        self.known.setdefault(game_id, {})[key] = value
        return value

    async def put(self, game_id: int, key: str, value: str) -> None:
        await self.store.put(game_id, key, value)
        self.known.setdefault(game_id, {})[key] = value

    async def claim(self, game_id: int, key: str, value: str, *, replacing: str | None) -> bool:
        """Store `value` unless another process stored another one than `replacing` first;
        whether `value` is the ref now."""
        stored = await self.store.claim(game_id, key, value, replacing=replacing)
        self.known.setdefault(game_id, {})[key] = stored
        return stored == value


async def store_sent(refs: Refs, game_id: int, key: str, value: str) -> str | None:
    """Store `value`, the id of a message this process sent new for `key`, in place of the one
    stored; gives the id of the message that goes. That is the one stored, which may be another
    than this process replaced: one sent new by another process since this one read the store
    (two turns of one player published by two processes at once). The newest message (the
    higher id: the lower in the chat) is the one kept, so when the one stored meanwhile is
    newer, `value` goes instead and the stored one stays. Either way one goes, and the one kept
    is at the bottom of the chat: a late store of an older message that replaced a newer one
    would leave whatever lies between them (an old hand without its buttons) below the message
    in force."""
    stored = await refs.get(game_id, key)
    while True:  # (another process may store its own in between: then over that one)
        if stored == value:
            return None  # (another process stored it first: a press on it made it the hand)
        if stored is not None and int(stored) > int(value):
            return value
        now = await refs.claim(game_id, key, value, replacing=stored)
        if now == value:
            return stored
        stored = now


async def claim_turn(refs: Refs, key: str, view: HandView, token: str) -> bool:
    """Whether this process (`token`) sends the hand new for the turn that `view` began: the
    first to claim that hand version under `key` does; another process publishing the same turn
    (a re-delivery of the commit's outbox entry, a converging update) only edits the hand."""
    mine = f"{view.version}:{token}"
    stored = await refs.get(view.game_id, key)
    if stored is not None and int(stored.partition(":")[0]) >= view.version:
        return stored == mine
    return await refs.claim(view.game_id, key, mine, replacing=stored) == mine


class NotRead(Exception):
    """A read of the committed state refused for a reason that passes (`Outcome.passing`, a
    process too busy to read it now): it tells nothing of a newer state, and "nothing newer"
    taken from it would leave a message one state behind for good."""


async def read_again(read: Callable[[], Awaitable[Outcome]]) -> Outcome:
    """A read of the committed state made by no one's command (a look for a newer state, the
    games shown again at start), made again while it is refused for a reason that passes
    (`READ_TRIES` in all); `NotRead` if it is refused every time. Nobody waits on its answer,
    and a refusal taken for the state it asked about would leave a message behind for good."""
    retrying = AsyncRetrying(
        retry=retry_if_exception_type(NotRead),
        stop=stop_after_attempt(READ_TRIES),
        wait=wait_exponential(multiplier=READ_WAIT),
        before_sleep=before_sleep_log(log, logging.INFO),
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            out = await read()
            if out.passing:
                assert out.error is not None
                raise NotRead(out.error.key)
            return out
    raise AssertionError("unreachable: the last try returns or raises")


async def newer_table(queries: Queries, game_id: int, version: int) -> Outcome | None:
    """The game's committed table, if newer than `version` (what was just shown): two processes
    edit one message, and the older state's edit may land last; whichever process sends last
    looks here, so the newest state wins in the end. `NotRead`: the read was refused."""
    out = await read_again(partial(queries.game_table, game_id))
    return out if out.table is not None and out.table.version > version else None


async def newer_hand(
    queries: Queries, shown: HandView, name: str = ""
) -> tuple[HandView, Outcome] | None:
    """The player's committed hand, if newer than `shown` (see `newer_table`)."""
    user = User(shown.player, name)
    out = await read_again(partial(queries.hand, user, game_id=shown.game_id))
    latest = out.hands.get(shown.player)
    return (latest, out) if latest is not None and latest.version > shown.version else None


async def open_games(queries: Queries, prefix: str) -> list[tuple[int, Outcome]]:
    """After a start: the running games of the chats under `prefix`, each as its table's
    outcome read from the stored state (a game whose read fails, or is refused every time, is
    logged and left out)."""
    found = []
    for record in await queries.running_games():
        if not record.chat_key.startswith(prefix):
            continue
        try:
            out = await read_again(partial(queries.table, record.chat_key))
        except Exception:  # one broken game must not keep the others hidden
            log.exception("reading game %s again failed", record.id)
            continue
        view: TableView | None = out.table
        if view is not None and view.game_id == record.id and view.status == "running":
            found.append((record.id, out))
    return found
