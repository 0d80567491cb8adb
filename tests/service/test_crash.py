"""Durability: a move the service reported as committed survives SIGKILL of its process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.storage import Storage

ROOT = Path(__file__).resolve().parents[2]


async def test_every_reported_move_survives_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.service.crash_child", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    reported = []
    try:
        assert child.stdout is not None
        while len(reported) < 60:
            line = child.stdout.readline()
            if not line:
                raise AssertionError(
                    "child stopped early: " + (child.stderr.read() if child.stderr else "")
                )
            reported.append(line.split(maxsplit=3))
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL

    storage = await Storage.open(db)
    try:
        logged = {}
        for game_id in {int(r[0]) for r in reported}:
            for entry in await storage.log(game_id):
                logged[(game_id, entry.version)] = (entry.actor, entry.action)
        for game_id, version, actor, action in reported:
            assert logged.get((int(game_id), int(version))) == (actor, action.strip())
    finally:
        await storage.close()
