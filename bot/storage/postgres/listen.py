"""Committed changes heard from every process: PostgreSQL LISTEN/NOTIFY on one channel.

Each commit of a game sends `notify` inside its own transaction, so the notification is
delivered exactly when the commit is, to every listening connection of every process, in
commit order (see `bot.service.changes` for why this rather than the outbox). `follow` keeps one
pooled connection listening and hands each `<game id>:<version>` to `publish`; when the
connection is lost it takes another (with a growing pause while the server is away) and calls
`gap`, since what was committed in between was never heard.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from bot.storage.postgres.connections import Connections

logger = logging.getLogger(__name__)

CHANNEL = "uno_game_changed"
KEEPALIVE = 30.0  # seconds between checks that a quiet connection is still there
RETRY_FIRST, RETRY_MAX = 0.5, 15.0  # the pause before taking a connection again


async def notify(conn: asyncpg.Connection, game_id: int, version: int) -> None:
    """Announce a commit, from inside its transaction (sent when it commits, never otherwise)."""
    await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, f"{game_id}:{version}")


def parse(payload: str) -> tuple[int, int] | None:
    game, _, version = payload.partition(":")
    if not (game.isdigit() and version.isdigit()):
        return None
    return int(game), int(version)


async def follow(
    pool: Connections,
    publish: Callable[[int, int], None],
    gap: Callable[[], None],
    *,
    keepalive: float = KEEPALIVE,
) -> None:
    """Listen until cancelled, across lost connections and server restarts."""
    pause = RETRY_FIRST
    while True:
        try:
            await pool.run(lambda conn: _listen(conn, publish, gap, keepalive))
            pause = RETRY_FIRST
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the server went away, or refused us: try again later
            logger.warning("listening for game changes failed (%s); again in %.1f s", exc, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MAX)


async def _listen(
    conn: asyncpg.Connection,
    publish: Callable[[int, int], None],
    gap: Callable[[], None],
    keepalive: float,
) -> None:
    """Listen on `conn` until it is lost (returns) or fails (raises)."""
    lost = asyncio.Event()

    def heard(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
        change = parse(payload)
        if change is not None:
            publish(*change)

    conn.add_termination_listener(lambda _conn: lost.set())
    await conn.add_listener(CHANNEL, heard)
    try:
        gap()  # whatever was committed before this connection listened
        while not lost.is_set():
            try:
                await asyncio.wait_for(lost.wait(), keepalive)
            except TimeoutError:
                await asyncio.wait_for(conn.execute("SELECT 1"), keepalive)
    finally:
        if not conn.is_closed():
            await conn.remove_listener(CHANNEL, heard)
