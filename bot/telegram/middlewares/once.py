"""Each update is handled once, however often Telegram delivers it.

An update comes again when Telegram did not get its answer: a webhook request that
timed out, a replica that died between handling it and answering, a restart before
polling confirmed it. Presses carry the table's version and would be refused the
second time anyway, but a command would run again (a second welcome, a second
lobby). The update's id is written to the database once it is handled, so a
delivery again, to this process or another sharing the database, is dropped. One
whose handling failed, or whose process died meanwhile, is not written: the retry
is handled. Two deliveries handled at the very same time by two replicas both run.
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
    async def handled(self, update_id: int) -> bool: ...

    async def mark(self, update_id: int) -> None: ...


class Once(BaseMiddleware):
    """Outer middleware of the updates: drops an update already handled."""

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
        if await self.taken.handled(event.update_id):
            log.info("update %s came again: already handled", event.update_id)
            return None
        result = await handler(event, data)
        await self.taken.mark(event.update_id)
        return result
