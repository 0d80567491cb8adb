"""One bot process under load: people's latency and the computer players' wait, per database.

For each number of concurrent games (--games: 1, 100, 500 and 2,000) and each database
(--backends: a SQLite file in WAL mode with synchronous=FULL, and PostgreSQL 16 from `pgserver`
with its default durability, both on tmpfs when there is one), every game seats two people and
one computer player (classic rules, no turn timer), driven through the service's use cases as an
adapter drives them:

- a person whose turn it is presses the first button of their hand `--think` seconds after
  the turn came to them (0: as soon as the service answered the move before), with the hand's
  version, as a button carries it; the outcomes of the service are all they know;
- the computer players move through the service's own timer loop (`run_timers`),
  `--bot-delay` seconds after the move that made them due, as in the bot.

Measured over `--seconds` after `--warmup` seconds, in the same run for every set-up:

- moves a second: the people's presses the service applied, and the computers' moves;
- people's latency p50/p99: one `act` call (lock, engine, one committed transaction, views);
  a press refused because the table is busy (`busy`) is counted apart, and pressed again
  after another think;
- computers' wait p50/p99: from when a computer's move was due (its stored deadline) to when
  the service handed the committed move to the adapter;
- CPU per move (people's and computers' together): this process's (the service, the driver
  and, for SQLite, the database) and the PostgreSQL server's.

Every figure depends on the machine and what else runs on it: on two cores, this process and
the database server share them.
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.service import Outcome, Service, User  # noqa: E402
from bot.service.views import HandView  # noqa: E402
from bot.storage import Storage, StoragePort  # noqa: E402
from bot.storage.postgres import PostgresStorage  # noqa: E402
from tests.scale.cluster import tree_cpu  # noqa: E402

PEOPLE = 2
SETUP_BATCH = 50  # games opened at once while setting up


def quantile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


@dataclass
class Result:
    backend: str
    games: int
    seconds: float
    people: list[float] = field(default_factory=list)  # latencies of applied presses
    computers: list[float] = field(default_factory=list)  # waits of computers' moves
    busy: int = 0
    cpu: float = 0.0
    db_cpu: float = 0.0

    @property
    def moves(self) -> int:
        return len(self.people) + len(self.computers)

    def ms(self, values: list[float], q: float) -> float:
        return 1000 * quantile(values, q)

    def per_move(self, cpu: float) -> float:
        return 1000 * cpu / max(1, self.moves)


class DueTracking:
    """The storage, remembering each game's stored deadline: the commit that follows a due one
    answers it (a computer's move), and the bench learns when that move was due."""

    def __init__(self, storage: StoragePort, clock: Callable[[], float]) -> None:
        self._storage = storage
        self._clock = clock
        self.deadline: dict[int, float] = {}
        self.answered: dict[int, float] = {}  # game id -> the due time its last commit answered

    def __getattr__(self, name: str) -> Any:
        return getattr(self._storage, name)

    async def commit(self, game_id: int, expected_version: int, **kwargs: Any) -> Any:
        due = self.deadline.get(game_id)
        record = await self._storage.commit(game_id, expected_version, **kwargs)
        if due is not None and due <= self._clock():
            self.answered[game_id] = due
        deadline = kwargs.get("deadline")
        if deadline is None:
            self.deadline.pop(game_id, None)
        else:
            self.deadline[game_id] = deadline
        return record


class Game:
    """One chat's game as its people know it: the latest table and their hands."""

    def __init__(self, chat: str, people: list[User]) -> None:
        self.chat = chat
        self.people = {u.id: u for u in people}
        self.hands: dict[str, HandView] = {}
        self.current: str | None = None
        self.game_id = 0
        self.changed = asyncio.Event()

    def learn(self, out: Outcome) -> None:
        if out.table is not None and out.table.game_id >= self.game_id:
            self.game_id = out.table.game_id
            self.current = out.table.current if out.table.status == "running" else None
        for player, hand in out.hands.items():
            known = self.hands.get(player)
            if known is None or (hand.game_id, hand.version) >= (known.game_id, known.version):
                self.hands[player] = hand
        self.changed.set()


class Bench:
    def __init__(self, service: Service, tracking: DueTracking, args: argparse.Namespace) -> None:
        self.service = service
        self.tracking = tracking
        self.args = args
        self.games: dict[str, Game] = {}
        self.by_id: dict[int, Game] = {}
        self.result: Result | None = None
        self.stopped = False

    # ------------------------------------------------------------------ set-up

    async def open_game(self, game: Game) -> None:
        first, *others = game.people.values()
        await self.service.settings.change_setting(game.chat, first, "timer", "off", is_admin=True)
        await self.service.lobby.new_game(game.chat, first)
        for user in others:
            await self.service.lobby.join(game.chat, user)
        await self.service.lobby.add_bot(game.chat, first)
        out = await self.service.lobby.start_game(game.chat, first)
        assert out.ok, out.error
        self.learn(game, out)

    async def set_up(self, count: int) -> None:
        for g in range(count):
            chat = f"bench:{g}"
            people = [User(f"{g}-{i}", f"P{i}", "ru") for i in range(PEOPLE)]
            self.games[chat] = Game(chat, people)
        chats = list(self.games.values())
        for start in range(0, len(chats), SETUP_BATCH):
            await asyncio.gather(*(self.open_game(g) for g in chats[start : start + SETUP_BATCH]))

    def learn(self, game: Game, out: Outcome) -> None:
        game.learn(out)
        self.by_id[game.game_id] = game

    # ------------------------------------------------------------------ driving

    async def publish(self, out: Outcome) -> None:
        """A computer's move (the timer loop's outcome)."""
        game = self.games.get(out.chat_key)
        if game is None:
            return
        if out.table is not None:
            due = self.tracking.answered.pop(out.table.game_id, None)
            if due is not None and self.result is not None:
                self.result.computers.append(time.time() - due)
        self.learn(game, out)

    async def person_turn(self, game: Game) -> tuple[User, HandView] | None:
        """The person to act and their hand, once the game's outcomes say it is their turn."""
        while True:
            current = game.current
            if current is not None and current in game.people:
                hand = game.hands.get(current)
                if hand is not None and hand.acting and hand.game_id == game.game_id:
                    return game.people[current], hand
                out = await self.service.queries.hand(game.people[current], chat_key=game.chat)
                self.learn(game, out)
                if current not in out.hands:
                    await self.wait_change(game)
                continue
            if current is None and game.game_id and await self.finished(game):
                await self.open_game(game)  # the match ended: another at the same table
                continue
            await self.wait_change(game)

    async def finished(self, game: Game) -> bool:
        out = await self.service.queries.table(game.chat)
        return out.table is None or out.table.status != "running"

    @staticmethod
    async def wait_change(game: Game) -> None:
        game.changed.clear()
        with contextlib.suppress(TimeoutError):  # (asyncio.timeout: no cancellation lost)
            async with asyncio.timeout(5.0):
                await game.changed.wait()

    async def play(self, game: Game) -> None:
        think = self.args.think
        while not self.stopped:
            turn = await self.person_turn(game)
            assert turn is not None
            user, hand = turn
            if think:
                await asyncio.sleep(think)
            choice = hand.choices[0]
            action = choice.colors[0] if choice.colors else choice.action
            began = time.perf_counter()
            out = await self.service.play.act(
                user, action, chat_key=game.chat, version=hand.version
            )
            took = time.perf_counter() - began
            result = self.result
            if out.error is not None and out.error.key == "error-busy":
                if result is not None:
                    result.busy += 1
                await asyncio.sleep(max(think, 0.5))
                continue
            if out.ok and result is not None:
                result.people.append(took)
            self.learn(game, out)
            if out.error is not None:  # stale (a computer moved first): its fresh hand came
                game.hands.pop(user.id, None)


async def measure(
    backend: str, database: str, count: int, args: argparse.Namespace, db_pid: int
) -> Result:
    storage: StoragePort
    if backend == "sqlite":
        storage = await Storage.open(database)
    else:
        storage = await PostgresStorage.open(database)
    tracking = DueTracking(storage, time.time)
    try:
        service = Service(cast(StoragePort, tracking), bot_delay=args.bot_delay, seed=lambda: 12345)
        await service.start()
        bench = Bench(service, tracking, args)
        await bench.set_up(count)
        timers = asyncio.create_task(service.clock.run_timers(bench.publish))
        players = [asyncio.create_task(bench.play(g)) for g in bench.games.values()]
        await asyncio.sleep(args.warmup)
        result = Result(backend, count, args.seconds)
        cpu0, db0 = time.process_time(), tree_cpu(db_pid) if db_pid else 0.0
        bench.result = result
        began = time.perf_counter()
        await asyncio.sleep(args.seconds)
        bench.result = None
        result.seconds = time.perf_counter() - began
        result.cpu = time.process_time() - cpu0
        result.db_cpu = (tree_cpu(db_pid) - db0) if db_pid else 0.0
        bench.stopped = True
        for task in (timers, *players):
            task.cancel()
        await asyncio.gather(timers, *players, return_exceptions=True)
        for task in players:
            if not task.cancelled() and task.exception() is not None:
                raise RuntimeError("a game's players failed") from task.exception()
        return result
    finally:
        await storage.close()


def report_line(r: Result) -> str:
    rate = r.moves / r.seconds
    db = f"{r.per_move(r.db_cpu):6.2f}" if r.backend == "postgres" else "   -  "
    return (
        f"  {r.backend:<8} {r.games:>5} {rate:8.0f} {r.ms(r.people, 0.5):8.1f}"
        f" {r.ms(r.people, 0.99):8.1f} {r.busy:6d} {r.ms(r.computers, 0.5):8.1f}"
        f" {r.ms(r.computers, 0.99):8.1f} {r.per_move(r.cpu):8.2f} {db}"
    )


HEADER = (
    "  database  games  moves/s  people: p50 ms   p99 ms   busy"
    "  computers: p50 ms  p99 ms  CPU ms/move: bot  db"
)


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    path = Path(tempfile.mkdtemp(prefix="uno-bench-service-", dir=base))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


async def main_async(args: argparse.Namespace, say: Callable[[str], None]) -> None:
    with folder() as where:
        server = None
        db_pid = 0
        if "postgres" in args.backends:
            from pgserver.postgres_server import get_server

            server = get_server(where / "pg", cleanup_mode="stop")
            db_pid = int((where / "pg" / "postmaster.pid").read_text().split()[0])
        try:
            say(
                f"service: {PEOPLE} people and 1 computer player a game, think {args.think} s,"
                f" computers' delay {args.bot_delay} s; {args.seconds:.0f} s measured after"
                f" {args.warmup:.0f} s"
            )
            say(HEADER)
            for count in args.games:
                for backend in args.backends:
                    if backend == "sqlite":
                        database = str(where / f"bench-{count}.sqlite3")
                        pid = 0
                    else:
                        assert server is not None
                        name = f"bench_{count}"
                        server.psql(f"CREATE DATABASE {name};")
                        database, pid = server.get_uri(name), db_pid
                    result = await measure(backend, database, count, args, pid)
                    say(report_line(result))
        finally:
            if server is not None:
                server.cleanup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 100, 500, 2000])
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--think", type=float, default=0.0, help="seconds a person thinks")
    parser.add_argument("--bot-delay", type=float, default=0.05, help="computers' delay, s")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    args = parser.parse_args(argv)
    asyncio.run(main_async(args, lambda line: print(line, flush=True)))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
