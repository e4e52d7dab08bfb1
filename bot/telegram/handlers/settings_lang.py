"""/lang: the group's language (admins or the table host) or a user's own."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.i18n import I18n

from bot.i18n import LOCALES, Translator
from bot.render.keyboards.callbacks import Lang
from bot.render.menus import language_question, languages_keyboard
from bot.render.outcomes import outcome_text, reply
from bot.tables import Tables
from bot.tables.outcomes import LanguageChosen, NotAllowed
from bot.telegram.handlers.common import person
from bot.telegram.publisher import Publisher
from bot.telegram.sender import Sender

__all__ = ["make_router"]


async def lang(
    message: Message,
    command: CommandObject,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    i18n: I18n,
    tr: Translator,
) -> None:
    code = (command.args or "").strip().lower()
    if code not in LOCALES:
        await sender.reply(message.chat.id, language_question(tr), languages_keyboard())
        return
    assert message.from_user is not None
    who = person(message.from_user, bot, message.chat)
    private = message.chat.type == "private"
    outcome = await tables.chats.choose_language(message.chat.id, who, code, private=private)
    text = outcome_text(outcome, _speaking(outcome, i18n, tr))
    if text:
        await sender.reply(message.chat.id, text)


async def pick(
    callback: CallbackQuery,
    callback_data: Lang,
    bot: Bot,
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
    private = chat.type == "private"
    outcome = await tables.chats.choose_language(
        chat.id, who, callback_data.locale, private=private
    )
    # refused, the picker stays for someone who may choose
    answer = reply(outcome, _speaking(outcome, i18n, tr))
    await sender.answer(callback, answer.text, alert=answer.alert)
    if isinstance(outcome, LanguageChosen) and isinstance(callback.message, Message):
        # anyone may press it: in a group that used its minute the edit waits for a slot
        # in the background, never in this handler
        await publisher.edit(chat.id, callback.message.message_id, answer.text or "")


def _speaking(outcome: LanguageChosen | NotAllowed, i18n: I18n, tr: Translator) -> Translator:
    """The language to answer in: the one chosen, if it was."""
    return Translator(i18n, outcome.lang) if isinstance(outcome, LanguageChosen) else tr


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.register(lang, Command("lang"))
    router.callback_query.register(pick, Lang.filter(F.locale.in_(set(LOCALES))))
    return router
