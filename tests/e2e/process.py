"""The bot as a process of its own (:func:`tests.e2e.forked.fork_bot`), pointed at the
fake Telegram."""

from __future__ import annotations

import asyncio
from multiprocessing.process import BaseProcess
from pathlib import Path

from bot.bench.fake_telegram import FakeTelegram
from tests.e2e import forked
from tests.e2e.clock import FastClock

__all__ = ["ChildBot"]


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
        timed_speed: bool = False,
    ) -> None:
        """``settings``: more of the bot's settings, as environment variables;
        ``timed_speed``: the bot times its players' speed as it starts, as a bot
        deployed does, rather than think at speed 1 (the same moves for the same seeds
        on any machine, and no second of timing a start)."""
        assert clock is None or seed is not None
        self.settings = ({} if timed_speed else {"BOT_SPEED": "1"}) | (settings or {})
        self.clock = clock
        self.fake = fake
        self.database = database
        self.seed = seed
        self.log = database.with_suffix(".log")
        self.logged_from = 0  # where this run's lines start in the log
        self.proc: BaseProcess | None = None

    async def __aenter__(self) -> ChildBot:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        # a failed test stops its bot too, rather than leave it polling
        await self.stop()

    async def start(self) -> None:
        env = {
            "BOT_TOKEN": self.fake.token,
            "TELEGRAM_API_URL": self.fake.base_url,
            "DATABASE_PATH": str(self.database),
            "DEFAULT_LOCALE": "en",
            **self.settings,
        }
        mark = self.fake.mark()
        self.logged_from = self.log.stat().st_size if self.log.exists() else 0
        self.proc = forked.fork_bot(env, self.log, seed=self.seed, clock=self.clock)
        await self.fake.wait_for(
            lambda: self.fake.calls("getUpdates", since=mark), timeout=90, what="polling"
        )
        # the tables a restart shows are shown beside the updates: the test goes on once
        # they are, as players would press what those messages show
        await self.wait_logged("resumed ", timeout=90)

    async def kill(self) -> None:
        """Stop it the hard way, as a crash or a power cut would."""
        assert self.proc is not None
        proc, self.proc = self.proc, None
        await forked.kill(proc)

    def terminate(self) -> None:
        """Ask it to stop (SIGTERM), as a deploy or ``docker stop`` does; :meth:`stop`
        waits until it has."""
        assert self.proc is not None
        self.proc.terminate()

    async def wait_logged(self, text: str, timeout: float = 10) -> bool:  # noqa: ASYNC109
        """Wait until this run's log has ``text`` (``True``) or the process has ended
        (``False``): what the bot does between two API calls shows nowhere else."""
        assert self.proc is not None
        deadline = asyncio.get_running_loop().time() + timeout
        while text not in self.log.read_bytes()[self.logged_from :].decode(errors="replace"):
            if self.proc.exitcode is not None:
                return False
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"{text!r} not in {self.log} after {timeout}s")
            await asyncio.sleep(0.05)  # the log is a file: nothing to wait on but itself
        return True

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not ended in ten seconds."""
        proc, self.proc = self.proc, None
        if proc is not None:
            await forked.stop(proc)
