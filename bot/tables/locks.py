"""A table's two locks (see :mod:`bot.tables`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack

__all__ = ["Hold", "TableLock", "TableLocks"]

Hold = Callable[[], AbstractAsyncContextManager[None]]
"""What else holding the state lock takes: the table's row, locked against the other
processes sharing the database (:meth:`~bot.db.repo.TableRepo.locked`)."""


class TableLock(asyncio.Lock):
    """One of a table's two locks: whoever holds or awaits it keeps the pair in use."""

    def __init__(self, pair: TableLocks, hold: Hold | None = None) -> None:
        super().__init__()
        self.pair = pair
        self._hold = hold
        self._held: AsyncExitStack | None = None

    async def __aenter__(self) -> None:
        await self.acquire()
        if self._hold is None:
            return
        stack = AsyncExitStack()
        try:
            await stack.enter_async_context(self._hold())
        except BaseException:
            self.release()
            raise
        self._held = stack

    async def __aexit__(self, *exc: object) -> None:
        held, self._held = self._held, None
        try:
            if held is not None:
                await held.__aexit__(*exc)  # type: ignore[arg-type]
        finally:
            self.release()


class TableLocks:
    """Both of a table's locks, taken together always in the same order. ``hold``: what
    taking ``state`` takes besides, for as long as it is held."""

    def __init__(self, hold: Hold | None = None) -> None:
        self.state = TableLock(self, hold)
        self.show = TableLock(self)

    async def __aenter__(self) -> None:
        # always ``show`` first: a publish holds it while it waits for ``state``
        await self.show.acquire()
        try:
            await self.state.__aenter__()
        except BaseException:
            self.show.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.state.__aexit__(*exc)
        finally:
            self.show.release()
