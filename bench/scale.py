"""Several bot processes: moves per second, latency and CPU per move with 1, 2 and 3 webhook
workers over one PostgreSQL database, and one worker on a SQLite file, in the same run.

Run by `make bench` (`python bench/scale.py`). Each worker is `python -m bot` as production runs
it (Telegram webhook mode, configured through its environment); the fake Bot API of the tests
stands for Telegram and for the load balancer (each update POSTed to a random worker), in this
process, together with the simulated people (`tests/scale/cluster.py`): --tables groups of two
people each, pressing the buttons of their hand as soon as the bot answered the previous press
(the tests' policy), games of the default rules one after another.

Measured over --seconds after --warmup seconds, for each set-up:

- moves per second: acknowledged presses that changed a game (opening a wild's colors is not
  a move; a press answered with an alert, e.g. stale, is not counted);
- latency p50 / p99: from the press (the update queued at the fake) to the bot's
  answerCallbackQuery, which comes after the private chats were updated;
- CPU per move: the workers' CPU time (user + system, from /proc) per move, the database
  server's (every PostgreSQL process; SQLite runs inside the worker), and this process's (the
  fake Bot API and the players).

PostgreSQL 16 from the `pgserver` package with its default durability (fsync on,
synchronous_commit on), SQLite with synchronous=FULL, both on tmpfs (/dev/shm) when there is
one: this measures the processes, not the disk. Every figure depends on the machine: on two
cores, the workers, the database server and this process share them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pgserver.postgres_server import get_server  # noqa: E402

from tests.scale.cluster import Press, Table, Worker, stop_all, tree_cpu  # noqa: E402
from tests.telegram.fake_bot_api import FakeBotAPI  # noqa: E402


@dataclass
class Result:
    name: str
    workers: int
    moves: int
    seconds: float
    latencies: list[float]
    worker_cpu: float
    db_cpu: float
    driver_cpu: float

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def ms(self, q: float) -> float:
        if len(self.latencies) < 2:
            return float("nan")
        cuts = statistics.quantiles(self.latencies, n=100, method="inclusive")
        return 1000 * cuts[round(q * 100) - 1]

    def per_move(self, cpu: float) -> float:
        return 1000 * cpu / max(1, self.moves)


class Measure:
    """Counts the acknowledged moves and their latencies while `on` is set."""

    def __init__(self) -> None:
        self.on = False
        self.moves = 0
        self.latencies: list[float] = []

    def __call__(self, press: Press) -> None:
        if self.on and press.acknowledged and press.is_move and press.answered is not None:
            self.moves += 1
            self.latencies.append(press.answered - press.began)


async def run(
    name: str, database: str, workers: int, args: argparse.Namespace, folder: Path, db_pid: int
) -> Result:
    async with FakeBotAPI() as api:
        cluster = [
            Worker(api, database, folder / f"{name}-{n}", {"LOG_LEVEL": "ERROR"})
            for n in range(workers)
        ]
        try:
            for worker in cluster:
                await worker.start()
            api.balance(w.url for w in cluster)
            measure = Measure()
            tables = [Table(api, f"{name} {n}", 2, games=10_000) for n in range(args.tables)]
            playing = [asyncio.create_task(t.play(measure)) for t in tables]
            await asyncio.sleep(args.warmup)
            cpu0 = sum(w.cpu() for w in cluster)
            db0 = tree_cpu(db_pid) if db_pid else 0.0
            own0 = time.process_time()
            began = time.perf_counter()
            measure.on = True
            await asyncio.sleep(args.seconds)
            measure.on = False
            elapsed = time.perf_counter() - began
            result = Result(
                name,
                workers,
                measure.moves,
                elapsed,
                measure.latencies,
                sum(w.cpu() for w in cluster) - cpu0,
                (tree_cpu(db_pid) - db0) if db_pid else 0.0,
                time.process_time() - own0,
            )
            for table in tables:
                table.stopped = True  # a cancellation alone may be lost in a wait_for (3.11)
            for task in playing:
                if task.done() and task.exception() is not None:
                    raise RuntimeError(f"{name}: a table failed") from task.exception()
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
            api._calls.clear()  # the fake keeps every call: free them between set-ups
            return result
        finally:
            await stop_all(cluster)


async def main_async(args: argparse.Namespace) -> list[Result]:
    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    folder = Path(tempfile.mkdtemp(prefix="uno-scale-", dir=base))
    results = []
    try:
        server = get_server(folder / "pg", cleanup_mode="stop")
        db_pid = int((folder / "pg" / "postmaster.pid").read_text().split()[0])
        try:
            for workers in args.workers:
                name = f"pg{workers}"
                server.psql(f"CREATE DATABASE {name};")
                url = server.get_uri(name)
                results.append(await run(name, url, workers, args, folder, db_pid))
        finally:
            server.cleanup()
        sqlite = str(folder / "uno.sqlite3")
        results.append(await run("sqlite", sqlite, 1, args, folder, 0))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return results


def report(args: argparse.Namespace, results: list[Result]) -> None:
    print(
        f"scale: {args.tables} groups of 2 people, webhook workers behind a random balancer, "
        f"{args.seconds:.0f} s after {args.warmup:.0f} s warm-up"
    )
    print(
        "  set-up           moves/s   p50 ms   p99 ms   CPU ms/move: workers  database"
        "  fake+players"
    )
    for r in results:
        backend = "SQLite" if r.name == "sqlite" else "PostgreSQL"
        label = f"{backend}, {r.workers} worker{'s' if r.workers > 1 else ''}"
        db = "(in worker)" if r.name == "sqlite" else f"{r.per_move(r.db_cpu):8.2f}"
        print(
            f"  {label:<16} {r.rate:7.0f} {r.ms(0.5):8.1f} {r.ms(0.99):8.1f}"
            f"   {r.per_move(r.worker_cpu):20.2f}  {db:>8}  {r.per_move(r.driver_cpu):12.2f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="groups playing at once")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[1, 2, 3], help="PostgreSQL worker counts"
    )
    args = parser.parse_args(argv)
    results = asyncio.run(main_async(args))
    report(args, results)
    return 0 if all(r.moves > 0 for r in results) else 1


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
