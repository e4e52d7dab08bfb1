"""Polling takes no more updates from Telegram than it has workers free, takes more
while the bot's thread has time to spare, and stopping finishes the ones it took."""

from __future__ import annotations

import asyncio
import itertools
import logging

import pytest
from aiogram import Bot
from aiogram.types import Message

from bot.services import polling
from bot.services.intake import WINDOW
from bot.services.polling import BoundedDispatcher
from tests.fake_telegram import FakeTelegram, fixtures

fake_telegram = fixtures.fake_telegram
fake_bot = fixtures.fake_bot


async def test_a_burst_waits_in_telegrams_queue_and_is_handled_in_order(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    dp = BoundedDispatcher(workers=2, most=2)
    gate = asyncio.Event()
    two_running = asyncio.Event()
    running: list[str] = []
    peak = 0
    handled: list[str] = []

    @dp.message()
    async def slow(message: Message) -> None:
        nonlocal peak
        running.append(message.text or "")
        peak = max(peak, len(running))
        if len(running) == 2:
            two_running.set()  # the fake sees no API call to wake its wait_for on
        await gate.wait()
        running.remove(message.text or "")
        handled.append(message.text or "")

    ann = fake_telegram.add_user("Ann", started=True)
    texts = [f"m{i}" for i in range(7)]
    for text in texts:
        await ann.send(ann, text)
    async with fake_telegram.polling(dp, fake_bot):
        await asyncio.wait_for(two_running.wait(), 5)
        polls = fake_telegram.calls("getUpdates", include_polling=True)
        assert polls
        assert all(1 <= call.params.get("limit", 100) <= 2 for call in polls)
        assert running == texts[:2]  # the oldest first; the rest still wait in Telegram
        gate.set()
        await fake_telegram.wait_for(lambda: len(handled) == len(texts))
    assert peak == 2
    assert sorted(handled) == texts
    polls = fake_telegram.calls("getUpdates", include_polling=True)
    assert all(1 <= call.params.get("limit", 100) <= 2 for call in polls)


async def test_with_time_to_spare_more_updates_are_taken_at_once_up_to_the_most(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    ticks = itertools.count()
    # every poll a window later, and the thread idle all along: the presses wait on
    # Telegram, not on the CPU
    dp = BoundedDispatcher(workers=2, most=9, cpu=lambda: 0.0, clock=lambda: next(ticks) * WINDOW)
    gate = asyncio.Event()
    running: list[str] = []
    peak = 0
    handled: list[str] = []

    @dp.message()
    async def slow(message: Message) -> None:
        nonlocal peak
        running.append(message.text or "")
        peak = max(peak, len(running))
        await gate.wait()
        running.remove(message.text or "")
        handled.append(message.text or "")

    ann = fake_telegram.add_user("Ann", started=True)
    texts = [f"m{i}" for i in range(30)]
    for text in texts:
        await ann.send(ann, text)
    async with fake_telegram.polling(dp, fake_bot):
        # each poll that gets all it asked for lets the next ask for more
        await fake_telegram.wait_for(lambda: dp.intake is not None and dp.intake.limit == 9)
        await fake_telegram.wait_for(lambda: len(running) == 9)
        assert running == texts[:9]  # in order, and the rest still wait in Telegram
        waiting = [u["message"]["text"] for u in fake_telegram.pending_updates]
        assert waiting[-21:] == texts[9:]
        gate.set()
        await fake_telegram.wait_for(lambda: len(handled) == len(texts))
    assert peak == 9
    polls = fake_telegram.calls("getUpdates", include_polling=True)
    limits = [call.params.get("limit", 100) for call in polls]
    assert limits[0] == 2
    assert max(limits) <= 9


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
