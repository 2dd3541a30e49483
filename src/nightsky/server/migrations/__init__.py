"""The database's schema history (Alembic). ``Store`` calls ``upgrade`` at start-up, so a
database made by any earlier nightsky is brought up to date automatically.

Revisions live in ``versions/`` (``0001_baseline``: the ``games`` and ``moves`` tables as
nightsky 0.x made them, the old "add the missing nullable columns" upgrade folded in;
``0002_accounts``: the accounts' tables; ``0003_club``: ratings, friends,
tournaments). A new revision: add ``versions/NNNN_what.py`` with
``down_revision`` set to the current head (``HEAD`` below) and move ``HEAD`` to it; the test
``tests/server/test_migrations.py`` checks that the models and the revisions agree.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Connection

HEAD = "0003_club"
"""The newest revision: what ``upgrade`` brings every database to."""

PG_LOCK = 74951
"""The PostgreSQL advisory lock taken around the upgrade: several server processes starting
at once upgrade one after the other (the later ones find nothing left to do)."""


def config(conn: Connection) -> object:
    """The Alembic configuration that runs this package's revisions on ``conn``."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent))
    cfg.attributes["connection"] = conn
    return cfg


def upgrade(conn: Connection, revision: str = "head") -> None:
    """Upgrade the database of ``conn`` (inside its open transaction) to ``revision``."""
    from alembic import command

    if conn.dialect.name == "postgresql":
        # Held to the end of the transaction: other processes wait, then find it done.
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_LOCK})")
    command.upgrade(config(conn), revision)  # type: ignore[arg-type]


def current(conn: Connection) -> str | None:
    """The revision the database of ``conn`` is at (None: never upgraded by Alembic)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()
