"""Durable storage for games, the outbox, deadlines, settings, statistics, refs and send budgets.

:mod:`bot.storage.port` says what every adapter promises (the data types, the errors and one
protocol per concern, which :class:`StoragePort` combines); :mod:`bot.storage.sqlite` is the
embedded default and :mod:`bot.storage.postgres` the one several bot processes can share.
:func:`open_storage` picks the adapter from the database setting.
"""

from bot.storage.port import (
    STATUSES,
    DatabaseInUse,
    DeadlineStorage,
    GameExists,
    GameNotFound,
    GameRecord,
    GameStorage,
    LogEntry,
    MatchRecord,
    OutboxEntry,
    OutboxStorage,
    PlayerResult,
    RefStorage,
    SchemaTooNew,
    SendBudgetStorage,
    SendSlot,
    SettingsStorage,
    StatisticsStorage,
    StatRow,
    StorageError,
    StorageLifecycle,
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
    "DeadlineStorage",
    "GameExists",
    "GameNotFound",
    "GameRecord",
    "GameStorage",
    "LogEntry",
    "MatchRecord",
    "OutboxEntry",
    "OutboxStorage",
    "PlayerResult",
    "RefStorage",
    "SchemaTooNew",
    "SendBudgetStorage",
    "SendSlot",
    "SettingsStorage",
    "SqliteStorage",
    "StatRow",
    "StatisticsStorage",
    "Storage",
    "StorageError",
    "StorageLifecycle",
    "StoragePort",
    "VersionConflict",
    "WriteStats",
    "open_storage",
    "sqlite_path",
]
