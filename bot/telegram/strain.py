"""Whether the bot is overloaded: then what can wait, waits longer.

A bot that cannot keep up has every update it handles at once (``UPDATE_WORKERS``
while polling) and more waiting in Telegram's queue, each for the CPU the ones before
it spend. An edit saved then is CPU for the presses: the hand of a player waiting for
their turn is edited every :data:`~bot.telegram.rates.STRAINED_HAND_EDIT_INTERVAL`
seconds instead of every :data:`~bot.telegram.rates.HAND_EDIT_INTERVAL`, and a hand
that just played mostly goes out with its owner's next turn.

:class:`Strain` is asked as edits are made. Over windows of :data:`WINDOW` seconds it
measures the event loop thread's share of the time on the CPU, smoothed, and whether
the updates in flight (:class:`~bot.telegram.in_flight.InFlight`) reached the number
handled at once. It becomes strained in a window busy with updates waiting, and stops
being so in one with none waiting or with time to spare; in between it holds, so it
does not swing with every window.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.telegram.in_flight import InFlight

__all__ = ["BUSY", "KEEPING_UP", "OVERLOADED", "SPARE", "WINDOW", "Strain"]

log = logging.getLogger(__name__)

WINDOW = 0.5
"""Seconds of wall-clock time each measure is taken over."""
SMOOTHING = 0.3
"""The weight of the newest window in the load: one quiet window (a collection of
garbage, a pause between games) does not make a busy thread look idle."""
SPARE = 0.6
"""The load below which the thread has time to spare."""
BUSY = 0.8
"""The load above which the thread is busy: the updates in flight wait for the CPU in
turn, each for longer the closer it is to saturated."""
OVERLOADED = "overloaded"
KEEPING_UP = "keeping up again"
"""How the log's warnings begin when the bot becomes strained and when it stops being
so (the load benchmark reads them)."""


class Strain:
    """``at_once``: the updates handled at once; ``in_flight`` reaching it means more wait.

    ``cpu`` is the CPU time of the thread that asks (the event loop's)."""

    def __init__(
        self,
        in_flight: InFlight,
        at_once: int,
        *,
        cpu: Callable[[], float] = time.thread_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.in_flight = in_flight
        self.at_once = at_once
        self.load = 0.0
        """The thread's smoothed share of the wall-clock time on the CPU."""
        self.strained = False
        self._cpu = cpu
        self._clock = clock
        self._since = clock()
        self._cpu_since = cpu()

    def __call__(self) -> bool:
        """Whether the bot is overloaded now."""
        now = self._clock()
        elapsed = now - self._since
        if elapsed < WINDOW:
            return self.strained
        used = self._cpu()
        self.load += SMOOTHING * ((used - self._cpu_since) / elapsed - self.load)
        backlog = self.in_flight.take_peak() >= self.at_once
        strained = self.load > BUSY and backlog
        if strained != self.strained and (strained or self.load < SPARE or not backlog):
            self.strained = strained
            if strained:
                log.warning(
                    "%s (load %.2f, updates waiting): edits that can wait are held longer",
                    OVERLOADED,
                    self.load,
                )
            else:
                log.warning("%s (load %.2f)", KEEPING_UP, self.load)
        self._since, self._cpu_since = now, used
        return self.strained
