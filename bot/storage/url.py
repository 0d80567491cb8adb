"""Choosing the storage adapter from the database setting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.port import StoragePort
from bot.storage.sqlite import SqliteStorage

_SQLITE = "sqlite:///"


def sqlite_path(url: str | Path) -> Path | None:
    """The file a SQLite database setting names, None for a server URL (or ``:memory:``)."""
    text = str(url)
    if text.startswith(_SQLITE):
        return Path(text.removeprefix(_SQLITE)) if len(text) > len(_SQLITE) else None
    if "://" in text or text == ":memory:":
        return None
    return Path(text)


async def open_storage(url: str | Path, **options: Any) -> StoragePort:
    """Open the storage that ``url`` names.

    A plain path (or ``:memory:``) and ``sqlite:///path`` are SQLite (``sqlite:///data/uno.db``
    is relative, ``sqlite:////srv/uno.db`` absolute); ``postgresql://user:password@host/db``
    (or ``postgres://``) is PostgreSQL, where several bot processes may share the database.
    ``options`` go to the adapter's ``open`` (``clock``, ``busy_timeout`` or ``lock_timeout``,
    ...).
    """
    text = str(url)
    scheme = text.partition("://")[0].lower() if "://" in text else ""
    if not scheme:
        return await SqliteStorage.open(text, **options)
    if text.startswith(_SQLITE):
        path = text.removeprefix(_SQLITE)
        if not path:
            raise ValueError(f"no database path in {text!r}")
        return await SqliteStorage.open(path, **options)
    if scheme in ("postgresql", "postgres"):
        from bot.storage.postgres import PostgresStorage  # asyncpg only when it is used

        return await PostgresStorage.open(text, **options)
    raise ValueError(
        f"unknown database URL {text!r}: expected a path, sqlite:///path or postgresql://..."
    )
