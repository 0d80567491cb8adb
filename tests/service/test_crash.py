"""Durability: moves the service reported as committed survive SIGKILL of its process, none is
applied twice, and every stored game replays from its log with every card once.

A bounded run of `bench/crash.py` (which runs many more kills), with the same checks."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

from bench.crash import check, kill_cycles

KILLS = 20


async def test_acknowledged_moves_survive_repeated_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    acks = await asyncio.to_thread(kill_cycles, db, KILLS, random.Random(20), 40)
    counts = await check(db, acks, KILLS)
    assert counts.acknowledged >= KILLS  # every cycle acknowledged something before its kill
    assert counts.stored == counts.acknowledged, counts.report()
    assert counts.lost == 0 and counts.applied_twice == 0, counts.report()
    assert counts.games >= 1 and counts.replayed == counts.games, counts.report()
    assert counts.bad_replays == []

    # The checks can fail: a lost move, a move acknowledged twice and a damaged game are seen.
    game_id, version, _, _ = acks[-1]
    with sqlite3.connect(db) as raw:
        raw.execute("DELETE FROM game_log WHERE game_id = ? AND version = ?", (game_id, version))
    damaged = await check(db, [*acks, acks[0]], KILLS)
    assert (damaged.lost, damaged.applied_twice) == (1, 1)
    assert damaged.bad_replays and not damaged.ok
