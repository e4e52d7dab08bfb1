"""A clock that runs faster than the wall's, shared by the processes of a test."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

__all__ = ["FastClock"]


class FastClock:
    """The wall clock run ``speed`` times faster, kept in the file ``path`` so that every
    process reads the same time from it: the fake Telegram times the calls by it, and a
    child bot given it paces its messages by it (its waits for a slot of a group's
    minute ``speed`` times shorter). A test sees minutes of Telegram's limits in seconds.

    :meth:`at_speed` changes the speed from now on: a bot restarted while its clock runs
    at the wall's pace finds the group's minute of before the restart still running,
    however long its start took."""

    def __init__(self, path: Path, speed: float = 1.0) -> None:
        self.path = path
        self._read: tuple[int, tuple[float, float, float]] | None = None
        if not path.exists():
            self.at_speed(speed)

    def _mark(self) -> tuple[float, float, float]:
        """The wall time and this clock's time when its speed last changed, and the speed."""
        stamp = self.path.stat().st_mtime_ns
        if self._read is None or self._read[0] != stamp:
            real, mine, speed = json.loads(self.path.read_text())
            self._read = (stamp, (real, mine, speed))
        return self._read[1]

    def __call__(self) -> float:
        real, mine, speed = self._mark()
        return mine + (time.time() - real) * speed

    def at_speed(self, speed: float) -> None:
        now = time.time()
        mine = self() if self.path.exists() else now
        new = self.path.with_suffix(".new")
        new.write_text(json.dumps([now, mine, speed]))
        new.replace(self.path)  # whole, for a process reading it meanwhile

    def speed(self) -> float:
        """Seconds of this clock a second of the wall's takes now."""
        return self._mark()[2]

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self._mark()[2])
