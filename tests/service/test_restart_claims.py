"""A restart does not wait out the claims of the process it replaces (issue 31, item 3).

A process claims the due deadlines it acts on, for a lease (30 s), so that no other process
acts on them meanwhile; a process that dies holding claims left its games waiting for the
lease to run out. The owner is known to be gone -- SQLite: the new process holds the file
alone; PostgreSQL: the claimer's session ended -- so its claims are free at once.
"""

from __future__ import annotations

from bot.service import Service
from bot.service.clock import DEADLINE_LEASE
from bot.storage import StoragePort
from tests.service.conftest import ALICE, BORIS, FakeClock, open_store

GAMES = 5


async def five_due_games(service: Service, clock: FakeClock) -> dict[str, int]:
    """Five running games (a person and a computer player each, a turn timer), every one's
    deadline passed; their versions."""
    versions = {}
    for n in range(GAMES):
        chat = f"tg:-{100 + n}"
        assert (await service.lobby.new_game(chat, ALICE)).ok
        assert (await service.lobby.join(chat, BORIS)).ok
        assert (await service.lobby.add_bot(chat, ALICE)).ok
        assert (await service.settings.change_setting(chat, ALICE, "timer", "30")).ok
        out = await service.lobby.start_game(chat, ALICE)
        assert out.ok and out.table is not None
        versions[chat] = out.table.version
    clock.advance(600.0)  # every computer's move and every turn timer is due
    return versions


async def moved(store: StoragePort, versions: dict[str, int]) -> list[str]:
    out = []
    for chat, version in versions.items():
        rec = await store.active_game(chat)
        if rec is None or rec.version > version:
            out.append(chat)
    return out


async def test_a_restart_moves_the_games_whose_deadlines_the_dead_process_claimed(
    database: str, clock: FakeClock
) -> None:
    first = await open_store(database, clock)
    service = Service(first, clock=clock, bot_delay=2.0, seed=lambda: 7)
    await service.start()
    versions = await five_due_games(service, clock)
    claimed = await first.claim_deadlines("", clock.now, DEADLINE_LEASE)
    assert sorted(chat for chat, _ in claimed) == sorted(versions)
    # The process dies holding the claims: nothing of theirs was committed.
    await first.close()

    clock.advance(0.5)
    second = await open_store(database, clock)
    try:
        restarted = Service(second, clock=clock, bot_delay=2.0, seed=lambda: 7)
        await restarted.start()
        assert (await second.next_deadline("")) <= clock.now  # type: ignore[operator]
        clock.advance(0.5)  # within a second of the restart
        await restarted.clock.run_due()
        assert sorted(await moved(second, versions)) == sorted(versions)
    finally:
        await second.close()


async def test_a_live_process_keeps_its_claims(postgres_url: str, clock: FakeClock) -> None:
    """Two processes over one PostgreSQL database: a claim is another's only once its owner is
    gone (its session ended), or its lease ran out."""
    first = await open_store(postgres_url, clock)
    second = await open_store(postgres_url, clock)
    try:
        service = Service(first, clock=clock, bot_delay=2.0, seed=lambda: 7)
        await service.start()
        versions = await five_due_games(service, clock)
        assert len(await first.claim_deadlines("", clock.now, DEADLINE_LEASE)) == GAMES
        other = Service(second, clock=clock, bot_delay=2.0, seed=lambda: 7)
        await other.start()
        clock.advance(1.0)
        assert await other.clock.run_due() == []  # the owner lives: its claims hold
        assert await moved(second, versions) == []
        await first.close()  # its session ends
        clock.advance(0.5)
        await other.clock.run_due()
        assert sorted(await moved(second, versions)) == sorted(versions)
    finally:
        await first.close()
        await second.close()
