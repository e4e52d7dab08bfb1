"""Long polling that takes from Telegram only the updates it can start handling at once.

aiogram's polling asks for up to 100 updates at a time and starts a task for each.
Under a burst every one of them is then in the bot's memory, and they all share the
CPU, so each press is answered only when most of the batch is done. Here at most
``workers`` updates are handled at once and ``getUpdates`` asks for no more than the
free workers: the rest wait, in order, in Telegram's queue, and an update the bot
has taken is answered in the time one handler needs.

This replaces aiogram's ``Dispatcher._polling``, which ``start_polling`` calls; the
polling tests fail if a new aiogram stops calling it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.dispatcher.dispatcher import DEFAULT_BACKOFF_CONFIG
from aiogram.methods import GetUpdates
from aiogram.utils.backoff import Backoff, BackoffConfig

__all__ = ["MAX_WORKERS", "WORKERS", "BoundedDispatcher"]

log = logging.getLogger(__name__)

MAX_WORKERS = 100
"""Telegram's cap on the updates one ``getUpdates`` returns."""
WORKERS = 12
"""Updates handled at once by default (``UPDATE_WORKERS``): the bot uses one core, so
more presses in flight only answer each later."""


class BoundedDispatcher(Dispatcher):
    def __init__(self, *, workers: int = WORKERS, **kwargs: Any) -> None:
        if not 1 <= workers <= MAX_WORKERS:
            raise ValueError(f"workers must be 1..{MAX_WORKERS}, not {workers}")
        super().__init__(**kwargs)
        self.workers = workers

    async def _polling(
        self,
        bot: Bot,
        polling_timeout: int = 30,
        handle_as_tasks: bool = True,
        backoff_config: BackoffConfig = DEFAULT_BACKOFF_CONFIG,
        allowed_updates: list[str] | None = None,
        tasks_concurrency_limit: int | None = None,
        **kwargs: Any,
    ) -> None:
        if not handle_as_tasks:
            # one update at a time: aiogram's own loop already takes no more than that
            await super()._polling(
                bot,
                polling_timeout=polling_timeout,
                handle_as_tasks=False,
                backoff_config=backoff_config,
                allowed_updates=allowed_updates,
                **kwargs,
            )
            return
        workers = min(tasks_concurrency_limit or self.workers, MAX_WORKERS)
        user = await bot.me()
        log.info("polling for @%s with %d workers", user.username, workers)
        free = workers
        freed = asyncio.Event()

        def finished(task: asyncio.Task[Any]) -> None:
            nonlocal free
            free += 1
            freed.set()
            self._handle_update_tasks.discard(task)

        request_timeout = (
            # the long poll itself may last polling_timeout; wait longer than that
            int(bot.session.timeout + polling_timeout) if bot.session.timeout else None
        )
        backoff = Backoff(config=backoff_config)
        offset: int | None = None
        failed = False
        while True:
            while free <= 0:
                freed.clear()
                await freed.wait()
            ask = GetUpdates(
                offset=offset, limit=free, timeout=polling_timeout, allowed_updates=allowed_updates
            )
            try:
                updates = await bot(ask, request_timeout=request_timeout)
            except Exception as e:  # Telegram out of reach must not stop the bot
                failed = True
                log.error("failed to fetch updates - %s: %s", type(e).__name__, e)
                log.warning("again in %.1f s (attempt %d)", backoff.next_delay, backoff.counter)
                await backoff.asleep()
                continue
            if failed:
                log.info("fetching updates again after %d attempts", backoff.counter)
                backoff.reset()
                failed = False
            for update in updates:
                offset = update.update_id + 1  # confirms it: Telegram will not send it again
                free -= 1
                task = asyncio.create_task(self._process_update(bot=bot, update=update, **kwargs))
                self._handle_update_tasks.add(task)
                task.add_done_callback(finished)
