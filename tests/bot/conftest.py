from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import BotProcess
from tests.fake_telegram import FakeTelegram, fixtures

fake_telegram = fixtures.fake_telegram


@pytest.fixture
async def running(fake_telegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The whole bot polling the fake Telegram, on a fresh database."""
    proc = BotProcess(fake_telegram, tmp_path / "bot.sqlite3")
    await proc.start()
    yield proc
    await proc.stop()
