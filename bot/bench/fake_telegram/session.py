"""aiogram's aiohttp session, for a Bot API server on this machine."""

from __future__ import annotations

from typing import Any

from aiogram.client.session.aiohttp import AiohttpSession
from aiohttp import ClientSession

__all__ = ["LocalSession"]


class LocalSession(AiohttpSession):
    """aiogram's own session, sending every request as it does, but closed at once.

    aiogram's :meth:`AiohttpSession.close` waits a quarter of a second after closing,
    for SSL connections to finish closing (aiohttp's advice for a graceful shutdown).
    Plain HTTP to 127.0.0.1 leaves nothing to wait for, and every test that stops a bot
    would wait it out.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.opened: ClientSession | None = None
        """The aiohttp session aiogram made last, to close."""

    async def create_session(self) -> ClientSession:
        self.opened = await super().create_session()
        return self.opened

    async def close(self) -> None:
        if self.opened is not None and not self.opened.closed:
            await self.opened.close()
