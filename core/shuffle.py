"""Seeded randomness: every shuffle of a match is derived from its seed and a shuffle counter.

Not `random.Random(seed)`: seeding a Mersenne Twister costs more than two turns of play, its
shuffle is a Python loop, and its output for a seed is a CPython implementation detail. Here one
SHAKE-128 call gives all the numbers a shuffle needs, the same on every platform and version.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Iterator, Sequence
from operator import mod
from typing import TypeVar

T = TypeVar("T")

_WORD = 4  # bytes per random number
# The most significant byte of each little- or big-endian 4-byte word, and a table keeping its
# low 6 bits: numbers below 2**30 stay single-digit Python ints, the fast case of `%`.
_TOP = _WORD - 1 if sys.byteorder == "little" else 0
_LOW_6_BITS = bytes(b & 0x3F for b in range(256))
assert array("I").itemsize == _WORD
_ONE_UP = range(1, 1 << 20)  # 1, 2, 3, ...: `map` stops at the end of the numbers


def random_numbers(label: str, count: int) -> array[int]:
    """`count` uniform numbers below 2**30, fixed by `label`."""
    data = bytearray(hashlib.shake_128(label.encode()).digest(_WORD * count))
    data[_TOP::_WORD] = data[_TOP::_WORD].translate(_LOW_6_BITS)
    return array("I", data)


def shuffled(cards: Sequence[T], numbers: Sequence[int]) -> list[T]:
    """A uniformly shuffled copy of `cards`, driven by `numbers` (from `random_numbers`, at
    least one per card).

    The "inside-out" Fisher-Yates: card i is inserted at a uniform position among the i + 1
    places of the cards before it, which gives every order the same probability, in C-level
    `map` calls. Each position comes from a 30-bit number taken modulo at most 112, so no
    position is more likely than another by more than one part in ten million."""
    out: list[T] = []
    positions = map(mod, numbers, _ONE_UP)  # card i goes to one of the first i + 1 places
    # `any` only drives the C-level loop: `list.insert` returns None, so it never stops early.
    any(map(out.insert, positions, cards))
    return out


def more_numbers(label: str) -> Iterator[int]:
    """An endless stream of numbers below 2**30 following those of `label`, for draws of
    unknown count (the dealer draw, when its first numbers run out on ties)."""
    block = 1
    while True:
        yield from random_numbers(f"{label}:{block}", 24)
        block += 1
