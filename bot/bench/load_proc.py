"""The bot as a child process (``python -m bot``), and CPU/memory figures from ``/proc``."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
from datetime import datetime
from pathlib import Path

from bot.telegram.strain import KEEPING_UP, OVERLOADED

__all__ = ["BotProcess", "MachineCpu", "process_cpu_seconds", "self_cpu_seconds"]

LOG_TIME = "%Y-%m-%d %H:%M:%S,%f"
"""The time each line of the bot's log begins with (``bot.__main__.LOG_FORMAT``)."""
_STRAIN_LOGGER = " WARNING bot.telegram.strain: "

_TICKS = os.sysconf("SC_CLK_TCK")
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child: get SIGKILL if the benchmark process dies first."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), from /proc/<pid>/stat."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def self_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


class MachineCpu:
    """Busy CPU time of the whole machine (every process), from /proc/stat."""

    @staticmethod
    def busy_seconds() -> float:
        with open("/proc/stat") as stat:
            values = [int(v) for v in stat.readline().split()[1:]]
        idle = values[3] + (values[4] if len(values) > 4 else 0)
        return (sum(values[:8]) - idle) / _TICKS


class BotProcess:
    """``python -m bot`` against a Bot API at ``api_url`` with a database at ``database``."""

    def __init__(
        self,
        api_url: str,
        token: str,
        database: Path,
        workdir: Path,
        profile: Path | None = None,
        *,
        settings: dict[str, str] | None = None,
        name: str = "bot",
    ) -> None:
        """``settings``: more of the bot's environment settings, e.g. ``UPDATE_WORKERS``;
        ``name``: of its log file in ``workdir`` (replicas each have their own)."""
        self.api_url = api_url
        self.settings = settings or {}
        self.profile = profile
        self.token = token
        self.database = database
        self.workdir = workdir
        self.log_path = workdir / f"{name}.log"
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def _env(self) -> dict[str, str]:
        root = Path(__file__).resolve().parents[2]
        env = {
            key: value
            for key, value in os.environ.items()
            if key.upper()
            not in {
                "BOT_TOKEN",
                "TELEGRAM_API_URL",
                "DATABASE_URL",
                "DATABASE_PATH",
                "TURN_TIMER",
                "LOG_LEVEL",
            }
        }
        env.update(
            BOT_TOKEN=self.token,
            TELEGRAM_API_URL=self.api_url,
            DATABASE_PATH=str(self.database),
            DEFAULT_LOCALE="en",
            LOG_LEVEL="WARNING",
            TURN_TIMER="0",
            PYTHONPATH=os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p),
        )
        env.update(self.settings)
        return env

    async def start(self) -> None:
        log = self.log_path.open("wb")
        try:
            # the working directory is a fresh temp dir: no developer's .env is read
            profiler = ["-m", "cProfile", "-o", str(self.profile)] if self.profile else []
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                *profiler,
                "-m",
                "bot",
                cwd=self.workdir,
                env=self._env(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )
        finally:
            log.close()

    def status_kb(self, *fields: str) -> tuple[int, ...]:
        """``VmRSS``/``VmHWM``-style lines of /proc/<pid>/status, in kB (0 if missing).

        Read together, as one snapshot: read one by one from a running process, the RSS
        read second may already be past the high-water mark read first.
        """
        found = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in fields:
                found[name] = int(value.split()[0])
        return tuple(found.get(field, 0) for field in fields)

    def cpu_seconds(self) -> float:
        return process_cpu_seconds(self.pid)

    def overloaded_seconds(self, start: float, end: float) -> float:
        """Seconds between the wall-clock times ``start`` and ``end`` the bot said it was
        overloaded (see :class:`~bot.telegram.strain.Strain`)."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return 0.0
        total = 0.0
        since: float | None = None  # when the overload running at that point began
        for line in lines:
            stamp, _, rest = line.partition(_STRAIN_LOGGER)
            if not rest.startswith((OVERLOADED, KEEPING_UP)):
                continue
            at = datetime.strptime(stamp, LOG_TIME).timestamp()
            if rest.startswith(OVERLOADED):
                since = at if since is None else since
            elif since is not None:
                total += max(0.0, min(at, end) - max(since, start))
                since = None
        if since is not None:
            total += max(0.0, end - max(since, start))
        return total

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    async def stop(self, grace: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL after ``grace`` seconds; the exit code."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), grace)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()
        return self.proc.returncode
