"""Fitting lines to a terminal: how many columns a text takes, and items laid out in rows.

Card labels are mostly emoji, which a terminal draws two columns wide, so `len()` is no measure
of a line; `width` counts the way terminals do (East Asian wide and full-width characters take
two columns, combining marks and variation selectors none).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

COLUMNS = 80
ROWS = 24
GAP = "   "

_ZERO_WIDTH = frozenset("\u200d\ufe0e")
_EMOJI_STYLE = "\ufe0f"  # turns a narrow symbol (▶, ⚖) into a two-column emoji


def width(text: str) -> int:
    """The columns `text` takes in a terminal (one line)."""
    total = 0
    for ch in text:
        if ch in _ZERO_WIDTH or unicodedata.combining(ch):
            continue
        if ch == _EMOJI_STYLE:
            total += 1  # at most one column too many after an already wide character
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


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


def grid(items: Sequence[str], columns: int = COLUMNS) -> list[str]:
    """The items in aligned columns, as many a line as fit in `columns`, row by row."""
    if not items:
        return []
    cell = max(width(item) for item in items) + len(GAP)
    per_line = max(1, (columns + len(GAP)) // cell)
    lines = []
    for start in range(0, len(items), per_line):
        row = items[start : start + per_line]
        padded = [item + " " * (cell - width(item)) for item in row[:-1]] + [row[-1]]
        lines.append("".join(padded))
    return lines
