"""Which state of its table each message shows, so that none goes back to an older one.

Replicas each keep their own edits of a table's messages waiting (an edit of a group's
table message waits a few seconds, see :mod:`bot.telegram.throttle`), and two of them
showing changes of one table one after the other may send their edits in the other
order: the message would go back to the older state. Before an edit goes out, the
table's version it shows is written for the message, in one statement that writes it
only over an older or the same version; an edit whose version is older than the one
written is left out, as a later state is shown already. The version stays locked while
the edit goes out (:meth:`ShownVersions.showing`): two replicas' edits of one message
reach Telegram in the order of their versions, not only leave in it. A table message
sent anew is written the same way. :meth:`TableRepo.unfinished_ids` reads them too: a table whose
message shows its latest version has nothing left to show. What a message showed is
kept :data:`KEEP` seconds after its last edit.

Only replicas sharing a database need them: one process alone sends its edits of a
message in the order it made them.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db.database import Database
from bot.db.pruning import DAY, Pruner
from bot.db.schema import message_versions

__all__ = ["KEEP", "ShownVersions"]

KEEP = DAY

# ON CONFLICT … DO UPDATE … WHERE reads the same in SQLite and PostgreSQL
_SHOW = sa.text(
    "INSERT INTO message_versions (chat_id, message_id, table_id, version, shown_at)"
    " VALUES (:chat_id, :message_id, :table_id, :version, :now)"
    " ON CONFLICT (chat_id, message_id) DO UPDATE SET table_id = excluded.table_id,"
    " version = excluded.version, shown_at = excluded.shown_at"
    " WHERE message_versions.version <= excluded.version"
)
_SHOWN_AT = sa.select(message_versions.c.shown_at).where(
    message_versions.c.chat_id == sa.bindparam("chat_id"),
    message_versions.c.message_id == sa.bindparam("message_id"),
)
_PRUNE = sa.delete(message_versions).where(message_versions.c.shown_at < sa.bindparam("before"))


class ShownVersions:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self._pruner = Pruner(_PRUNE, keep=KEEP)

    async def _write(
        self, conn: AsyncConnection, chat_id: int, message_id: int, table_id: int, version: int
    ) -> bool:
        """Write that the message shows ``version`` of its table, unless it shows a later
        one already (``False``)."""
        now = self.clock()
        params = {
            "chat_id": chat_id,
            "message_id": message_id,
            "table_id": table_id,
            "version": version,
            "now": now,
        }
        shown = bool((await conn.execute(_SHOW, params)).rowcount)
        await self._pruner.wrote(conn, now)
        return shown

    async def show(self, chat_id: int, message_id: int, table_id: int, version: int) -> bool:
        """Whether the message may show the table at ``version``: it is written for the
        message, unless the message shows a later version already (``False``)."""
        async with self.db.connect() as conn:
            return await self._write(conn, chat_id, message_id, table_id, version)

    async def shown_at(self, chat_id: int, message_id: int) -> float | None:
        """When the message was last sent or edited by any process (by ``clock``), if
        within :data:`KEEP`."""
        params = {"chat_id": chat_id, "message_id": message_id}
        async with self.db.connect() as conn:
            return (await conn.execute(_SHOWN_AT, params)).scalar()

    @asynccontextmanager
    async def showing(
        self, chat_id: int, message_id: int, table_id: int, version: int
    ) -> AsyncIterator[bool]:
        """:meth:`show`, the message's row kept locked for the block, in which the edit
        goes out: another process's edit of the message waits until it has (and is left
        out then if it is older). Written only if the block ends without raising."""
        async with self.db.transaction() as conn:
            yield await self._write(conn, chat_id, message_id, table_id, version)
