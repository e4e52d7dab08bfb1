"""Turn and lobby timers: one task that sleeps until the earliest stored deadline.

The deadlines live in SQLite with the tables, so a restart loses none: the task
reads them again when it starts and fires whatever fell due while it was down.
Each due table's timer runs as a task of its own, one at a time per table: a table
whose group has used its minute waits for a slot without holding up the others.
Time comes from an injected clock and sleep, so tests move it on by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.tables.alarm import Alarm
from bot.tables.deadlines import Deadlines
from bot.tasks import cancel_all

__all__ = ["RETRY_AFTER", "Scheduler"]

log = logging.getLogger(__name__)

RETRY_AFTER = 60.0
"""A table whose timer failed is tried again this many seconds later, not in a loop."""


class Scheduler:
    def __init__(
        self,
        deadlines: Deadlines,
        alarm: Alarm,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.deadlines = deadlines
        self.alarm = alarm
        self.clock = clock
        self.sleep = sleep
        self._looked = -math.inf
        self._waiting = False
        self._state = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None
        self._firing: dict[int, asyncio.Task[None]] = {}
        """Per table, its timer while it runs: never a second one beside it."""
        self._resting: set[int] = set()
        """Of those, the tables whose timer failed and whose new deadline could not be
        stored either: still due in SQLite, they sit out the minute in memory."""

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.run(), name="turn-timers")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        # a timer cut short is still due in SQLite: the next start fires it
        await cancel_all(self._firing.values())

    async def run(self) -> None:
        while True:
            self.alarm.clear()
            now = self.clock()
            try:
                await self.fire(now)
                # a running timer's table stays due until it is done, which wakes the loop
                due = await self.deadlines.next_due(list(self._firing))
            except Exception:
                # SQLite failing for a moment must not stop every table's timer for good
                log.exception("timers failed; looked at again in %s s", RETRY_AFTER)
                due = now + RETRY_AFTER
            if due is not None and due <= now:
                continue
            self.alarm.next = math.inf if due is None else due
            await self._wait(None if due is None else due - now, now)

    async def fire(self, now: float) -> int:
        """Start every reminder and timeout due at ``now`` whose table's timer is not
        running already; how many were started."""
        started = 0
        for table_id in await self.deadlines.due(now):
            if table_id in self._firing:
                continue
            task = asyncio.create_task(self._fire_one(table_id, now), name=f"timer-{table_id}")
            self._firing[table_id] = task
            task.add_done_callback(functools.partial(self._fired, table_id))
            started += 1
        return started

    async def _fire_one(self, table_id: int, now: float) -> None:
        try:
            await self.deadlines.on_timer(table_id, now)
        except Exception:
            log.exception("timer of table %s failed", table_id)
            try:
                await self.deadlines.postpone(table_id, now + RETRY_AFTER)
            except Exception:
                # still due in SQLite: tried again in a minute, not in a loop
                log.exception(
                    "timer of table %s not put off; tried again in %s s", table_id, RETRY_AFTER
                )
                self._resting.add(table_id)
                self.alarm.wake()  # for settled(): this one is handled for now
                try:
                    await self.sleep(RETRY_AFTER)
                finally:
                    self._resting.discard(table_id)

    def _fired(self, table_id: int, task: asyncio.Task[None]) -> None:
        del self._firing[table_id]
        self.alarm.wake()  # its next deadline, if any, is read again

    async def _wait(self, delay: float | None, looked: float) -> None:
        changed = asyncio.ensure_future(self.alarm.wait())
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
        """Wait until everything due by the clock's time now has been handled (a timer
        sitting out its minute after a failure counts as handled)."""
        target = self.clock()
        self.alarm.wake()
        async with self._state:
            await self._state.wait_for(
                lambda: (
                    self._waiting
                    and self._looked >= target
                    and self._resting.issuperset(self._firing)
                )
            )
