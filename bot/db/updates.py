"""The updates handled, so that one delivered again is handled once.

Telegram delivers an update again when its answer did not arrive: a webhook request
that timed out, a replica that died after handling it but before answering, a
``getUpdates`` whose offset was not confirmed before a restart. Each update's id is
written once it has been handled; a delivery again finds it there and is left alone,
whichever process it reaches. One whose process died while handling it is not there,
and is handled when it comes again (a press's version keeps a move from being made
twice). Ids are kept :data:`KEEP` seconds (Telegram keeps an update a day at most) and
the older ones deleted as new ones come.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import sqlalchemy as sa

from bot.db.database import Database
from bot.db.schema import updates

__all__ = ["KEEP", "PRUNE_EVERY", "UpdateLog"]

KEEP = 24 * 3600.0
"""Seconds an update's id is kept."""
PRUNE_EVERY = 1000
"""Updates handled between two deletions of the ids older than :data:`KEEP`."""

# ON CONFLICT … DO NOTHING reads the same in SQLite and PostgreSQL
_MARK = sa.text(
    "INSERT INTO updates (update_id, taken_at) VALUES (:update_id, :now)"
    " ON CONFLICT (update_id) DO NOTHING"
)
_SEEN = sa.select(updates.c.update_id).where(updates.c.update_id == sa.bindparam("update_id"))
_PRUNE = sa.delete(updates).where(updates.c.taken_at < sa.bindparam("before"))


class UpdateLog:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self._marked = 0

    async def handled(self, update_id: int) -> bool:
        """Whether the update was handled already."""
        async with self.db.connect() as conn:
            found = (await conn.execute(_SEEN, {"update_id": update_id})).first()
        return found is not None

    async def mark(self, update_id: int) -> None:
        """The update is handled: a delivery again is dropped."""
        now = self.clock()
        async with self.db.connect() as conn:
            await conn.execute(_MARK, {"update_id": update_id, "now": now})
            self._marked += 1
            if self._marked % PRUNE_EVERY == 0:
                await conn.execute(_PRUNE, {"before": now - KEEP})
