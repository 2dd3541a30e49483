"""Alembic's environment: run on the connection ``nightsky.server.migrations.upgrade`` hands
over (never from an ini file: the server's database URL is the only one)."""

from __future__ import annotations

from alembic import context

import nightsky.server.accounts.tables  # noqa: F401  (its models join the metadata)
import nightsky.server.club.tables  # noqa: F401  (the club's too)
from nightsky.server.store import Base


def run() -> None:
    """Run the revisions on the connection the caller put in the config."""
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite alters tables by copying them (batch mode).
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file with its context set up; a plain import (a test importing every
# module) only defines ``run``.
if hasattr(context, "config"):
    run()
