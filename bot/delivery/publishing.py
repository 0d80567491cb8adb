"""Showing an outcome, the same for every platform: the table, the results, the changed hands,
the private reveals, then (with other processes) the look for a newer committed state, and the
outbox entries settled once all of it went out.

A platform (`Platform`) keeps only its message operations, each giving back a `Shown`: the
future that completes when the platform took the message. One that sends in the background
(Telegram's queues per chat) gives the queued send's future; one that awaits its calls
(Discord's interactions) gives a done one, and says so (`awaited`): its look for a newer state
is then awaited too, before the publication ends.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping
from functools import partial
from typing import Any, Protocol, TypeVar

from bot.delivery.outbox_loop import Delivery, Send, Undelivered
from bot.delivery.publisher import (
    RESULTS,
    NotRead,
    Queries,
    delivered,
    newer_hand,
    newer_table,
    open_games,
)
from bot.service import Outcome
from bot.service.views import HandView, TableView, is_bot
from core.events import DealerChosen

log = logging.getLogger(__name__)

T = TypeVar("T")
Shown = asyncio.Future[Any]  # completes when the platform took the message (raises if not)
ENDED = ("finished", "killed")
REVEALED = "revealed:"  # + viewer: the item of a challenged hand shown to the challenger


class HasQueries(Protocol):
    """The service's door to its reads."""

    @property
    def queries(self) -> Queries: ...


class Platform(Protocol):
    """One platform's message operations, as the publisher uses them."""

    @property
    def shared(self) -> bool:
        """Other processes publish the same games (then every publication looks for a newer
        state after it, `Publisher.converge`)."""

    @property
    def awaited(self) -> bool:
        """Each operation's send is done when it returns (see the module's docstring)."""

    def ours(self, out: Outcome) -> bool:
        """Whether the outcome's chat is one of this platform's."""

    async def catch_up(self, out: Outcome) -> None:
        """Before showing `out`: what is remembered of its game read again if it may be stale
        (`bot.delivery.publisher.GameRefs.catch_up`)."""

    async def present_table(
        self, out: Outcome, view: TableView, *, opens: bool, strict: bool
    ) -> Shown:
        """The game's table (or lobby) message brought to `view`. `opens`: this publication
        brings the message into being and may send it new; `strict`: the future raises if the
        send was given up for a reason that may pass (the outbox entry then comes back)."""

    async def present_results(self, out: Outcome, *, strict: bool, reply: Any) -> Shown | None:
        """The outcome's public results; None when there are none, or when the platform
        recorded them itself (`RESULTS`). `reply`: the interaction that caused it, if any."""

    async def private_hands(self, out: Outcome) -> bool:
        """Whether the changed hands are shown privately in this chat."""

    async def present_hand(
        self, out: Outcome, view: HandView, *, strict: bool, opens: bool
    ) -> Shown | None:
        """A player's hand brought to `view`; None when it is not shown (a closed private
        chat, a hand another process is sending new)."""

    def reveals(self, out: Outcome) -> Mapping[str, str]:
        """The challenged hand's text for each viewer who sees it privately."""

    def present_reveal(self, viewer: str, text: str, *, strict: bool) -> Shown:
        """A challenged hand, to the challenger alone."""

    async def after_hands(
        self, out: Outcome, shown: Collection[str], skip: Collection[str]
    ) -> None:
        """After the hands (`shown`: the players whose hand is now up to date; `skip`: who
        acted and is looking at theirs): what the platform tells besides (turn prompts)."""

    async def hands_again(self, out: Outcome) -> Outcome:
        """After a start: `out` (a running game's table) with the hands to show again, each
        read with `bot.delivery.publisher.read_again` (`NotRead`: refused every time)."""

    def forget(self, game_id: int) -> None:
        """A game shown ended: what is remembered of it goes."""


def opens_table(out: Outcome) -> bool:
    """Whether the outcome brings its table message into being: a lobby's creation, or the
    deal. With other processes, only that publication sends the message new; a later one that
    finds none stored leaves it to that one (it follows its send with the newest state)."""
    if out.table is None:
        return False
    if out.table.top is None:
        return out.table.version == 0 or (out.outbox is not None and out.outbox.opened)
    return dealt(out)


def dealt(out: Outcome) -> bool:
    """Whether the outcome deals the game (its hands come into being)."""
    return any(isinstance(e, DealerChosen) for e in out.events) or (
        out.outbox is not None and out.outbox.dealt
    )


@dataclasses.dataclass(frozen=True)
class _How:
    """How one outcome is published (`Publisher.publish`'s options)."""

    table: bool
    results: bool
    skip: frozenset[str]
    reply: Any
    wait: bool
    opens: bool


class Publisher:
    """Publishes outcomes through one platform's operations (see the module's docstring)."""

    def __init__(self, platform: Platform, doors: HasQueries, *, wait: float = 2.0) -> None:
        self.platform = platform
        self._doors = doors
        self.wait = wait  # how long a handler waits for the private messages
        self.delivery: Delivery | None = None  # settles the outbox entries of what is shown
        self.tasks: set[asyncio.Task[Any]] = set()  # the looks for a newer state under way

    @property
    def queries(self) -> Queries:
        return self._doors.queries

    async def publish(
        self,
        out: Outcome,
        *,
        table: bool = True,
        results: bool = True,
        skip: Collection[str] = (),
        reply: Any = None,
        wait: bool = True,
        opens: bool = False,
    ) -> None:
        """Show an outcome (not its table or results when the caller showed them already, nor
        the hands of `skip`), then hand what was sent to the delivery. `wait`: until the
        private messages went out (a little); `opens`: every message may be sent new (the
        games shown again at start)."""
        how = _How(table, results, frozenset(skip), reply, wait, opens)
        sends: list[Send] = []
        failure: BaseException | None = None
        try:
            await self._publish(out, sends, how)
        except BaseException as exc:
            failure = exc
            raise
        finally:
            if self.delivery is not None and out.outbox is not None:
                self.delivery.track(out, sends, failure)

    async def _publish(self, out: Outcome, sends: list[Send], how: _How) -> None:
        ops = self.platform
        if not ops.ours(out):
            return
        strict = out.outbox is not None and self.delivery is not None
        await ops.catch_up(out)
        looked: list[Shown] = []  # what the look for a newer state follows
        table_shown: Shown | None = None
        if out.table is not None and how.table:
            table_shown = await ops.present_table(
                out, out.table, opens=how.opens or opens_table(out), strict=strict
            )
            looked.append(table_shown)
            sends.append((None, table_shown))
        if how.results and not delivered(out, RESULTS):
            posted = await ops.present_results(out, strict=strict, reply=how.reply)
            if posted is not None:
                sends.append((RESULTS, posted))
        hands: dict[str, Shown] = {}
        private = bool(out.hands) and await ops.private_hands(out)
        for player, view in out.hands.items() if private else ():
            if player in how.skip or is_bot(player):
                continue
            shown = await ops.present_hand(out, view, strict=strict, opens=how.opens or dealt(out))
            if shown is not None:
                hands[player] = shown
                sends.append((None, shown))
        private_sends = list(hands.values())
        for viewer, text in ops.reveals(out).items():
            if not delivered(out, REVEALED + viewer):
                private_sends.append(ops.present_reveal(viewer, text, strict=strict))
                sends.append((REVEALED + viewer, private_sends[-1]))
        await ops.after_hands(out, hands, how.skip)
        # Only the private chats are waited for: a group's edit may wait for its rate limit,
        # and nobody should see a spinning button because of it.
        if how.wait and private_sends and not ops.awaited:
            await asyncio.wait(private_sends, timeout=self.wait)
        looked.extend(hands.values())
        if ops.shared and looked:
            shown_hands = {p: out.hands[p] for p in hands}
            look = self.converge(out.table, shown_hands, looked)
            sends.append((None, look))
            if ops.awaited:
                await asyncio.wait([look])
        if out.table is not None and out.table.status in ENDED:
            self._forget_when(table_shown, out.table.game_id)

    def _forget_when(self, shown: Shown | None, game_id: int) -> None:
        """The ended game is forgotten once its last table went out (or now: none is sent)."""
        if shown is None or shown.done():
            self.platform.forget(game_id)
        else:
            shown.add_done_callback(lambda _: self.platform.forget(game_id))

    def converge(
        self, table: TableView | None, hands: Mapping[str, HandView], shown: Collection[Shown]
    ) -> Shown:
        """With other processes publishing the same game: once `shown` went out, the look for
        a newer committed state, and that state shown. Their edits cross (an older one, say
        one that waited for a group's budget, may land after a newer one); whichever process
        sends last looks, and the newest state wins in the end.

        The outcome's outbox entry is finished once this is done and no sooner: a process
        killed after its edit of an older state landed over a newer one, and before it looked,
        leaves the entry unfinished, and another process delivers it again."""

        async def look() -> None:
            await asyncio.gather(*shown)
            more = await self._newer(table, hands)
            if more:
                await self.converge(*more)

        task = asyncio.get_running_loop().create_task(look())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        task.add_done_callback(_retrieved)
        return task

    async def _newer(
        self, table: TableView | None, hands: Mapping[str, HandView]
    ) -> tuple[TableView | None, dict[str, HandView], list[Shown]] | None:
        """The newer state of what was shown, shown (never as a new message: a second one,
        beside the one the opening process is still sending, would stay); what to look after
        next. One read when nothing is newer."""
        ops = self.platform
        latest: Outcome | None = None
        if table is not None:
            read = partial(newer_table, self.queries, table.game_id, table.version)
            latest = await self._read(read)
            if latest is None or latest.table is None:
                return None
        shown: list[Shown] = []
        if latest is not None and latest.table is not None:
            await ops.catch_up(latest)
            shown.append(await ops.present_table(latest, latest.table, opens=False, strict=False))
        newer: dict[str, HandView] = {}
        for player, hand in hands.items():
            name = "" if latest is None else latest.names.get(player, player)
            found = await self._read(partial(newer_hand, self.queries, hand, name))
            if found is None:
                continue
            view, out = found
            again = await ops.present_hand(out, view, strict=False, opens=False)
            if again is not None:
                newer[player] = view
                shown.append(again)
        if not shown:
            return None
        return (None if latest is None else latest.table), newer, shown

    @staticmethod
    async def _read(read: Callable[[], Awaitable[T]]) -> T:
        """A read of the look (made again while refused for a reason that passes: `read_again`);
        one that fails for good makes the outcome's entry come back."""
        try:
            return await read()
        except NotRead as exc:
            log.warning("no look for a newer state: its read was refused (%s)", exc)
            raise Undelivered(f"no look for a newer state: refused ({exc})") from exc
        except Exception as exc:
            log.exception("looking for a newer state failed")
            raise Undelivered(f"no look for a newer state: {exc}") from exc

    async def show_open_games(self, prefix: str) -> int:
        """After a start: every running game of the chats under `prefix` shown again from the
        stored state, with the hands the platform names (what a stopped process had not sent
        yet is sent now; what it had sent is not modified). How many games were shown."""
        count = 0
        for game_id, out in await open_games(self.queries, prefix):
            try:
                again = await self.platform.hands_again(out)
                await self.publish(again, results=False, wait=False, opens=True)
                count += 1
            except Exception:  # one broken game must not keep the others hidden
                log.exception("showing game %s again failed", game_id)
        return count


def with_hands(out: Outcome, hands: Mapping[str, HandView], switches: Mapping[str, Any]) -> Outcome:
    """`out` with the hands (and their players' switches) to show again."""
    return dataclasses.replace(out, hands=dict(hands), switches=dict(switches))


def done() -> Shown:
    """A `Shown` for nothing to wait on (nothing sent, or sent already)."""
    future: Shown = asyncio.get_running_loop().create_future()
    future.set_result(None)
    return future


def _retrieved(task: asyncio.Task[Any]) -> None:
    """A failed show is the delivery's to act on, if one tracks it; nobody's else (asyncio
    would log it as never retrieved)."""
    if not task.cancelled():
        task.exception()
