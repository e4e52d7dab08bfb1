"""A starting bot shows the tables left unshown beside the updates, not before them, at a
pace Telegram's limit over all chats allows; a stopping bot shows no more of them."""

from __future__ import annotations

import itertools
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware

from bot.app import App, create_app
from bot.bench.fake_telegram import FakeChat, FakeTelegram
from bot.telegram.rates import RESHOW_CALLS_PER_SECOND
from tests import fake_telegram_fixtures as fixtures
from tests.bot.test_replicas_show import Fleet, played, stored
from tests.e2e.harness import ManualClock

fake_bot = fixtures.fake_bot


class Stamps(BaseRequestMiddleware):
    """The clock's time of every Bot API call, by chat, as it goes out."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.at: list[tuple[Any, float]] = []

    async def __call__(self, make_request: Any, bot: Bot, method: Any) -> Any:
        self.at.append((getattr(method, "chat_id", None), self.clock()))
        return await make_request(bot, method)


async def unshown_tables(
    fake: FakeTelegram, app: App, count: int
) -> tuple[list[FakeChat], list[int]]:
    """``count`` tables in play that no message shows yet, a group of three each."""
    groups, ids = [], []
    for n in range(count):
        users = [fake.add_user(f"P{n}s{s}", started=True) for s in range(3)]
        group = fake.add_group(f"Cards {n}", members=users)
        fleet = Fleet(fake, [app], group, users)
        groups.append(group)
        ids.append((await stored(fleet, played(False), unposted_from=None)).id)
    return groups, ids


async def test_tables_are_shown_after_start_up_at_a_pace_others_are_not_held_to(
    fake_telegram: FakeTelegram, fake_bot: Bot, postgres_url: str
) -> None:
    fake, clock = fake_telegram, ManualClock(now=1_000.0)
    app = await create_app(
        fake_bot, postgres_url, default_locale="en", clock=clock, sleep=clock.sleep
    )
    stamps = Stamps(clock)
    fake_bot.session.middleware(stamps)
    try:
        groups, _ = await unshown_tables(fake, app, 3)
        await app.dp.emit_startup(bot=fake_bot)
        started = len(stamps.at)
        # start-up is over (the webhook would serve now) while the tables wait their turn
        task = app.reshowing.task
        assert task is not None and not task.done()
        await clock.until_asleep()
        assert not task.done()
        # a call of anything else goes out at once
        other = fake.add_user("Zoe", started=True)
        before = len(stamps.at)
        assert await app.sender.send(other.id, "hello") is not None
        assert stamps.at[before:] == [(other.id, clock())]

        gap = 1 / RESHOW_CALLS_PER_SECOND
        while not task.done():
            await clock.until_asleep(task)
            clock.advance(gap)
        assert await app.reshowing.done() == 3
        shown = [at for chat, at in stamps.at[started:] if chat != other.id]
        assert len(shown) >= 3 * 4  # a table message and three hands a table
        assert all(b - a >= gap - 1e-9 for a, b in itertools.pairwise(shown))
        for group in groups:
            assert fake.messages(group, from_bot=True)
    finally:
        fake_bot.session.middleware.unregister(stamps)
        await app.close()


async def test_a_stopping_bot_shows_no_more_tables_and_the_next_start_shows_the_rest(
    fake_telegram: FakeTelegram, fake_bot: Bot, postgres_url: str
) -> None:
    fake, clock = fake_telegram, ManualClock(now=1_000.0)
    app = await create_app(
        fake_bot, postgres_url, default_locale="en", clock=clock, sleep=clock.sleep
    )
    try:
        groups, _ = await unshown_tables(fake, app, 3)
        await app.dp.emit_startup(bot=fake_bot)
        await clock.until_asleep()
        mark = fake.mark()
        # the first table's showing outlasts the wait given to it
        await app.reshowing.stop(wait=0)
        task = app.reshowing.task
        assert task is not None and task.cancelled()
        clock.advance(60)
        assert fake.calls(since=mark) == []
        untouched = [g for g in groups if not fake.messages(g, from_bot=True)]
        assert len(untouched) >= 2
    finally:
        await app.close()

    again = await create_app(fake_bot, postgres_url, default_locale="en")
    try:
        await again.dp.emit_startup(bot=fake_bot)
        assert await again.reshowing.done() >= 2
        assert all(fake.messages(g, from_bot=True) for g in groups)
    finally:
        await again.close()
