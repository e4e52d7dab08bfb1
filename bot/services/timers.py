"""Turn and lobby timers: one task that sleeps until the earliest stored deadline.

The deadlines live in SQLite with the tables, so a restart loses none: the task
reads them again when it starts and fires whatever fell due while it was down.
Time comes from an injected clock and sleep, so tests move it on by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.services.tables import TableService
from bot.services.tasks import cancel_all

__all__ = ["RETRY_AFTER", "Scheduler"]

log = logging.getLogger(__name__)

RETRY_AFTER = 60.0
"""A table whose timer failed is tried again this many seconds later, not in a loop."""


class Scheduler:
    def __init__(
        self,
        tables: TableService,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.tables = tables
        self.clock = clock
        self.sleep = sleep
        self._changed = asyncio.Event()
        self._next = -math.inf
        self._looked = -math.inf
        self._waiting = False
        self._state = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None
        tables.on_deadline = self.notify

    def notify(self, due: float | None) -> None:
        """A table's deadline changed: wake up if it comes before the one slept for."""
        if due is not None and due < self._next:
            self._changed.set()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.run(), name="turn-timers")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run(self) -> None:
        while True:
            self._changed.clear()
            now = self.clock()
            try:
                await self.fire(now)
                due = await self.tables.tables.next_due()
            except Exception:
                # SQLite failing for a moment must not stop every table's timer for good
                log.exception("timers failed; looked at again in %s s", RETRY_AFTER)
                due = now + RETRY_AFTER
            if due is not None and due <= now:
                continue
            self._next = math.inf if due is None else due
            await self._wait(None if due is None else due - now, now)

    async def fire(self, now: float) -> int:
        """Run every reminder and timeout due at ``now``; how many tables had one."""
        fired = 0
        for table_id in await self.tables.tables.due(now):
            try:
                await self.tables.on_timer(table_id, now)
            except Exception:
                log.exception("timer of table %s failed", table_id)
                await self.tables.postpone(table_id, now + RETRY_AFTER)
            fired += 1
        return fired

    async def _wait(self, delay: float | None, looked: float) -> None:
        changed = asyncio.ensure_future(self._changed.wait())
        waits: list[asyncio.Future[Any]] = [changed]
        if delay is not None:
            waits.append(asyncio.ensure_future(self.sleep(delay)))
        async with self._state:
            self._looked, self._waiting = looked, True
            self._state.notify_all()
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._waiting = False
            await cancel_all(waits)

    async def settled(self) -> None:
        """Wait until everything due by the clock's time now has been handled."""
        target = self.clock()
        self._changed.set()
        async with self._state:
            await self._state.wait_for(lambda: self._waiting and self._looked >= target)
