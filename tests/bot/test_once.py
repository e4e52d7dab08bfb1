"""An update Telegram delivers again, to the same process or to another sharing the
database, is handled once; one whose handling failed is handled when it comes again."""

from __future__ import annotations

from aiogram import Bot, Dispatcher
from aiogram.types import Message, Update

from bot.app import create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.db import open_database
from bot.db.updates import UpdateLog
from bot.telegram.middlewares import Once
from tests import fake_telegram_fixtures as fixtures

fake_bot = fixtures.fake_bot


async def test_a_command_delivered_again_is_handled_once_by_whichever_process(
    fake_telegram: FakeTelegram, fake_bot: Bot, database_url: str
) -> None:
    fake = fake_telegram
    ann = fake.add_user("Ann")
    fake.user_message(ann, ann, "/start")
    (update,) = (Update.model_validate(u) for u in fake.pending_updates)
    # two processes on one database: replicas, or the bot before and after a restart
    one = await create_app(fake_bot, database_url, default_locale="en")
    two = await create_app(fake_bot, database_url, default_locale="en")
    try:
        await one.dp.feed_update(fake_bot, update)
        welcome = fake.messages(ann, from_bot=True)
        assert len(welcome) == 1 and "at your table" in welcome[0].text
        for app in (two, one):
            await app.dp.feed_update(fake_bot, update)
        assert fake.messages(ann, from_bot=True) == welcome
        # a new update is not taken for the old one
        fake.user_message(ann, ann, "/start")
        await two.dp.feed_update(fake_bot, Update.model_validate(fake.pending_updates[-1]))
        assert len(fake.messages(ann, from_bot=True)) == 2
    finally:
        await one.close()
        await two.close()


async def test_an_update_whose_handling_failed_is_handled_when_it_comes_again(
    fake_telegram: FakeTelegram, fake_bot: Bot, database_url: str
) -> None:
    fake = fake_telegram
    ann = fake.add_user("Ann", started=True)
    fake.user_message(ann, ann, "hello")
    (update,) = (Update.model_validate(u) for u in fake.pending_updates)
    db = await open_database(database_url)
    dp = Dispatcher()
    dp.update.outer_middleware(Once(UpdateLog(db)))
    handled: list[str] = []

    async def handle(message: Message) -> None:
        handled.append("tried")
        if len(handled) == 1:
            raise RuntimeError("the database went away for a moment")

    dp.message.register(handle)
    try:
        failed = False
        try:
            await dp.feed_update(fake_bot, update)
        except RuntimeError:
            failed = True
        assert failed and handled == ["tried"]
        await dp.feed_update(fake_bot, update)  # the retry
        await dp.feed_update(fake_bot, update)  # and the retry's retry, handled already
        assert handled == ["tried", "tried"]
    finally:
        await db.close()
