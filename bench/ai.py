"""Computer players' strength: round-win rates against honest baselines, and CPU per move.

Run with `.venv/bin/python bench/ai.py [--rounds N] [--jobs J]` (after `make .venv/bin/.bench`).

What is measured, for each preset (`classic`, `house`, `minecraft`, each with `target=1`, so a
match is one round) and each baseline (`random`, `greedy`, defined in `core.ai.baselines`: they
play whenever they can, call UNO, catch, answer a penalty with a listed play when they hold one,
else accept, never challenge, and jump in whenever they can under `house`):

- N four-player rounds (default 10,000) for each level (`strong`, `easy`): round i is
  `Game.new(["p0", "p1", "p2", "p3"], rules, seed=i)`, the computer player in seat i mod 4 (seats
  rotated), the three baselines in the others. Both levels play the same N deals. Every player
  has its own `random.Random` seeded from the round and the seat; the table
  (`core.ai.arena.play_round`) asks everyone but the current player for out-of-turn actions in an
  order drawn from a table rng (seeded by the round), after every action. Every action is shown
  to the table's memory (`core.ai.memory`: who was seen unable to play on what) before it is
  applied, as the bot does; only the strong level reads it.
- The share of rounds the computer player wins, with a 95 % Wilson score interval. Four equal
  players would each win 25 %.
- For the strong level, the CPU time (`time.process_time`) of every `choose_action` call it makes
  on its own turn (the moves with a search and those without), over all rounds: mean and 99th
  percentile.

Rounds are split into chunks across `--jobs` processes; results do not depend on the split.
Each line is also printed as soon as its last chunk is in ("done after ... s:", with that line's
own CPU figures), so that a long run on a shared machine shows its lines as they come; the table
and the CPU figures over all lines follow at the end.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.actions import Action
from core.ai import Level, Memory, choose_action
from core.ai.arena import Policy, play_round
from core.ai.baselines import greedy_player, random_player
from core.game import Game
from core.rules import Rules

PLAYERS = ["p0", "p1", "p2", "p3"]
BASELINES: dict[str, Policy] = {"random": random_player, "greedy": greedy_player}
PRESETS = ("classic", "house", "minecraft")
CHUNK = 250


@dataclasses.dataclass
class Result:
    wins: int = 0
    rounds: int = 0
    times: list[float] = dataclasses.field(default_factory=list)


def _computer(level: Level, memory: Memory, times: list[float]) -> Policy:
    def play(game: Game, player: str, rng: random.Random) -> Action | None:
        if player != game.current_player:
            return choose_action(game, player, rng, level, memory)
        start = time.process_time()
        action = choose_action(game, player, rng, level, memory)
        times.append(time.process_time() - start)
        return action

    return play


def run_chunk(task: tuple[str, str, str, int, int]) -> tuple[str, str, str, Result]:
    """Rounds `start` to `stop` of one preset x baseline x level."""
    preset, baseline, level_name, start, stop = task
    level = Level(level_name)
    rules = dataclasses.replace(Rules.preset(preset), target=1)
    result = Result()
    for i in range(start, stop):
        me = PLAYERS[i % len(PLAYERS)]
        memory = Memory()  # what the table sees, fed with every move (only `strong` reads it)
        computer = _computer(level, memory, result.times)
        policies = {p: computer if p == me else BASELINES[baseline] for p in PLAYERS}
        rngs = {p: random.Random(f"{i}:{p}") for p in PLAYERS}
        game = Game.new(PLAYERS, rules, seed=i)
        winner = play_round(game, policies, rngs, random.Random(i), observe=memory.observe)
        result.wins += winner == me
        result.rounds += 1
    if level is not Level.STRONG:
        result.times = []
    return preset, baseline, level_name, result


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--baselines", default=",".join(BASELINES))
    parser.add_argument("--levels", default="strong,easy")
    args = parser.parse_args()
    tasks = [
        (preset, baseline, level, start, min(start + CHUNK, args.rounds))
        for preset in args.presets.split(",")
        for baseline in args.baselines.split(",")
        for level in args.levels.split(",")
        for start in range(0, args.rounds, CHUNK)
    ]
    results: dict[tuple[str, str, str], Result] = {}
    began = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for preset, baseline, level, part in pool.imap_unordered(run_chunk, tasks):
            total = results.setdefault((preset, baseline, level), Result())
            total.wins += part.wins
            total.rounds += part.rounds
            total.times += part.times
            if total.rounds == args.rounds:  # a line is complete: show it now (long runs)
                elapsed = time.perf_counter() - began
                line = _line(preset, baseline, level, total)
                print(f"done after {elapsed:.0f} s: {line}", flush=True)
    print(f"{args.rounds} four-player rounds per line, seats rotated, target=1")
    print(f"{'preset':<10} {'baseline':<8} {'level':<7} {'wins':>7}  95% interval")
    all_times: list[float] = []
    for preset, baseline, level in sorted(results, key=lambda k: tasks_order(tasks, k)):
        r = results[(preset, baseline, level)]
        print(_line(preset, baseline, level, r))
        all_times += r.times
    if all_times:
        mean = sum(all_times) / len(all_times)
        p99 = percentile(all_times, 0.99)
        print(
            f"strong: CPU per move on its own turn over {len(all_times)} moves: "
            f"mean {mean * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, "
            f"max {max(all_times) * 1000:.2f} ms"
        )
    print(f"wall time {time.perf_counter() - began:.0f} s with {args.jobs} job(s)")


def _line(preset: str, baseline: str, level: str, r: Result) -> str:
    low, high = wilson(r.wins, r.rounds)
    line = (
        f"{preset:<10} {baseline:<8} {level:<7} {r.wins / r.rounds:>7.1%}  [{low:.1%}, {high:.1%}]"
    )
    if r.times:
        mean = sum(r.times) / len(r.times)
        p99 = percentile(r.times, 0.99)
        line += f"  (CPU a move: mean {mean * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms)"
    return line


def tasks_order(tasks: list[tuple[str, str, str, int, int]], key: tuple[str, str, str]) -> int:
    return next(i for i, t in enumerate(tasks) if t[:3] == key)


if __name__ == "__main__":
    main()
