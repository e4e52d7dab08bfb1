"""Bot replicas in webhook mode, each a process of its own, forked from a server that
imported the bot once.

Importing aiogram builds its pydantic models: seconds of CPU, tens of seconds on a
busy machine. A replica is forked (``multiprocessing``'s forkserver, with this module
preloaded) from a process that has done that already, as a pre-forking web server
would, and then runs ``python -m bot``'s ``main`` with the settings from its own
environment. It is a process like any other: SIGKILL ends it at once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from pathlib import Path

from bot.ai.players import LEVELS, policy_for
from bot.bench.fake_telegram import FakeTelegram
from bot.engine import GAME_NAMES, game_class
from tests.e2e import seeded_bot
from tests.e2e.process import FastClock

__all__ = ["PATH", "SECRET", "Replica", "serve"]

PATH = "/telegram/updates"
SECRET = "replica-Secret_1"
_CLEARED = ("DATABASE_URL", "DATABASE_PATH", "WEBHOOK_URL", "TURN_TIMER")

# what the bot loads as it starts, loaded once here for every replica forked
for _name in GAME_NAMES:
    game_class(_name)
    for _level in LEVELS:
        policy_for(_name, _level)


def serve(env: dict[str, str], log: str, seed: int, clock: str | None = None) -> None:
    """In the forked process: the log as stdout and stderr, the settings from ``env``,
    then the bot, every table dealt with ``seed``, its messages paced by the
    :class:`FastClock` kept in the file ``clock`` if given."""
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    for name in _CLEARED:
        os.environ.pop(name, None)
    os.environ.update(env)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    seeded_bot.run(seed, None if clock is None else FastClock(Path(clock)), every_table=True)


def _context() -> ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    assert isinstance(context, ForkServerContext)
    # the server imports the bot once (this module imports all of it); each replica
    # is forked from it. Set before the server starts: the first replica starts it.
    context.set_forkserver_preload([__name__])
    return context


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
        }
        self.proc: BaseProcess | None = None
        self.starts = 0

    def spawn(self) -> None:
        """Start the process; :meth:`FakeTelegram` learns it is serving from its
        ``setWebhook`` (see :func:`serving`)."""
        assert self.proc is None
        clock = None if self.clock is None else str(self.clock.path)
        self.proc = _context().Process(
            target=serve,
            args=(self.env, str(self.log), self.seed, clock),
            name=self.name,
            daemon=True,
        )
        self.proc.start()
        self.starts += 1

    async def kill(self) -> None:
        """SIGKILL, as a crash or a machine lost would end it."""
        assert self.proc is not None
        proc, self.proc = self.proc, None
        proc.kill()
        await asyncio.to_thread(proc.join)
        assert proc.exitcode == -signal.SIGKILL

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not ended in ten seconds."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.exitcode is None:
            proc.terminate()
            await asyncio.to_thread(proc.join, 10)
            if proc.exitcode is None:
                proc.kill()
                await asyncio.to_thread(proc.join)

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
