"""When the earliest deadline falls: tables set it as they change, the timers wait for it."""

from __future__ import annotations

import asyncio
import math

__all__ = ["Alarm"]


class Alarm:
    """Wakes the one waiting for the next deadline when an earlier one is set."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()
        self.next = -math.inf
        """The deadline waited for (``inf``: none; ``-inf``: not looked up yet)."""

    def set(self, due: float | None) -> None:
        """A table's deadline is now ``due``: wake up if it comes before the one waited for."""
        if due is not None and due < self.next:
            self._changed.set()

    def wake(self) -> None:
        """Look at the deadlines again at once."""
        self._changed.set()

    def clear(self) -> None:
        self._changed.clear()

    async def wait(self) -> None:
        await self._changed.wait()
