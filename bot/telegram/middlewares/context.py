"""Records who we have seen and picks the language for each update.

Groups speak the chat's language (``/lang``, else the Telegram language of
whoever acts, else the default); private chats the
user's own choice, else their Telegram language. The translator lands in
``data["tr"]`` and the aiogram i18n context, so handlers just use ``tr``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Chat, TelegramObject, Update, User
from aiogram.utils.i18n import I18n

from bot.i18n import Translator, pick_locale
from bot.tables import People

__all__ = ["ContextMiddleware"]


class ContextMiddleware(BaseMiddleware):
    def __init__(self, i18n: I18n, people: People, default_locale: str) -> None:
        self.i18n = i18n
        self.people = people
        self.default_locale = default_locale

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        user: User | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        private = chat is not None and chat.type == "private"
        own: tuple[str | None] | None = None
        if user is not None and not user.is_bot:
            spoke = isinstance(event, Update) and event.message is not None
            own = (
                await self.people.seen(
                    user.id, user.full_name, user.language_code, private=private and spoke
                ),
            )
        locale = await self.locale_for(user, chat, own)
        data["tr"] = Translator(self.i18n, locale)
        data["locale"] = locale
        with self.i18n.context(), self.i18n.use_locale(locale):
            return await handler(event, data)

    async def locale_for(
        self, user: User | None, chat: Chat | None, own: tuple[str | None] | None = None
    ) -> str:
        """``own``: the user's language as seeing them just read it, if it did."""
        tg_lang = user.language_code if user else None
        if chat is not None and chat.type != "private":
            chosen = await self.people.chat_lang(chat.id)
            return pick_locale(chosen, tg_lang, default=self.default_locale)
        if own is None:
            own = (await self.people.user_lang(user.id) if user is not None else None,)
        return pick_locale(own[0], tg_lang, default=self.default_locale)
