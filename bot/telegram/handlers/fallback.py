"""What no other router took: buttons foreign, forged, truncated or from an old version,
and words written to the bot in its private chat.

Telegram keeps the button spinning until a query is answered, so each one is.
"""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery, Message

from bot.i18n import Translator
from bot.render.outcomes import reply
from bot.render.texts import not_understood_text
from bot.tables.outcomes import OutOfDate
from bot.telegram.handlers.common import answer
from bot.telegram.handlers.filters import in_chat
from bot.telegram.sender import Sender

__all__ = ["make_router"]


async def unknown_button(callback: CallbackQuery, sender: Sender, tr: Translator) -> None:
    await answer(sender, callback, reply(OutOfDate(), tr))


async def unknown_message(message: Message, sender: Sender, tr: Translator) -> None:
    # in a group people talk among themselves; in private they talk to the bot
    await sender.reply(message.chat.id, not_understood_text(tr))


def make_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.register(unknown_button)
    router.message.register(unknown_message, in_chat("private"))
    return router
