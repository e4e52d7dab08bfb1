"""The load benchmark reads how long the bot was overloaded off the bot's own log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import LOG_FORMAT
from bot.bench.load_proc import BotProcess
from bot.telegram.intake import WINDOW, Intake


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
    """A bot process's log file, written by the intake's logger as the bot writes it."""
    bot = BotProcess("http://127.0.0.1:1", "1:x", tmp_path / "b.sqlite3", tmp_path)
    handler = logging.FileHandler(bot.log_path)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    at = At()
    handler.addFilter(at)
    logger = logging.getLogger("bot.telegram.intake")
    logger.addHandler(handler)
    try:
        yield bot, at
    finally:
        logger.removeHandler(handler)
        handler.close()


def windows(intake: Intake, thread: list[float], load: float, backlog: bool, n: int = 20) -> None:
    for _ in range(n):
        thread[0] += WINDOW
        thread[1] += WINDOW * load
        intake.polled(10, 10 if backlog else 3)


def test_the_time_overloaded_within_a_window_is_read_off_the_log(
    bot_log: tuple[BotProcess, At],
) -> None:
    bot, at = bot_log
    thread = [0.0, 0.0]  # the clock and the thread's CPU time
    intake = Intake(12, clock=lambda: thread[0], cpu=lambda: thread[1])
    t0 = at.now
    at.now = t0 + 100.25
    windows(intake, thread, 0.95, backlog=True)
    assert intake.strained
    at.now = t0 + 130.5
    windows(intake, thread, 0.95, backlog=False)
    assert not intake.strained
    at.now = t0 + 200
    windows(intake, thread, 0.95, backlog=True)  # and still overloaded when the log ends

    assert bot.overloaded_seconds(t0, t0 + 250) == pytest.approx(30.25 + 50, abs=0.002)
    assert bot.overloaded_seconds(t0 + 110, t0 + 120) == pytest.approx(10, abs=0.002)
    assert bot.overloaded_seconds(t0 + 135, t0 + 150) == 0
    assert bot.overloaded_seconds(t0 + 210, t0 + 220) == pytest.approx(10, abs=0.002)


def test_a_bot_that_never_logged_was_never_overloaded(tmp_path: Path) -> None:
    bot = BotProcess("http://127.0.0.1:1", "1:x", tmp_path / "b.sqlite3", tmp_path)
    assert bot.overloaded_seconds(0, 100) == 0
    bot.log_path.write_text("2026-11-26 11:17:28,750 WARNING aiogram.dispatcher: stopping\n")
    assert bot.overloaded_seconds(0, 2e9) == 0
