"""The transactional outbox, seen from the adapters: delivering what a commit must still show,
and showing it again after a crash.

Every commit that changes what a chat sees writes its entry in the same transaction
(`Work._store`, `Work.create`; the payload is `bot.service.outbox_entry`'s), claimed by the
committing process, and the outcome carries its id (`Outcome.outbox`). The adapter publishes
the outcome at once, then marks the entry sent (`finish`) or hands it back for later
(`retry`); an entry whose claim ran out is claimed by a delivery loop (`claim`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final

from bot.service import in_force, outbox_entry, projection
from bot.service.alarms import retry_delay
from bot.service.match import Match
from bot.service.outcome import Entries, Outcome
from bot.service.refs import Refs
from bot.service.unit_of_work import UnitOfWork
from bot.storage import OutboxEntry, OutboxStorage

logger = logging.getLogger("bot.service")

LEASE: Final = 60.0
"""Seconds an entry stays claimed by the process delivering it (a group waiting for its send
budget can hold a table edit for a while: this is the longest a send should take)."""

MAX_ATTEMPTS: Final = 8
"""Failed deliveries after which an entry is given up (logged), not retried again."""

SENT: Final = "sent:"  # + entry id + ":" + item: a ref whose value is the sent message's id


def sent_key(chat_key: str, entry_id: int, item: str) -> str:
    """The ref that records an item of an entry as sent, under the platform's own prefix."""
    platform = chat_key.partition(":")[0]
    return f"{platform}:{SENT}{entry_id}:{item}"


class OutboxPort:
    """What adapters may do with the outbox (`Service.outbox`); they never see the storage.

    Entries are written only for the chats of a platform whose adapter delivers them
    (`deliver`): the console and the service's own tests have no delivery loop, and an entry
    nobody would ever finish must not be written. What a platform would show twice -- an
    announcement, a private note -- is recorded once sent (`mark_sent`, a ref of the game keyed
    by entry and item), and a re-delivery lists those items in `Outcome.delivered`, for the
    adapter to skip.
    """

    def __init__(
        self,
        uow: UnitOfWork,
        entries: OutboxStorage,
        refs: Refs,
        *,
        sole_process: bool = False,
    ):
        """`sole_process`: no other process can use this database (SQLite holds it alone), so
        every claim found at start-up was left by a process that is gone: it is taken over at
        once instead of when it runs out."""
        self.uow = uow
        self.entries = entries
        self.refs = refs
        self.sole_process = sole_process

    @property
    def lease(self) -> float:
        return self.uow.outbox_lease

    def now(self) -> float:
        """The service's time, the one claims and retries are reckoned in."""
        return self.uow.clock()

    def deliver(self, prefix: str) -> None:
        """From now on, commits of the chats whose key starts with `prefix` write entries:
        an adapter that delivers them is running."""
        self.uow.outbox_prefixes.add(prefix)

    # ------------------------------------------------------------------ delivering

    async def claim(self, prefix: str, *, start: bool = False, limit: int = 100) -> list[Outcome]:
        """The entries of `prefix` whose claim ran out, claimed, as outcomes, oldest first.

        `start`: the first look of a new process; with `sole_process` every claim is taken
        over. Of several entries of one game only the last shows the table and the hands (the
        latest state, with every hand any of them changed), so entries waiting for one game
        collapse into one table and one hand per player; each keeps its announcements.
        """
        now = self.uow.clock()
        look = now + self.lease if start and self.sole_process else now
        entries = await self.entries.claim_outbox(prefix, look, self.lease, limit)
        last: dict[int | None, OutboxEntry] = {}
        hands: dict[int | None, dict[str, None]] = {}
        began: dict[int | None, dict[str, int]] = {}  # player -> the version that began it
        dealt: set[int | None] = set()
        opened: set[int | None] = set()
        for entry in entries:
            last[entry.game_id] = entry
            if entry.version == 0:  # the lobby's creation (`Work.create`)
                opened.add(entry.game_id)
            if outbox_entry.dealt(entry):
                dealt.add(entry.game_id)
            player = outbox_entry.began(entry)
            if player is not None:
                began.setdefault(entry.game_id, {})[player] = entry.version
            hands.setdefault(entry.game_id, {}).update(dict.fromkeys(outbox_entry.hands(entry)))
        outcomes = []
        for entry in entries:
            views = last[entry.game_id] is entry
            out = await self._outcome(entry, list(hands[entry.game_id]) if views else None)
            if views and out.outbox is not None and entry.game_id in dealt:
                # The deal's entry collapsed into this one: whoever shows the views sends the
                # table and the hands new if they never went out (the dealing process died).
                out.outbox.dealt = True
            if views and out.outbox is not None and entry.game_id in opened:
                out.outbox.opened = True  # likewise the lobby message, if it never went out
            # A turn one of them began, if nothing was committed since: a later commit's own
            # process notified the turn it began (perhaps the same player's next one), and a
            # turn notified twice is a hand sent twice.
            if out.turn_began is None and out.table is not None:
                current = out.table.current
                if current is not None and (
                    began.get(entry.game_id, {}).get(current) == out.table.version
                ):
                    out.turn_began = current
            outcomes.append(out)
        return outcomes

    async def _outcome(self, entry: OutboxEntry, hands: list[str] | None) -> Outcome:
        """An entry as an outcome; `hands` None: no views (a later entry of its game shows
        them)."""
        out = outbox_entry.outcome_of(entry)
        if entry.game_id is None:
            out.outbox = Entries(None, [entry.id], entry.attempts)
            return out
        refs = await self.refs.all(entry.game_id)
        head = sent_key(entry.chat_key, entry.id, "")
        delivered = {k.removeprefix(head) for k in refs if k.startswith(head)}
        out.outbox = Entries(entry.game_id, [entry.id], entry.attempts, delivered)
        if hands is not None:
            await self._views(out, entry, hands)
        return out

    async def _views(self, out: Outcome, entry: OutboxEntry, hands: list[str]) -> None:
        """The table and `hands` from the game's latest committed state (under its chat's
        lock, so no move is half applied while they are drawn)."""
        assert entry.game_id is not None
        async with self.uow.open(entry.chat_key) as work:
            settings = await work.settings()
            match: Match | None = await work.stored(entry.game_id)
            if match is None:
                return
            out.table = projection.table_view(match, settings)
            out.names = {**out.names, **match.names}
            if match.game is not None:
                for player in hands:
                    if player in match.lobby.players:
                        out.hands[player] = projection.hand_view(match, settings, player)
        await in_force.fill(out, self.uow.settings, settings)

    async def extend(self, entry_ids: Sequence[int]) -> None:
        """Entries this process is still sending stay its own for another lease."""
        await self.entries.extend_outbox(entry_ids, self.uow.clock() + self.lease)

    async def finish(self, out: Outcome) -> None:
        """The outcome's entries went out (or were dropped for good, like a blocked user's)."""
        if out.outbox is None:
            return
        now = self.uow.clock()
        for entry_id in out.outbox.ids:
            await self.entries.finish_outbox(entry_id, now)

    async def retry(self, out: Outcome) -> float:
        """The outcome's sends failed: its entries are claimed again after a backoff (the
        timers' own, `alarms.retry_delay`); past `MAX_ATTEMPTS` they are given up, logged.
        Returns when they may be claimed again (0.0: given up)."""
        if out.outbox is None:
            return 0.0
        attempts = out.outbox.attempts + 1
        if attempts >= MAX_ATTEMPTS:
            logger.error(
                "chat %s: giving up outbox entries %s after %d attempts",
                out.chat_key, out.outbox.ids, attempts,
            )  # fmt: skip
            await self.finish(out)
            return 0.0
        at = self.uow.clock() + retry_delay(attempts)
        for entry_id in out.outbox.ids:
            await self.entries.retry_outbox(entry_id, at)
        return at

    async def mark_sent(self, out: Outcome, item: str, message_id: str) -> None:
        """Record an item of the outcome's entry as sent (`message_id`: what the platform gave
        it), so that a re-delivery skips it. The item belongs to the last entry (the one of the
        commit that produced the outcome's events)."""
        if out.outbox is not None and out.outbox.game_id is not None:
            key = sent_key(out.chat_key, out.outbox.ids[-1], item)
            await self.refs.put(out.outbox.game_id, key, message_id)
