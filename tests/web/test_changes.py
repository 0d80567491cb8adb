"""The feed of committed changes: every commit of a game is published once it is committed, by
this process's unit of work and, on PostgreSQL, by any process through LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg

from bot.service import Service, User
from bot.service.changes import Changes
from bot.storage import Storage
from bot.storage.postgres import PostgresStorage
from bot.storage.postgres.listen import CHANNEL

CHAT = "tg:-100777"
ANNA = User("1", "Anna")
BORIS = User("2", "Boris")


async def play_a_little(service: Service) -> int:
    assert (await service.lobby.new_game(CHAT, ANNA)).ok
    assert (await service.lobby.join(CHAT, BORIS)).ok
    out = await service.lobby.start_game(CHAT, ANNA)
    assert out.ok and out.table is not None
    return out.table.game_id


async def test_each_commit_is_published_with_its_version(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "uno.sqlite3")
    try:
        service = Service(storage, bot_delay=0)
        heard: list[tuple[int, int]] = []
        service.changes.subscribe(lambda g, v: heard.append((g, v)))
        game = await play_a_little(service)
        table = (await service.queries.table(CHAT)).table
        assert table is not None
        # The lobby (0), the join (1), the start (2): each version once, in order.
        assert heard == [(game, v) for v in range(table.version + 1)]
        # A refused move commits nothing, so nothing is published.
        assert not (await service.lobby.join(CHAT, BORIS)).ok
        assert len(heard) == table.version + 1
    finally:
        await storage.close()


def test_a_subscriber_of_one_game_hears_only_that_game_and_a_broken_one_hurts_nobody() -> None:
    changes = Changes()
    heard: list[tuple[int, int]] = []

    def broken(game: int, version: int) -> None:
        raise RuntimeError("a subscriber's bug")

    changes.subscribe(broken)
    stop = changes.subscribe(lambda g, v: heard.append((g, v)), 7)
    changes.publish(8, 1)
    changes.publish(7, 2)
    stop()
    changes.publish(7, 3)
    assert heard == [(7, 2)]


async def test_postgres_commits_of_another_process_are_heard(postgres_url: str) -> None:
    mine = await PostgresStorage.open(postgres_url)
    other = await PostgresStorage.open(postgres_url)
    try:
        service = Service(mine, bot_delay=0)
        heard: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
        gaps: asyncio.Queue[None] = asyncio.Queue()
        service.changes.subscribe(lambda g, v: heard.put_nowait((g, v)))
        service.changes.on_gap(lambda: gaps.put_nowait(None))
        follower = asyncio.create_task(service.follow_changes())
        await gaps.get()  # listening now
        game = await play_a_little(Service(other, bot_delay=0))
        assert [await heard.get() for _ in range(3)] == [(game, 0), (game, 1), (game, 2)]

        # The listening connection is cut: it is taken again, the gap is told, and the next
        # commit is heard.
        conn = await asyncpg.connect(postgres_url)
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE query LIKE $1 AND pid <> pg_backend_pid()",
                f"%LISTEN%{CHANNEL}%",
            )
        finally:
            await conn.close()
        await gaps.get()
        assert (await Service(other, bot_delay=0).lobby.kill(CHAT, ANNA, is_admin=True)).ok
        assert await heard.get() == (game, 3)
        follower.cancel()
        await asyncio.gather(follower, return_exceptions=True)
    finally:
        await mine.close()
        await other.close()
