"""The sizes docs/architecture.md promises a newcomer: small modules, small classes, and a `bot/`
whose top level holds only the start and the configuration (everything else is in a package
named for its role)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULE_LINES = 500
CLASS_LINES = 300
TOP_MODULES = 4  # directly in bot/, besides __init__.py and __main__.py


def sources() -> list[Path]:
    return sorted(p for package in ("bot", "core") for p in (ROOT / package).rglob("*.py"))


def long_classes(source: str, limit: int) -> list[str]:
    """The classes of `source` longer than `limit` lines, with their length."""
    return [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    ]


def test_no_module_is_over_500_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in sources()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert not long, long


def test_no_class_is_over_300_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): found
        for p in sources()
        if (found := long_classes(p.read_text(encoding="utf-8"), CLASS_LINES))
    }
    assert not long, long


def test_bot_keeps_at_most_four_loose_modules() -> None:
    loose = sorted(
        p.name for p in (ROOT / "bot").glob("*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert len(loose) <= TOP_MODULES, loose


@pytest.mark.parametrize(("lines", "found"), [(300, []), (301, ["Big (301 lines)"])])
def test_a_long_class_is_found(lines: int, found: list[str]) -> None:
    body = "\n".join(["class Big:"] + ["    x = 1"] * (lines - 1))
    assert long_classes(body, CLASS_LINES) == found
