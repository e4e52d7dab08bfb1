"""A stopping bot finishes the updates it has taken, cancels one that outlasts the wait,
and tells Telegram which arrived (not a cut one: it comes again after a restart if
aiogram's polling had not confirmed it yet)."""

from __future__ import annotations

import asyncio

from aiogram import Bot, Dispatcher
from aiogram.types import Message

from bot.bench.fake_telegram import FakeTelegram
from bot.telegram.in_flight import InFlight
from tests import fake_telegram_fixtures as fixtures

fake_telegram = fixtures.fake_telegram
fake_bot = fixtures.fake_bot


async def test_an_update_outlasting_the_wait_is_cancelled_and_not_confirmed(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    fake = fake_telegram
    ann = fake.add_user("Ann", started=True)
    in_flight = InFlight(stop_wait=0)  # whatever still runs when polling stops is cut
    dp = Dispatcher()
    dp.update.outer_middleware(in_flight)
    stuck = asyncio.Event()
    outcome: list[str] = []

    async def handle(message: Message) -> None:
        if message.text == "quick":
            outcome.append("quick done")
            return
        stuck.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            outcome.append("slow cancelled")
            raise

    async def on_shutdown(bot: Bot) -> None:
        await in_flight.finish(bot)

    dp.message.register(handle)
    dp.shutdown.register(on_shutdown)
    async with fake.polling(dp, fake_bot):
        await ann.send(ann, "quick")
        await fake.wait_for(lambda: outcome == ["quick done"])
        await ann.send(ann, "slow")
        await stuck.wait()
        slow_id = fake.update_log[-1]["update_id"]
        mark = fake.mark()
    assert outcome == ["quick done", "slow cancelled"]
    assert not in_flight.running
    # the confirmation on the way out stops short of the cut update
    confirm = fake.calls("getUpdates", since=mark, include_polling=True)[-1]
    assert confirm.params["offset"] == slow_id


async def test_updates_finished_before_the_stop_are_confirmed(
    fake_telegram: FakeTelegram, fake_bot: Bot
) -> None:
    fake = fake_telegram
    ann = fake.add_user("Ann", started=True)
    in_flight = InFlight()
    dp = Dispatcher()
    dp.update.outer_middleware(in_flight)
    release = asyncio.Event()
    done: list[str] = []

    async def handle(message: Message) -> None:
        await release.wait()
        done.append(str(message.text))

    async def on_shutdown(bot: Bot) -> None:
        release.set()  # the handler finishes while the bot stops
        await in_flight.finish(bot)

    dp.message.register(handle)
    dp.shutdown.register(on_shutdown)
    async with fake.polling(dp, fake_bot):
        await ann.send(ann, "hello")
        await fake.wait_for(lambda: in_flight.running)
    assert done == ["hello"]
    assert fake.pending_updates == []  # a restart would not get it again
