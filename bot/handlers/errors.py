"""The last resort: log the failure and still answer a pressed button."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import ErrorEvent

from bot.i18n import Translator
from bot.services.sender import Sender

__all__ = ["make_router"]

log = logging.getLogger(__name__)


async def on_error(event: ErrorEvent, sender: Sender, tr: Translator | None = None) -> bool:
    """``tr`` is missing only when the failure came before the language was known."""
    log.exception("update %s failed", event.update.update_id, exc_info=event.exception)
    callback = event.update.callback_query
    if callback is not None:
        text = "Something went wrong on my side. Please try again later."
        await sender.answer(callback, "⚠️ " + (tr(text) if tr else text))
    return True


def make_router() -> Router:
    router = Router(name=__name__)
    router.errors.register(on_error)
    return router
