"""Each update is handled once, however often Telegram delivers it.

An update comes again when Telegram did not get its answer: a webhook request that
timed out, a replica that died between handling it and answering, a restart before
polling confirmed it. Presses carry the table's version and would be refused the
second time anyway, but a command would run again (a second welcome, a second
lobby) and a press's answer would be sent twice. The update's id is marked taken in
the database as it arrives, so a delivery again, to this process or another sharing
the database, is dropped. A handling that fails gives the id back: Telegram's retry
is handled. One cut short by the process dying keeps it: the retry is dropped, as
if it had been lost on the way.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

__all__ = ["Once", "Taken"]

log = logging.getLogger(__name__)


class Taken(Protocol):
    async def take(self, update_id: int) -> bool: ...

    async def release(self, update_id: int) -> None: ...


class Once(BaseMiddleware):
    """Outer middleware of the updates: drops an update already taken."""

    def __init__(self, taken: Taken) -> None:
        self.taken = taken

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        if not await self.taken.take(event.update_id):
            log.info("update %s came again: already taken", event.update_id)
            return None
        try:
            return await handler(event, data)
        except BaseException:
            await self.taken.release(event.update_id)
            raise
