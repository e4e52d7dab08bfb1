"""The updates handled, so that one delivered again is handled once.

Telegram delivers an update again when its answer did not arrive: a webhook request
that timed out, a replica that died after handling it but before answering, a
``getUpdates`` whose offset was not confirmed before a restart. Each update's id is
written once it has been handled; a delivery again finds it there and is left alone,
whichever process it reaches. One whose process died while handling it is not there,
and is handled when it comes again (a press's version keeps a move from being made
twice). Ids are kept :data:`KEEP` seconds (Telegram keeps an update a day at most) and
the older ones deleted as new ones come.

A process that is the database's only writer (SQLite) knows what it wrote itself, so
most updates need no read: Telegram numbers updates in the order they come, and one
numbered above every id the file held when the process first looked, and not written
since, cannot be there. Only a delivery again of an update from before (a restart's)
is looked up. It writes the ids of updates handled at the same time together, in one
transaction: each :meth:`UpdateLog.mark` returns once its id is written, as alone.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

import sqlalchemy as sa

from bot.db.database import Database
from bot.db.pruning import DAY, Pruner
from bot.db.schema import updates

__all__ = ["KEEP", "KEEP_IN_MEMORY", "UpdateLog"]

KEEP = DAY
"""Seconds an update's id is kept."""
KEEP_IN_MEMORY = 4096
"""Ids of the updates handled last that the only writer remembers (older ones are read)."""

# ON CONFLICT … DO NOTHING reads the same in SQLite and PostgreSQL
_MARK = sa.text(
    "INSERT INTO updates (update_id, taken_at) VALUES (:update_id, :now)"
    " ON CONFLICT (update_id) DO NOTHING"
)
_SEEN = sa.select(updates.c.update_id).where(updates.c.update_id == sa.bindparam("update_id"))
_HIGHEST = sa.select(sa.func.max(updates.c.update_id))
_PRUNE = sa.delete(updates).where(updates.c.taken_at < sa.bindparam("before"))


class UpdateLog:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self._pruner = Pruner(_PRUNE, keep=KEEP)
        self._recent: set[int] = set()
        """The only writer's ids written lately (all of them above :attr:`_read_up_to`)."""
        self._order: deque[int] = deque()
        """The same, oldest first, to forget them in turn."""
        self._read_up_to: int | None = None
        """The only writer: every id stored above this one is in :attr:`_recent`
        (``None``: not looked up yet)."""
        self._queued: list[dict[str, float]] = []
        """The only writer's ids handled and not written yet, with their times."""
        self._writing = asyncio.Lock()

    async def handled(self, update_id: int) -> bool:
        """Whether the update was handled already."""
        if self.db.only_writer:
            if update_id in self._recent:
                return True
            if self._read_up_to is None:
                async with self.db.connect() as conn:
                    highest = (await conn.execute(_HIGHEST)).scalar()
                if self._read_up_to is None:
                    self._read_up_to = -1 if highest is None else int(highest)
            if update_id > self._read_up_to:
                return False
        async with self.db.connect() as conn:
            found = (await conn.execute(_SEEN, {"update_id": update_id})).first()
        return found is not None

    async def mark(self, update_id: int) -> None:
        """The update is handled: a delivery again is dropped."""
        now = self.clock()
        if not self.db.only_writer:
            async with self.db.connect() as conn:
                await conn.execute(_MARK, {"update_id": update_id, "now": now})
                await self._pruner.wrote(conn, now)
            return
        # The only writer's ids queue while a write is under way, and the next write
        # takes all of them: one commit for the updates a burst handled together.
        self._queued.append({"update_id": update_id, "now": now})
        async with self._writing:
            await self._write_queued()

    async def _write_queued(self) -> None:
        batch, self._queued = self._queued, []
        if not batch:
            return  # the write before took it (should that write fail, the update is
            # handled again if it comes again, as after a crash)
        if len(batch) == 1:
            async with self.db.connect() as conn:
                await conn.execute(_MARK, batch[0])
                await self._pruner.wrote(conn, batch[0]["now"])
        else:
            async with self.db.transaction() as conn:
                await conn.execute(_MARK, batch)
                for row in batch:
                    await self._pruner.wrote(conn, row["now"])
        for row in batch:
            self._remember(int(row["update_id"]))

    def _remember(self, update_id: int) -> None:
        if self._read_up_to is not None and update_id <= self._read_up_to:
            return  # an old one handled again: a later look reads it
        if update_id in self._recent:
            return
        self._recent.add(update_id)
        self._order.append(update_id)
        while len(self._order) > KEEP_IN_MEMORY:
            forgotten = self._order.popleft()
            self._recent.discard(forgotten)
            # it is stored: an id up to it is looked up from now on
            if self._read_up_to is None or forgotten > self._read_up_to:
                self._read_up_to = forgotten
