"""A table's two locks (see :mod:`bot.tables`)."""

from __future__ import annotations

import asyncio

__all__ = ["TableLock", "TableLocks"]


class TableLock(asyncio.Lock):
    """One of a table's two locks: whoever holds or awaits it keeps the pair in use."""

    def __init__(self, pair: TableLocks) -> None:
        super().__init__()
        self.pair = pair


class TableLocks:
    """Both of a table's locks, taken together always in the same order."""

    def __init__(self) -> None:
        self.state = TableLock(self)
        self.show = TableLock(self)

    async def __aenter__(self) -> None:
        # always ``show`` first: a publish holds it while it waits for ``state``
        await self.show.acquire()
        try:
            await self.state.acquire()
        except BaseException:
            self.show.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.state.release()
        self.show.release()
