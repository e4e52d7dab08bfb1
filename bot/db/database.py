"""One aiosqlite connection in WAL mode, migrated on open.

aiosqlite runs each call on its own thread, and every call is a hand-over to that
thread and back, which under load waits for the event loop's thread to let go.
So each method here is one call: the connection is in autocommit mode (every
statement is committed as it runs, as before each write was committed at once),
and rows come back with the statement that found them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite

from bot.db.migrations import MIGRATIONS

__all__ = ["Database", "open_database"]


class Database:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> aiosqlite.Row | None:
        rows = await self.conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        return list(await self.conn.execute_fetchall(sql, params))

    async def write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one statement, committed as it runs."""
        await self.conn.execute_fetchall(sql, params)

    async def insert(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """Run one ``INSERT``, committed as it runs; the new row's id."""
        row = await self.conn.execute_insert(sql, params)
        return int(row[0]) if row else 0

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    async def close(self) -> None:
        await self.conn.close()


async def _migrate(db: Database) -> None:
    await db.conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    current = await db.schema_version()
    if current == 0 and await db.fetchone("SELECT 1 FROM schema_version") is None:
        await db.conn.execute("INSERT INTO schema_version (version) VALUES (0)")
    for number, script in enumerate(MIGRATIONS, start=1):
        if number <= current:
            continue
        # executescript commits first, so each step is applied and recorded on its own
        await db.conn.executescript(
            f"BEGIN;\n{script}\nUPDATE schema_version SET version = {number};\nCOMMIT;"
        )
    await db.conn.commit()


async def open_database(path: Path | str) -> Database:
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    await conn.execute("PRAGMA busy_timeout=5000")
    # After a checkpoint the WAL file keeps its largest size unless capped; busy hours
    # would otherwise leave tens of megabytes of stale log on disk.
    await conn.execute("PRAGMA journal_size_limit=4194304")
    db = Database(conn)
    await _migrate(db)
    return db
