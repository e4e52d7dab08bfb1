"""The database: a SQLAlchemy async engine on SQLite (the default) or PostgreSQL.

``DATABASE_URL`` chooses: ``sqlite+aiosqlite:///data/bot.sqlite3`` (the default, a file
beside the bot) or ``postgresql+psycopg://user:password@host/dbname``. The schema is
brought up to date on open (:mod:`bot.db.migrations`).

Every statement the repositories run is committed as it runs (the engine is in
autocommit mode): each is one change that stands on its own, and a transaction
around it would cost SQLite two more hand-overs to its thread and PostgreSQL two more
round trips. Changes that must be made together go through :meth:`Database.transaction`,
which begins one the same way on both.

SQLite has one connection, kept open and lent to one caller at a time in the order
they asked: SQLite has one writer anyway, a read asked for after a write reads what it
wrote (the repositories' memory relies on it), and each statement is spared the
hand-overs to SQLite's thread that taking a connection from the pool and giving it back
cost. WAL mode lets another process read meanwhile. PostgreSQL's connections come
from a pool.

On PostgreSQL, where replicas share the database, :meth:`Database.hold` holds
one transaction open for what a task does inside it: every statement the task runs
there goes through that transaction's connection, so a row locked at its start
(``SELECT … FOR UPDATE``) stays locked until it ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.db import migrations

__all__ = [
    "DEFAULT_URL",
    "Database",
    "DatabaseOptions",
    "RolledBack",
    "database_url",
    "open_database",
]

log = logging.getLogger(__name__)

DEFAULT_URL = "sqlite+aiosqlite:///data/bot.sqlite3"
_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+pysqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+psycopg",
    "postgresql": "postgresql+psycopg",
    "postgresql+psycopg2": "postgresql+psycopg",
}
"""URLs as hosting services hand them out, and the async driver each means here."""
_MIGRATION_LOCK = 0x6361_7264
"""The PostgreSQL advisory lock held while migrating: replicas starting at once
migrate one after another (the later ones find nothing left to do)."""
_TRANSACTIONAL = {"sqlite": "SERIALIZABLE", "postgresql": "READ COMMITTED"}
"""The isolation of :meth:`Database.transaction`: SQLite has only the one; on
PostgreSQL its default, the rows a transaction changes from what it read being locked
as they are read (``SELECT … FOR UPDATE``)."""
_SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA busy_timeout=5000",
    # After a checkpoint the WAL file keeps its largest size unless capped; busy hours
    # would otherwise leave tens of megabytes of stale log on disk.
    "PRAGMA journal_size_limit=4194304",
)


def database_url(target: str | Path) -> sa.URL:
    """The URL ``target`` names: a URL, or the path of a SQLite file."""
    if isinstance(target, Path) or "://" not in target:
        return sa.URL.create("sqlite+aiosqlite", database=str(target))
    url = sa.make_url(target)
    return url.set(drivername=_ASYNC_DRIVERS.get(url.drivername, url.drivername))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in _SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def _make_engine(url: sa.URL, **options: Any) -> AsyncEngine:
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, **options)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, **options)


async def _migrate(url: sa.URL) -> None:
    """Bring the schema up to date in one transaction, on a connection of its own."""
    engine = _make_engine(url, poolclass=sa.NullPool)
    if url.get_backend_name() == "sqlite":
        # Python's sqlite3 does not begin a transaction before DDL: begin one by hand,
        # so a step (a batch copy of a table included) is applied whole or not at all
        @event.listens_for(engine.sync_engine, "connect")
        def _no_implicit_begin(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(conn: sa.Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    try:
        async with engine.begin() as conn:
            if url.get_backend_name() == "postgresql":
                await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
            await conn.run_sync(migrations.upgrade)
    finally:
        await engine.dispose()


class RolledBack(Exception):
    """Raised inside :meth:`Database.hold`: what the block wrote is undone."""


@dataclass
class _Held:
    """A transaction a task holds open (:meth:`Database.hold`)."""

    db: Database
    conn: AsyncConnection
    task: asyncio.Task[Any] | None
    failed: bool = False
    """Whether a part of it that was to be all or nothing failed: it is rolled back."""


_held: ContextVar[_Held | None] = ContextVar("bot_db_held", default=None)
"""The transaction the running task holds, if any. A task started inside inherits the
variable but not the transaction: :meth:`Database.held` checks the task too."""


class Database:
    """The engine the repositories run their statements on."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        """``sqlite`` or ``postgresql``."""
        self.only_writer = self.dialect == "sqlite"
        """Whether this process is the database's only writer, so what it read or wrote
        stays true until it writes again: a SQLite file serves one bot process, while
        several replicas may share a PostgreSQL database, and keep nothing they read."""
        self._kept: AsyncConnection | None = None
        self._turn = asyncio.Lock()
        self._isolation = _TRANSACTIONAL.get(self.dialect, "SERIALIZABLE")
        self._transactional = engine.execution_options(isolation_level=self._isolation)
        """The same pool, its connections lent out of autocommit mode (and put back
        in it when returned)."""

    def held(self) -> AsyncConnection | None:
        """The connection of the transaction this task holds open, if any."""
        held = _held.get()
        if held is None or held.db is not self or held.task is not asyncio.current_task():
            return None
        return held.conn

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[AsyncConnection]:
        """One transaction for every statement this task runs inside (PostgreSQL only):
        :meth:`connect` and :meth:`transaction` lend its connection.

        It is committed at the end, also when the block raises, so that what was written
        stands as it would have with each statement committed on its own; a database
        error, a :meth:`transaction` block that raised or :class:`RolledBack` rolls it
        back. One asked for inside another is that one.
        """
        assert self.dialect != "sqlite", "SQLite's one connection is not held by a task"
        conn = self.held()
        if conn is not None:
            yield conn
            return
        async with self._transactional.connect() as conn:
            trans = await conn.begin()
            held = _Held(self, conn, asyncio.current_task())
            token = _held.set(held)
            try:
                yield conn
            except BaseException as error:
                _held.reset(token)
                undo = held.failed or isinstance(error, sa.exc.DBAPIError | RolledBack)
                await self._end(conn, trans.rollback if undo else trans.commit)
                raise
            _held.reset(token)
            if held.failed:
                await trans.rollback()
            else:
                await trans.commit()

    @staticmethod
    async def _end(conn: AsyncConnection, end: Callable[[], Awaitable[None]]) -> None:
        """End a transaction on the way out of a failure: if even that fails, the
        connection is dropped rather than given back to the pool mid-transaction."""
        try:
            await end()
        except Exception:
            log.warning("could not end a transaction; its connection is dropped")
            await conn.invalidate()

    @asynccontextmanager
    async def connect(self) -> AsyncIterator[AsyncConnection]:
        """A connection for a few statements, each committed as it runs (or the held
        transaction's, inside :meth:`hold`)."""
        if self.dialect != "sqlite":
            held = self.held()
            if held is not None:
                yield held
                return
            async with self.engine.connect() as conn:
                yield conn
            return
        async with self._turn:
            if self._kept is None:
                self._kept = await self.engine.connect()
            try:
                yield self._kept
            except BaseException:
                # whatever went wrong, the next caller gets a connection opened anew
                kept, self._kept = self._kept, None
                await kept.close()
                raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A connection whose statements are committed together as the block ends, or
        rolled back together if it raises.

        SQLite's one connection leaves autocommit mode for the block (its driver begins
        the transaction before the first statement that writes: a block is to begin with
        a write, so that what it reads is not changed by another process meanwhile).
        Inside :meth:`hold` it is the held one, rolled back at the end if the block raises.
        """
        held = _held.get()
        if held is not None and self.held() is not None:
            try:
                yield held.conn
            except BaseException:
                held.failed = True
                raise
            return
        if self.dialect != "sqlite":
            async with self._transactional.begin() as conn:
                yield conn
            return
        async with self.connect() as conn:
            await conn.commit()  # in autocommit mode, only ends what SQLAlchemy began
            await conn.execution_options(isolation_level=self._isolation)
            try:
                async with conn.begin():
                    yield conn
            finally:
                await conn.execution_options(isolation_level="AUTOCOMMIT")

    async def fetchall(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Any]:
        """Rows (as mappings) of a plain SQL query: for tests and one-off looks."""
        async with self.connect() as conn:
            result = await conn.execute(sa.text(sql), dict(params or {}))
            return list(result.mappings())

    async def fetchone(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def write(self, sql: str, params: Mapping[str, Any] | None = None) -> None:
        """Run one plain SQL statement, committed as it runs."""
        async with self.connect() as conn:
            await conn.execute(sa.text(sql), dict(params or {}))

    async def ping(self) -> None:
        """Ask the database something: raises if it does not answer."""
        async with self.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))

    async def schema_version(self) -> str | None:
        """The last migration step the database has run."""
        async with self.connect() as conn:
            return await conn.run_sync(migrations.current)

    async def close(self) -> None:
        async with self._turn:
            if self._kept is not None:
                kept, self._kept = self._kept, None
                await kept.close()
        await self.engine.dispose()


class DatabaseOptions(TypedDict, total=False):
    """How :func:`open_database` connects to PostgreSQL (see there)."""

    pool_size: int
    pool_timeout: float
    statement_timeout: float
    idle_timeout: float


def _with_timeouts(url: sa.URL, statement: float, idle: float) -> sa.URL:
    """``url`` with the server told the statement and idle-transaction timeouts, beside
    any ``options`` the URL carries already."""
    options = [str(url.query.get("options", ""))]
    if statement > 0:
        options.append(f"-c statement_timeout={round(statement * 1000)}")
    if idle > 0:
        options.append(f"-c idle_in_transaction_session_timeout={round(idle * 1000)}")
    joined = " ".join(o for o in options if o)
    return url.update_query_dict({"options": joined}) if joined else url


async def open_database(
    target: str | Path,
    *,
    pool_size: int = 10,
    pool_timeout: float = 30.0,
    statement_timeout: float = 30.0,
    idle_timeout: float = 120.0,
) -> Database:
    """The database at ``target`` (a URL, or a SQLite file's path), migrated.

    PostgreSQL only: ``pool_size`` connections kept open (as many again may be opened
    for a burst), waited for up to ``pool_timeout`` seconds; a statement running longer
    than ``statement_timeout`` seconds (a lock waited for included) and a transaction
    left idle for ``idle_timeout`` seconds are ended by the server (0: no limit).
    SQLite has one connection.
    """
    url = database_url(target)
    if url.get_backend_name() != "sqlite":
        await _migrate(url)
        engine = _make_engine(
            _with_timeouts(url, statement_timeout, idle_timeout),
            isolation_level="AUTOCOMMIT",
            pool_size=pool_size,
            max_overflow=pool_size,
            pool_timeout=pool_timeout,
            # a managed server closes idle connections after a while: open them anew,
            # and check a connection before lending it
            pool_recycle=1800,
            pool_pre_ping=True,
            connect_args={"connect_timeout": 10},
        )
        return Database(engine)
    if url.database in (None, "", ":memory:"):
        # a database in memory lives as long as its one connection: migrate on that one
        db = Database(_make_engine(url, isolation_level="AUTOCOMMIT"))
        async with db.connect() as conn:
            await conn.run_sync(migrations.upgrade)
        return db
    await _migrate(url)
    return Database(_make_engine(url, isolation_level="AUTOCOMMIT", pool_size=1, max_overflow=0))
