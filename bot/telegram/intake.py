"""How many updates the bot handles at once, sized to what holds the presses up.

A press spends most of its time waiting on Telegram: its answer and the edits of the
hands and the table are round trips of tens of milliseconds each, and ``getUpdates``
is one more. A fixed number of updates in flight then caps the presses a second at
that number per few round trips, however idle the CPU is. Taking many at once is no
cure either: once the CPU is busy they queue for it, and each press is answered later
for nothing.

So the number starts at a base that keeps the core busy when Telegram answers at once
(as the local fake Bot API of the load benchmark does), and moves with the load of the
bot's thread: its CPU time over the wall-clock time, measured every :data:`WINDOW`
seconds and smoothed over a few. It grows while Telegram has updates waiting (a poll
came back with all it asked for) and the thread has time to spare; it shrinks back
towards the base while the thread is busy.

While the thread is busy and Telegram still holds updates the bot has not taken, the
bot is :attr:`~Intake.strained`: it cannot keep up, and every press waits in Telegram's
queue for the CPU the presses before it spend. Then what can wait, waits longer (see
:data:`bot.telegram.rates.STRAINED_HAND_EDIT_INTERVAL`), so that CPU goes to the
presses.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["BUSY", "KEEPING_UP", "MOST", "OVERLOADED", "SPARE", "WINDOW", "Intake"]

log = logging.getLogger(__name__)

WINDOW = 0.5
"""Seconds of wall-clock time each measure is taken over."""
SMOOTHING = 0.3
"""The weight of the newest window in the load: one quiet window (a collection of
garbage, a pause between games) does not make a busy thread look idle."""
SPARE = 0.6
"""The load below which the thread has time to spare."""
BUSY = 0.8
"""The load above which the thread is busy: the presses in flight wait for the CPU
in turn, each for longer the closer it is to saturated. (Between the two the number
holds, so it does not swing with every window.)"""
OVERLOADED = "overloaded"
KEEPING_UP = "keeping up again"
"""How the log's warnings begin when the bot becomes strained and when it stops being
so (the load benchmark reads them)."""
MOST = 200
"""Updates in flight at most, whatever the measures say, so memory stays bounded (the
bot keeps as many connections to Telegram). In the load benchmark with Telegram 100 ms
away, 400 answered each press later than 200 did, with fewer presses a second."""


class Intake:
    def __init__(
        self,
        base: int,
        *,
        most: int = MOST,
        cpu: Callable[[], float] = time.thread_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 1 <= base <= most:
            raise ValueError(f"base must be 1..{most}, not {base}")
        self.base = base
        self.most = most
        self.limit = base
        """Updates to have in flight now."""
        self.load = 0.0
        """The thread's smoothed share of the wall-clock time on the CPU."""
        self._cpu = cpu
        self._clock = clock
        self._since = clock()
        self._cpu_since = cpu()
        self._backlog = False
        self.strained = False
        """Set by a window busy with updates waiting, cleared by one with none waiting
        or with time to spare (between the two it holds, as :attr:`limit` does)."""

    def polled(self, asked: int, got: int) -> None:
        """A poll asked for ``asked`` updates and got ``got``: the limit may move."""
        self._backlog = self._backlog or got >= asked
        now = self._clock()
        elapsed = now - self._since
        if elapsed < WINDOW:
            return
        used = self._cpu()
        window = (used - self._cpu_since) / elapsed
        self.load += SMOOTHING * (window - self.load)
        step = max(1, self.limit // 8)
        if self.load > BUSY:
            self.limit = max(self.base, self.limit - step)
        elif self.load < SPARE and self._backlog:
            self.limit = min(self.most, self.limit + step)
        strained = self.load > BUSY and self._backlog
        if strained != self.strained and (strained or self.load < SPARE or not self._backlog):
            self.strained = strained
            if strained:
                log.warning(
                    "%s (load %.2f, updates waiting): edits that can wait are held longer",
                    OVERLOADED,
                    self.load,
                )
            else:
                log.warning("%s (load %.2f)", KEEPING_UP, self.load)
        log.debug("load %.2f: %d updates at once", self.load, self.limit)
        self._since, self._cpu_since, self._backlog = now, used, False
