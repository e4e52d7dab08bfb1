"""Pytest fixtures that run the bot against the fake Telegram.

Make them visible to a test module (or a conftest) with::

    from tests.e2e import fixtures

    launch = fixtures.launch

Every bot they start is stopped after its test, passed or failed: a bot left running
keeps its SQLite connection's thread alive, and the test run would never exit.

Each test's database starts as a copy of one migrated once per worker: the bot finds its
schema up to date, as on any start after the first, instead of running every migration
again for each test.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.bench.fake_telegram import FakeTelegram
from bot.db.database import open_database
from tests.e2e.harness import BotProcess

__all__ = ["Launch", "launch", "migrated_database", "running"]

Launch = Callable[..., Awaitable[BotProcess]]


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database with every migration applied, made once per worker."""
    path = tmp_path_factory.mktemp("migrated") / "bot.sqlite3"

    async def migrate() -> None:
        await (await open_database(path)).close()

    asyncio.run(migrate())
    return path


@pytest.fixture
async def launch(
    fake_telegram: FakeTelegram, tmp_path: Path, migrated_database: Path
) -> AsyncIterator[Launch]:
    """``await launch(seed=3, default_timer=60)``: the bot started on ``tmp_path``'s database
    (the same file each call, so a second bot finds what the first one left)."""
    started: list[BotProcess] = []
    shutil.copyfile(migrated_database, tmp_path / "bot.sqlite3")

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
