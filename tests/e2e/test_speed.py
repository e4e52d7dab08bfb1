"""The bot times its players' speed as it starts, and logs what they are given to think."""

from __future__ import annotations

import re
from pathlib import Path

from bot.ai import pace
from bot.ai.players import DEFAULT_BUDGET_MS
from bot.bench.fake_telegram import FakeTelegram
from tests.e2e.process import ChildBot

LINE = re.compile(r"think at speed deberts (\S+) \((\d+) ms\), thousand (\S+) \((\d+) ms\)")


async def _logged_speeds(child: ChildBot) -> tuple[float, int, float, int]:
    assert await child.wait_logged("think at speed", timeout=60)
    found = LINE.search(child.log.read_text())
    assert found is not None, child.log.read_text()
    deberts, deberts_ms, thousand, thousand_ms = found.groups()
    return float(deberts), int(deberts_ms), float(thousand), int(thousand_ms)


async def test_the_bot_times_its_speed_at_start_up_unless_it_is_pinned(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    async with ChildBot(fake_telegram, tmp_path / "timed.sqlite3", timed_speed=True) as child:
        deberts, deberts_ms, thousand, thousand_ms = await _logged_speeds(child)
    for speed, budget in ((deberts, deberts_ms), (thousand, thousand_ms)):
        assert pace.SLOWEST <= speed <= pace.FASTEST
        assert budget == round(speed * DEFAULT_BUDGET_MS)

    pinned = {"BOT_SPEED": "1.5"}
    async with ChildBot(fake_telegram, tmp_path / "pinned.sqlite3", settings=pinned) as child:
        speeds = await _logged_speeds(child)
    assert speeds == (1.5, 300, 1.5, 300)
