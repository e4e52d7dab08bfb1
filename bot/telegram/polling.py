"""Long polling that takes from Telegram only the updates it can start handling at once.

aiogram's polling asks for up to 100 updates at a time and starts a task for each.
Under a burst every one of them is then in the bot's memory, and they all share the
CPU, so each press is answered only when most of the batch is done. Here at most
:attr:`Intake.limit <bot.telegram.intake.Intake>` updates are handled at once (``workers``
to begin with, more while the presses wait on Telegram rather than on the CPU) and
``getUpdates`` asks for no more than that leaves free: the rest wait, in order, in
Telegram's queue, and an update the bot has taken is answered in the time one handler
needs.

When polling stops (SIGTERM), the updates taken are handled before the bot closes
its database and HTTP session: each ``getUpdates`` told Telegram that the ones before
it arrived, so a handler cut short would lose its press for good.

This replaces aiogram's ``Dispatcher._polling``, which ``start_polling`` calls; the
polling tests fail if a new aiogram stops calling it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.dispatcher.dispatcher import DEFAULT_BACKOFF_CONFIG
from aiogram.methods import GetUpdates
from aiogram.utils.backoff import Backoff, BackoffConfig

from bot.tasks import cancel_all
from bot.telegram.intake import MOST, Intake

__all__ = ["MAX_WORKERS", "STOP_WAIT", "WORKERS", "BoundedDispatcher"]

log = logging.getLogger(__name__)

MAX_WORKERS = 100
"""Telegram's cap on the updates one ``getUpdates`` returns."""
WORKERS = 12
"""Updates handled at once to begin with (``UPDATE_WORKERS``): enough to keep the one
core the bot uses busy when Telegram answers at once; beyond it more presses in flight
only answer each later. Telegram's round trips add to it (see :class:`Intake`)."""
STOP_WAIT = 5.0
"""Seconds a stopping bot gives the updates it has taken to be handled. A press takes
well under a second even behind a slow Telegram, and ``docker stop`` sends SIGKILL
10 s after SIGTERM: what still runs after this is cancelled and logged, while the bot
can still close its database."""
CONFIRM_TIMEOUT = 2
"""Seconds for the ``getUpdates`` that confirms, on the way out, the updates handled
since the last one: if it fails they come again after the restart."""


class BoundedDispatcher(Dispatcher):
    def __init__(
        self,
        *,
        workers: int = WORKERS,
        most: int = MOST,
        stop_wait: float = STOP_WAIT,
        cpu: Callable[[], float] = time.thread_time,
        clock: Callable[[], float] = time.monotonic,
        **kwargs: Any,
    ) -> None:
        """``workers`` to begin with, ``most`` at most (``workers`` too: a fixed number);
        ``cpu`` and ``clock`` measure the thread's load (see :class:`Intake`)."""
        if not 1 <= workers <= MAX_WORKERS:
            raise ValueError(f"workers must be 1..{MAX_WORKERS}, not {workers}")
        if most < workers:
            raise ValueError(f"most must be at least workers ({workers}), not {most}")
        super().__init__(**kwargs)
        self.workers = workers
        self.most = most
        self.stop_wait = stop_wait
        self._cpu = cpu
        self._clock = clock
        self.intake: Intake | None = None
        """What sizes the updates in flight, while polling."""

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
        intake = self.intake = Intake(
            workers, most=max(workers, self.most), cpu=self._cpu, clock=self._clock
        )
        user = await bot.me()
        log.info("polling for @%s with %d..%d workers", user.username, workers, intake.most)
        freed = asyncio.Event()
        taken: dict[asyncio.Task[Any], int] = {}  # update ids being handled

        def finished(task: asyncio.Task[Any]) -> None:
            freed.set()
            self._handle_update_tasks.discard(task)
            taken.pop(task, None)

        request_timeout = (
            # the long poll itself may last polling_timeout; wait longer than that
            int(bot.session.timeout + polling_timeout) if bot.session.timeout else None
        )
        backoff = Backoff(config=backoff_config)
        offset: int | None = None
        sent: int | None = None  # the offset Telegram was last given
        failed = False
        try:
            while True:
                while intake.limit <= len(taken):
                    freed.clear()
                    await freed.wait()
                free = min(intake.limit - len(taken), MAX_WORKERS)
                ask = GetUpdates(
                    offset=offset,
                    limit=free,
                    timeout=polling_timeout,
                    allowed_updates=allowed_updates,
                )
                sent = offset
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
                intake.polled(free, len(updates))
                # every update taken starts here, with no await in between: stopping
                # finds each either being handled or still in Telegram's queue
                for update in updates:
                    offset = update.update_id + 1  # the next getUpdates confirms it
                    task = asyncio.create_task(
                        self._process_update(bot=bot, update=update, **kwargs)
                    )
                    self._handle_update_tasks.add(task)
                    taken[task] = update.update_id
                    task.add_done_callback(finished)
        finally:
            cut = await self._finish_handling(taken)
            # an update cut short is not confirmed if it still can be: it comes again
            last = min(cut, default=offset)
            if last is not None and (sent is None or last > sent):
                await self._confirm(bot, last)

    async def _finish_handling(self, taken: dict[asyncio.Task[Any], int]) -> list[int]:
        """Wait up to :attr:`stop_wait` for the updates being handled; the ids of those
        cancelled after it."""
        if not taken:
            return []
        log.info("polling stopped: %d updates taken are being handled", len(taken))
        _, late = await asyncio.wait(taken, timeout=self.stop_wait)
        if not late:
            return []
        cut = sorted(taken[task] for task in late)
        log.warning(
            "cancelled %d updates still being handled after %.1f s: %s",
            len(cut),
            self.stop_wait,
            cut,
        )
        await cancel_all(late)
        return cut

    async def _confirm(self, bot: Bot, offset: int) -> None:
        """Tell Telegram the updates before ``offset`` were handled, so that a restart does
        not handle them again; the one update this may return is left unconfirmed."""
        ask = GetUpdates(offset=offset, limit=1, timeout=0)
        try:
            await bot(ask, request_timeout=CONFIRM_TIMEOUT)
        except Exception as e:  # the bot is stopping anyway: they are handled twice at worst
            log.warning("could not confirm updates before %d - %s: %s", offset, type(e).__name__, e)
