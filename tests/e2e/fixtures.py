"""Pytest fixtures that run the bot against the fake Telegram.

Make them visible to a test module (or a conftest) with::

    from tests.e2e import fixtures

    launch = fixtures.launch

Every bot they start is stopped after its test, passed or failed: a bot left running
keeps its SQLite connection's thread alive, and the test run would never exit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.bench.fake_telegram import FakeTelegram
from tests.e2e.harness import BotProcess

__all__ = ["Launch", "launch", "running"]

Launch = Callable[..., Awaitable[BotProcess]]


@pytest.fixture
async def launch(fake_telegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[Launch]:
    """``await launch(seed=3, default_timer=60)``: the bot started on ``tmp_path``'s database
    (the same file each call, so a second bot finds what the first one left)."""
    started: list[BotProcess] = []

    async def start(**options: Any) -> BotProcess:
        proc = BotProcess(fake_telegram, tmp_path / "bot.sqlite3", **options)
        started.append(proc)
        await proc.start()
        return proc

    yield start
    for proc in started:
        await proc.stop()


@pytest.fixture
async def running(launch: Launch) -> BotProcess:
    """The whole bot polling the fake Telegram, on a fresh database."""
    return await launch()
