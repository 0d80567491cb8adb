"""The console adapter plays a whole match, driven through its input."""

from __future__ import annotations

import itertools
import math
import os
import random
import re
import subprocess
import sys
from pathlib import Path

from bot.console.table import CHAT, ConsoleTable
from bot.presentation.render import Renderer
from bot.service import Service
from bot.storage import Storage
from tests.service.conftest import FakeClock

ROOT = Path(__file__).resolve().parents[2]


async def test_console_match_to_the_end(tmp_path: Path, renderer: Renderer) -> None:
    storage = await Storage.open(tmp_path / "console.sqlite3")
    try:
        service = Service(storage, bot_delay=0.0, seed=lambda: 31)
        rng = random.Random(3)
        prompts: list[str] = []
        lines: list[str] = []

        async def ask(prompt: str) -> str:
            prompts.append(prompt)
            low, high = map(int, re.findall(r"\d+", prompt)[:2])
            return str(rng.randint(low, high)) if len(prompts) % 7 else "oops"

        table = ConsoleTable(service, renderer, lang="uk", bots=2, ask=ask, say=lines.append)
        await service.settings.change_setting(
            "console:local", table.user, "target", "100", is_admin=True
        )
        assert await table.run() is True
    finally:
        await storage.close()
    text = "\n".join(lines)
    assert "виграє гру" in text
    assert "Введіть число" in text  # the invalid answers were refused in Ukrainian
    assert len(prompts) > 10
    # The final score is said once: the last round's line names its winner only.
    [result] = [i for i, line in enumerate(lines) if "Підсумковий рахунок" in line]
    assert "виграє раунд" in lines[result - 1] and "Рахунок" not in lines[result - 1]
    assert all(a != b for a, b in itertools.pairwise(lines) if a.strip())


async def test_console_offers_a_rematch_after_the_match(tmp_path: Path, renderer: Renderer) -> None:
    storage = await Storage.open(tmp_path / "console.sqlite3")
    try:
        service = Service(storage, bot_delay=0.0, seed=lambda: 31)
        rng = random.Random(5)
        lines: list[str] = []
        offers: list[int] = []

        async def ask(prompt: str) -> str:
            if lines[-3:-2] == [renderer.t("ru", "console-again")]:
                offers.append(len(lines))
                return "1" if len(offers) == 1 else "0"  # one rematch, then enough
            low, high = map(int, re.findall(r"\d+", prompt)[:2])
            return str(rng.randint(low, high))

        table = ConsoleTable(service, renderer, lang="ru", bots=2, ask=ask, say=lines.append)
        await service.settings.change_setting(CHAT, table.user, "target", "100", is_admin=True)
        assert await table.run() is True
        assert len(offers) == 2
        # Two matches at the same table: the player and the same two computer players.
        first, second = [await storage.get_game(i) for i in (1, 2)]
        assert first is not None and second is not None
        assert first.status == second.status == "finished"
        assert second.meta["players"] == first.meta["players"] == ["human", "ai:1", "ai:2"]
        assert second.meta["invited"] == []  # nobody else to wait for
        assert await storage.active_game(CHAT) is None
    finally:
        await storage.close()
    assert renderer.t("ru", "btn-rematch") in "\n".join(lines)


async def test_console_prints_a_timers_notice(tmp_path: Path, renderer: Renderer) -> None:
    clock = FakeClock()
    storage = await Storage.open(tmp_path / "console.sqlite3", clock=clock)
    try:
        service = Service(storage, clock=clock, bot_delay=0.0, lobby_idle=600)
        lines: list[str] = []
        table = ConsoleTable(service, renderer, lang="uk", say=lines.append)
        assert (await service.lobby.new_game(CHAT, table.user)).ok
        clock.advance(601)
        for out in await service.clock.run_due(math.inf):  # as the console's loop runs the timers
            table.show(out)
        table.flush()
    finally:
        await storage.close()
    said = "• " + renderer.t("uk", "info-lobby-expired", minutes=10)
    assert " ".join(line.strip() for line in lines) == said  # wrapped to the terminal's width
    assert len(lines) == 2


def test_make_run_without_tokens_plays_in_the_console(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["DATABASE"] = str(tmp_path / "uno.sqlite3")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--bots", "1", "--preset", "house"],
        cwd=tmp_path,
        # "1" plays the first choice (and a wild's first color); "0" waits out of turn and is
        # refused in turn. After the match "0" declines the rematch, "1" plays one more.
        input="1\n1\n0\n" * 3000,
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Выбор раздающего" in result.stdout
    assert "выигрывает игру" in result.stdout  # the match was played to its end
    assert "Сыграть ещё раз с теми же соперниками?" in result.stdout
    assert (tmp_path / "console.sqlite3").exists()
