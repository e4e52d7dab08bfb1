"""``python -m bot.db``: the schema's migrations.

- ``python -m bot.db upgrade``: bring the database ``DATABASE_URL`` (or
  ``DATABASE_PATH``) names up to the newest step, as start-up does;
- ``python -m bot.db revision "what changes"``: write the next step's file, with what
  :mod:`bot.db.schema` has that a database at the newest step lacks (see
  :mod:`bot.db.migrations`).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
from pathlib import Path

import sqlalchemy as sa
from alembic import command

from bot.db import migrations
from bot.db.database import open_database


def _next_step() -> str:
    numbers = [
        int(m.group(1))
        for path in (migrations.HERE / "versions").glob("*.py")
        if (m := re.match(r"(\d{4})_", path.name))
    ]
    return f"{max(numbers, default=0) + 1:04d}"


def revision(message: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        engine = sa.create_engine(f"sqlite:///{Path(scratch) / 'head.sqlite3'}")
        with engine.begin() as conn:
            migrations.upgrade(conn)
            cfg = migrations.config(conn)
            command.revision(cfg, message, autogenerate=True, rev_id=_next_step())
        engine.dispose()


async def upgrade() -> None:
    from bot.config import DatabaseSettings

    db = await open_database(DatabaseSettings().database)
    print("at step", await db.schema_version())
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.db", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("upgrade", help="migrate the configured database")
    step = commands.add_parser("revision", help="write the next migration step")
    step.add_argument("message")
    args = parser.parse_args()
    if args.command == "revision":
        revision(args.message)
    else:
        asyncio.run(upgrade())


if __name__ == "__main__":
    main()
