"""The bot counts as overloaded while its thread is busy and every update it handles at
once is taken (more wait in Telegram), and until it keeps up again; the load benchmark
reads how long off the bot's log."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from aiogram.types import Update

from bot.__main__ import LOG_FORMAT
from bot.bench.load_proc import BotProcess
from bot.telegram.in_flight import InFlight
from bot.telegram.strain import BUSY, SPARE, WINDOW, Strain

AT_ONCE = 4


class Thread:
    """A clock and the thread's CPU time, moved on by the test."""

    def __init__(self) -> None:
        self.now = 0.0
        self.cpu = 0.0


@asynccontextmanager
async def updates_in_flight(in_flight: InFlight, count: int) -> AsyncIterator[None]:
    """``count`` updates being handled (through the middleware) for the block."""
    release = asyncio.Event()
    all_started = asyncio.Event()
    started = 0

    async def handler(event: Any, data: dict[str, Any]) -> None:
        nonlocal started
        started += 1
        if started == count:
            all_started.set()
        await release.wait()

    tasks = [
        asyncio.ensure_future(in_flight(handler, Update(update_id=i), {})) for i in range(count)
    ]
    if count:
        await all_started.wait()
    try:
        yield
    finally:
        release.set()
        await asyncio.gather(*tasks)


async def windows(
    strain: Strain, in_flight: InFlight, thread: Thread, load: float, backlog: bool, n: int = 20
) -> None:
    """``n`` windows at ``load``, with every update handled at once taken or not."""
    for _ in range(n):
        async with updates_in_flight(in_flight, AT_ONCE if backlog else AT_ONCE - 1):
            pass
        thread.now += WINDOW
        thread.cpu += WINDOW * load
        strain()


def subject() -> tuple[Strain, InFlight, Thread]:
    thread = Thread()
    in_flight = InFlight()
    strain = Strain(in_flight, AT_ONCE, clock=lambda: thread.now, cpu=lambda: thread.cpu)
    return strain, in_flight, thread


async def test_it_is_strained_while_busy_with_updates_waiting_and_until_it_keeps_up() -> None:
    strain, in_flight, thread = subject()
    await windows(strain, in_flight, thread, 0.95, backlog=False)
    assert not strain()  # busy, but Telegram holds nothing back: it keeps up
    await windows(strain, in_flight, thread, 0.95, backlog=True, n=1)
    assert strain()
    # shedding work brings the load down; between spare and busy the state holds
    await windows(strain, in_flight, thread, (SPARE + BUSY) / 2, backlog=True)
    assert strain()
    await windows(strain, in_flight, thread, (SPARE + BUSY) / 2, backlog=False, n=1)
    assert not strain()  # nothing waits any more
    await windows(strain, in_flight, thread, (SPARE + BUSY) / 2, backlog=True)
    assert not strain()  # and coming back takes a busy thread
    await windows(strain, in_flight, thread, 0.95, backlog=True)
    assert strain()
    await windows(strain, in_flight, thread, 0.1, backlog=True)
    assert not strain()  # the load fell below spare: the backlog is being taken


async def test_updates_still_in_flight_count_in_the_next_window() -> None:
    strain, in_flight, thread = subject()
    await windows(strain, in_flight, thread, 0.95, backlog=False)
    async with updates_in_flight(in_flight, AT_ONCE):
        await windows(strain, in_flight, thread, 0.95, backlog=False, n=3)
        assert strain()  # the ones taken before the windows began are still there
    # the window they ended in had them all taken; the next one has not
    await windows(strain, in_flight, thread, 0.95, backlog=False, n=1)
    assert strain()
    await windows(strain, in_flight, thread, 0.95, backlog=False, n=1)
    assert not strain()


async def test_within_a_window_the_state_holds() -> None:
    strain, in_flight, thread = subject()
    await windows(strain, in_flight, thread, 0.95, backlog=True)
    assert strain()
    thread.now += WINDOW / 2
    assert strain()  # half a window of nothing changes nothing yet


class At(logging.Filter):
    """Stamps each record with a time the test sets, as if logged then."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1_800_000_000.0

    def filter(self, record: logging.LogRecord) -> bool:
        record.created = self.now
        record.msecs = (self.now % 1) * 1000
        return True


@pytest.fixture
def bot_log(tmp_path: Path) -> Iterator[tuple[BotProcess, At]]:
    """A bot process's log file, written by the strain's logger as the bot writes it."""
    bot = BotProcess("http://127.0.0.1:1", "1:x", tmp_path / "b.sqlite3", tmp_path)
    handler = logging.FileHandler(bot.log_path)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    at = At()
    handler.addFilter(at)
    logger = logging.getLogger("bot.telegram.strain")
    logger.addHandler(handler)
    try:
        yield bot, at
    finally:
        logger.removeHandler(handler)
        handler.close()


async def test_the_time_overloaded_within_a_window_is_read_off_the_log(
    bot_log: tuple[BotProcess, At],
) -> None:
    bot, at = bot_log
    strain, in_flight, thread = subject()
    t0 = at.now
    at.now = t0 + 100.25
    await windows(strain, in_flight, thread, 0.95, backlog=True)
    assert strain()
    at.now = t0 + 130.5
    await windows(strain, in_flight, thread, 0.95, backlog=False)
    assert not strain()
    at.now = t0 + 200
    await windows(strain, in_flight, thread, 0.95, backlog=True)  # still so when the log ends

    assert bot.overloaded_seconds(t0, t0 + 250) == pytest.approx(30.25 + 50, abs=0.002)
    assert bot.overloaded_seconds(t0 + 110, t0 + 120) == pytest.approx(10, abs=0.002)
    assert bot.overloaded_seconds(t0 + 135, t0 + 150) == 0
    assert bot.overloaded_seconds(t0 + 210, t0 + 220) == pytest.approx(10, abs=0.002)


def test_a_bot_that_never_logged_was_never_overloaded(tmp_path: Path) -> None:
    bot = BotProcess("http://127.0.0.1:1", "1:x", tmp_path / "b.sqlite3", tmp_path)
    assert bot.overloaded_seconds(0, 100) == 0
    bot.log_path.write_text("2026-11-26 11:17:28,750 WARNING aiogram.dispatcher: stopping\n")
    assert bot.overloaded_seconds(0, 2e9) == 0
