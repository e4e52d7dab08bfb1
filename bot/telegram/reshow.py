"""Start-up's showing of the tables left unshown, in the background and paced.

A starting bot brings back the tables whose messages may not show their latest state
(:meth:`~bot.tables.Tables.resume_all`). With many tables that is a burst of sends and
edits over many chats: Telegram allows a bot about 30 messages a second over all its
chats, and answers more with 429 and a wait. So the showing runs as a task beside the
updates, not inside start-up (the webhook serves, and polling starts, at once), and the
Bot API calls it makes go out at most :data:`~bot.telegram.rates.RESHOW_CALLS_PER_SECOND`
a second, leaving the rest of the limit for the presses that come in meanwhile.

Only calls made by that task (and by what it starts while it runs) are paced: a
:class:`~aiogram.client.session.middlewares.base.BaseRequestMiddleware` on the bot's
session asks a context variable whose call it is. A stopping bot lets the table being
shown finish, for a few seconds at most, and shows no more; the next start-up shows
what was left.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import TelegramMethod
from aiogram.methods.base import Response, TelegramType

from bot.tables import Tables
from bot.telegram.rates import RESHOW_CALLS_PER_SECOND

__all__ = ["RESHOW_STOP_WAIT", "Pace", "Reshowing"]

log = logging.getLogger(__name__)

RESHOW_STOP_WAIT = 3.0
"""Seconds a stopping bot gives the table being shown before it cancels the showing."""

_PACE: contextvars.ContextVar[Pace | None] = contextvars.ContextVar("reshow_pace", default=None)


class Pace:
    """Bot API calls spaced ``1 / per_second`` apart on ``clock``, while :attr:`on`."""

    def __init__(
        self,
        per_second: float,
        *,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[Any]],
    ) -> None:
        self.gap = 1 / per_second
        self.clock, self.sleep = clock, sleep
        self.on = True
        self._next = 0.0

    async def wait(self) -> None:
        if not self.on:
            return
        now = self.clock()
        at = max(now, self._next)
        self._next = at + self.gap
        if at > now:
            await self.sleep(at - now)


class PaceMiddleware(BaseRequestMiddleware):
    """Paces the calls made in a context that holds a :class:`Pace`."""

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        pace = _PACE.get()
        if pace is not None:
            await pace.wait()
        return await make_request(bot, method)


class Reshowing:
    """The start-up showing of ``tables``: :meth:`start`, then :meth:`stop` (or
    :meth:`done` to wait for it)."""

    def __init__(
        self,
        tables: Tables,
        bot: Bot,
        *,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[Any]],
        per_second: float = RESHOW_CALLS_PER_SECOND,
    ) -> None:
        self.tables = tables
        self.pace = Pace(per_second, clock=clock, sleep=sleep)
        self.stopping = asyncio.Event()
        self.task: asyncio.Task[int] | None = None
        # one middleware a session, however many apps share the bot
        if not any(isinstance(m, PaceMiddleware) for m in bot.session.middleware):
            bot.session.middleware(PaceMiddleware())

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name="reshow")

    async def _run(self) -> int:
        # the task's own context: calls made elsewhere are not paced
        _PACE.set(self.pace)
        try:
            resumed = await self.tables.resume_all(self.stopping)
        except Exception:
            # the database out of reach: the tables' next changes show them
            log.exception("could not show the tables at start-up")
            return 0
        finally:
            # edits the showing left waiting go out with the rest
            self.pace.on = False
        log.info("resumed %d tables", resumed)
        return resumed

    async def done(self) -> int:
        """How many tables the showing brought back, once it is over."""
        assert self.task is not None
        return await asyncio.shield(self.task)

    async def stop(self, wait: float = RESHOW_STOP_WAIT) -> None:
        """No more tables shown; the one being shown gets ``wait`` seconds to finish."""
        self.stopping.set()
        task = self.task
        if task is None or task.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), wait)
        except TimeoutError:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
