"""/lang: the group's language (admins or the table host) or a user's own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Chat, Message
from aiogram.utils.i18n import I18n
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.db.repo import PeopleRepo
from bot.i18n import LOCALES, Translator
from bot.tables import Tables
from bot.telegram.handlers.common import person
from bot.telegram.keyboards.callbacks import Lang
from bot.telegram.publisher import Publisher
from bot.telegram.sender import Sender

__all__ = ["make_router"]

_NAMES = {"ru": "Русский", "en": "English"}


async def lang(
    message: Message,
    command: CommandObject,
    bot: Bot,
    people: PeopleRepo,
    tables: Tables,
    sender: Sender,
    i18n: I18n,
    tr: Translator,
) -> None:
    code = (command.args or "").strip().lower()
    if code not in LOCALES:
        kb = InlineKeyboardBuilder()
        for locale in LOCALES:
            kb.button(text=_NAMES[locale], callback_data=Lang(code=locale))
        await sender.reply(message.chat.id, tr("Choose the language:"), kb.as_markup())
        return
    assert message.from_user is not None
    text = await _set(
        message.chat,
        message.from_user.id,
        code,
        person(message.from_user, bot, message.chat).is_admin,
        people,
        tables,
        i18n,
    )
    await sender.reply(message.chat.id, text or tr("Only the host or a chat admin can do that."))


async def pick(
    callback: CallbackQuery,
    callback_data: Lang,
    bot: Bot,
    people: PeopleRepo,
    tables: Tables,
    sender: Sender,
    publisher: Publisher,
    i18n: I18n,
    tr: Translator,
) -> None:
    if callback.message is None:
        await sender.answer(callback)
        return
    chat = callback.message.chat
    who = person(callback.from_user, bot, chat)
    text = await _set(
        chat, callback.from_user.id, callback_data.code, who.is_admin, people, tables, i18n
    )
    if text is None:
        # the picker stays for someone who may choose
        await sender.answer(callback, tr("Only the host or a chat admin can do that."), alert=True)
        return
    await sender.answer(callback, text)
    if isinstance(callback.message, Message):
        # anyone may press it: in a group that used its minute the edit waits for a slot
        # in the background, never in this handler
        await publisher.edit(chat.id, callback.message.message_id, text)


async def _set(
    chat: Chat,
    user_id: int,
    code: str,
    is_admin: Callable[[], Awaitable[bool]] | None,
    people: PeopleRepo,
    tables: Tables,
    i18n: I18n,
) -> str | None:
    """Store the language for ``chat`` (a group needs its host or an admin); what to say,
    or ``None`` when the user may not."""
    tr = Translator(i18n, code)
    if chat.type == "private":
        await people.set_user_lang(user_id, code)
        return tr("Language: English.")
    table = await tables.store.repo.open_in_chat(chat.id)
    host = table is not None and table.host_id == user_id
    if not host and not (is_admin is not None and await is_admin()):
        return None
    await people.set_chat_lang(chat.id, code)
    if table is not None:
        await tables.chats.set_language(table.id, code)
    return tr("Language: English.")


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.register(lang, Command("lang"))
    router.callback_query.register(pick, Lang.filter(F.code.in_(set(LOCALES))))
    return router
