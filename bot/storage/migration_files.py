"""The migration scripts shipped for a backend: `migrations/<backend>/NNNN_name.sql`.

Both adapters read them here, so what counts as a migration file and the check that they are
numbered 1..n without gaps are one rule. How a script is run is each backend's own business.
"""

from __future__ import annotations

import re
from importlib.resources import files
from typing import Final

_FILE: Final = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


def scripts(backend: str) -> tuple[str, ...]:
    """The backend's scripts in order (package data); ValueError unless numbered 1..n."""
    folder = files("bot.storage").joinpath("migrations", backend)
    found: dict[int, str] = {}
    for item in folder.iterdir():
        match = _FILE.fullmatch(item.name)
        if match is None:
            continue
        number = int(match.group(1))
        if number in found:
            raise ValueError(f"two {backend} migrations numbered {number}")
        found[number] = item.read_text(encoding="utf-8")
    if sorted(found) != list(range(1, len(found) + 1)):
        raise ValueError(f"{backend} migrations are not numbered 1..n: {sorted(found)}")
    return tuple(found[n] for n in sorted(found))
