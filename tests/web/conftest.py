"""The web table's tests: the tests' private PostgreSQL server for the feed and the workers."""

from tests.storage.postgres_server import pg_server, postgres_url

__all__ = ["pg_server", "postgres_url"]
