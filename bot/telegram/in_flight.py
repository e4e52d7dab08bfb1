"""The updates being handled, so that a bot told to stop finishes them first.

aiogram's polling handles each update in a task of its own and tells Telegram an
update arrived with its next ``getUpdates``. When polling stops (SIGTERM, SIGINT) it
runs the dispatcher's shutdown handlers while those tasks still run, and closes the
HTTP session after them. :class:`InFlight` is an outer middleware of the updates that
knows each task; its :meth:`~InFlight.finish`, called from a shutdown handler, waits for
them (up to :data:`STOP_WAIT`) before the bot closes its database, then tells Telegram
the handled updates arrived, so a restart does not handle them again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.methods import GetUpdates
from aiogram.types import TelegramObject, Update

from bot.tasks import cancel_all

__all__ = ["CONFIRM_TIMEOUT", "STOP_WAIT", "InFlight"]

log = logging.getLogger(__name__)

STOP_WAIT = 5.0
"""Seconds a stopping bot gives the updates it has taken to be handled. A press takes
well under a second even behind a slow Telegram, and ``docker stop`` sends SIGKILL
10 s after SIGTERM: what still runs after this is cancelled and logged, while the bot
can still close its database."""
CONFIRM_TIMEOUT = 2
"""Seconds for the ``getUpdates`` that confirms, on the way out, the updates handled
since the last one: if it fails they come again after the restart."""


class InFlight(BaseMiddleware):
    def __init__(self, stop_wait: float = STOP_WAIT) -> None:
        self.stop_wait = stop_wait
        self.running: dict[asyncio.Task[Any], int] = {}
        """The tasks handling an update now, with the update's id."""
        self.last: int | None = None
        """The id of the newest update taken."""
        self.peak = 0
        """The most updates handled at once since :meth:`take_peak` last read it."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        task = asyncio.current_task()
        if task is None or not isinstance(event, Update):
            return await handler(event, data)
        self.running[task] = event.update_id
        self.peak = max(self.peak, len(self.running))
        if self.last is None or event.update_id > self.last:
            self.last = event.update_id
        try:
            return await handler(event, data)
        finally:
            self.running.pop(task, None)

    def take_peak(self) -> int:
        """The most updates handled at once since the last call (or the start)."""
        peak, self.peak = self.peak, len(self.running)
        return peak

    async def finish(self, bot: Bot, *, confirm: bool = True) -> None:
        """Wait for the updates being handled, cancel those still running after
        :attr:`stop_wait`, and confirm to Telegram the ones handled (polling only: a
        webhook's updates are confirmed by answering them, and ``getUpdates`` is refused
        while a webhook is set)."""
        running = dict(self.running)
        cut: list[int] = []
        if running:
            log.info("polling stopped: %d updates taken are being handled", len(running))
            _, late = await asyncio.wait(running, timeout=self.stop_wait)
            if late:
                cut = sorted(running[task] for task in late)
                log.warning(
                    "cancelled %d updates still being handled after %.1f s: %s",
                    len(cut),
                    self.stop_wait,
                    cut,
                )
                await cancel_all(late)
        if confirm and self.last is not None:
            # one cut short is not confirmed: it comes again, if Telegram still has it
            await self._confirm(bot, min(cut, default=self.last + 1))

    @staticmethod
    async def _confirm(bot: Bot, offset: int) -> None:
        """Tell Telegram the updates before ``offset`` arrived. aiogram confirms the
        updates of one ``getUpdates`` with the next: those of the last one would come
        again after a restart. The one update this may return is left unconfirmed."""
        try:
            await bot(
                GetUpdates(offset=offset, limit=1, timeout=0), request_timeout=CONFIRM_TIMEOUT
            )
        except Exception as e:  # the bot is stopping anyway: they are handled twice at worst
            log.warning("could not confirm updates before %d - %s: %s", offset, type(e).__name__, e)
