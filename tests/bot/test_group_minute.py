"""A group's 20 messages a minute hold for the bot's processes together: replicas
sharing one database, and the bot before and after a restart, take their slots of the
group's minute from the database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import pytest
from aiogram import Bot

from bot.app import App, create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.db.sends import HELD
from bot.telegram.sender import GROUP_MESSAGES_PER_MINUTE, ROUTINE_SHARE
from tests.e2e.harness import ManualClock


@pytest.fixture
async def clocked() -> AsyncIterator[tuple[FakeTelegram, ManualClock]]:
    """The fake Telegram telling each call's time by the clock the bots pace them by."""
    clock = ManualClock(now=1_000.0)
    async with FakeTelegram(clock=clock) as fake:
        yield fake, clock


async def paced(clock: ManualClock, *jobs: Coroutine[Any, Any, None]) -> None:
    """Run ``jobs`` together, the clock moving on a second whenever all of them wait for
    it: never while a call is on its way, so a call comes when its slot was taken."""
    tasks = [asyncio.create_task(job) for job in jobs]
    while not all(task.done() for task in tasks):
        if clock.asleep() == sum(not task.done() for task in tasks):
            clock.advance(1.0)
        await asyncio.sleep(0.001)
    for task in tasks:
        task.result()


def most_in_a_minute(times: list[float]) -> int:
    times = sorted(times)
    return max(
        (sum(1 for t in times[i:] if t < start + 60) for i, start in enumerate(times)), default=0
    )


async def test_replicas_and_a_restarted_bot_keep_within_the_groups_minute_together(
    clocked: tuple[FakeTelegram, ManualClock], database_url: str
) -> None:
    fake, clock = clocked
    ann = fake.add_user("Ann", started=True)
    group = fake.add_group("Cards", members=[ann])
    bots: list[Bot] = []
    apps: list[App] = []

    async def replica() -> App:
        bot = fake.make_bot()
        bots.append(bot)
        app = await create_app(
            bot, database_url, default_locale="en", clock=clock, sleep=clock.sleep
        )
        apps.append(app)
        return app

    try:
        replicas = [await replica() for _ in range(3)]

        async def burst(app: App, n: int, count: int) -> None:
            for k in range(count):
                assert await app.sender.send(group.id, f"r{n} m{k}") is not None

        # each replica alone would send its 15 at once: together they are 45
        await paced(clock, *(burst(app, n, 15) for n, app in enumerate(replicas)))
        sent = [c.at for c in fake.calls("sendMessage") if c.params["chat_id"] == group.id]
        assert len(sent) == 45
        assert most_in_a_minute(sent) == GROUP_MESSAGES_PER_MINUTE
        assert clock.now >= 1_120

        # one replica stops and starts again, and at once has more to say: the minute
        # before the restart holds 5 (its last 20 went at 1060 and 1120), so 15 go now
        # and the rest wait
        await replicas[0].close()
        apps.remove(replicas[0])
        restarted = await replica()
        before = clock.now
        await paced(clock, burst(restarted, 3, 20))
        assert clock.now >= before + 60
        # an edit takes its slot of the same minute
        last = fake.messages(group, from_bot=True)[-1]
        assert await restarted.sender.edit(group.id, last.message_id, "edited")
        times = [
            c.at
            for c in fake.calls()
            if c.method in ("sendMessage", "editMessageText") and c.params["chat_id"] == group.id
        ]
        assert len(times) == 66
        assert most_in_a_minute(times) == GROUP_MESSAGES_PER_MINUTE
    finally:
        for app in apps:
            await app.close()
        for bot in bots:
            await bot.session.close()


async def test_a_reply_is_left_out_when_other_processes_used_the_minute(
    clocked: tuple[FakeTelegram, ManualClock], database_url: str
) -> None:
    fake, clock = clocked
    ann = fake.add_user("Ann", started=True)
    group = fake.add_group("Cards", members=[ann])
    one_bot, two_bot = fake.make_bot(), fake.make_bot()
    one = await create_app(one_bot, database_url, clock=clock, sleep=clock.sleep)
    two = await create_app(two_bot, database_url, clock=clock, sleep=clock.sleep)
    try:
        for k in range(GROUP_MESSAGES_PER_MINUTE):
            await one.sender.send(group.id, f"m{k}")
        # the other process has sent nothing itself, yet the group has had its minute
        assert two.sender.can_reply(group.id)
        assert await two.sender.reply(group.id, "a reply") is None
        # and its table edits wait for a slot rather than go out at once
        assert two.sender.slot_wait(group.id) > 0
        clock.advance(HELD)
        assert await two.sender.reply(group.id, "a reply") is not None
    finally:
        await one.close()
        await two.close()
        await one_bot.session.close()
        await two_bot.session.close()


async def test_routine_edits_of_the_replicas_leave_room_for_results(
    clocked: tuple[FakeTelegram, ManualClock], database_url: str
) -> None:
    fake, clock = clocked
    ann = fake.add_user("Ann", started=True)
    group = fake.add_group("Cards", members=[ann])
    bots = [fake.make_bot() for _ in range(3)]
    apps = [
        await create_app(bot, database_url, default_locale="en", clock=clock, sleep=clock.sleep)
        for bot in bots
    ]
    routine = int(GROUP_MESSAGES_PER_MINUTE * ROUTINE_SHARE)
    try:
        table = await apps[0].sender.send(group.id, "table")
        assert table is not None

        async def edits(app: App, n: int) -> None:
            for k in range(routine):
                assert await app.sender.edit(group.id, table, f"r{n} e{k}", routine=True)

        # each replica edits the table as often as it may on its own: together they
        # would fill the minute, and a deal's result would wait for it
        editing = [asyncio.create_task(edits(app, n)) for n, app in enumerate(apps)]
        while clock.asleep() < len(editing):  # noqa: ASYNC110
            await asyncio.sleep(0.001)
        assert len(fake.calls("editMessageText")) == routine - 1  # the send took one
        # the rest of the minute is there for what the players wait for, at once
        for k in range(GROUP_MESSAGES_PER_MINUTE - routine):
            async with asyncio.timeout(5):
                assert await apps[k % 3].sender.send(group.id, f"result {k}") is not None
        assert clock.asleep() == len(editing) and clock.now == 1_000.0
        # and no more
        assert apps[2].sender.slot_wait(group.id) == 0  # as far as it knows itself
        late = asyncio.create_task(apps[2].sender.send(group.id, "late"))
        while clock.asleep() < len(editing) + 1:  # noqa: ASYNC110
            await asyncio.sleep(0.001)
        assert [m.text for m in fake.messages(group, from_bot=True)][-1] == "result 4"
        late.cancel()
        for task in editing:
            task.cancel()
        await asyncio.gather(late, *editing, return_exceptions=True)
    finally:
        for app in apps:
            await app.close()
        for bot in bots:
            await bot.session.close()
