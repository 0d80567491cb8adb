"""Counting what an adapter's update costs the storage: every coroutine method of a `Storage`
object wrapped with a counter, its arguments kept.

Shared by both platforms' tests of one move's storage calls and by the forged-button tests (no
id out of range may reach the storage)."""

from __future__ import annotations

import functools
import inspect
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

SETTINGS_READS = ("get_settings",)
REFS_READS = ("get_ref", "refs")


@dataclass
class Calls:
    counts: Counter[str] = field(default_factory=Counter)
    args: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)

    def reset(self) -> None:
        self.counts.clear()
        self.args.clear()

    @property
    def settings_reads(self) -> int:
        return sum(self.counts[name] for name in SETTINGS_READS)

    @property
    def refs_reads(self) -> int:
        return sum(self.counts[name] for name in REFS_READS)

    def ints(self) -> list[int]:
        """Every int argument the storage was called with."""
        return [a for _, args in self.args for a in args if isinstance(a, int)]


@contextmanager
def counting(storage: Any) -> Iterator[Calls]:
    """Count the storage's calls while the block runs (the methods are put back after)."""
    calls = Calls()
    names = [
        name
        for name, member in inspect.getmembers(type(storage))
        if not name.startswith("_") and inspect.iscoroutinefunction(member)
    ]
    # A renamed method would make every count 0 and every test pass: fail instead.
    missing = [n for n in (*SETTINGS_READS, *REFS_READS) if n not in names]
    assert not missing, f"the storage has no {missing}: update the counting"
    for name in names:
        method = getattr(storage, name)

        @functools.wraps(method)
        async def counted(*args: Any, __name: str = name, __method: Any = method, **kw: Any) -> Any:
            calls.counts[__name] += 1
            calls.args.append((__name, args))
            return await __method(*args, **kw)

        setattr(storage, name, counted)
    try:
        yield calls
    finally:
        for name in names:
            delattr(storage, name)
