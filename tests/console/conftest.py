"""The console as a person meets it: `python -m bot` in a pseudo-terminal of 80x24.

Every wait is on the expected output (pexpect's `expect`, with a generous timeout), never on a
fixed sleep.
"""

from __future__ import annotations

import math
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pytest

from bot.console.table import CHAT, HUMAN
from bot.service import Service, User
from bot.storage import GameRecord, Storage
from core.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60
# The end of every prompt: a turn's (`q` leaves) and a second step's (`0` or `q` go back).
PROMPT = r"(?:q — (?:выход|вихід)|назад)\): "
TURN_PROMPT = r"q — (?:выход|вихід)\): "
BACK_PROMPT = r"назад\): "


Spawn = Callable[..., pexpect.spawn]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _default_sigint() -> None:
    """However the suite itself was started, the child starts as from a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    """Start `python -m bot ARGS` without tokens, in `tmp_path` (its database lives there)."""
    children: list[pexpect.spawn] = []

    def start(*args: str, sigint_ignored: bool = False) -> pexpect.spawn:
        """`sigint_ignored`: start it as a shell's background job would (SIGINT ignored)."""
        env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
        env.update(PYTHONPATH=str(ROOT), DATABASE=str(tmp_path / "uno.sqlite3"), LANG="C.UTF-8")
        child = pexpect.spawn(
            sys.executable,
            ["-m", "bot", *args],
            cwd=str(tmp_path),
            env=env,
            encoding="utf-8",
            dimensions=(24, 80),
            timeout=TIMEOUT,
            preexec_fn=_ignore_sigint if sigint_ignored else _default_sigint,
        )
        children.append(child)
        return child

    yield start
    for child in children:
        if child.isalive():
            child.terminate(force=True)


def console_db(tmp_path: Path) -> Path:
    return tmp_path / "console.sqlite3"


async def saved_match(
    db: Path, *, lang: str = "ru", preset: str = "classic", wild: bool = False
) -> int:
    """Leave a running match in the console's database, as a console that quit would, with the
    player to move (holding a wild card if `wild`). Returns the seed that dealt it."""
    storage = await Storage.open(db)
    try:
        user = User(HUMAN, "Игрок" if lang == "ru" else "Гравець", lang)
        for seed in range(1, 300):
            service = Service(storage, bot_delay=0.0, seed=lambda s=seed: s)
            for key, value in (("lang", lang), ("timer", "off"), ("preset", preset)):
                assert (
                    await service.settings.change_setting(CHAT, user, key, value, is_admin=True)
                ).ok
            if (await service.queries.table(CHAT)).table is not None:
                await service.lobby.kill(CHAT, user, is_admin=True)
            await service.lobby.new_game(CHAT, user)
            for _ in range(3):
                await service.lobby.add_bot(CHAT, user)
            assert (await service.lobby.start_game(CHAT, user)).ok
            for _ in range(50):
                view = (await service.queries.hand(user, chat_key=CHAT)).hands[HUMAN]
                if view.is_turn:
                    break
                await service.clock.run_due(math.inf)
            if view.is_turn and (not wild or any(c.colors for c in view.choices)):
                return seed
        raise AssertionError("no deal gave the player a wild card")
    finally:
        await storage.close()


async def active_rules(db: Path) -> Rules:
    storage = await Storage.open(db)
    try:
        table = (await Service(storage).queries.table(CHAT)).table
        assert table is not None and table.status == "running"
        return table.rules
    finally:
        await storage.close()


def screen_lines(text: str) -> list[str]:
    """What a terminal shows of `text`: lines without carriage returns or colour codes."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


async def active_record(db: Path) -> GameRecord:
    """The running match's stored row (its `meta` holds the computer players' level)."""
    storage = await Storage.open(db)
    try:
        rec = await storage.active_game(CHAT)
        assert rec is not None and rec.status == "running"
        return rec
    finally:
        await storage.close()
