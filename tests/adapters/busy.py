"""Reads of the committed state refused as busy (the process too loaded to run them within
their patience) a given number of times before they are made, in every process a test starts."""

from __future__ import annotations

from typing import Any

import pytest

from bot.delivery import publisher
from bot.service import Outcome
from bot.service.queries import Queries
from bot.service.unit_of_work import BUSY


def refuse_first(monkeypatch: pytest.MonkeyPatch, **times: int) -> list[str]:
    """`Queries`' reads named (`table=1, hand=2`) refused that many times each; the reads made
    again after a refusal do not pause. The list returned names each refusal made."""
    refused: list[str] = []
    for name, count in times.items():
        original = getattr(Queries, name)
        left = [count]

        async def read(
            self: Queries,
            *args: Any,
            _name: str = name,
            _left: list[int] = left,
            _original: Any = original,
            **kw: Any,
        ) -> Outcome:
            if _left[0] > 0:
                _left[0] -= 1
                refused.append(_name)
                return Outcome("", "ru", error=BUSY)
            out: Outcome = await _original(self, *args, **kw)
            return out

        monkeypatch.setattr(Queries, name, read)
    monkeypatch.setattr(publisher, "READ_WAIT", 0.0)
    return refused
