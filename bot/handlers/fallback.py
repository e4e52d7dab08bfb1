"""Buttons no other router took: foreign, forged, truncated or from an old version.

Telegram keeps the button spinning until a query is answered, so each one is.
"""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.i18n import Translator
from bot.services.sender import Sender

__all__ = ["make_router"]


async def unknown_button(callback: CallbackQuery, sender: Sender, tr: Translator) -> None:
    await sender.answer(callback, tr("This button is out of date."))


def make_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.register(unknown_button)
    return router
