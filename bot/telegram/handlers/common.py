"""Small helpers the handlers share."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import CallbackQuery, Chat, User

from bot.render.replies import Reply
from bot.tables import Person
from bot.telegram.sender import Sender

__all__ = ["answer", "game_named", "person"]

_ADMINS = {"administrator", "creator"}

_GAME_WORDS = {
    "deberts": "deberts",
    "debertz": "deberts",
    "деберц": "deberts",
    "деберс": "deberts",
    "thousand": "thousand",
    "1000": "thousand",
    "тысяча": "thousand",
    "тыща": "thousand",
}
"""What players type after /new or /rules for a game: its name in either language."""


def game_named(args: str | None) -> str | None:
    """The game a command's argument names, or ``None``."""
    return _GAME_WORDS.get((args or "").strip().lower().replace("ё", "е"))


def person(user: User, bot: Bot, chat: Chat | None) -> Person:
    """The acting user; whether they administer ``chat`` is asked only when it matters."""

    async def is_admin() -> bool:
        if chat is None or chat.type == "private":
            return False
        member = await bot.get_chat_member(chat.id, user.id)
        return member.status in _ADMINS

    return Person(id=user.id, name=user.full_name, is_admin=is_admin)


async def answer(sender: Sender, callback: CallbackQuery, reply: Reply) -> None:
    await sender.answer(callback, reply.text, alert=reply.alert, url=reply.url)
