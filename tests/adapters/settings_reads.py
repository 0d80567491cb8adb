"""Counting the settings reads of an update on both sides of the service: the service's own, through
its settings store (`SettingsStore.chat`, `.personal`), and the adapter's, through the use cases
it may call for them (`service.settings.settings`, `.personal`). An outcome carries what publishing
it needs (`bot.service.in_force`), so an adapter publishing one reads none itself."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bot.service import Service


@contextmanager
def settings_reads(service: Service) -> Iterator[Counter[str]]:
    """Count the reads while the block runs: "service.chat", "service.personal" (the store's),
    "adapter.settings", "adapter.personal" (the use cases'); the methods are put back after."""
    counts: Counter[str] = Counter()
    wrapped = [
        (service.uow.settings, "chat", "service.chat"),
        (service.uow.settings, "personal", "service.personal"),
        (service.settings, "settings", "adapter.settings"),
        (service.settings, "personal", "adapter.personal"),
    ]
    for target, name, label in wrapped:
        real = getattr(target, name)

        @functools.wraps(real)
        async def counted(*args: Any, _real: Any = real, _label: str = label, **kw: Any) -> Any:
            counts[_label] += 1
            return await _real(*args, **kw)

        setattr(target, name, counted)
    try:
        yield counts
    finally:
        for target, name, _ in wrapped:
            delattr(target, name)
