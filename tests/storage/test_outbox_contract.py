"""The storage contract of the outbox and the shared send budget (issue 15), on every backend.

An entry is written by its commit or not at all; a claim is exclusive while it runs (also
between processes: on PostgreSQL two claimers racing never get the same entry) and is taken
over once it ran out; finishing is idempotent; a game's entries are handed out in order; the
send budget of a chat holds for all its takers together.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import closing
from typing import Any

import pytest

from bot.storage import (
    GameRecord,
    LogEntry,
    MatchRecord,
    OutboxEntry,
    PlayerResult,
    SendSlot,
    StorageError,
    StoragePort,
    VersionConflict,
)
from bot.storage.port import KEEP_SENT
from tests.storage.conftest import Backend, FakeClock, PostgresBackend, SqliteBackend

CHAT = "tg:-100123"
OTHER = "dc:9876"
LEASE = 30.0
FAR = 1e12  # a time when every claim has run out
FLIGHT = 120.0  # the longest a send's call may be in flight


async def _running(s: StoragePort, chat: str = CHAT) -> GameRecord:
    g = await s.create_game(chat, {})
    return await s.commit(g.id, 0, state={"turn": 0}, meta={}, status="running")


async def _move(
    s: StoragePort, g: GameRecord, payload: dict[str, Any], *, claim: float = 0.0
) -> GameRecord:
    return await s.commit(
        g.id, g.version, state={"turn": g.version}, meta={}, status="running",
        log=[LogEntry("u1", "m")], outbox=[payload], claim=claim,
    )  # fmt: skip


def _second(backend: Backend) -> dict[str, Any]:
    """Options for a second storage on the same database, as another process would open it."""
    return {"exclusive": False} if backend.name == "sqlite" else {}


@pytest.fixture
async def other(backend: Backend, storage: StoragePort) -> AsyncIterator[StoragePort]:
    """A second storage on the same database (another process)."""
    s = await backend.open(**_second(backend))
    yield s
    await s.close()


async def test_a_commit_writes_its_entries_claimed_until_its_claim(
    storage: StoragePort, clock: FakeClock
) -> None:
    g = await _running(storage)
    payloads: list[dict[str, Any]] = [
        {"events": [{"type": "round_ended"}], "lang": "uk"},
        {"notices": ["x"]},
    ]
    new = await storage.commit(
        g.id, 1, state={}, meta={}, status="running", outbox=payloads, claim=500.0
    )
    assert len(new.outbox) == 2 and new.outbox[0] < new.outbox[1]
    assert new == await storage.get_game(g.id)  # the ids are the call's, not the row's
    assert (await storage.get_game(g.id)).outbox == ()  # type: ignore[union-attr]
    assert await storage.claim_outbox("tg:", 499.0, LEASE) == []  # still claimed
    entries = await storage.claim_outbox("tg:", 500.0, LEASE)
    assert entries == [
        OutboxEntry(new.outbox[0], CHAT, g.id, 2, payloads[0], new.updated_at, 0),
        OutboxEntry(new.outbox[1], CHAT, g.id, 2, payloads[1], new.updated_at, 0),
    ]
    plain = await storage.commit(g.id, 2, state={}, meta={}, status="running")
    assert plain.outbox == ()  # no payload, no entry
    assert await storage.claim_outbox("tg:", FAR, LEASE) == entries  # only those two


@pytest.mark.parametrize("how", ["conflict", "bad value", "refused statistics"])
async def test_a_failed_commit_writes_no_entry(
    backend: Backend, storage: StoragePort, how: str
) -> None:
    g = await _running(storage)
    payload = {"events": [{"type": "game_ended"}]}
    if how == "conflict":
        with pytest.raises(VersionConflict):
            await storage.commit(g.id, 0, state={}, meta={}, status="running", outbox=[payload])
    elif how == "bad value":  # the log fails after the row was updated
        with pytest.raises(ValueError):
            await storage.commit(
                g.id, 1, state={}, meta={}, status="running",
                log=[LogEntry("u1", "\ud800")], outbox=[payload],
            )  # fmt: skip
    else:  # the statistics fail after the row and the log were written
        async with backend.refuse_stats():
            with pytest.raises(StorageError):
                await storage.commit(
                    g.id, 1, state={}, meta={}, status="finished", outbox=[payload],
                    match=MatchRecord([PlayerResult("u1", "Ann", True, 1)]),
                )  # fmt: skip
    with pytest.raises((ValueError, TypeError)):  # a payload that is not JSON: refused first
        await storage.commit(g.id, 1, state={}, meta={}, status="running", outbox=[{"x": {1, 2}}])
    assert await storage.claim_outbox("", FAR, LEASE) == []
    assert (await storage.get_game(g.id)).version == 1  # type: ignore[union-attr]


async def test_a_claim_is_exclusive_until_it_runs_out(
    storage: StoragePort, other: StoragePort
) -> None:
    g = await _running(storage)
    g = await _move(storage, g, {"n": 1}, claim=100.0)
    assert await storage.claim_outbox("tg:", 99.0, LEASE) == []  # the committer's claim
    [mine] = await storage.claim_outbox("tg:", 100.0, LEASE)  # it ran out: taken over
    assert await other.claim_outbox("tg:", 100.0, LEASE) == []  # claimed by the first
    assert await other.claim_outbox("tg:", 100.0 + LEASE - 1, LEASE) == []
    [again] = await other.claim_outbox("tg:", 100.0 + LEASE, LEASE)  # ran out: claimed again
    assert again == mine
    assert await storage.claim_outbox("tg:", 100.0 + LEASE, LEASE) == []


async def test_claims_are_by_chat_prefix_and_limited_oldest_first(storage: StoragePort) -> None:
    tg, dc = await _running(storage, CHAT), await _running(storage, OTHER)
    ids = []
    for n in range(3):
        tg = await _move(storage, tg, {"n": n})
        dc = await _move(storage, dc, {"n": n})
        ids.append(tg.outbox[0])
    first = await storage.claim_outbox("tg:", 1.0, LEASE, limit=2)
    assert [e.id for e in first] == ids[:2] and {e.chat_key for e in first} == {CHAT}
    # the third waits while the older ones of its game are claimed
    assert await storage.claim_outbox("tg:", 1.0, LEASE) == []
    assert [e.payload["n"] for e in await storage.claim_outbox("dc:", 1.0, LEASE)] == [0, 1, 2]
    assert await storage.claim_outbox("tg:%", 1.0, LEASE) == []  # a prefix, not a pattern
    for entry in first:
        await storage.finish_outbox(entry.id, 2.0)
    assert [e.id for e in await storage.claim_outbox("tg:", 2.0, LEASE)] == ids[2:]


async def test_a_game_waits_for_its_older_entry_other_games_do_not(storage: StoragePort) -> None:
    a, b = await _running(storage, "tg:1"), await _running(storage, "tg:2")
    a = await _move(storage, a, {"n": 1}, claim=30.0)  # being delivered until 30
    a = await _move(storage, a, {"n": 2})
    b = await _move(storage, b, {"n": 3})
    assert [e.payload for e in await storage.claim_outbox("tg:", 10.0, LEASE)] == [{"n": 3}]
    got = await storage.claim_outbox("tg:", 30.0, LEASE)  # (the third is claimed until 40)
    assert [e.payload for e in got] == [{"n": 1}, {"n": 2}]  # in order, once the claim ran out


async def test_finish_is_idempotent_and_final(storage: StoragePort) -> None:
    g = await _running(storage)
    g = await _move(storage, g, {"n": 1}, claim=10.0)
    [entry] = g.outbox
    await storage.finish_outbox(entry, 5.0)
    await storage.finish_outbox(entry, 6.0)  # again: harmless
    await storage.retry_outbox(entry, 7.0)  # a late failure report does not revive it
    await storage.finish_outbox(entry + 1000, 6.0)  # unknown: harmless
    await storage.finish_outbox(2**70, 6.0)  # no row can have this id
    assert await storage.claim_outbox("tg:", FAR, LEASE) == []


async def test_a_retried_entry_counts_its_attempts_and_waits(storage: StoragePort) -> None:
    g = await _running(storage)
    g = await _move(storage, g, {"n": 1}, claim=10.0)
    [entry] = g.outbox
    await storage.retry_outbox(entry, 20.0)
    assert await storage.claim_outbox("tg:", 19.0, LEASE) == []
    [claimed] = await storage.claim_outbox("tg:", 20.0, LEASE)
    assert claimed.attempts == 1
    await storage.retry_outbox(entry, 30.0)
    [claimed] = await storage.claim_outbox("tg:", 30.0, LEASE)
    assert claimed.attempts == 2
    await storage.finish_outbox(entry, 31.0)
    assert await storage.claim_outbox("tg:", FAR, LEASE) == []


async def test_concurrent_claimers_never_share_an_entry(
    backend: Backend, storage: StoragePort
) -> None:
    """Several processes claim at once (PostgreSQL: each on its own connections): every entry
    goes to exactly one of them."""
    for n in range(12):  # twelve games, four entries each
        g = await _running(storage, f"tg:{n}")
        for k in range(4):
            g = await _move(storage, g, {"n": n, "k": k})
    others = [await backend.open(**_second(backend)) for _ in range(3)]
    try:
        claimers = [storage, *others]

        async def claim_all(s: StoragePort) -> list[OutboxEntry]:
            got: list[OutboxEntry] = []
            while batch := await s.claim_outbox("tg:", 1.0, LEASE, limit=3):
                got.extend(batch)
                for entry in batch:
                    await s.finish_outbox(entry.id, 1.0)
            return got

        results = await asyncio.gather(*(claim_all(s) for s in claimers for _ in range(2)))
    finally:
        for s in others:
            await s.close()
    ids = Counter(e.id for got in results for e in got)
    assert len(ids) == 48 and set(ids.values()) == {1}
    assert sum(1 for got in results if got) >= 2  # the work really was shared


async def _take(s: StoragePort, at: float, count: int = 3, chat: str = CHAT) -> SendSlot | float:
    """A slot of the chat's budget (`count` a minute) taken at `at`, in flight."""
    return await s.take_send_slot(chat, lambda: at, count, 60.0, FLIGHT)


async def _send(s: StoragePort, at: float, count: int = 3, chat: str = CHAT) -> float:
    """A send at `at` whose call completes at once: 0.0, or the seconds to wait."""
    slot = await _take(s, at, count, chat)
    if isinstance(slot, float):
        return slot
    await s.land_send_slot(slot, at)
    return 0.0


async def test_the_send_budget_counts_a_window(storage: StoragePort) -> None:
    for k in range(3):
        assert await _send(storage, 100.0 + k) == 0.0
    assert await _send(storage, 110.0) == pytest.approx(50.0)
    assert await _send(storage, 159.5) == pytest.approx(0.5)
    assert await _send(storage, 110.0, chat=OTHER) == 0.0  # per chat
    assert await _send(storage, 160.0) == 0.0  # the first left
    assert await _send(storage, 160.5) == pytest.approx(0.5)


async def test_a_send_counts_from_when_its_call_completed(storage: StoragePort) -> None:
    """The platform counts a call when it arrives, after the slot was taken: the send counts
    as in flight (at its mark) until its call completed, then from that time, so the next
    taker finds the slot free a period after the arrival at the earliest."""
    slot = await _take(storage, 100.0, count=1)
    assert slot == SendSlot(CHAT, 100.0 + FLIGHT)  # the clock's time, when it was taken
    # In flight however long ago it was taken: it frees a period after it completes, no
    # earlier than now.
    assert await _take(storage, 170.0, count=1) == pytest.approx(60.0)
    await storage.land_send_slot(slot, 130.0)  # the call came back at 130
    assert await _take(storage, 189.5, count=1) == pytest.approx(0.5)
    assert isinstance(await _take(storage, 190.0, count=1), SendSlot)


async def test_a_send_left_in_flight_counts_until_its_mark_left_the_window(
    storage: StoragePort,
) -> None:
    """A process killed while its call was in flight never lands the slot: it counts until a
    period after its mark (its call reached the platform before that, or never). Landing moves
    one send of the mark: of two taken at the same time, the other stays in flight."""
    first = await _take(storage, 100.0, count=2)
    second = await _take(storage, 100.0, count=2)
    assert first == second == SendSlot(CHAT, 100.0 + FLIGHT)
    await storage.land_send_slot(first, 100.0)
    assert isinstance(await _take(storage, 160.0, count=2), SendSlot)  # the landed one left
    assert await _take(storage, 161.0, count=2) == pytest.approx(60.0)  # two in flight
    # The one left in flight (and the one taken at 160) count until 100 + FLIGHT + 60.
    assert await _take(storage, 100.0 + FLIGHT + 59.0, count=2) == pytest.approx(1.0)
    assert isinstance(await _take(storage, 100.0 + FLIGHT + 60.0, count=2), SendSlot)
    await storage.land_send_slot(SendSlot(CHAT, 5.0), 6.0)  # a slot no longer recorded


async def test_the_send_budget_is_shared_by_concurrent_takers(
    backend: Backend, storage: StoragePort
) -> None:
    """Four storages (processes) take slots of one chat at once, over simulated minutes: no
    60-second window ever holds more than 20 sends, and the budget is used."""
    others = [await backend.open(**_second(backend)) for _ in range(3)]
    sent: list[float] = []
    try:
        for step in range(12):  # every 15 s, everyone tries a few times at once
            now = 1_000.0 + 15.0 * step

            async def take(s: StoragePort, now: float = now) -> None:
                if await _send(s, now, count=20) == 0.0:
                    sent.append(now)

            await asyncio.gather(*(take(s) for s in (storage, *others) for _ in range(4)))
    finally:
        for s in others:
            await s.close()
    for t in sent:
        assert sum(1 for u in sent if t - 60.0 < u <= t) <= 20
    assert len(sent) >= 20 * 3  # three whole minutes' worth in the three minutes


async def test_the_send_budget_holds_for_a_taker_whose_clock_is_behind(
    storage: StoragePort,
) -> None:
    """Another process's clock may be a little behind, and a call queued while a later one went
    first arrives with an older time: the sends it must count are still there."""
    for k in range(20):
        assert await _send(storage, 100.0 + k * 0.1, count=20) == 0.0
    assert await _send(storage, 165.0, count=20) == 0.0  # a clock ahead
    assert await _send(storage, 150.0, count=20) > 0.0  # (90, 150] holds 20


async def test_a_live_claim_is_extended_not_shortened(
    storage: StoragePort, other: StoragePort
) -> None:
    g = await _running(storage)
    g = await _move(storage, g, {"n": 1}, claim=100.0)
    [entry] = g.outbox
    await storage.extend_outbox([entry], 150.0)  # still being sent: renewed
    assert await other.claim_outbox("tg:", 120.0, LEASE) == []
    await storage.extend_outbox([entry, entry + 1000, 2**70], 110.0)  # never shortened
    assert await other.claim_outbox("tg:", 140.0, LEASE) == []
    [taken] = await other.claim_outbox("tg:", 150.0, LEASE)  # its process stopped renewing
    assert taken.id == entry
    await other.finish_outbox(entry, 151.0)
    await storage.extend_outbox([entry], 500.0)  # a finished entry stays finished
    assert await other.claim_outbox("tg:", FAR, LEASE) == []


async def _outbox_ids(backend: Backend) -> list[int]:
    """The ids of every outbox row, read from outside the storage."""
    if isinstance(backend, SqliteBackend):
        with closing(backend.raw()) as raw:
            return [r[0] for r in raw.execute("SELECT id FROM outbox ORDER BY id")]
    assert isinstance(backend, PostgresBackend)
    async with backend.raw() as conn:
        return [r[0] for r in await conn.fetch("SELECT id FROM outbox ORDER BY id")]


async def test_sent_entries_are_deleted_after_a_while(
    backend: Backend, storage: StoragePort
) -> None:
    g = await _running(storage)
    g = await _move(storage, g, {"n": 1}, claim=10.0)
    [sent] = g.outbox
    g = await _move(storage, g, {"n": 2}, claim=10.0)
    [pending] = g.outbox
    await storage.finish_outbox(sent, 100.0)
    assert await storage.claim_outbox("dc:", 100.0 + KEEP_SENT, LEASE) == []
    assert await _outbox_ids(backend) == [sent, pending]  # just sent: kept a while
    [claimed] = await storage.claim_outbox("tg:", 101.0 + KEEP_SENT, LEASE)
    assert claimed.id == pending
    assert await _outbox_ids(backend) == [pending]  # what is pending is never deleted
