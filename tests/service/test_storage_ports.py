"""Each service module types its storage with the narrow ports it uses (`bot.storage.port`), so
a reader sees what each use case needs; only the wiring (`bot.service.__init__`) names the
whole `StoragePort`."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[2] / "bot" / "service"
PORTS = {
    "GameStorage",
    "OutboxStorage",
    "DeadlineStorage",
    "SettingsStorage",
    "StatisticsStorage",
    "RefStorage",
    "SendBudgetStorage",
    "ChangeStorage",
    "StorageLifecycle",
    "StoragePort",
}


def ports_named(path: Path) -> set[str]:
    """The storage ports a module imports."""
    return {
        alias.name
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.storage")
        for alias in node.names
        if alias.name in PORTS
    }


def test_each_module_names_only_the_ports_it_uses() -> None:
    named = {path.stem: ports_named(path) for path in sorted(SERVICE.glob("*.py"))}
    assert named.pop("__init__") == {"StoragePort"}
    assert {module: ports for module, ports in named.items() if ports} == {
        "unit_of_work": {"GameStorage"},
        "outbox": {"OutboxStorage"},
        "clock": {"DeadlineStorage"},
        "settings_store": {"SettingsStorage"},
        "statistics": {"StatisticsStorage"},
        "refs": {"RefStorage"},
        "send_budget": {"SendBudgetStorage"},
        "changes": {"ChangeStorage"},
    }
