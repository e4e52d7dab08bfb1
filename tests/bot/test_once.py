"""An update Telegram delivers again, to the same process or to another sharing the
database, is handled once; one whose handling failed is handled when it comes again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from aiogram import Bot, Dispatcher
from aiogram.types import Message, Update

from bot.app import create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.db import open_database
from bot.db import updates as updates_module
from bot.db.pruning import EVERY
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


async def test_the_only_writer_reads_only_for_updates_from_before_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SQLite file's one process looks up an update only if it may have been handled
    before the process started, or so long ago that it no longer remembers it."""
    monkeypatch.setattr(updates_module, "KEEP_IN_MEMORY", 3)
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    before = await open_database(url)
    try:
        first = UpdateLog(before)
        for update_id in (10, 11):
            assert not await first.handled(update_id)
            await first.mark(update_id)
    finally:
        await before.close()
    db = await open_database(url)  # the bot started again
    reads: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "FROM updates" in statement:
            reads.append(statement)

    sa.event.listen(db.engine.sync_engine, "before_cursor_execute", count)
    log = UpdateLog(db)
    try:
        # delivered again after the restart: looked up, and dropped
        assert await log.handled(11)
        assert await log.handled(10)
        looked = len(reads)
        assert looked >= 2
        for update_id in range(12, 17):  # new ones: nothing to read
            assert not await log.handled(update_id)
            await log.mark(update_id)
            assert await log.handled(update_id)
        assert len(reads) == looked
        assert await log.handled(16) and not await log.handled(17)
        assert len(reads) == looked
        # 12 and 13 are forgotten (three are remembered): read, and found
        assert await log.handled(12) and await log.handled(13)
        assert len(reads) == looked + 2
        assert not await log.handled(9)
    finally:
        await db.close()


async def test_ids_older_than_a_day_are_deleted_by_every_thousandth_write(
    database_url: str,
) -> None:
    now = [0.0]
    db = await open_database(database_url)
    try:
        log = UpdateLog(db, clock=lambda: now[0])
        await log.mark(1)
        now[0] = updates_module.KEEP + 1
        for update_id in range(2, EVERY):
            await log.mark(update_id)

        async def stored() -> set[int]:
            async with db.connect() as conn:
                rows = await conn.execute(sa.text("SELECT update_id FROM updates"))
                return {row[0] for row in rows}

        assert 1 in await stored()  # a day old, but only the thousandth write deletes
        await log.mark(EVERY)
        assert await stored() == set(range(2, EVERY + 1))
    finally:
        await db.close()


async def test_the_only_writer_writes_updates_handled_together_in_one_statement(
    tmp_path: Path,
) -> None:
    """Ids marked while a write is under way wait for it and go in the next one together;
    each mark returns once its own id is stored."""
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    inserts: list[bool] = []

    def count(
        conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool
    ) -> None:
        if statement.startswith("INSERT INTO updates"):
            inserts.append(many)

    sa.event.listen(db.engine.sync_engine, "before_cursor_execute", count)
    log = UpdateLog(db)
    try:
        await asyncio.gather(*(log.mark(update_id) for update_id in range(1, 6)))
        assert inserts == [False, True]  # the first alone, the four that queued behind it
        rows = await db.fetchall("SELECT update_id FROM updates ORDER BY update_id")
        assert [row["update_id"] for row in rows] == [1, 2, 3, 4, 5]
        assert all([await log.handled(update_id) for update_id in range(1, 6)])
        assert not await log.handled(6)
    finally:
        await db.close()
