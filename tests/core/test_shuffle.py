"""The seeded shuffle: a permutation, uniform, and the same on every run of every process."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

from core.game import Game
from core.rules import Rules
from core.shuffle import more_numbers, random_numbers, shuffled

ROOT = Path(__file__).resolve().parents[2]


def _chi_square(counts: Counter[object], cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(k, 0) - expected) ** 2 / expected for k in range(cells))


def test_numbers_are_fixed_by_their_label_and_below_2_to_the_30() -> None:
    a = list(random_numbers("7:0", 200))
    assert a == list(random_numbers("7:0", 200))
    assert a != list(random_numbers("7:1", 200))
    assert a[:50] == list(random_numbers("7:0", 50))  # a longer stream extends a shorter one
    assert all(0 <= n < 2**30 for n in a)
    assert max(a) > 2**29  # all 30 bits are used


def test_the_extra_stream_never_repeats_the_first_numbers() -> None:
    stream = more_numbers("7:0")
    extra = [next(stream) for _ in range(100)]
    assert not set(extra) & set(random_numbers("7:0", 200))
    assert len(set(extra)) == 100


def test_a_shuffle_is_a_permutation() -> None:
    cards = list(range(112))
    for label in range(50):
        out = shuffled(cards, random_numbers(str(label), len(cards)))
        assert sorted(out) == cards
    assert cards == list(range(112))  # the input is left alone


def test_every_order_of_four_cards_is_equally_likely() -> None:
    """24 orders, 24,000 shuffles: a chi-square test at the 0.1% level (23 degrees of freedom)."""
    cards = ["a", "b", "c", "d"]
    orders = sorted({tuple(p) for p in _permutations(cards)})
    seen = Counter(
        orders.index(tuple(shuffled(cards, random_numbers(f"four:{i}", 4)))) for i in range(24_000)
    )
    assert len(seen) == 24
    assert _chi_square(seen, 24, 24_000) < 49.7


def test_each_card_lands_anywhere_in_a_full_deck() -> None:
    """Where the first and the last card of 108 end up, in 12 bands, over 12,000 shuffles."""
    cards = list(range(108))
    first: Counter[object] = Counter()
    last: Counter[object] = Counter()
    for i in range(12_000):
        out = shuffled(cards, random_numbers(f"deck:{i}", 108))
        first[out.index(0) // 9] += 1
        last[out.index(107) // 9] += 1
    for bands in (first, last):
        assert _chi_square(bands, 12, 12_000) < 31.3  # 0.1% level, 11 degrees of freedom


def _permutations(items: list[str]) -> list[list[str]]:
    if len(items) <= 1:
        return [items]
    return [
        [x, *rest]
        for i, x in enumerate(items)
        for rest in _permutations(items[:i] + items[i + 1 :])
    ]


def _replay(preset: str, seed: int) -> str:
    """A seeded random five-player match of 400 moves (or to its end), as JSON."""
    game = Game.new(["a", "b", "c", "d", "e"], Rules.preset(preset), seed)
    rng = random.Random(seed)
    for _ in range(400):
        if game.is_over:
            break
        moves = [(p, x) for p in game.players for x in game.legal_actions(p)]
        game.apply(*moves[rng.randrange(len(moves))])
    return json.dumps(game.to_dict(), sort_keys=True)


def test_a_seed_replays_the_same_match_in_any_process() -> None:
    """Stored games are replayed by other processes: nothing may depend on hash randomization
    (string and enum hashes differ between processes) or on memory addresses."""
    for preset, seed in (("classic", 11), ("house", 12), ("minecraft", 13)):
        code = f"from tests.core.test_shuffle import _replay; print(_replay({preset!r}, {seed}))"
        runs = [
            subprocess.run(
                [sys.executable, "-c", code],
                cwd=ROOT,
                env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
            for hash_seed in (1, 2, 3)
        ]
        assert runs == [_replay(preset, seed)] * 3


def test_chi_square_helper_sees_a_biased_source() -> None:
    """The bounds above can fail: a shuffle that never moves the first card is caught."""
    counts: Counter[object] = Counter({0: 12_000})
    assert _chi_square(counts, 12, 12_000) > 31.3
    assert math.isfinite(_chi_square(Counter(), 12, 12_000))
