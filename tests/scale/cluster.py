"""Several bot processes over one PostgreSQL database, against the fake Bot API: the harness of
the multi-process test (`tests/scale/test_workers.py`) and of `bench/scale.py`.

Each `Worker` is `python -m bot` as production runs it, in Telegram webhook mode, configured
only through its environment (`bot/config.py`); the fake Bot API stands for Telegram and for the
load balancer in front of the workers (`FakeBotAPI.balance`): every update goes to a random
worker, and one that does not answer is retried on another. `Table` is a group of simulated
people who press what the fake shows them; every wait is for a call the fake recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.telegram.fake_bot_api import ApiCall, FakeBotAPI, FakeChat, FakeUser, StoredMessage
from tests.telegram.players import hand_acts, policy

ROOT = Path(__file__).resolve().parents[2]
SECRET = "scale-test-secret"
BOUND = 30.0  # a bound for a hung process, not a wait: every wait is for an event
# The same for a process's start: on two cores loaded by other work, a worker was seen to take
# 15 s from its start to its webhook with no game running, and longer while the others play.
START_BOUND = 120.0
TURN_ACTS = ("play", "pick", "draw", "pass", "accept", "challenge", "choose")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A free port below the kernel's ephemeral range. A worker binds its port some time after
    it was chosen, and again after a kill: a port from that range may be taken meanwhile by any
    outgoing connection (a database client, the fake's webhook POSTs) as its local port."""
    ranges = Path("/proc/sys/net/ipv4/ip_local_port_range")
    low = int(ranges.read_text().split()[0]) if ranges.exists() else 32768
    while True:
        port = random.randrange(low // 2, low)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a live process used so far, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def tree_cpu(root: int) -> float:
    """CPU seconds of a process and every live descendant (a PostgreSQL server's backends)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += process_cpu(pid)
        todo.extend(children.get(pid, ()))
    return total


@dataclass
class Worker:
    """One bot process in webhook mode on a port of its own."""

    api: FakeBotAPI
    database: str
    folder: Path  # its working directory: no .env of the developer's is read
    settings: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: asyncio.subprocess.Process | None = None
    cpu_before: float = 0.0  # CPU seconds of earlier runs of this worker (before a kill)
    events: list[tuple[str, float]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/telegram"

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM", "DISCORD"))}
        return {
            **env,
            "PYTHONPATH": str(ROOT),
            "TELEGRAM_TOKEN": self.api.token,
            "TELEGRAM_API_BASE": f"{self.api.base_url}/w{self.port}",  # its calls name it
            "DATABASE": self.database,
            "WEBHOOK_URL": self.url,
            "WEBHOOK_HOST": "127.0.0.1",
            "WEBHOOK_PORT": str(self.port),
            "WEBHOOK_SECRET": SECRET,
            "LOG_LEVEL": os.environ.get("UNO_SCALE_LOG_LEVEL", "WARNING"),
            **self.settings,
        }

    async def start(self) -> None:
        """Start the process and wait until it registered its webhook (it serves by then)."""
        since = self.api.call_count
        self.folder.mkdir(parents=True, exist_ok=True)
        # Its log, kept over a kill and a restart, in its folder (for a run that failed).
        with (self.folder / "worker.log").open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=self.folder, env=self.environment(),
                stdout=log, stderr=log,
            )  # fmt: skip
        wait = asyncio.ensure_future(
            self.api.wait_for(
                lambda c: c.is_("setWebhook") and c.params.get("url") == self.url, START_BOUND,
                since=since,
            )
        )  # fmt: skip
        died = asyncio.ensure_future(self.process.wait())
        done, _ = await asyncio.wait([wait, died], return_when=asyncio.FIRST_COMPLETED)
        if died in done:
            wait.cancel()
            raise RuntimeError(f"worker on port {self.port} exited with {self.process.returncode}")
        died.cancel()
        wait.result()
        self.events.append(("started", time.monotonic()))

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def cpu(self) -> float:
        """CPU seconds this worker used, over all its runs."""
        live = process_cpu(self.process.pid) if self.alive and self.process else 0.0
        return self.cpu_before + live

    async def kill(self) -> None:
        """SIGKILL: no cleanup, whatever it was doing."""
        if self.process is not None and self.alive:
            self.cpu_before += process_cpu(self.process.pid)
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()
            self.events.append(("killed", time.monotonic()))

    def log_tail(self, lines: int = 25) -> str:
        """The last lines of its log, over its runs (for a run that failed)."""
        path = self.folder / "worker.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        tail = text.splitlines()[-lines:]
        return "\n".join(f"    {line[:300]}" for line in tail) or "    (empty)"

    async def stop(self) -> None:
        if self.process is not None and self.alive:
            self.cpu_before += process_cpu(self.process.pid)
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                await self.kill()


@dataclass
class Press:
    """One button a simulated person pressed, and how the bot answered it."""

    user: int
    game: int
    act: str
    query: str
    began: float  # the fake's clock (time.monotonic)
    answered: float | None = None
    alert: str | None = None
    message: int | None = None  # the id of the message whose button it was

    @property
    def acknowledged(self) -> bool:
        """Answered without an alert: the person saw their move taken."""
        return self.answered is not None and self.alert is None

    @property
    def is_move(self) -> bool:
        """A press that changes the game (opening a wild's colors does not)."""
        return not self.act.startswith("pick ")


class Table:
    """A group of people playing one game after another, pressing what the fake shows them."""

    def __init__(
        self, api: FakeBotAPI, name: str, people: int, *, bots: int = 0, games: int = 1
    ) -> None:
        self.api = api
        self.group: FakeChat = api.new_group(name)
        self.users: list[FakeUser] = [
            api.new_user(f"{name} {i}", language_code="ru") for i in range(people)
        ]
        for user in self.users:
            api.user_starts_bot(user)
        self.bots = bots
        self.games = games
        self.presses: list[Press] = []
        self.game_ids: list[int] = []
        self.stopped = False  # set to stop playing at the next press
        self._chats = {self.group.id, *(u.id for u in self.users)}

    def _bot_message(self, chat_id: int) -> StoredMessage | None:
        for msg in reversed(self.api.messages(chat_id)):
            if msg.from_bot:
                return msg
        return None

    async def _change(self, since: int) -> None:
        """Until the bot calls the API for one of this table's chats (after call `since`)."""
        await self.api.wait_for(lambda c: c.chat_id in self._chats, BOUND, since=since)

    async def press(self, user: FakeUser, msg: StoredMessage, data: str, act: str) -> Press:
        game = int(data.split(":")[1])
        since = self.api.call_count
        query = self.api.press(user, msg.chat, msg.message_id, data, strict=False)
        press = Press(user.id, game, act, query, time.monotonic(), message=msg.message_id)
        self.presses.append(press)
        call = await self.api.wait_for(_answer_of(query), BOUND, since=since)
        press.answered = time.monotonic()
        text = call.params.get("text")
        press.alert = str(text) if text else None
        return press

    def _lobby_buttons(self, op: str = "join") -> list[tuple[StoredMessage, str]]:
        """The group's lobby buttons of one kind, newest message first."""
        return [
            (msg, data)
            for msg in reversed(self.api.messages(self.group.id))
            for data in (str(b.get("callback_data", "")) for b in msg.buttons)
            if data.startswith("l:") and data.endswith(":" + op)
        ]

    async def _until(self, find: Callable[[], object]) -> object:
        while True:
            since = self.api.call_count
            found = find()
            if found:
                return found
            await self._change(since)

    async def open_game(self) -> int:
        """/new, the others join, computer players are added, the creator starts."""
        # The new lobby is a game newer than any this table played or saw: an older lobby's
        # buttons may show again for a moment (another worker's edit of it that waited for the
        # group's budget lands after the deal took them away, and its next look at the game
        # takes them away again).
        seen = [_game_of(data) for _, data in self._lobby_buttons()]
        last = max([*self.game_ids, *seen], default=0)
        self.api.send_message(self.users[0], self.group, "/new")
        update = self.api.last_update_id
        try:
            found = await self._until(
                lambda: next((b for b in self._lobby_buttons() if _game_of(b[1]) > last), None)
            )
        except TimeoutError as exc:
            raise TimeoutError(f"{self.describe(None)}\n{self.posts(update)}\n{exc}") from None
        assert isinstance(found, tuple)
        game = _game_of(found[1])
        for user in self.users[1:]:
            await self.press(user, found[0], found[1], "join")
        for _ in range(self.bots):
            await self.press(self.users[0], found[0], f"l:{game}:addbot", "addbot")
        await self.press(self.users[0], found[0], f"l:{game}:start", "start")
        self.game_ids.append(game)
        return game

    def _turn(self, game: int) -> tuple[FakeUser, StoredMessage, dict[str, str]] | None:
        for user in self.users:
            msg = self._bot_message(user.id)
            if msg is None:
                continue
            acts = hand_acts(msg)
            if (
                acts
                and f"h:{game}:" in next(iter(acts.values()))
                and any(a.split()[0] in TURN_ACTS for a in acts)
            ):
                return user, msg, acts
        return None

    def describe(self, game: int | None) -> str:
        """What the people of this table see now (for a test that waited in vain)."""
        waits = "a new lobby" if game is None else f"game {game}"
        lines = [f"{self.group.title}: {waits} waits; the last messages of each chat:"]
        for chat in (self.group.id, *(u.id for u in self.users)):
            msg = self._bot_message(chat)
            text = "-" if msg is None else msg.plain_text.replace("\n", " | ")[:300]
            acts = "" if msg is None else ", ".join(hand_acts(msg))
            lines.append(f"  {chat}: {text} [{acts}]")
        lines.append("  the group's last messages from the bot:")
        for msg in [m for m in self.api.messages(self.group.id) if m.from_bot][-5:]:
            text = msg.plain_text.replace("\n", " | ")[:200]
            data = [b.get("callback_data") for b in msg.buttons]
            lines.append(f"    {msg.message_id}{' (deleted)' * msg.deleted}: {text} {data}")
        if game is not None:
            lines.append(f"  the last presses:\n{self.presses_of(game, last=8)}")
        for user in self.users:
            lines.append(f"  the last calls for {user.id}'s private chat:")
            for c in self.api.calls(chat_id=user.id)[-12:]:
                result = c.result if isinstance(c.result, dict) else {}
                target = c.params.get("message_id") or result.get("message_id", "")
                outcome = "ok" if c.ok else c.description
                lines.append(f"    {c.arrived:.2f} {c.via} {c.method} {target}: {outcome}")
        return "\n".join(lines)

    def posts(self, update: int) -> str:
        """Where the fake POSTed an update and how each worker answered (for an update that
        seems answered by nothing)."""
        lines = [
            f"  update {update} to {d.url}: {d.status} ({d.started:.2f}-{d.ended:.2f})"
            for d in self.api.deliveries
            if d.update_id == update
        ]
        return "\n".join(lines) or f"  update {update} never POSTed"

    def presses_of(self, game: int, last: int = 30) -> str:
        """The last presses of `game`, when each was made (the fake's clock) and how the bot
        answered (for a check that failed: a person pressing a button in vain until a timer
        ran out shows here)."""
        lines = [
            f"  {p.began:.3f} user {p.user} message {p.message} {p.act!r}: {p.alert or 'taken'}"
            for p in self.presses
            if p.game == game
        ]
        return "\n".join(lines[-last:]) or "  (none)"

    def result_shown(self, game: int) -> bool:
        """The group has the match's result (the message with the game's rematch button)."""
        return any(
            b.get("callback_data") == f"r:{game}"
            for m in self.api.messages(self.group.id)
            for b in m.buttons
        )

    async def play(self, on_move: Callable[[Press], None] = lambda press: None) -> None:
        """Play `games` games to their end, one after another."""
        for _ in range(self.games):
            if self.stopped:
                return
            game = await self.open_game()
            while not self.stopped:
                since = self.api.call_count
                if self.result_shown(game):
                    break
                turn = self._turn(game)
                if turn is None:
                    try:
                        await self._change(since)
                    except TimeoutError as exc:
                        raise TimeoutError(f"{self.describe(game)}\n{exc}") from None
                    continue
                user, msg, acts = turn
                act = policy(acts)
                assert act is not None, acts
                press = await self.press(user, msg, acts[act], act)
                on_move(press)


def _game_of(data: str) -> int:
    """The game a button's data names (`l:12:join` names game 12)."""
    return int(data.split(":")[1])


def _answer_of(query: str) -> Callable[[ApiCall], bool]:
    def check(call: ApiCall) -> bool:
        return call.is_("answerCallbackQuery") and call.params.get("callback_query_id") == query

    return check


async def stop_all(workers: list[Worker]) -> None:
    for worker in workers:
        with contextlib.suppress(ProcessLookupError):
            await worker.stop()
