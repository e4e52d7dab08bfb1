"""Alembic's entry: runs the migrations on the connection the bot hands over
(:func:`bot.db.migrations.upgrade`), or, from the ``alembic`` command line, on the
database ``DATABASE_URL`` names (with a synchronous driver)."""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import context

from bot.db.schema import metadata

config = context.config
connection = config.attributes.get("connection")


def run(connection: sa.Connection) -> None:
    # batch mode: SQLite changes a table by copying it into a new one where it cannot
    # ALTER it in place; on PostgreSQL the batch is plain ALTER TABLE statements
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    run(connection)
else:
    url = sa.make_url(os.environ.get("DATABASE_URL", "sqlite:///data/bot.sqlite3"))
    sync = {"sqlite+aiosqlite": "sqlite", "postgresql+asyncpg": "postgresql+psycopg"}
    url = url.set(drivername=sync.get(url.drivername, url.drivername))
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    with engine.begin() as conn:
        run(conn)
    engine.dispose()
