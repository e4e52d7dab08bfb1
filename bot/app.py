"""Wiring: the Bot, the Dispatcher with its routers, middleware and services."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode

from bot import jsonio
from bot.ai.players import LEVELS, Budgets, policy_for
from bot.config import UPDATE_WORKERS, Settings
from bot.db import Database, PeopleRepo, TableRepo, open_database
from bot.db.database import DatabaseOptions
from bot.db.posts import Posts
from bot.db.sends import GroupMinutes
from bot.db.shown import ShownVersions
from bot.db.updates import UpdateLog
from bot.engine import GAME_NAMES, game_class
from bot.i18n import make_i18n
from bot.tables import Alarm, People, Tables
from bot.tables.timers import Scheduler
from bot.telegram.commands import set_commands
from bot.telegram.handlers import routers
from bot.telegram.in_flight import InFlight
from bot.telegram.middlewares import ContextMiddleware, Once
from bot.telegram.publisher import Publisher
from bot.telegram.reshow import Reshowing
from bot.telegram.sender import GROUP_MESSAGES_PER_MINUTE, Sender
from bot.telegram.strain import Strain

__all__ = ["App", "connections", "create_app", "make_bot"]

log = logging.getLogger(__name__)


def connections(update_workers: int) -> int:
    """Connections to Telegram to keep at most: a press in flight makes its calls one at a
    time, but its answer goes out while the table is shown, and delayed edits and turn
    timers call too. With fewer, presses would queue for a connection rather than for
    Telegram."""
    return max(100, 2 * update_workers)


def make_bot(settings: Settings) -> Bot:
    session = AiohttpSession(
        api=TelegramAPIServer.from_base(settings.telegram_api_url),
        json_loads=jsonio.loads,
        json_dumps=jsonio.dumps,
        limit=connections(settings.update_workers),
    )
    return Bot(
        settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


@dataclass
class App:
    dp: Dispatcher
    db: Database
    tables: Tables
    sender: Sender
    publisher: Publisher
    timers: Scheduler
    reshowing: Reshowing
    """Start-up's showing of the tables left unshown, running beside the updates."""

    async def close(self) -> None:
        await self.reshowing.stop()
        await self.timers.stop()
        await self.tables.close()
        await self.publisher.throttle.close()
        await self.db.close()


async def create_app(
    bot: Bot,
    database: Path | str,
    *,
    default_locale: str = "ru",
    default_timer: int = 0,
    group_messages_per_minute: int = GROUP_MESSAGES_PER_MINUTE,
    bot_level: str = "hard",
    budgets: Budgets | None = None,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    clock: Callable[[], float] = time.time,
    seed_source: Callable[[], int] | None = None,
    timer_clock: Callable[[], float] = time.time,
    timer_sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    send_margin: Callable[[], float] | None = None,
    database_options: DatabaseOptions | None = None,
    update_workers: int = UPDATE_WORKERS,
) -> App:
    """``database``: a database URL, or the path of a SQLite file;
    ``group_messages_per_minute``: messages sent or edited in a group a minute at most
    (see :class:`Sender`);
    ``sleep``/``clock`` pace the Bot API calls (a wall clock: a group's minute is kept
    in the database, shared with other processes and the bot after a restart);
    ``send_margin``: seconds by ``clock`` a message may take to reach Telegram after its
    slot of the group's minute is taken (:data:`~bot.db.sends.MARGIN` unless given);
    ``timer_clock``/``timer_sleep`` (wall clock: deadlines outlive the process) drive
    the turn timers; ``budgets``: by game, what a bot player's decision is given to
    think (the default budget scaled by the machine's speed, :mod:`bot.ai.pace`);
    ``update_workers``: the updates handled at once (polling), the bot being overloaded
    when they are all taken and it is busy (:class:`Strain`)."""
    # The rules and bot players (with their lookup tables) load now, once, rather
    # than inside the first press of each game; a broken install fails at start-up.
    for name in GAME_NAMES:
        game_class(name)
        for level in LEVELS:
            policy_for(name, level)
    db = await open_database(database, **(database_options or {}))
    people = People(PeopleRepo(db))
    table_repo = TableRepo(db)
    i18n = make_i18n(default_locale)

    async def blocked(chat_id: int) -> None:
        if chat_id > 0:
            await people.blocked(chat_id)

    sender = Sender(
        bot,
        sleep=sleep,
        clock=clock,
        on_blocked=blocked,
        group_messages_per_minute=group_messages_per_minute,
        minutes=GroupMinutes(db, margin=send_margin),
    )

    async def lost(chat_id: int, message_id: int) -> None:
        # called only later, from an edit held back: ``tables`` is there by then
        await tables.lifecycle.message_lost(chat_id, message_id)

    in_flight = InFlight()
    publisher = Publisher(
        sender,
        people,
        i18n,
        on_shown=table_repo.save_shown,
        on_lost=lost,
        posts=Posts(db),
        # one process alone sends its edits of a message in the order it made them
        versions=None if db.only_writer else ShownVersions(db, clock=clock),
        stored=None if db.only_writer else table_repo.get,
        strained=Strain(in_flight, update_workers),
    )
    alarm = Alarm()
    tables = Tables(
        table_repo,
        people,
        publisher,
        sender,
        alarm=alarm,
        bot_level=bot_level,
        budgets=budgets,
        default_timer=default_timer,
        seed_source=seed_source,
        clock=timer_clock,
        sleep=sleep,
    )
    timers = Scheduler(tables.deadlines, alarm, clock=timer_clock, sleep=timer_sleep)
    # the bot keeps no conversation state: aiogram's FSM would only cost a lookup an update
    dp = Dispatcher(
        disable_fsm=True,
        tables=tables,
        sender=sender,
        publisher=publisher,
        i18n=i18n,
    )
    dp.update.outer_middleware(in_flight)
    # after the drain's: an update dropped as handled before is nothing to wait for
    dp.update.outer_middleware(Once(UpdateLog(db)))
    dp.update.outer_middleware(ContextMiddleware(i18n, people, default_locale))
    dp.include_routers(*routers())

    # paced on the same clock as the rest of the bot's calls
    reshowing = Reshowing(tables, bot, clock=clock, sleep=sleep)

    async def on_startup(bot: Bot) -> None:
        await set_commands(bot, i18n, default_locale)
        # the tables are shown beside the updates: many of them take a while at
        # Telegram's pace, and the webhook (or polling) must not wait for them
        reshowing.start()
        timers.start()

    async def on_shutdown(bot: Bot, webhook: bool = False) -> None:
        # polling (or the webhook server) has stopped: no more tables are shown, and
        # the presses taken are finished before the store closes
        await asyncio.gather(reshowing.stop(), in_flight.finish(bot, confirm=not webhook))
        await timers.stop()

    dp.startup.register(on_startup)
    dp.shutdown.register(on_shutdown)
    return App(
        dp=dp,
        db=db,
        tables=tables,
        sender=sender,
        publisher=publisher,
        timers=timers,
        reshowing=reshowing,
    )
