"""The SQLite adapter: :class:`SqliteStorage` (also known as ``Storage``) and its parts."""

from bot.storage.sqlite.adapter import SqliteStorage, Storage
from bot.storage.sqlite.group_commit import DEFAULT_MAX_BATCH, WriteStats
from bot.storage.sqlite.migrate import MIGRATIONS, SCHEMA_VERSION

__all__ = [
    "DEFAULT_MAX_BATCH",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SqliteStorage",
    "Storage",
    "WriteStats",
]
