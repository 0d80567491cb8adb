"""The modules of `core` import each other without a circle.

Every `import` and `from ... import` in a file counts, wherever it stands: at the top, under
`if TYPE_CHECKING:`, or inside a function. `from package import name` counts as an import of the
package, and of `package.name` too when that is a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

Graph = dict[str, set[str]]


def modules(package: str) -> dict[str, Path]:
    """Every module of `package` (a folder under ROOT) by its dotted name."""
    found: dict[str, Path] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(path: Path) -> set[str]:
    """The dotted names `path` imports anywhere in its text."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def graph(package: str) -> Graph:
    """Who imports whom among the modules of `package`."""
    found = modules(package)
    return {name: imports(path) & found.keys() for name, path in found.items()}


def cycle(edges: Graph) -> list[str] | None:
    """One circle of imports (its first module repeated at the end), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt in path:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in done:
                found = visit(nxt)
                if found is not None:
                    return found
        path.pop()
        done.add(node)
        return None

    for start in sorted(edges):
        if start not in done:
            found = visit(start)
            if found is not None:
                return found
    return None


def test_core_has_no_import_circle() -> None:
    edges = graph("core")
    assert "core.state" in edges["core.phases"]  # the walk sees the rule modules' imports
    assert cycle(edges) is None, " -> ".join(cycle(edges) or [])


def test_a_circle_is_found() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"a"}}) == ["a", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_imports_inside_functions_and_type_checking_count(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from core.game import Game\n"
        "def f() -> None:\n"
        "    import core.rounds\n"
        "    from core import piles\n"
    )
    assert {"core.game", "core.rounds", "core", "core.piles"} <= imports(source)
