"""Moves through the service with durable commits: throughput and latency per move.

For 1, 100 and 1000 concurrent games (three human players each, no timers, classic rules) on a
real SQLite file in WAL mode with synchronous=FULL, every game's players press the first button
of their private view (a card, or draw, or pass) as fast as the service answers. A move's latency
is the time of one `UnoService.act` call: lock, engine, one committed transaction, views. Prints
moves per second and p50/p99 latency for each level of concurrency.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.service import UnoService, User
from bot.storage import Storage

PLAYERS = 3


async def start_games(service: UnoService, count: int) -> list[tuple[str, list[User]]]:
    games = []
    for g in range(count):
        chat = f"bench:{g}"
        users = [User(f"{g}-{i}", f"P{i}", "ru") for i in range(PLAYERS)]
        await service.change_setting(chat, users[0], "timer", "off", is_admin=True)
        await service.new_game(chat, users[0])
        for user in users[1:]:
            await service.join(chat, user)
        out = await service.start_game(chat, users[0])
        assert out.ok, out.error
        games.append((chat, users))
    return games


async def play(
    service: UnoService, chat: str, users: list[User], moves: int, latencies: list[float]
) -> None:
    by_id = {u.id: u for u in users}
    for _ in range(moves):
        table = (await service.table(chat)).table
        if table is None or table.current is None:
            return
        user = by_id[table.current]
        view = (await service.hand(user, chat_key=chat)).hands[user.id]
        choice = view.choices[0]
        action = choice.colors[0] if choice.colors else choice.action
        began = time.perf_counter()
        out = await service.act(user, action, chat_key=chat, version=view.version)
        latencies.append(time.perf_counter() - began)
        assert out.ok, out.error


async def measure(concurrency: int, total_moves: int, folder: Path) -> tuple[float, float, float]:
    storage = await Storage.open(folder / f"bench-{concurrency}.sqlite3")
    try:
        service = UnoService(storage, bot_delay=0.0, seed=lambda: 12345)
        games = await start_games(service, concurrency)
        per_game = max(1, total_moves // concurrency)
        latencies: list[float] = []
        began = time.perf_counter()
        await asyncio.gather(*(play(service, c, u, per_game, latencies) for c, u in games))
        elapsed = time.perf_counter() - began
    finally:
        await storage.close()
    quantiles = statistics.quantiles(latencies, n=100)
    return len(latencies) / elapsed, quantiles[49] * 1000, quantiles[98] * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=3000, help="moves per concurrency level")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for concurrency in (1, 100, 1000):
            rate, p50, p99 = await measure(concurrency, args.moves, Path(tmp))
            print(
                f"service: {concurrency:>4} games  {rate:8.0f} moves/s  "
                f"p50 {p50:6.2f} ms  p99 {p99:6.2f} ms"
            )


if __name__ == "__main__":
    asyncio.run(main())
