"""The PostgreSQL adapter: :class:`PostgresStorage`, for several bot processes over one database."""

from bot.storage.postgres.adapter import PostgresStorage
from bot.storage.postgres.migrate import MIGRATIONS, SCHEMA_VERSION

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "PostgresStorage"]
