"""A bot that stands in for a person (an added bot, a seat left or timed out) plays at
the strongest level: the random player is for tests and benchmarks only."""

from __future__ import annotations

from pathlib import Path

from aiogram.client.default import DefaultBotProperties

from bot.app import create_app
from bot.bench.fake_telegram import FakeTelegram


async def test_stand_in_bots_play_hard_unless_a_test_asks_for_another(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    bot = fake_telegram.make_bot(default=DefaultBotProperties(parse_mode="HTML"))
    try:
        app = await create_app(bot, tmp_path / "bot.sqlite3", default_locale="en")
        tables = app.tables
        # an added bot, a seat left, a turn timed out: each is played at this level
        assert (tables.lobby.bot_level, tables.leaving.bot_level) == ("hard", "hard")
        assert tables.lifecycle.bot_level == "hard"
        await app.close()
        testing = await create_app(bot, tmp_path / "other.sqlite3", bot_level="random")
        assert testing.tables.lobby.bot_level == "random"
        await testing.close()
    finally:
        await bot.session.close()
