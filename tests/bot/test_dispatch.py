"""The dispatcher as the bot builds it: nothing on an update's way runs on another thread."""

from __future__ import annotations

from pathlib import Path

from aiogram import Bot
from aiogram.dispatcher.event.handler import CallableObject

from bot.app import create_app
from bot.bench.fake_telegram import FakeTelegram
from tests import fake_telegram_fixtures as fixtures

fake_telegram = fixtures.fake_telegram
fake_bot = fixtures.fake_bot


async def test_every_filter_and_handler_is_a_coroutine(
    fake_telegram: FakeTelegram, fake_bot: Bot, tmp_path: Path
) -> None:
    # aiogram runs a plain function (a magic F filter too) through asyncio.to_thread:
    # a thread hop for every update the router sees.
    app = await create_app(fake_bot, tmp_path / "bot.sqlite3")
    try:
        checked: list[CallableObject] = []
        for router in app.dp.chain_tail:
            for observer in router.observers.values():
                for handler in observer.handlers:
                    checked += [handler, *(handler.filters or ())]
                checked += observer._handler.filters or ()
        assert len(checked) > 30
        threaded = [c.callback for c in checked if not c.awaitable]
        assert threaded == []
    finally:
        await app.close()
