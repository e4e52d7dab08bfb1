"""Polling takes no more updates from Telegram than it has workers free, takes more
while the bot's thread has time to spare, and stopping finishes the ones it took."""

from __future__ import annotations

import asyncio
import itertools
import logging
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.types import Message

from bot.app import create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.telegram import polling
from bot.telegram.intake import WINDOW, Intake
from bot.telegram.polling import BoundedDispatcher
from tests import fake_telegram_fixtures as fixtures

fake_telegram = fixtures.fake_telegram
fake_bot = fixtures.fake_bot


class Held:
    """A message handler that holds every message until released, noting how many it
    held at once."""

    def __init__(self, dp: BoundedDispatcher, full_at: int) -> None:
        self.release = asyncio.Event()
        self.full = asyncio.Event()
        """Set once ``full_at`` are held (the fake sees no API call to wake its wait_for)."""
        self.full_at = full_at
        self.running: list[str] = []
        self.handled: list[str] = []
        self.peak = 0
        dp.message()(self.handle)

    async def handle(self, message: Message) -> None:
        text = message.text or ""
        self.running.append(text)
        self.peak = max(self.peak, len(self.running))
        if len(self.running) == self.full_at:
            self.full.set()
        await self.release.wait()
        self.running.remove(text)
        self.handled.append(text)


async def queue_messages(fake_telegram: FakeTelegram, count: int) -> list[str]:
    ann = fake_telegram.add_user("Ann", started=True)
    texts = [f"m{i}" for i in range(count)]
    for text in texts:
        await ann.send(ann, text)
    return texts


def poll_limits(fake_telegram: FakeTelegram) -> list[int]:
    polls = fake_telegram.calls("getUpdates", include_polling=True)
    return [call.params.get("limit", 100) for call in polls]


async def test_a_burst_waits_in_telegrams_queue_and_is_handled_in_order(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    dp = BoundedDispatcher(workers=2, most=2)
    held = Held(dp, full_at=2)
    texts = await queue_messages(fake_telegram, 7)
    async with fake_telegram.polling(dp, fake_bot):
        await asyncio.wait_for(held.full.wait(), 5)
        assert poll_limits(fake_telegram)
        assert all(1 <= limit <= 2 for limit in poll_limits(fake_telegram))
        assert held.running == texts[:2]  # the oldest first; the rest still wait in Telegram
        held.release.set()
        await fake_telegram.wait_for(lambda: len(held.handled) == len(texts))
    assert held.peak == 2
    assert sorted(held.handled) == texts
    assert all(1 <= limit <= 2 for limit in poll_limits(fake_telegram))


async def test_with_time_to_spare_more_updates_are_taken_at_once_up_to_the_most(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    ticks = itertools.count()
    # every poll a window later, and the thread idle all along: the presses wait on
    # Telegram, not on the CPU
    dp = BoundedDispatcher(workers=2, most=9, cpu=lambda: 0.0, clock=lambda: next(ticks) * WINDOW)
    held = Held(dp, full_at=9)
    texts = await queue_messages(fake_telegram, 30)
    async with fake_telegram.polling(dp, fake_bot):
        # each poll that gets all it asked for lets the next ask for more
        await asyncio.wait_for(held.full.wait(), 5)
        assert held.running == texts[:9]  # in order, and the rest still wait in Telegram
        waiting = [u["message"]["text"] for u in fake_telegram.pending_updates]
        assert waiting[-21:] == texts[9:]
        held.release.set()
        await fake_telegram.wait_for(lambda: len(held.handled) == len(texts))
    assert held.peak == 9
    limits = poll_limits(fake_telegram)
    assert limits[0] == 2
    assert max(limits) <= 9


async def test_a_busy_thread_with_updates_waiting_is_strained_until_it_keeps_up(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    now = itertools.count(step=WINDOW)
    clock = [0.0]

    def tick() -> float:  # every poll a window later
        clock[0] = next(now)
        return clock[0]

    # the thread on the CPU for 95% of every window
    dp = BoundedDispatcher(workers=2, most=2, cpu=lambda: 0.95 * clock[0], clock=tick)
    seen: list[bool] = []

    @dp.message()
    async def handle(message: Message) -> None:
        assert dp.intake is not None
        seen.append(dp.intake.strained)

    texts = await queue_messages(fake_telegram, 40)
    async with fake_telegram.polling(dp, fake_bot):
        await fake_telegram.wait_for(lambda: len(seen) == len(texts))
        # the last poll found Telegram's queue empty: the bot keeps up again
        await fake_telegram.wait_for(lambda: dp.intake is not None and not dp.intake.strained)
    assert not seen[0]  # a busy thread is told from a quiet one over a few windows
    assert seen[-1]


async def test_the_publisher_knows_the_bot_is_strained_from_the_polling_intake(
    fake_bot: Bot, tmp_path: Path
) -> None:
    app = await create_app(fake_bot, tmp_path / "b.sqlite3")
    try:
        assert not app.publisher.strained()  # not polling: no load to measure
        app.dp.intake = Intake(2)
        assert not app.publisher.strained()
        app.dp.intake.strained = True
        assert app.publisher.strained()
    finally:
        await app.close()


def test_the_number_of_workers_is_checked() -> None:
    with pytest.raises(ValueError, match="workers"):
        BoundedDispatcher(workers=0)
    with pytest.raises(ValueError, match="workers"):
        BoundedDispatcher(workers=101)
    with pytest.raises(ValueError, match="most"):
        BoundedDispatcher(workers=12, most=11)


async def test_polling_goes_on_after_telegram_fails(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    dp = BoundedDispatcher(workers=3)
    handled: list[str] = []

    @dp.message()
    async def note(message: Message) -> None:
        handled.append(message.text or "")

    ann = fake_telegram.add_user("Ann", started=True)
    async with fake_telegram.polling(dp, fake_bot):
        fake_telegram.fail_next("getUpdates", 502)
        await ann.send(ann, "after the faults")
        await fake_telegram.wait_for(lambda: handled == ["after the faults"], timeout=20)
    polls = fake_telegram.calls("getUpdates", include_polling=True)
    assert [c.status for c in polls if c.fault] == [502]


async def test_stopping_finishes_the_updates_taken_and_confirms_them(
    fake_telegram: FakeTelegram, fake_bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    dp = BoundedDispatcher(workers=1)
    running = asyncio.Event()
    stopping = asyncio.Event()
    handled: list[str] = []

    @dp.message()
    async def slow(message: Message) -> None:
        running.set()
        await stopping.wait()
        handled.append(message.text or "")

    def notice(record: logging.LogRecord) -> bool:
        if "being handled" in record.getMessage():
            stopping.set()  # the handler goes on only once polling has stopped
        return True

    caplog.set_level(logging.INFO, logger=polling.__name__)
    polling.log.addFilter(notice)
    ann = fake_telegram.add_user("Ann", started=True)
    await ann.send(ann, "taken")
    await ann.send(ann, "waiting")
    try:
        async with fake_telegram.polling(dp, fake_bot):
            await asyncio.wait_for(running.wait(), 5)
            # the only worker is busy: 'taken' is not confirmed yet, 'waiting' not taken
            assert len(fake_telegram.pending_updates) == 2
    finally:
        polling.log.removeFilter(notice)
    assert handled == ["taken"]
    # 'taken' does not come again after a restart; 'waiting' does
    assert [u["message"]["text"] for u in fake_telegram.pending_updates] == ["waiting"]


async def test_stopping_cancels_what_is_still_running_after_the_wait_and_leaves_it_in_telegram(
    fake_telegram: FakeTelegram, fake_bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    dp = BoundedDispatcher(workers=1, stop_wait=0)
    running = asyncio.Event()
    cancelled: list[str] = []

    @dp.message()
    async def stuck(message: Message) -> None:
        running.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(message.text or "")
            raise

    ann = fake_telegram.add_user("Ann", started=True)
    await ann.send(ann, "stuck")
    async with fake_telegram.polling(dp, fake_bot):
        await asyncio.wait_for(running.wait(), 5)
    assert cancelled == ["stuck"]
    (update,) = fake_telegram.pending_updates
    assert update["message"]["text"] == "stuck"
    assert f"cancelled 1 updates still being handled after 0.0 s: [{update['update_id']}]" in (
        caplog.text
    )
