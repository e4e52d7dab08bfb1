"""Bot replicas in webhook mode, each a process of its own
(:func:`tests.e2e.forked.fork_bot`)."""

from __future__ import annotations

from multiprocessing.process import BaseProcess
from pathlib import Path

from bot.bench.fake_telegram import FakeTelegram
from tests.e2e import forked
from tests.e2e.clock import FastClock

__all__ = ["PATH", "SECRET", "Replica", "serving"]

PATH = "/telegram/updates"
SECRET = "replica-Secret_1"


class Replica:
    """One bot process serving the webhook on ``port`` of 127.0.0.1."""

    def __init__(
        self,
        fake: FakeTelegram,
        name: str,
        port: int,
        *,
        database_url: str,
        log: Path,
        seed: int,
        turn_timer: int = 0,
        clock: FastClock | None = None,
    ) -> None:
        """``clock``: the bot paces its messages by it."""
        self.fake = fake
        self.name = name
        self.port = port
        self.url = f"http://127.0.0.1:{port}{PATH}"
        self.log = log
        self.seed = seed
        self.clock = clock
        self.env = {
            "BOT_TOKEN": fake.token,
            "TELEGRAM_API_URL": fake.base_url,
            "DATABASE_URL": database_url,
            "DEFAULT_LOCALE": "en",
            "TURN_TIMER": str(turn_timer),
            "WEBHOOK_URL": self.url,
            "WEBHOOK_SECRET": SECRET,
            "WEBHOOK_HOST": "127.0.0.1",
            "WEBHOOK_PORT": str(port),
            "LOG_LEVEL": "INFO",
            "BOT_SPEED": "1",  # the same moves for the same seeds, and no timing a start
        }
        self.proc: BaseProcess | None = None
        self.starts = 0

    def spawn(self) -> None:
        """Start the process; :meth:`FakeTelegram` learns it is serving from its
        ``setWebhook`` (see :func:`serving`)."""
        assert self.proc is None
        self.proc = forked.fork_bot(
            self.env, self.log, name=self.name, seed=self.seed, clock=self.clock, every_table=True
        )
        self.starts += 1

    async def kill(self) -> None:
        """SIGKILL, as a crash or a machine lost would end it."""
        assert self.proc is not None
        proc, self.proc = self.proc, None
        await forked.kill(proc)

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not ended in ten seconds."""
        proc, self.proc = self.proc, None
        if proc is not None:
            await forked.stop(proc)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.exitcode is None


async def serving(fake: FakeTelegram, replicas: list[Replica], timeout: float = 90) -> None:  # noqa: ASYNC109
    """Start ``replicas`` and wait until each has set the webhook (it listens by then)."""
    mark = fake.mark()
    for replica in replicas:
        replica.spawn()

    def ready() -> bool:
        for replica in replicas:
            if not replica.alive:
                log = replica.log.read_text(errors="replace")[-3000:]
                raise AssertionError(f"{replica.name} ended:\n{log}")
        urls = [c.params.get("url") for c in fake.calls("setWebhook", since=mark) if c.ok]
        return all(r.url in urls for r in replicas)

    await fake.wait_for(ready, timeout=timeout, what="the replicas to set the webhook")
