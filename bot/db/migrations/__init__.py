"""The schema's migrations (Alembic), run on start-up on both back ends.

Each file in ``versions/`` is one step, numbered ``0001``, ``0002``, …; the database
records the last step it has run (Alembic's ``alembic_version`` table) and start-up
runs the ones after it (:func:`upgrade`). To add a step, change :mod:`bot.db.schema`
and write the step that gets a database there::

    python -m bot.db revision "move log"

writes ``versions/NNNN_move_log.py`` (the next number) with the differences Alembic
finds against an empty SQLite database brought to the newest step; check it, and
keep it working on SQLite (changes inside ``op.batch_alter_table``) and PostgreSQL.
``tests/bot/test_migrations.py`` runs every step on both and checks that the result
is what :mod:`bot.db.schema` says.

Files made before Alembic kept their step in a ``schema_version`` table (steps 1 to
4, the same as ``0001`` to ``0004`` here): such a file is marked as at that step and
goes on from there.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

__all__ = ["LEGACY_STEPS", "config", "current", "head", "upgrade"]

HERE = Path(__file__).resolve().parent
LEGACY_STEPS = {1: "0001", 2: "0002", 3: "0003", 4: "0004"}
"""A ``schema_version`` of a file made before Alembic: the step it stands for."""


def config(connection: sa.Connection | None = None) -> Config:
    """Alembic's settings: the scripts here, run on ``connection`` when given."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest step."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(connection: sa.Connection) -> str | None:
    """The step the database is at (``None``: none yet)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: sa.Connection) -> None:
    """Run the steps the database has not run yet, inside the caller's transaction."""
    cfg = config(connection)
    names = set(sa.inspect(connection).get_table_names())
    if "schema_version" in names and "alembic_version" not in names:
        legacy = connection.execute(sa.text("SELECT MAX(version) FROM schema_version")).scalar()
        if legacy:
            if legacy not in LEGACY_STEPS:
                raise RuntimeError(f"the database is at step {legacy}, unknown to this version")
            command.stamp(cfg, LEGACY_STEPS[legacy])
        connection.execute(sa.text("DROP TABLE schema_version"))
    command.upgrade(cfg, "head")
