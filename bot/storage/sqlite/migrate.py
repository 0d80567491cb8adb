"""Schema migrations: ``bot/storage/migrations/sqlite/NNNN_name.sql``, applied in order.

``PRAGMA user_version`` counts the files already applied; opening a database applies the
pending ones, all in ONE transaction, so a database is always at some whole version.  A
shipped file must never be edited -- databases in the wild have already run it; add a new
one with the next number instead.

A file holds several statements.  They are run one by one, not with ``executescript()``,
because that commits any open transaction first, which would break "all pending migrations or
none"; sqlite3's own ``complete_statement`` finds where each statement ends.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from bot.storage.migration_files import scripts
from bot.storage.port import SchemaTooNew

Migration = tuple[str, ...]


def split_statements(script: str) -> Migration:
    """The SQL statements of ``script``, in order, each without its comments before it and
    its final semicolon.

    A semicolon inside a string, a comment or a trigger body does not end a statement:
    ``sqlite3.complete_statement`` is SQLite's own tokenizer deciding.
    """
    statements: list[str] = []
    *pieces, rest = script.split(";")  # rest: whatever follows the last semicolon
    pending = ""
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statement = _without_leading_comments(pending.removesuffix(";"))
            if statement:
                statements.append(statement)
            pending = ""
    if _without_leading_comments(pending + rest):
        raise ValueError(f"unterminated SQL statement: {pending.strip()[:60]!r}")
    return tuple(statements)


def _without_leading_comments(text: str) -> str:
    lines = text.strip().splitlines()
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("--")):
        lines.pop(0)
    return "\n".join(lines).strip()


def load(backend: str = "sqlite") -> tuple[Migration, ...]:
    """The migrations shipped for ``backend``, each split into its statements."""
    return tuple(split_statements(script) for script in scripts(backend))


MIGRATIONS: tuple[Migration, ...] = load()
"""``MIGRATIONS[i]`` takes the schema from ``user_version`` i to i + 1."""

SCHEMA_VERSION: Final = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema up to date, all pending steps in one transaction (connection thread).

    The up-to-date case only reads ``user_version`` and takes no write lock, so restarting
    never stalls behind another connection's commit.  Otherwise the version is re-read under
    ``BEGIN IMMEDIATE`` because another process may have migrated while we waited for the lock.
    A migration may rebuild a table that others refer to (0005): foreign keys are off while
    the migrations run (the pragma is a no-op inside a transaction) and checked as a whole
    before ``COMMIT``.
    """
    migrations = MIGRATIONS  # looked up at call time so tests can substitute a broken list
    target = len(migrations)
    if _user_version(conn) == target:
        return
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        conn.execute("BEGIN IMMEDIATE")
        current = _user_version(conn)
        if current > target:
            raise SchemaTooNew(
                f"database schema is version {current}, this code only knows {target}"
            )
        for migration in migrations[current:]:
            for statement in migration:
                conn.execute(statement)
        broken = conn.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise sqlite3.IntegrityError(f"a migration broke foreign keys: {broken[:3]}")
        # PRAGMA does not accept bound parameters; target is an int we computed.
        conn.execute(f"PRAGMA user_version = {target:d}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.execute("PRAGMA foreign_keys = ON")


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])
