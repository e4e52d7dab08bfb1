"""Rows kept for a while (updates handled, result claims, shown versions, a group's
slots): the ones older than a day are deleted in passing, by every thousandth write."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

__all__ = ["DAY", "EVERY", "Pruner"]

DAY = 24 * 3600.0
"""Seconds a row is kept by default (Telegram keeps an update a day at most)."""
EVERY = 1000
"""Writes between two deletions."""


class Pruner:
    """Runs ``statement`` (a delete of the rows written before its ``before``) on every
    :data:`EVERY`-th write it is told of, for the rows older than ``keep`` seconds."""

    def __init__(self, statement: sa.Executable, *, keep: float = DAY) -> None:
        self.statement = statement
        self.keep = keep
        self._writes = 0

    async def wrote(self, conn: AsyncConnection, now: float) -> None:
        """One more write, on ``conn`` at ``now``: every :data:`EVERY`-th deletes the old rows
        on the same connection."""
        self._writes += 1
        if self._writes % EVERY == 0:
            await conn.execute(self.statement, {"before": now - self.keep})
