"""The outbox seen from the service (issue 15): which commits write an entry, what it holds, and
the outcomes a delivery rebuilds from entries and the latest committed state."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.delivery.outbox_loop import Delivery
from bot.service import Outcome, Service
from bot.service.deadlines import DEFAULT_LOBBY_IDLE
from bot.service.outbox import LEASE
from bot.storage import Storage
from core.events import event_to_dict
from core.game import Game
from tests.service.conftest import ALICE, BORIS, GLEB, FakeClock
from tests.service.test_service import CHAT as SERVICE_CHAT
from tests.service.test_service import install, started

CHAT = "tg:-100777"


def ids(out: Outcome) -> list[int]:
    assert out.outbox is not None
    return out.outbox.ids


async def test_no_entry_without_a_delivering_adapter(service: Service, clock: FakeClock) -> None:
    await service.lobby.new_game(CHAT, ALICE)
    out = await service.lobby.join(CHAT, BORIS)
    assert out.ok and out.outbox is None  # the console, the service's own tests
    clock.advance(LEASE)
    assert await service.outbox.claim("tg:") == []


async def test_each_commit_writes_one_entry_and_a_redelivery_rebuilds_it(
    service: Service, clock: FakeClock
) -> None:
    service.outbox.deliver("tg:")
    opened = await service.lobby.new_game(CHAT, ALICE)  # the lobby's creation has its entry too
    joined = await service.lobby.join(CHAT, BORIS)
    await service.lobby.join(CHAT, GLEB)
    started = await service.lobby.start_game(CHAT, ALICE)
    left = await service.lobby.leave(CHAT, GLEB)
    assert [len(ids(o)) for o in (opened, joined, started, left)] == [1, 1, 1, 1]
    assert left.announcements  # someone leaving is announced
    assert await service.outbox.claim("tg:") == []  # this process's own claim still runs

    clock.advance(LEASE)
    opening, *again = await service.outbox.claim("tg:")
    assert ids(opening) == ids(opened)
    assert opening.table is None and opening.outbox is not None and not opening.outbox.opened
    assert [ids(o) for o in again] == [ids(joined), [ids(joined)[0] + 1], ids(started), ids(left)]
    *earlier, last = again
    # One game: only its last entry shows the table and the hands, from the latest state, with
    # every hand any of them changed; every entry keeps its own events.
    assert all(o.table is None and not o.hands for o in earlier)
    assert last.table == left.table
    assert set(last.hands) == set(started.hands) | set(left.hands)
    assert last.hands[ALICE.id] == left.hands.get(ALICE.id, last.hands[ALICE.id])
    assert [event_to_dict(e) for e in again[2].events] == [event_to_dict(e) for e in started.events]
    assert [event_to_dict(e) for e in last.events] == [event_to_dict(e) for e in left.events]
    assert (last.lang, last.names) == (left.lang, left.names)
    # The deal collapsed into the last entry: it may send the table and the hands new (the
    # process that dealt may have died before they went out).
    assert last.outbox is not None and last.outbox.dealt
    assert not any(o.outbox is not None and o.outbox.dealt for o in earlier)
    assert await service.outbox.claim("tg:") == []  # claimed again, for another lease


async def test_finish_retry_and_what_was_already_sent(service: Service, clock: FakeClock) -> None:
    service.outbox.deliver("tg:")
    await service.outbox.finish(await service.lobby.new_game(CHAT, ALICE))
    joined = await service.lobby.join(CHAT, BORIS)
    joined_too = await service.lobby.join(CHAT, GLEB)
    started = await service.lobby.start_game(CHAT, ALICE)
    left = await service.lobby.leave(CHAT, GLEB)
    await service.outbox.mark_sent(left, "results", "42")
    await service.outbox.finish(started)
    # While an older entry of the game is claimed, a newer one waits: the joins go first.
    at = await service.outbox.retry(left)
    clock.advance(1.0)
    assert await service.outbox.claim("tg:") == []
    await service.outbox.finish(joined_too)
    await service.outbox.finish(joined)
    # A failed delivery comes back after the timers' backoff (1 s first), counting its
    # attempts; what it recorded as sent is listed, for the adapter to skip.
    [back] = await service.outbox.claim("tg:")
    assert back.outbox is not None
    assert (back.outbox.ids, back.outbox.attempts) == (ids(left), 1)
    assert back.outbox.delivered == {"results"}
    assert at == clock.now
    again = await service.outbox.retry(back)
    assert again == clock.now + 2.0  # the second failure waits longer
    clock.advance(2.0)
    [back] = await service.outbox.claim("tg:")
    await service.outbox.finish(back)
    await service.outbox.finish(back)  # again: harmless
    clock.advance(LEASE)
    assert await service.outbox.claim("tg:") == []


async def test_a_timers_notice_is_in_its_entry(service: Service, clock: FakeClock) -> None:
    service.outbox.deliver("tg:")
    await service.lobby.new_game(CHAT, ALICE)
    await service.lobby.join(CHAT, BORIS)
    clock.advance(DEFAULT_LOBBY_IDLE + 1)
    [expired] = await service.clock.run_due()
    assert [n.key for n in expired.notices] == ["info-lobby-expired"]
    clock.advance(LEASE)
    *_, again = await service.outbox.claim("tg:")
    assert again.notices == expired.notices
    assert again.table is not None and again.table.status == "killed"


@pytest.mark.parametrize("start", [False, True])
async def test_a_sole_process_takes_every_claim_over_at_start(
    service: Service, start: bool
) -> None:
    """SQLite holds its file alone: a claim found at start-up was left by a process that is
    gone, so it is not waited for."""
    assert service.outbox.sole_process
    service.outbox.deliver("tg:")
    opened = await service.lobby.new_game(CHAT, ALICE)
    joined = await service.lobby.join(CHAT, BORIS)
    found = await service.outbox.claim("tg:", start=start)
    assert [ids(o) for o in found] == ([ids(opened), ids(joined)] if start else [])


async def test_a_slow_send_keeps_its_claim_while_its_process_lives(
    service: Service, clock: FakeClock, db_path: Path
) -> None:
    """A send waiting long (a group out of budget) outlives the first claim: the delivery loop
    renews it, so another process does not take the entry over and send it twice."""
    delivery = Delivery(service.outbox, "tg:")
    published: list[Outcome] = []

    async def publish(out: Outcome) -> None:
        published.append(out)

    delivery.publish = publish
    await service.outbox.finish(await service.lobby.new_game(CHAT, ALICE))
    joined = await service.lobby.join(CHAT, BORIS)
    slow: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    delivery.track(joined, [(None, slow)])
    other = await Storage.open(db_path, exclusive=False)  # another process on the database
    try:
        for _ in range(3):
            clock.advance(LEASE * 0.45)  # the loop looks at least every half lease
            assert await other.claim_outbox("tg:", clock.now, LEASE) == []
            assert await delivery.deliver_due() == 0
        slow.set_result(None)
        await delivery.wait_finished(1)
        clock.advance(LEASE * 10)
        assert await other.claim_outbox("tg:", clock.now, LEASE) == []  # finished
    finally:
        await other.close()
    assert published == []


async def test_a_redelivery_notifies_a_turn_only_while_nothing_was_committed_after_it(
    service: Service, storage: Storage, clock: FakeClock
) -> None:
    """A process that died after a commit that began a turn may not have notified the player:
    the re-delivery does, while the game is still at that commit. Once later moves were
    committed (by processes that notified the turns they began, here the same player's next
    one), it does not: that hand would be sent twice."""
    service.outbox.deliver("tg:")
    await started(service, ALICE, BORIS)
    game = Game.from_position(
        [ALICE.id, BORIS.id], {ALICE.id: "r5 r7 y2", BORIS.id: "r4 r6 g3"}, "r1",
        "y4 y5 y6 y7", current=ALICE.id,
    )  # fmt: skip
    await install(service, storage, game)
    await _finish_all(service, clock)
    first = await service.play.act(ALICE, "play r5", chat_key=SERVICE_CHAT)
    assert first.turn_began == BORIS.id
    clock.advance(LEASE)  # its process died: another takes the entry over
    [again] = await service.outbox.claim("tg:")
    assert again.table is not None and again.turn_began == BORIS.id
    for user, move in ((BORIS, "play r4"), (ALICE, "play r7")):  # sent by living processes
        out = await service.play.act(user, move, chat_key=SERVICE_CHAT)
        await service.outbox.finish(out)
    assert out.turn_began == BORIS.id
    clock.advance(LEASE)  # the take-over died too
    [late] = await service.outbox.claim("tg:")
    assert late.table is not None and late.table.current == BORIS.id
    assert late.turn_began is None


async def _finish_all(service: Service, clock: FakeClock) -> None:
    """Every entry written so far, sent."""
    clock.advance(LEASE)
    for out in await service.outbox.claim("tg:"):
        await service.outbox.finish(out)
