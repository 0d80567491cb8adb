"""Engine speed: random four-player UNO games, this engine against RLCard's `UnoGame`.

Run by `make bench` (`python bench/engine.py`); needs the `bench` extra (`rlcard==1.2.0`, numpy).
Prints games per second of each engine (median of RUNS runs of GAMES_PER_RUN games), the time per
call of the engines' two entry points, and as its last line `ratio: X.XX`, how many times as many
games per second ours plays as RLCard.

The runs come in pairs, one of ours and one of RLCard's back to back (which goes first
alternates), and the ratio is the median of the pairs' ratios. The machines this runs on are
shared and their speed drifts by tens of percent within seconds; a pair lasts about a tenth of a
second, so both halves of a pair see the same machine, and the median discards the pairs that a
burst of load split. (The ratio of the two medians is printed too; on a quiet machine the two
agree.)

What a game is, on each side:

- Ours: `Game.new` with the `classic` preset and full rules (Wild Draw Four bluffs and
  challenges, UNO windows, reshuffles, the dealer draw) and `target=1`, so the match ends with the
  first round. Each step the current player takes one action through `legal_actions` / `apply`.
- RLCard: `UnoGame` configured for 4 players, `init_game()`, then `get_legal_actions()` /
  `step(action)` until `is_over()`.

The random policy, chosen so that both play the same kind of game: RLCard's players have no
choice but to play a card when they can (its `draw` is listed only when nothing plays, and a
playable drawn card is played automatically), and RLCard has no UNO, catching, challenges or
voluntary draws. So our current player picks uniformly among its legal `play` actions (a wild
once per color, as RLCard lists it), draws only when nothing plays, plays the drawn card when it
can (uniformly among its actions, again), accepts a pending Draw Two / Wild Draw Four (never
challenges), chooses a color uniformly when the first card is a wild, and never calls UNO or
catches. RLCard's player picks uniformly among `get_legal_actions()`. Remaining differences are
the engines' own: ours takes two steps for draw-then-play and one to accept a Wild Draw Four that
could be challenged, and lets a Wild Draw Four be played on any color (RLCard only when nothing
else plays), so our rounds are somewhat longer (actions per game are printed for both).

(A policy uniform over *all* our legal actions, voluntary draws and passes included, makes
rounds about 16 times longer - some 960 actions - because random players then draw far more
than they play; that measures the players, not the engines.)

The two drivers are written alike, as lean as the policies allow, so that the engines make most
of the difference: both pick with `floor(random() * n)` from one `random.Random` (not the slower
`randrange`) and look up the engine's methods once per game. `legal_actions` lists the plays
first, and in most turns the draw right after them and nothing else: ours takes that case with
one test, and otherwise counts its plays from the end of the list.

Games per second count CPU time (`time.process_time`), so that other processes on a shared
machine disturb the comparison less; the median of the runs is reported. Per-call times come from
a separate pass with a wall-clock timer around every call (its own overhead, about 0.1 us here, is
included), the fastest of TIMING_CHUNKS chunks of TIMING_GAMES games. RLCard's `step` also
builds the next player's state (`get_state`, which lists the legal actions again and copies the
played cards); that is its API, so it is counted.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable
from math import floor
from typing import Any

from core import actions as A
from core.actions import ActionType
from core.game import Game
from core.rules import Rules

PLAYERS = ["p1", "p2", "p3", "p4"]
RULES = dataclasses.replace(Rules.preset("classic"), target=1)
GAMES_PER_RUN = 100
RUNS = 101
TIMING_CHUNKS = 5
TIMING_GAMES = 200  # per chunk
PLAY = ActionType.PLAY
CHOOSE = ActionType.CHOOSE  # the first card is a wild: its color is chosen first
DRAW = A.DRAW


# ---------------------------------------------------------------------------------- ours


def play_ours(seed: int, rng: random.Random) -> int:
    """One game (one round) with the policy of the module docstring; returns its action count."""
    game = Game.new(PLAYERS, RULES, seed)
    random = rng.random
    legal_actions = game.legal_actions
    apply = game.apply
    steps = 0
    while game.round_winner is None:
        player = game.current_player
        legal = legal_actions(player)
        # The plays come first; most lists end with the draw right after them.
        plays = len(legal) - 1
        if legal[plays] is not DRAW:
            plays += 1  # count the plays from the end
            while plays and legal[plays - 1].type is not PLAY:
                plays -= 1
        if plays:
            action = legal[floor(random() * plays)]
        elif game.pending is not None:
            action = A.ACCEPT
        elif legal[0].type is CHOOSE:
            action = legal[floor(random() * len(legal))]  # choose the first wild's color
        elif game.has_drawn:
            action = A.PASS  # not reached: a playable drawn card is a play, else the turn passed
        else:
            action = DRAW
        apply(player, action)
        steps += 1
    return steps


def time_ours(games: int, first_seed: int) -> tuple[float, float, float]:
    """Mean seconds per call of `legal_actions` and of `apply`, and actions per game."""
    clock = time.perf_counter
    legal_time = apply_time = 0.0
    legal_calls = apply_calls = 0
    rng = random.Random(first_seed)
    for seed in range(first_seed, first_seed + games):
        game = Game.new(PLAYERS, RULES, seed)
        while game.round_winner is None:
            player = game.current_player
            t0 = clock()
            legal = game.legal_actions(player)
            t1 = clock()
            plays = len(legal) - 1
            if legal[plays] is not DRAW:
                plays += 1
                while plays and legal[plays - 1].type is not PLAY:
                    plays -= 1
            if plays:
                action = legal[floor(rng.random() * plays)]
            elif game.pending is not None:
                action = A.ACCEPT
            elif legal[0].type is CHOOSE:
                action = legal[floor(rng.random() * len(legal))]
            else:
                action = A.DRAW
            t2 = clock()
            game.apply(player, action)
            t3 = clock()
            legal_time += t1 - t0
            apply_time += t3 - t2
            legal_calls += 1
            apply_calls += 1
    return legal_time / legal_calls, apply_time / apply_calls, apply_calls / games


# ---------------------------------------------------------------------------------- RLCard


def rlcard_game(seed: int) -> Any:
    """A four-player `UnoGame` whose shuffles come from `seed`."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame()
    game.configure({"game_num_players": 4})
    game.np_random = np.random.RandomState(seed)
    return game


def play_theirs(game: Any, rng: random.Random) -> int:
    """One RLCard game, the current player uniform over `get_legal_actions()`."""
    random = rng.random
    game.init_game()
    is_over = game.is_over
    get_legal_actions = game.get_legal_actions
    step = game.step
    steps = 0
    while not is_over():
        legal = get_legal_actions()
        step(legal[floor(random() * len(legal))])
        steps += 1
    return steps


def time_theirs(games: int, first_seed: int) -> tuple[float, float, float]:
    """Mean seconds per call of `get_legal_actions` and of `step`, and actions per game."""
    clock = time.perf_counter
    legal_time = step_time = 0.0
    calls = 0
    rng = random.Random(first_seed)
    game = rlcard_game(first_seed)
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            t0 = clock()
            legal = game.get_legal_actions()
            t1 = clock()
            action = legal[floor(rng.random() * len(legal))]
            t2 = clock()
            game.step(action)
            t3 = clock()
            legal_time += t1 - t0
            step_time += t3 - t2
            calls += 1
    return legal_time / calls, step_time / calls, calls / games


# ---------------------------------------------------------------------------------- driver


def run_ours(run: int) -> float:
    rng = random.Random(run)
    first = run * GAMES_PER_RUN
    start = time.process_time()
    for seed in range(first, first + GAMES_PER_RUN):
        play_ours(seed, rng)
    return GAMES_PER_RUN / (time.process_time() - start)


def run_theirs(run: int) -> float:
    rng = random.Random(run)
    game = rlcard_game(run)
    start = time.process_time()
    for _ in range(GAMES_PER_RUN):
        play_theirs(game, rng)
    return GAMES_PER_RUN / (time.process_time() - start)


def per_call(timer: Callable[[int, int], tuple[float, float, float]]) -> tuple[float, float, float]:
    """The fastest of TIMING_CHUNKS timing chunks (the least disturbed by other processes)."""
    chunks = [timer(TIMING_GAMES, 10**6 + i * TIMING_GAMES) for i in range(TIMING_CHUNKS)]
    return (
        min(c[0] for c in chunks),
        min(c[1] for c in chunks),
        statistics.mean(c[2] for c in chunks),
    )


def main() -> int:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("RLCard is missing: install the bench extra (make bench does).", file=sys.stderr)
        return 1
    out: Callable[[str], None] = print
    out(
        f"{RUNS} pairs of runs x {GAMES_PER_RUN} four-player games each; "
        "ours: classic preset, one round (target=1)"
    )
    # One warm-up game each, so that imports and first-call costs stay out of the runs.
    play_ours(10**9, random.Random(0))
    play_theirs(rlcard_game(0), random.Random(0))
    ours: list[float] = []
    theirs: list[float] = []
    for run in range(RUNS):
        if run % 2:
            theirs.append(run_theirs(run))
            ours.append(run_ours(run))
        else:
            ours.append(run_ours(run))
            theirs.append(run_theirs(run))
        if run % 10 == 0 or run == RUNS - 1:
            out(f"  run {run + 1}: ours {ours[-1]:8.1f} games/s   rlcard {theirs[-1]:8.1f} games/s")
    our_rate = statistics.median(ours)
    their_rate = statistics.median(theirs)
    pairs = sorted(o / t for o, t in zip(ours, theirs, strict=True))
    legal_s, apply_s, our_steps = per_call(time_ours)
    their_legal_s, step_s, their_steps = per_call(time_theirs)
    out(f"ours:   {our_rate:8.1f} games/s (median), {our_steps:5.1f} actions/game")
    out(f"        legal_actions {legal_s * 1e6:6.2f} us/call, apply {apply_s * 1e6:6.2f} us/call")
    out(f"rlcard: {their_rate:8.1f} games/s (median), {their_steps:5.1f} actions/game")
    out(
        f"        get_legal_actions {their_legal_s * 1e6:6.2f} us/call, "
        f"step {step_s * 1e6:6.2f} us/call"
    )
    quartiles = statistics.quantiles(pairs)
    out(
        f"pairs:  ours over rlcard {quartiles[0]:.2f} (first quartile) to {quartiles[2]:.2f} "
        f"(third); ratio of the medians {our_rate / their_rate:.2f}"
    )
    out(f"ratio: {statistics.median(pairs):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
