"""The dependency rule of docs/architecture.md, checked on the import graph of `core` and `bot`.

The graph counts every import statement anywhere in a file, those under `TYPE_CHECKING` and
inside functions too: an import that only the type checker follows still ties the two modules'
designs together, so it may not break a layer or close a circle either.
"""

from __future__ import annotations

import graphlib
from functools import cache

import grimp
import pytest

ADAPTERS = ("bot.telegram", "bot.discord", "bot.console", "bot.web")

# What each layer may import besides itself (docs/architecture.md says why).
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "bot.storage": frozenset({"core"}),
    "bot.service": frozenset({"core", "bot.storage"}),
    "bot.presentation": frozenset({"core", "bot.service"}),
    "bot.art": frozenset({"core", "bot.presentation"}),
    "bot.delivery": frozenset({"core", "bot.service", "bot.presentation"}),
    "bot.config": frozenset({"bot.service"}),
    **{
        adapter: frozenset(
            {"core", "bot.service", "bot.presentation", "bot.art", "bot.delivery", "bot.config"}
        )
        for adapter in ADAPTERS
    },
}
TOP = "bot.__main__"  # the start wires everything together, so it may import anything


@cache
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("bot", "core", exclude_type_checking_imports=False)


def layer(module: str) -> str | None:
    """The layer a module belongs to: the longest name of ALLOWED (or TOP) it is inside."""
    names = [*ALLOWED, TOP]
    inside = [n for n in names if module == n or module.startswith(n + ".")]
    return max(inside, key=len) if inside else None


def edges() -> list[tuple[str, str]]:
    g = graph()
    return [
        (importer, imported)
        for importer in sorted(g.modules)
        for imported in sorted(g.find_modules_directly_imported_by(importer))
    ]


def test_every_module_belongs_to_a_layer() -> None:
    loose = sorted(m for m in graph().modules if m != "bot" and layer(m) is None)
    assert not loose, f"modules outside every layer of docs/architecture.md: {loose}"


def test_each_layer_imports_only_what_it_may() -> None:
    broken = []
    for importer, imported in edges():
        source, target = layer(importer), layer(imported)
        if source is None or target is None or source in (target, TOP):
            continue
        if target not in ALLOWED[source]:
            broken.append(f"{importer} -> {imported}")
    assert not broken, "imports against the dependency rule:\n" + "\n".join(broken)


def circles() -> list[list[str]]:
    """Every import circle, each as a list of modules where each imports the next.

    `graphlib` names one circle at a time; the circle's closing import is set aside and the
    search goes on, so that a failure lists them all, not the first one found.
    """
    dependencies: dict[str, set[str]] = {m: set() for m in graph().modules}
    for importer, imported in edges():
        dependencies[importer].add(imported)
    found = []
    while True:
        try:
            tuple(graphlib.TopologicalSorter(dependencies).static_order())
        except graphlib.CycleError as error:
            circle = list(reversed(error.args[1]))
            found.append(circle)
            dependencies[circle[-2]].discard(circle[-1])
        else:
            return found


def test_no_import_circle() -> None:
    found = circles()
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


@pytest.mark.parametrize(
    ("importer", "imported", "allowed"),
    [
        ("bot.telegram.app", "bot.storage.port", False),
        ("bot.telegram.app", "bot.discord.app", False),
        ("bot.service.lobby", "bot.presentation.render", False),
        ("bot.presentation.render", "bot.service.views", True),
        ("bot.__main__", "bot.storage", True),
        ("bot.discord.publisher", "bot.delivery.publisher", True),
        ("bot.telegram.ui", "bot.delivery.publisher", True),
        ("bot.delivery.publisher", "bot.telegram.sender", False),
        ("bot.delivery.publisher", "bot.discord.message_ops", False),
    ],
)
def test_the_rule_tells_allowed_from_forbidden(importer: str, imported: str, allowed: bool) -> None:
    source, target = layer(importer), layer(imported)
    assert source is not None and target is not None
    assert (source == TOP or target in ALLOWED[source]) is allowed
