"""The multi-process tests use the tests' private PostgreSQL server."""

from tests.storage.postgres_server import pg_server, postgres_url

__all__ = ["pg_server", "postgres_url"]
