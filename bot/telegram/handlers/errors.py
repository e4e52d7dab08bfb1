"""The last resort: log the failure and still answer a pressed button."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import ErrorEvent

from bot.i18n import Translator
from bot.render.texts import failure_text
from bot.telegram.sender import Sender

__all__ = ["make_router"]

log = logging.getLogger(__name__)


async def on_error(event: ErrorEvent, sender: Sender, tr: Translator | None = None) -> bool:
    """``tr`` is missing only when the failure came before the language was known."""
    log.exception("update %s failed", event.update.update_id, exc_info=event.exception)
    text = failure_text(tr)
    callback, message = event.update.callback_query, event.update.message
    try:
        if callback is not None:
            await sender.answer(callback, text)
        elif message is not None:
            await sender.reply(message.chat.id, text)
    except Exception:
        # Telegram itself may be what failed: the log above is all there is to do
        log.exception("update %s: the failure could not be told", event.update.update_id)
    return True


def make_router() -> Router:
    router = Router(name=__name__)
    router.errors.register(on_error)
    return router
