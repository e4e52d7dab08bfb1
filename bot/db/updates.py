"""The updates taken, so that one delivered again is handled once.

Telegram delivers an update again when its answer did not arrive: a webhook request
that timed out, a replica that died after handling it but before answering, a
``getUpdates`` whose offset was not confirmed before a restart. Each update's id is
written as it is taken; a second delivery finds it there and is left alone, whichever
process it reaches. Ids are kept :data:`KEEP` seconds (Telegram keeps an update a
day at most) and the older ones deleted as new ones come.
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
"""Updates taken between two deletions of the ids older than :data:`KEEP`."""

# ON CONFLICT … DO NOTHING reads the same in SQLite and PostgreSQL
_TAKE = sa.text(
    "INSERT INTO updates (update_id, taken_at) VALUES (:update_id, :now)"
    " ON CONFLICT (update_id) DO NOTHING"
)
_RELEASE = sa.delete(updates).where(updates.c.update_id == sa.bindparam("update_id"))
_PRUNE = sa.delete(updates).where(updates.c.taken_at < sa.bindparam("before"))


class UpdateLog:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self._taken = 0

    async def take(self, update_id: int) -> bool:
        """Mark the update taken: ``False`` if it was already (handle it no more)."""
        now = self.clock()
        async with self.db.connect() as conn:
            result = await conn.execute(_TAKE, {"update_id": update_id, "now": now})
            taken = result.rowcount == 1
            self._taken += 1
            if self._taken % PRUNE_EVERY == 0:
                await conn.execute(_PRUNE, {"before": now - KEEP})
        return taken

    async def release(self, update_id: int) -> None:
        """The update's handling failed: a delivery again is handled."""
        async with self.db.connect() as conn:
            await conn.execute(_RELEASE, {"update_id": update_id})
