"""Deadlines claimed across processes (issue 15), on every backend: a due deadline goes to one
claimer at a time, a killed claimer's claim runs out and is taken over, a commit clears it."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.storage import GameRecord, StoragePort
from tests.storage.conftest import Backend

TG, DC = "tg:-1", "dc:1"
LEASE = 30.0


async def _game(s: StoragePort, chat: str, deadline: float | None, status: str = "running") -> int:
    g = await s.create_game(chat, {})
    await s.commit(g.id, 0, state={}, meta={}, status=status, deadline=deadline)
    return g.id


async def _another_process(backend: Backend) -> StoragePort:
    """A second storage on the same database, as a second bot process opens it (SQLite: past
    the one-process lock, which only the bot's own start-up takes)."""
    options: dict[str, Any] = {"exclusive": False} if backend.name == "sqlite" else {}
    return await backend.open(**options)


async def test_only_due_deadlines_of_open_games_with_the_prefix_are_claimed(
    storage: StoragePort,
) -> None:
    await _game(storage, "tg:-2", 20.0)
    await _game(storage, TG, 10.0)
    await _game(storage, "tg:-3", 99.0)  # not due yet
    await _game(storage, "tg:-4", None)  # no deadline
    await _game(storage, "tg:-5", 5.0, status="finished")
    await _game(storage, "tg:-6", 5.0, status="killed")
    await _game(storage, DC, 5.0)  # another adapter's
    lobby = await storage.create_game("tg:-7", {}, deadline=15.0)
    claimed = await storage.claim_deadlines("tg:", 50.0, LEASE)
    assert claimed == [(TG, 10.0), ("tg:-7", 15.0), ("tg:-2", 20.0)]
    assert await storage.claim_deadlines("dc:", 50.0, LEASE) == [(DC, 5.0)]
    # Claiming changes nothing a reader sees of the game.
    rec = await storage.get_game(lobby.id)
    assert rec is not None and (rec.version, rec.deadline) == (0, 15.0)


async def test_a_claimed_deadline_is_not_claimed_again_until_the_claim_runs_out(
    storage: StoragePort,
) -> None:
    await _game(storage, TG, 10.0)
    assert await storage.claim_deadlines("tg:", 10.0, LEASE) == [(TG, 10.0)]
    assert await storage.claim_deadlines("tg:", 11.0, LEASE) == []
    assert await storage.claim_deadlines("tg:", 10.0 + LEASE - 0.5, LEASE) == []
    # The claimer died (it never committed): another takes the deadline over.
    assert await storage.claim_deadlines("tg:", 10.0 + LEASE, LEASE) == [(TG, 10.0)]


async def test_the_limit_leaves_the_rest_for_the_next_claim(storage: StoragePort) -> None:
    for n in range(5):
        await _game(storage, f"tg:-{n}", float(n))
    first = await storage.claim_deadlines("tg:", 10.0, LEASE, limit=2)
    rest = await storage.claim_deadlines("tg:", 10.0, LEASE, limit=10)
    assert [c for c, _ in first] == ["tg:-0", "tg:-1"]
    assert [c for c, _ in rest] == ["tg:-2", "tg:-3", "tg:-4"]


async def test_a_commit_clears_the_claim(storage: StoragePort) -> None:
    game_id = await _game(storage, TG, 10.0)
    assert await storage.claim_deadlines("tg:", 10.0, LEASE) == [(TG, 10.0)]
    rec = await storage.get_game(game_id)
    assert isinstance(rec, GameRecord)
    # The claimer acted and set the next deadline: due at 12, claimable at 12, not at 40.
    await storage.commit(game_id, rec.version, state={}, meta={}, status="running", deadline=12.0)
    assert await storage.claim_deadlines("tg:", 11.0, LEASE) == []
    assert await storage.claim_deadlines("tg:", 12.0, LEASE) == [(TG, 12.0)]


async def test_next_deadline_counts_a_claimed_one_from_when_its_claim_runs_out(
    storage: StoragePort,
) -> None:
    assert await storage.next_deadline("tg:") is None
    await _game(storage, TG, 10.0)
    await _game(storage, "tg:-2", 25.0)
    await _game(storage, DC, 1.0)
    await _game(storage, "tg:-3", 2.0, status="finished")
    await storage.create_game("tg:-4", {})  # a lobby that never expires
    assert await storage.next_deadline("tg:") == 10.0
    assert await storage.next_deadline("dc:") == 1.0
    assert await storage.next_deadline("") == 1.0
    await storage.claim_deadlines("tg:", 10.0, LEASE)  # until 40: the other one is first now
    assert await storage.next_deadline("tg:") == 25.0
    await storage.claim_deadlines("tg:", 25.0, LEASE)  # until 55
    assert await storage.next_deadline("tg:") == 10.0 + LEASE


async def test_two_processes_claiming_at_once_never_get_the_same_deadline(
    backend: Backend, storage: StoragePort
) -> None:
    chats = [f"tg:-{n}" for n in range(40)]
    for n, chat in enumerate(chats):
        await _game(storage, chat, float(n))
    other = await _another_process(backend)
    try:
        got: list[list[str]] = [[], []]

        async def claimer(s: StoragePort, mine: list[str]) -> None:
            while True:
                claimed = await s.claim_deadlines("tg:", 100.0, LEASE, limit=3)
                if not claimed:
                    return
                mine.extend(c for c, _ in claimed)

        await asyncio.gather(
            claimer(storage, got[0]),
            claimer(other, got[1]),
            claimer(storage, got[0]),
            claimer(other, got[1]),
        )
        assert sorted(got[0] + got[1]) == sorted(chats)  # each exactly once
    finally:
        await other.close()


async def test_a_killed_claimers_deadlines_are_taken_over_by_another_process(
    backend: Backend, storage: StoragePort
) -> None:
    """Another process takes a dead claimer's deadlines over: on PostgreSQL at once, its
    session having ended with it; on a SQLite file shared without the one-process lock (tools,
    tests) when their lease runs out. (The bot's own SQLite start holds the lock and takes
    every claim back: `test_opening_a_file_alone_takes_every_claim_back`.)"""
    await _game(storage, TG, 10.0)
    await _game(storage, "tg:-2", 11.0)
    dying = await _another_process(backend)
    assert [c for c, _ in await dying.claim_deadlines("tg:", 11.0, LEASE)] == [TG, "tg:-2"]
    assert await storage.claim_deadlines("tg:", 20.0, LEASE) == []  # the claimer lives
    await dying.close()  # it never commits: as if killed
    free_at = 10.0 if backend.name == "postgres" else 11.0 + LEASE
    assert await storage.next_deadline("tg:") == free_at
    if backend.name != "postgres":
        assert await storage.claim_deadlines("tg:", 20.0, LEASE) == []
    taken = await storage.claim_deadlines("tg:", max(20.0, free_at), LEASE)
    assert taken == [(TG, 10.0), ("tg:-2", 11.0)]


async def test_opening_a_file_alone_takes_every_claim_back(
    backend: Backend, storage: StoragePort
) -> None:
    """SQLite: a process that opens the file with the one-process lock knows every claim in it
    was left by one that is gone (a restart after a kill); PostgreSQL: a new process takes
    over what a closed one claimed."""
    await _game(storage, TG, 10.0)
    assert len(await storage.claim_deadlines("tg:", 10.0, LEASE)) == 1
    await storage.close()
    restarted = await backend.open()
    try:
        assert await restarted.next_deadline("tg:") == 10.0
        assert await restarted.claim_deadlines("tg:", 10.5, LEASE) == [(TG, 10.0)]
    finally:
        await restarted.close()
