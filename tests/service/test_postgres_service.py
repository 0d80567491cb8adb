"""The service on PostgreSQL: whole matches played through ``Service`` as on SQLite, and two
services over one database (two bot processes) sharing the chats' games.

The server is the tests' private one (:mod:`tests.storage.postgres_server`); each test gets a
database of its own.
"""

from __future__ import annotations

import math
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.service import Service
from bot.storage import Storage
from bot.storage.postgres import PostgresStorage
from core.ai import choose_action
from core.game import Game
from tests.service.conftest import ALICE, BORIS, VIKA, FakeClock
from tests.service.test_service import CHAT, lobby, play_to_the_end, state
from tests.storage.postgres_server import pg_server, postgres_url

__all__ = ["pg_server", "postgres_url"]  # fixtures for these tests


async def _service(url: str, clock: FakeClock, seed: int) -> tuple[Any, Service]:
    storage: Any = await PostgresStorage.open(url, clock=clock)
    counter = iter(range(seed, seed + 10_000))
    service = Service(storage, clock=clock, bot_delay=2.0, seed=lambda: next(counter))
    await service.start()
    return storage, service


@pytest.fixture
async def pg_storage(postgres_url: str, clock: FakeClock) -> AsyncIterator[Storage]:
    storage: Any = await PostgresStorage.open(postgres_url, clock=clock)
    yield storage
    await storage.close()


@pytest.mark.parametrize("preset", ["classic", "house"])
async def test_a_full_match_with_statistics(
    pg_storage: Storage, clock: FakeClock, preset: str
) -> None:
    counter = iter(range(4242, 20_000))
    service = Service(pg_storage, clock=clock, bot_delay=2.0, seed=lambda: next(counter))
    await service.start()
    await lobby(service, ALICE, BORIS, bots=2)
    assert (await service.lobby.new_game(CHAT, VIKA)).error.key == "error-game-exists"  # type: ignore[union-attr]
    for key, value in (("preset", preset), ("target", "200"), ("timer", "off")):
        assert (await service.settings.change_setting(CHAT, ALICE, key, value)).ok
    assert (await service.lobby.start_game(CHAT, ALICE)).ok
    last = await play_to_the_end(service, [ALICE, BORIS], seed=len(preset))
    assert last.table is not None and last.table.status == "finished"
    record = await pg_storage.get_game(last.table.game_id)
    assert record is not None and record.status == "finished"
    final = Game.from_dict(record.state)  # type: ignore[arg-type]
    assert final.is_over and max(final.scores.values()) >= 200
    log = await pg_storage.log(last.table.game_id)
    versions = [e.version for e in log]
    assert versions == sorted(versions) and max(versions) == record.version and len(log) > 20
    rows = await pg_storage.leaderboard(CHAT)
    assert {r.user_id for r in rows} == {ALICE.id, BORIS.id}
    human_wins = sum(1 for w in final.game_winners if not w.startswith("ai:"))
    assert sum(r.wins for r in rows) == human_wins
    assert await pg_storage.unrecorded_finished_games() == []  # recorded with the last move
    assert (await service.lobby.new_game(CHAT, VIKA)).ok  # the chat is free again


async def test_two_services_on_one_database_share_the_game(
    postgres_url: str, clock: FakeClock
) -> None:
    """Two bot processes: a lobby opened through one is seen by the other, moves alternate
    between them, a stale move is refused by whichever process gets it, and the match ends."""
    store_a, a = await _service(postgres_url, clock, seed=1)
    store_b, b = await _service(postgres_url, clock, seed=5000)
    try:
        await lobby(a, ALICE, BORIS, bots=1)
        assert (await b.lobby.new_game(CHAT, VIKA)).error.key == "error-game-exists"  # type: ignore[union-attr]
        assert (await b.lobby.join(CHAT, VIKA)).ok
        assert (await b.settings.change_setting(CHAT, ALICE, "timer", "off")).ok
        assert (await a.lobby.start_game(CHAT, ALICE)).ok
        rng = random.Random(3)
        humans = [ALICE, BORIS, VIKA]
        for step in range(30):
            service = (a, b)[step % 2]
            game = Game.from_dict(await state(store_a))
            mover = next((u for u in humans if u.id == game.current_player), None)
            if mover is None:
                await service.clock.run_due(math.inf)
                continue
            hand = (await service.queries.hand(mover, chat_key=CHAT)).hands[mover.id]
            action = choose_action(game, mover.id, rng)
            assert action is not None
            assert (await service.play.act(mover, action, chat_key=CHAT, version=hand.version)).ok
            other = (b, a)[step % 2]
            stale = await other.play.act(mover, action, chat_key=CHAT, version=hand.version)
            assert not stale.ok  # the same button pressed again, through the other process
        last = await play_to_the_end(b, humans, seed=11)
        assert last.table is not None and last.table.status == "finished"
        record = await store_a.get_game(last.table.game_id)
        assert record is not None
        versions = [e.version for e in await store_b.log(record.id)]
        assert versions == sorted(versions) and max(versions) == record.version
        assert await store_b.unrecorded_finished_games() == []
        assert {r.user_id for r in await store_a.leaderboard(CHAT)} == {u.id for u in humans}
    finally:
        await store_a.close()
        await store_b.close()
