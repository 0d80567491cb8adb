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


def wrap(text: str, columns: int = COLUMNS, indent: str = "  ") -> list[str]:
    """One long line as several of at most `columns`, broken between words; the lines after
    the first are indented (a word longer than a line stays whole)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = word if not line else line + " " + word
        if line and width(candidate) > columns:
            lines.append(line)
            candidate = indent + word
        line = candidate
    lines.append(line)
    return lines


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
