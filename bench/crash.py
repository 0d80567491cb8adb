"""Durability under SIGKILL: no acknowledged move lost, none applied twice, every game whole.

Runs ``tests/service/crash_child.py`` -- a process that plays three-player games through the
service on one SQLite file (WAL, synchronous=FULL) and prints each move once ``act`` returned
it as committed -- and kills it with SIGKILL after a random number of acknowledged moves, then
starts it again on the same file, ``--kills`` times.  The kill lands wherever the child happens
to be: inside a group-commit transaction, between a commit and its report, in a lobby.  Then,
from the file alone, it counts:

* acknowledged: the moves the children reported (each after its commit returned);
* stored: those found in the game's log at the version reported, by the same player;
* lost: acknowledged but not stored (must be 0);
* applied twice: a game version acknowledged more than once (must be 0);
* games replayed: stored games whose log, replayed from the deal (players, rules, seed) through
  the engine, gives exactly the stored state, with every card of the deck exactly once in the
  hands, the draw pile and the discard pile (the rest are "bad replays", must be 0);
* finished without statistics: finished matches that have no recorded statistics (a kill
  between the last move and recording it; informative).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.storage import GameRecord, Storage
from core.actions import Action
from core.cards import standard_deck
from core.game import Game

ROOT = Path(__file__).resolve().parents[1]
CHILD = "tests.service.crash_child"


@dataclass
class Counts:
    kills: int = 0
    acknowledged: int = 0
    stored: int = 0
    lost: int = 0
    applied_twice: int = 0
    games: int = 0
    replayed: int = 0
    bad_replays: list[str] = field(default_factory=list)
    finished_without_statistics: int = 0

    @property
    def ok(self) -> bool:
        return (
            self.lost == 0
            and self.applied_twice == 0
            and not self.bad_replays
            and self.replayed == self.games
        )

    def report(self) -> str:
        return "\n".join(
            [
                f"kills                        {self.kills}",
                f"acknowledged moves           {self.acknowledged}",
                f"moves found stored           {self.stored}",
                f"lost                         {self.lost}",
                f"applied twice                {self.applied_twice}",
                f"games replayed whole         {self.replayed} of {self.games}",
                f"finished without statistics  {self.finished_without_statistics}",
                *(f"bad replay: {bad}" for bad in self.bad_replays),
            ]
        )


Ack = tuple[int, int, str, str]  # game id, version, actor, action


def kill_cycles(db: Path, kills: int, rng: random.Random, most: int = 60) -> list[Ack]:
    """Start the child on ``db`` and SIGKILL it after 1..``most`` acknowledged moves, ``kills``
    times; return every acknowledged move."""
    acks: list[Ack] = []
    for _ in range(kills):
        child = subprocess.Popen(
            [sys.executable, "-m", CHILD, str(db)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert child.stdout is not None and child.stderr is not None
            for _ in range(rng.randint(1, most)):
                line = child.stdout.readline()
                if not line:
                    raise RuntimeError("crash child stopped early:\n" + child.stderr.read())
                game_id, version, actor, action = line.rstrip("\n").split(" ", 3)
                acks.append((int(game_id), int(version), actor, action))
            os.kill(child.pid, signal.SIGKILL)
        finally:
            child.kill()
            child.communicate()
        if child.returncode != -signal.SIGKILL:
            raise RuntimeError(f"crash child ended with {child.returncode}, not by the kill")
    return acks


async def check(db: Path, acks: list[Ack], kills: int) -> Counts:
    """Count what the database at ``db`` kept of ``acks`` (see the module docstring)."""
    counts = Counts(kills=kills, acknowledged=len(acks))
    versions = Counter((game_id, version) for game_id, version, _, _ in acks)
    counts.applied_twice = sum(n - 1 for n in versions.values() if n > 1)
    storage = await Storage.open(db)
    try:
        logs = {}
        for game_id in sorted({a[0] for a in acks}):
            logs[game_id] = {(e.version, e.actor, e.action) for e in await storage.log(game_id)}
        for game_id, version, actor, action in acks:
            if (version, actor, action) in logs[game_id]:
                counts.stored += 1
            else:
                counts.lost += 1
        game_id = 1
        while (rec := await storage.get_game(game_id)) is not None:
            game_id += 1
            if rec.state is None:
                continue  # a lobby: nothing dealt yet
            counts.games += 1
            problem = replay_problem(rec, [(e.actor, e.action) for e in await storage.log(rec.id)])
            if problem is None:
                counts.replayed += 1
            else:
                counts.bad_replays.append(f"game {rec.id}: {problem}")
        counts.finished_without_statistics = len(await storage.unrecorded_finished_games())
    finally:
        await storage.close()
    return counts


def replay_problem(rec: GameRecord, log: list[tuple[str, str]]) -> str | None:
    """Why replaying ``log`` from the deal does not give the stored game whole, or None."""
    assert rec.state is not None
    stored = Game.from_dict(rec.state)
    if not log or log[0][1] != "start":
        return "the log does not begin with the start"
    game = Game.new(list(rec.meta["players"]), stored.rules, stored.seed)
    for n, (actor, action) in enumerate(log[1:], 1):
        try:
            if action in ("leave", "kicked"):
                game.remove_player(actor)
            else:
                game.apply(actor, Action.parse(action))
        except ValueError as exc:
            return f"entry {n} ({actor} {action}) does not apply: {exc}"
        held = Counter(str(c) for c in (*game.draw_pile, *game.discard))
        for hand in game.hands.values():
            held.update(str(c) for c in hand)
        if held != Counter(str(c) for c in standard_deck(game.rules.creepers)):
            return f"after entry {n} the cards are not the deck, each card once"
    if game.to_dict() != rec.state:
        return "the replayed game differs from the stored state"
    return None


def run(kills: int, seed: int, folder: Path) -> Counts:
    db = folder / "crash.sqlite3"
    acks = kill_cycles(db, kills, random.Random(seed))
    return asyncio.run(check(db, acks, kills))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=150, help="how many times to kill the child")
    parser.add_argument("--seed", type=int, default=1, help="seeds when each kill lands")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        counts = run(args.kills, args.seed, Path(tmp))
    print(counts.report())
    sys.exit(0 if counts.ok else 1)


if __name__ == "__main__":
    main()
