"""Telegram end to end: moves per second through the real bot against a fake Bot API.

Run by `make bench` (`python bench/telegram.py`). The fake Bot API of the tests
(tests/telegram/fake_bot_api.py) runs in a process of its own, together with the simulated
players; this process runs the bot as in production: aiogram polling the fake over HTTP on
127.0.0.1, the service on a SQLite file, the per-chat sender with the group rate limit.

N games of P players each. A game is set up as people would: /new in the group, the other players
press the lobby's join button, the creator presses start. Then each player presses the buttons of
their hand in the private chat as soon as the bot has answered the previous press (the policy of
the tests: UNO, a card, a wild and its first color, take a penalty, draw, pass). A finished game
is followed by a new one in a new group (its setup is not a move).

Measured over --seconds after --warmup seconds:

- moves per second: presses that changed the game (opening a wild's four colors is not a move);
- latency p50 / p99: from the moment the update is queued at the fake Bot API to the bot's
  answerCallbackQuery, the last call of that update (the bot answers after it has updated every
  private chat; the group's table edit goes through the group's rate-limited queue, so in a fast
  game it is coalesced with the next moves' edits);
- Bot API calls per move: group (table edits and announcements; the table is a photo, its
  banner above the text, so its edits are `editMessageMedia`: counted, with the kilobytes of
  banners uploaded, the others sent by file id), private chats (hands: sends, edits, deletes),
  callback answers; and the bot process's CPU time per move. Turn
  notifications are on (every player's default): a turn begins with the hand sent anew at the
  bottom of the private chat and the previous hand deleted. Hands of `--pictures` cards or
  more (the bot's default: 8) are photos (`sendPhoto`, `editMessageMedia`): counted with the
  sends and edits, and also on their own, with the kilobytes uploaded per move;
- stale waiting hands: after every answered press, each hand of that table that cannot act is
  checked against the hand that can (the bot answers a press after every private chat is
  updated, and the hand holding the turn shows the top card): a waiting hand is stale when it
  names another player as the one to move, or shows another top card. Goal 0.

Goals: at least 300 moves per second, p99 under 50 ms, at most one group call per move on average.
The database is on tmpfs (/dev/shm) when there is one: this measures the bot, not the disk (pass
--db-dir to choose). `--no-group-limit` sends every table edit at once (a group call per move).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pydantic import SecretStr  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.presentation.i18n import get_i18n  # noqa: E402
from bot.presentation.render import Renderer  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.telegram.app import GROUP_LIMIT, TelegramApp, create_bot  # noqa: E402
from bot.telegram.pictures import PICTURE_FROM  # noqa: E402
from tests.telegram.fake_bot_api import FakeBotAPI, FakeChat, FakeUser, StoredMessage  # noqa: E402
from tests.telegram.players import hand_acts, policy  # noqa: E402

TURN_ACTS = ("play", "pick", "draw", "pass", "accept", "challenge", "choose")
GOAL_MOVES = 300.0
GOAL_P99_MS = 50.0
GOAL_GROUP_CALLS = 1.0


# ---------------------------------------------------------------------- the fake's process


class BenchAPI(FakeBotAPI):
    """The fake Bot API, telling the players when the bot answered their press."""

    def __init__(self) -> None:
        super().__init__()
        self.answered: dict[str, asyncio.Future[tuple[float, str | None]]] = {}
        self.uploaded: Counter[str] = Counter()  # bytes of pictures uploaded: group, private

    def _photo_sizes(self, value: Any, params: dict[str, Any]) -> list[dict[str, Any]]:
        if isinstance(value, str) and value.startswith("attach://"):
            value = params.get(value.removeprefix("attach://"))
        chat = "group" if str(params.get("chat_id", "")).startswith("-") else "private"
        self.uploaded[chat] += len(getattr(value, "data", b""))  # a file id uploads nothing
        return super()._photo_sizes(value, params)

    def _m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        result = super()._m_answerCallbackQuery(params)
        query = str(params.get("callback_query_id"))
        self._callback_answers.pop(query, None)  # keep memory flat over a long run
        future = self.answered.pop(query, None)
        if future is not None and not future.done():
            future.set_result((time.perf_counter(), params.get("text")))
        return result


@dataclass
class Stats:
    measuring: bool = False
    moves: int = 0
    presses: int = 0
    refused: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)
    waiting: int = 0  # waiting hands checked
    stale: int = 0  # of them, showing another player's turn or another top card


class Lines:
    """The lines of a hand that speak about the table (Russian, as the bench's players)."""

    def __init__(self) -> None:
        r = Renderer(get_i18n())
        self.r = r
        self.top = r.t("ru", "table-top", card="", color="").split(":")[0] + ":"

    def waiting(self, name: str) -> str:
        return self.r.t("ru", "hand-waiting", name=name)


class Table:
    """One group and its players, driven by the simulated people."""

    def __init__(
        self, api: BenchAPI, number: int, players: int, stats: Stats, lines: Lines
    ) -> None:
        self.api = api
        self.stats = stats
        self.lines = lines
        self.group: FakeChat = api.new_group(f"Стол {number}")
        self.users: list[FakeUser] = [
            api.new_user(f"Игрок {number}-{i}", language_code="ru") for i in range(players)
        ]
        for user in self.users:
            api.user_starts_bot(user)

    def bot_message(self, chat_id: int) -> StoredMessage | None:
        for msg in reversed(self.api.messages(chat_id)):
            if msg.from_bot:
                return msg
        return None

    async def until(self, check: Any, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            await asyncio.sleep(0.005)
        raise TimeoutError(f"{self.group.title}: nothing happened")

    async def press(
        self, user: FakeUser, msg: StoredMessage, data: str
    ) -> tuple[float, str | None]:
        began = time.perf_counter()
        query = self.api.press(user, msg.chat, msg.message_id, data, strict=False)
        future: asyncio.Future[tuple[float, str | None]] = (
            asyncio.get_running_loop().create_future()
        )
        self.api.answered[query] = future
        answered, text = await asyncio.wait_for(future, 30.0)
        return answered - began, text

    def lobby_button(self, act: str) -> tuple[StoredMessage, str] | None:
        for msg in reversed(self.api.messages(self.group.id)):
            for button in msg.buttons:
                data = str(button.get("callback_data", ""))
                if data.startswith("l:") and data.endswith(":" + act):
                    return msg, data
        return None

    async def set_up(self) -> None:
        before = {u.id: self.bot_message(u.id) for u in self.users}
        self.api.send_message(self.users[0], self.group, "/new")
        await self.until(lambda: self.lobby_button("join"))
        for user in self.users[1:]:
            found = self.lobby_button("join")
            assert found is not None
            await self.press(user, *found)
        found = self.lobby_button("start")
        assert found is not None
        await self.press(self.users[0], *found)
        await self.until(
            lambda: all(self.bot_message(u.id) is not before[u.id] for u in self.users)
        )

    def check_waiting(self, current: FakeUser, hand: StoredMessage) -> None:
        """Count the waiting hands of this table that disagree with the current one."""
        text = hand.plain_text.splitlines()
        top = next((line for line in text if line.startswith(self.lines.top)), None)
        lines = {u.id: self.lines.waiting(u.first_name) for u in self.users}
        for user in self.users:
            if user is current:
                continue
            msg = self.bot_message(user.id)
            if msg is None:
                continue
            self.stats.waiting += 1
            shown = msg.plain_text.splitlines()
            wrong_top = top is not None and any(
                line.startswith(self.lines.top) and line != top for line in shown
            )
            wrong_turn = any(
                line == said and uid != current.id for uid, said in lines.items() for line in shown
            )
            self.stats.stale += wrong_top or wrong_turn

    def turn(self) -> tuple[FakeUser, StoredMessage, dict[str, str]] | None:
        for user in self.users:
            msg = self.bot_message(user.id)
            if msg is None:
                continue
            acts = hand_acts(msg)
            if any(a.split()[0] in TURN_ACTS for a in acts):
                return user, msg, acts
        return None

    async def play(self, stop: asyncio.Event) -> None:
        number = 0
        while not stop.is_set():
            if number:  # the next game in a new group: the old one's rate limit is spent
                self.group = self.api.new_group(f"{self.group.title} ({number})")
            number += 1
            await self.set_up()
            self.stats.games += 1
            idle = 0.0
            while not stop.is_set():
                turn = self.turn()
                if turn is None:  # the game is over: the bot answers after the hands are shown
                    if idle > 0.1:
                        break
                    await asyncio.sleep(0.01)
                    idle += 0.01
                    continue
                idle = 0.0
                user, msg, acts = turn
                act = policy(acts)
                assert act is not None
                latency, text = await self.press(user, msg, acts[act])
                if self.stats.measuring:
                    self.stats.presses += 1
                    self.stats.latencies.append(latency)
                    if text:
                        self.stats.refused += 1
                    elif not act.startswith("pick "):  # opening a second step
                        self.stats.moves += 1
                    after = self.turn()
                    if after is not None:
                        self.check_waiting(after[0], after[1])


def count_calls(api: BenchAPI, stats: Stats) -> None:
    """Move the recorded calls into counters (the fake keeps every call otherwise)."""
    calls, api._calls[:] = list(api._calls), []
    api.photos.clear()  # the pictures' bytes (their file ids stay known)
    uploaded, api.uploaded = api.uploaded, Counter()
    if not stats.measuring:
        return
    for kind, size in uploaded.items():
        stats.calls[f"{kind} uploaded bytes"] += size
    for call in calls:
        if call.is_("getUpdates"):
            stats.calls["polls"] += 1
            continue
        chat = call.chat_id
        if call.is_("answerCallbackQuery"):
            stats.calls["answers"] += 1
        elif isinstance(chat, int) and chat < 0:
            stats.calls["group"] += 1
            stats.calls["group " + call.method.lower()] += 1
        elif isinstance(chat, int):
            stats.calls["private"] += 1
            stats.calls["private " + call.method.lower()] += 1
        else:
            stats.calls["other"] += 1


async def fake_main(
    conn: Connection, games: int, players: int, warmup: float, seconds: float, windows: int
) -> None:
    api = BenchAPI()
    await api.start()
    conn.send(api.base_url)
    await asyncio.to_thread(conn.recv)  # the bot is polling
    stats = Stats()
    stop = asyncio.Event()
    lines = Lines()
    tables = [Table(api, n, players, stats, lines) for n in range(games)]
    tasks = [asyncio.create_task(t.play(stop)) for t in tables]
    await asyncio.sleep(warmup)
    for _ in range(windows):
        count_calls(api, stats)
        stats.measuring = True
        conn.send("measuring")
        began = time.perf_counter()
        cpu = time.process_time()
        while time.perf_counter() - began < seconds:
            await asyncio.sleep(0.25)
            count_calls(api, stats)
            for task in tasks:
                if task.done():
                    task.result()  # a driver failed: stop with its error
        count_calls(api, stats)
        stats.measuring = False
        conn.send(
            {
                "elapsed": time.perf_counter() - began,
                "moves": stats.moves,
                "presses": stats.presses,
                "refused": stats.refused,
                "latencies": stats.latencies,
                "calls": dict(stats.calls),
                "fake_cpu": time.process_time() - cpu,
                "waiting": stats.waiting,
                "stale": stats.stale,
            }
        )
        stats.moves = stats.presses = stats.refused = stats.waiting = stats.stale = 0
        stats.latencies, stats.calls = [], Counter()
        await asyncio.to_thread(conn.recv)  # the bot has read its CPU time
    stop.set()
    for task in tasks:
        task.cancel()
    with contextlib.suppress(BaseException):
        await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.to_thread(conn.recv)  # the bot has stopped: now the server may go
    await api.stop()


def fake_process(
    conn: Connection, games: int, players: int, warmup: float, seconds: float, windows: int
) -> None:
    asyncio.run(fake_main(conn, games, players, warmup, seconds, windows))


# ---------------------------------------------------------------------- the bot's process


async def run_bot(args: argparse.Namespace, conn: Connection, folder: Path) -> list[dict[str, Any]]:
    base_url = await asyncio.to_thread(conn.recv)
    results: list[dict[str, Any]] = []
    storage = await Storage.open(folder / "telegram-bench.sqlite3")
    service = Service(storage, bot_delay=1.5)
    await service.start()
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_token=SecretStr("7000001:BENCH-token"),
        telegram_api_base=base_url,
    )
    limit = None if args.no_group_limit else GROUP_LIMIT
    app = TelegramApp(create_bot(settings), service, group_limit=limit)
    polling = asyncio.create_task(app.run_polling())
    try:
        while app.ui is None:
            await asyncio.sleep(0.01)
        app.ui.picture_from = args.pictures
        await asyncio.sleep(0.1)
        conn.send("go")
        profile = None
        if args.profile:
            import cProfile

            profile = cProfile.Profile()
            profile.enable()
        for _ in range(args.windows):
            assert await asyncio.to_thread(conn.recv) == "measuring"
            cpu = time.process_time()
            result: dict[str, Any] = await asyncio.to_thread(conn.recv)
            result["cpu"] = time.process_time() - cpu
            results.append(result)
            conn.send("next")
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
    finally:
        await app.stop_polling()
        with contextlib.suppress(Exception):
            await polling
        await app.close()
        await storage.close()
        conn.send("stopped")
    return results


@dataclass
class Window:
    rate: float
    p50: float
    p99: float
    group: float
    private: float
    private_sends: float
    private_edits: float
    private_deletes: float
    private_photos: float  # of the sends and edits, those of photos
    upload_kb: float  # kilobytes of pictures uploaded per move
    group_photos: float  # of the group's calls, those of the table's banner
    group_upload_kb: float
    stale: float  # the share of waiting hands that were stale
    answers: float
    polls: float
    bot_cpu: float
    fake_cpu: float
    moves: int
    refused: int


def window(result: dict[str, Any]) -> Window:
    moves = max(result["moves"], 1)
    lat = sorted(result["latencies"]) or [0.0]
    calls = result["calls"]
    return Window(
        rate=result["moves"] / result["elapsed"],
        p50=statistics.median(lat) * 1000,
        p99=lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
        group=calls.get("group", 0) / moves,
        private=calls.get("private", 0) / moves,
        private_sends=(calls.get("private sendmessage", 0) + calls.get("private sendphoto", 0))
        / moves,
        private_edits=(
            calls.get("private editmessagetext", 0) + calls.get("private editmessagemedia", 0)
        )
        / moves,
        private_deletes=calls.get("private deletemessage", 0) / moves,
        private_photos=(
            calls.get("private sendphoto", 0) + calls.get("private editmessagemedia", 0)
        )
        / moves,
        upload_kb=calls.get("private uploaded bytes", 0) / moves / 1024,
        group_photos=(calls.get("group sendphoto", 0) + calls.get("group editmessagemedia", 0))
        / moves,
        group_upload_kb=calls.get("group uploaded bytes", 0) / moves / 1024,
        stale=result["stale"] / max(result["waiting"], 1),
        answers=calls.get("answers", 0) / moves,
        polls=calls.get("polls", 0) / moves,
        bot_cpu=result["cpu"] / moves * 1000,
        fake_cpu=result["fake_cpu"] / moves * 1000,
        moves=result["moves"],
        refused=result["refused"],
    )


def report(args: argparse.Namespace, results: list[dict[str, Any]]) -> bool:
    print(
        f"telegram: {args.games} games x {args.players} players, "
        f"{len(results)} windows of {args.seconds:.0f} s, "
        f"group limit {'off' if args.no_group_limit else 'on'}, "
        f"pictures from {args.pictures} cards"
    )
    windows = [window(r) for r in results]
    for n, w in enumerate(windows, 1):
        print(
            f"  window {n}: {w.rate:.0f} moves/s, p50 {w.p50:.1f} ms, p99 {w.p99:.1f} ms, "
            f"group {w.group:.3f}/move, bot CPU {w.bot_cpu:.2f} ms/move, "
            f"{w.moves} moves, {w.refused} refused"
        )
    mid = sorted(windows, key=lambda w: w.rate)[len(windows) // 2]
    print(f"  moves/s (median window): {mid.rate:.0f}")
    print(f"  latency update -> last call: p50 {mid.p50:.1f} ms, p99 {mid.p99:.1f} ms")
    print(
        f"  Bot API calls per move: group {mid.group:.3f}, private {mid.private:.2f}, "
        f"callback answers {mid.answers:.2f}, getUpdates {mid.polls:.2f}"
    )
    print(
        f"  private calls per move (turn notifications on): sends {mid.private_sends:.2f}, "
        f"edits {mid.private_edits:.2f}, deletes {mid.private_deletes:.2f}; of the sends and "
        f"edits, photos {mid.private_photos:.2f} (hands of {args.pictures} cards or more), "
        f"{mid.upload_kb:.1f} KB uploaded"
    )
    print(
        f"  group calls per move: of them the table's banner {mid.group_photos:.3f} "
        f"(sendPhoto, editMessageMedia), {mid.group_upload_kb:.2f} KB uploaded"
    )
    print(f"  stale waiting hands: {mid.stale:.1%} of those checked (goal 0)")
    print(
        f"  CPU per move: bot {mid.bot_cpu:.2f} ms, fake Bot API and players {mid.fake_cpu:.2f} ms"
    )
    checks = [
        (f"moves/s >= {GOAL_MOVES:.0f}", mid.rate >= GOAL_MOVES),
        (f"p99 < {GOAL_P99_MS:.0f} ms", mid.p99 < GOAL_P99_MS),
        (f"group calls per move <= {GOAL_GROUP_CALLS:.0f}", mid.group <= GOAL_GROUP_CALLS),
        ("no press refused", all(w.refused == 0 for w in windows)),
        ("no stale waiting hand", all(w.stale == 0 for w in windows)),
    ]
    print("  goals: " + ", ".join(f"{name} {'ok' if ok else 'MISSED'}" for name, ok in checks))
    return all(ok for _, ok in checks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="concurrent games")
    parser.add_argument("--players", type=int, default=4, help="players per game (2-10)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of a window")
    parser.add_argument("--windows", type=int, default=3, help="measured windows (median)")
    parser.add_argument("--warmup", type=float, default=3.0, help="time before measuring")
    parser.add_argument("--db-dir", type=Path, default=None, help="where the database goes")
    parser.add_argument("--no-group-limit", action="store_true", help="no group rate limit")
    parser.add_argument(
        "--pictures",
        type=int,
        default=PICTURE_FROM,
        help="hands of this many cards or more are photos (1: every hand; 1000: none)",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument("--profile", type=Path, default=None, help="cProfile stats of the bot")
    parser.add_argument(
        "--mode-moves", type=int, default=60, help="moves per play mode measured after (0: none)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    shm = Path("/dev/shm")
    db_dir = args.db_dir or (shm if shm.is_dir() and os.access(shm, os.W_OK) else None)
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    fake = ctx.Process(
        target=fake_process,
        args=(theirs, args.games, args.players, args.warmup, args.seconds, args.windows),
        daemon=True,
    )
    fake.start()
    try:
        with tempfile.TemporaryDirectory(dir=db_dir, prefix="uno-bench-") as folder:
            results = asyncio.run(run_bot(args, ours, Path(folder)))
    finally:
        fake.join(timeout=10)
        if fake.is_alive():
            fake.terminate()
    ok = report(args, results)
    if args.mode_moves:  # calls per move in each play mode (bench/telegram_modes.py)
        from bench import telegram_modes

        telegram_modes.report(asyncio.run(telegram_modes.run(args.mode_moves)))
    return 0 if ok or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
