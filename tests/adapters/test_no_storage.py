"""Adapters never touch storage: everything they need comes through the service (its use cases,
its views, `service.refs`). A grep over their sources and the platform-neutral modules below
them, so that a new shortcut fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = ("bot/telegram", "bot/discord", "bot/console", "bot/web")
NEUTRAL = (
    "bot/presentation/buttons.py",
    "bot/presentation/steps.py",
    "bot/presentation/notes.py",
    "bot/delivery/timer_loop.py",
    "bot/delivery/publisher.py",
    "bot/service/chat_keys.py",
)
# `service.storage`, `x.storage.method`, or importing the storage package or module.
FORBIDDEN = re.compile(r"\.storage\b|^\s*(from|import)\s+bot\.storage\b", re.MULTILINE)


def sources() -> list[Path]:
    files = [p for d in ADAPTERS for p in sorted((ROOT / d).rglob("*.py"))]
    return files + [ROOT / f for f in NEUTRAL]


def test_the_check_sees_the_adapters() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in sources()}
    assert {"bot/telegram/ui.py", "bot/discord/publisher.py", "bot/console/table.py"} <= names
    assert FORBIDDEN.search("refs = await self.service.storage.refs(game_id)")
    assert FORBIDDEN.search("from bot.storage import Storage")
    assert not FORBIDDEN.search("await self.service.refs.get(game_id, key)")


def test_no_adapter_touches_the_storage() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}: {m.group(0)!r}"
        for path in sources()
        for text in [path.read_text(encoding="utf-8")]
        for m in FORBIDDEN.finditer(text)
    ]
    assert found == []
