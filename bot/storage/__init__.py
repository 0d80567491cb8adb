"""Durable storage for games, settings, adapter refs and statistics, behind one port.

:mod:`bot.storage.port` says what every adapter promises (the data types, the errors and the
:class:`StoragePort` protocol); :mod:`bot.storage.sqlite` is the embedded default and
:mod:`bot.storage.postgres` the one several bot processes can share.
:func:`open_storage` picks the adapter from the database setting.
"""

from bot.storage.port import (
    STATUSES,
    DatabaseInUse,
    GameExists,
    GameNotFound,
    GameRecord,
    LogEntry,
    MatchRecord,
    OutboxEntry,
    PlayerResult,
    SchemaTooNew,
    SendSlot,
    StatRow,
    StorageError,
    StoragePort,
    VersionConflict,
)
from bot.storage.sqlite import (
    DEFAULT_MAX_BATCH,
    MIGRATIONS,
    SCHEMA_VERSION,
    SqliteStorage,
    Storage,
    WriteStats,
)
from bot.storage.url import open_storage, sqlite_path

__all__ = [
    "DEFAULT_MAX_BATCH",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "STATUSES",
    "DatabaseInUse",
    "GameExists",
    "GameNotFound",
    "GameRecord",
    "LogEntry",
    "MatchRecord",
    "OutboxEntry",
    "PlayerResult",
    "SchemaTooNew",
    "SendSlot",
    "SqliteStorage",
    "StatRow",
    "Storage",
    "StorageError",
    "StoragePort",
    "VersionConflict",
    "WriteStats",
    "open_storage",
    "sqlite_path",
]
