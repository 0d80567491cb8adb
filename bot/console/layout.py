"""Fitting lines to a terminal: items laid out in rows, long lines wrapped.

Card labels are mostly emoji, which a terminal draws two columns wide, so `len()` is no measure
of a line: `wcwidth` counts columns the way terminals do.
"""

from __future__ import annotations

from collections.abc import Sequence

import wcwidth
from wcwidth import width

__all__ = ["COLUMNS", "ROWS", "flow", "grid", "width", "wrap"]

COLUMNS = 80
ROWS = 24
GAP = "   "


def flow(items: Sequence[str], columns: int = COLUMNS, indent: str = "") -> list[str]:
    """The items in as few lines as fit in `columns`, separated by a gap, in order."""
    lines: list[str] = []
    line = ""
    for item in items:
        candidate = item if not line else line + GAP + item
        if line and width(indent + candidate) > columns:
            lines.append(indent + line)
            candidate = item
        line = candidate
    if line:
        lines.append(indent + line)
    return lines


def wrap(text: str, columns: int = COLUMNS, indent: str = "  ") -> list[str]:
    """One long line as several of at most `columns`, broken between words; the lines after
    the first are indented (a word longer than a line stays whole)."""
    lines = wcwidth.wrap(
        text, columns, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
    return lines or [text]


def grid(items: Sequence[str], columns: int = COLUMNS) -> list[str]:
    """The items row by row in aligned columns, as many columns as fit in `columns` (each
    column as wide as its widest item, like `ls`)."""
    count = len(items)
    for per_line in range(count, 0, -1):
        widths = [max(width(items[i]) for i in range(c, count, per_line)) for c in range(per_line)]
        if sum(widths) + len(GAP) * (per_line - 1) <= columns or per_line == 1:
            break
    else:
        return []
    lines = []
    for start in range(0, count, per_line):
        row = items[start : start + per_line]
        cells = [item + " " * (widths[i] - width(item)) + GAP for i, item in enumerate(row)]
        lines.append("".join(cells).rstrip())
    return lines
