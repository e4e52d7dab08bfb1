"""Bot processes forked from a server that imported the bot once.

Importing aiogram builds its pydantic models: seconds of CPU, tens of seconds on a
busy machine. A test's bot process is forked (``multiprocessing``'s forkserver, with
this module preloaded) from a process that has done that already, as a pre-forking
web server would, and then runs what ``python -m bot`` runs, with the settings from
its own environment. It is a process like any other: SIGKILL ends it at once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from pathlib import Path

from bot import __main__ as bot_main
from bot.ai.players import LEVELS, policy_for
from bot.engine import GAME_NAMES, game_class
from tests.e2e import seeded_bot
from tests.e2e.clock import FastClock

__all__ = ["fork_bot", "kill", "stop"]

# settings a test's process takes only from what the test gives it
_CLEARED = ("DATABASE_URL", "DATABASE_PATH", "WEBHOOK_URL", "WEBHOOK_SECRET", "TURN_TIMER")

# what the bot loads as it starts, loaded once here for every process forked
for _name in GAME_NAMES:
    game_class(_name)
    for _level in LEVELS:
        policy_for(_name, _level)


def _serve(
    env: dict[str, str],
    log: str,
    seed: int | None,
    clock: str | None,
    every_table: bool,
) -> None:
    """In the forked process: the log's folder as the working directory (no developer's
    ``.env`` is read), the log as stdout and stderr, the settings from ``env``, then the
    bot: ``python -m bot``'s own start without a ``seed``; with one, tables dealt with
    seeds counted up from it (every table with ``seed`` if ``every_table``), the
    messages paced by the :class:`FastClock` kept in the file ``clock`` if given."""
    os.chdir(Path(log).parent)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    for name in _CLEARED:
        os.environ.pop(name, None)
    os.environ.update(env)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if seed is None:
        bot_main.start()
    else:
        fast = None if clock is None else FastClock(Path(clock))
        seeded_bot.run(seed, fast, every_table=every_table)


def _context() -> ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    assert isinstance(context, ForkServerContext)
    # the server imports the bot once (this module imports all of it); each process is
    # forked from it. Set before the server starts: the first process forked starts it.
    context.set_forkserver_preload([__name__])
    return context


def fork_bot(
    env: dict[str, str],
    log: Path,
    *,
    name: str = "bot",
    seed: int | None = None,
    clock: FastClock | None = None,
    every_table: bool = False,
) -> BaseProcess:
    """Start a bot process with the settings ``env`` (see :func:`_serve`), writing to
    ``log`` in a folder of the test's own."""
    assert clock is None or seed is not None
    path = None if clock is None else str(clock.path)
    proc = _context().Process(
        target=_serve,
        args=(env, str(log), seed, path, every_table),
        name=name,
        daemon=True,
    )
    proc.start()
    return proc


async def kill(proc: BaseProcess) -> None:
    """SIGKILL, as a crash, a power cut or a machine lost would end it."""
    proc.kill()
    await asyncio.to_thread(proc.join)
    assert proc.exitcode == -signal.SIGKILL


async def stop(proc: BaseProcess) -> None:
    """SIGTERM, as a deploy or ``docker stop`` sends, then SIGKILL if it has not ended
    in ten seconds."""
    if proc.exitcode is None:
        proc.terminate()
        await asyncio.to_thread(proc.join, 10)
    if proc.exitcode is None:
        await kill(proc)
