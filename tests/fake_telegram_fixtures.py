"""Pytest fixtures around :class:`FakeTelegram`.

Make them visible to a test module (or a conftest) with::

    from tests import fake_telegram_fixtures as fixtures

    fake_telegram = fixtures.fake_telegram
    fake_bot = fixtures.fake_bot

(plain ``from ... import fake_bot`` works too, but ruff then reports F811 for
every test taking the fixture as an argument).

``fake_telegram`` is a started fake; ``fake_bot`` a real aiogram ``Bot`` talking
to it (HTML parse mode by default), closed after the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties

from bot.bench.fake_telegram import FakeTelegram

__all__ = ["fake_bot", "fake_telegram"]


@pytest.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def fake_bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    bot = fake_telegram.make_bot(default=DefaultBotProperties(parse_mode="HTML"))
    yield bot
    await bot.session.close()
