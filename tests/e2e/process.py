"""``python -m bot`` as a child process pointed at the fake Telegram."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

from bot.bench.fake_telegram import FakeTelegram

__all__ = ["ChildBot", "FastClock"]

ROOT = Path(__file__).resolve().parents[2]


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


class ChildBot:
    """``seed``: tables get seeds counted up from it, as ``BotProcess`` gives them;
    ``clock``: the bot paces its messages by it (with a seed only)."""

    def __init__(
        self,
        fake: FakeTelegram,
        database: Path,
        *,
        seed: int | None = None,
        settings: dict[str, str] | None = None,
        clock: FastClock | None = None,
    ) -> None:
        """``settings``: more of the bot's settings, as environment variables."""
        assert clock is None or seed is not None
        self.settings = settings or {}
        self.clock = clock
        self.fake = fake
        self.database = database
        self.seed = seed
        self.log = database.with_suffix(".log")
        self.logged_from = 0  # where this run's lines start in the log
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> ChildBot:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        # a failed test stops its bot too, rather than leave it polling
        await self.stop()

    async def start(self) -> None:
        env = {
            **{k: v for k, v in os.environ.items() if k.upper() != "DATABASE_URL"},
            "BOT_TOKEN": self.fake.token,
            "TELEGRAM_API_URL": self.fake.base_url,
            "DATABASE_PATH": str(self.database),
            "DEFAULT_LOCALE": "en",
            "PYTHONPATH": str(ROOT),
            **self.settings,
        }
        mark = self.fake.mark()
        self.logged_from = self.log.stat().st_size if self.log.exists() else 0
        entry = ["bot"] if self.seed is None else ["tests.e2e.seeded_bot", str(self.seed)]
        if self.clock is not None:
            entry += [str(self.clock.path)]
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                *entry,
                cwd=self.database.parent,
                env=env,
                stdout=log,
                stderr=log,
            )
        # importing aiogram builds its pydantic models: tens of seconds on a busy machine
        await self.fake.wait_for(
            lambda: self.fake.calls("getUpdates", since=mark), timeout=90, what="polling"
        )
        # the tables a restart shows are shown beside the updates: the test goes on once
        # they are, as players would press what those messages show
        await self.wait_logged("resumed ", timeout=90)

    async def kill(self) -> None:
        """Stop it the hard way, as a crash or a power cut would."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.proc = None

    def terminate(self) -> None:
        """Ask it to stop (SIGTERM), as a deploy or ``docker stop`` does; :meth:`stop`
        waits until it has."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)

    async def wait_logged(self, text: str, timeout: float = 10) -> bool:  # noqa: ASYNC109
        """Wait until this run's log has ``text`` (``True``) or the process has ended
        (``False``): what the bot does between two API calls shows nowhere else."""
        assert self.proc is not None
        deadline = asyncio.get_running_loop().time() + timeout
        while text not in self.log.read_bytes()[self.logged_from :].decode(errors="replace"):
            if self.proc.returncode is not None:
                return False
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"{text!r} not in {self.log} after {timeout}s")
            await asyncio.sleep(0.05)  # the log is a file: nothing to wait on but itself
        return True

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                await self.kill()
        self.proc = None
