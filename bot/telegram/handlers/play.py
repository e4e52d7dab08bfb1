"""Game buttons (hand actions, "my hand", "last trick"), /leave and /cancel, in any chat."""

from __future__ import annotations

import asyncio

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.i18n import Translator
from bot.render.keyboards.callbacks import Act, TableButton
from bot.render.outcomes import look_reply, outcome_text
from bot.render.outcomes import reply as render_reply
from bot.tables import Tables
from bot.tables.outcomes import Cancelled, NoTable, Outcome, OutOfDate
from bot.telegram.handlers.common import answer, person
from bot.telegram.publisher import Publisher
from bot.telegram.sender import Sender

__all__ = ["make_router"]


async def act(
    callback: CallbackQuery,
    callback_data: Act,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    publisher: Publisher,
    tr: Translator,
) -> None:
    who = person(callback.from_user, bot, None)
    outcome = await tables.play.act(
        callback_data.table_id, callback_data.version, who, callback_data.action
    )
    reply = render_reply(outcome, tr)
    await _drop_cancelled(sender, callback, outcome)
    # Answered as soon as the move is saved. A saved move is shown even when its answer
    # could not be sent, or the wait for it was cut short.
    answering = asyncio.ensure_future(answer(sender, callback, reply))
    try:
        # the move is shown while the answer is on its way, so the next player's
        # buttons come a round trip sooner; one step of the loop lets the answer out
        await asyncio.sleep(0)
    finally:
        try:
            await tables.publish(callback_data.table_id)
        finally:
            await answering


async def table_button(
    callback: CallbackQuery,
    callback_data: TableButton,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    tr: Translator,
) -> None:
    who = person(callback.from_user, bot, None)
    outcome: Outcome
    if callback_data.show == "hand":
        outcome = await tables.play.hand(callback_data.table_id, who)
        reply = look_reply(outcome, tr)
    elif callback_data.show == "last":
        chat_id = callback.message.chat.id if callback.message else None
        outcome = await tables.play.last_trick(callback_data.table_id, who=who, chat_id=chat_id)
        reply = look_reply(outcome, tr)
    else:
        outcome = OutOfDate()
        reply = render_reply(outcome, tr)
    await _drop_cancelled(sender, callback, outcome)
    await answer(sender, callback, reply)


async def _drop_cancelled(sender: Sender, callback: CallbackQuery, outcome: Outcome) -> None:
    """A button of a cancelled table: the message it is under loses its buttons (the
    table's own messages lost theirs when it was cancelled; this one may be older, or
    its edit may still wait for the group's minute)."""
    message = callback.message
    if isinstance(outcome, Cancelled) and isinstance(message, Message) and message.reply_markup:
        await sender.drop_keyboard(message.chat.id, message.message_id)


async def leave(message: Message, bot: Bot, tables: Tables, sender: Sender, tr: Translator) -> None:
    assert message.from_user is not None
    outcome = await tables.leaving.leave(message.chat.id, person(message.from_user, bot, None))
    text = outcome_text(outcome, tr)
    if text:
        await sender.reply(message.chat.id, text)


async def cancel(
    message: Message, bot: Bot, tables: Tables, sender: Sender, tr: Translator
) -> None:
    assert message.from_user is not None
    who = person(message.from_user, bot, message.chat)
    outcome = await tables.leaving.cancel(message.chat.id, who)
    text = outcome_text(outcome, tr)
    if text and not isinstance(outcome, Cancelled):  # the table's messages say so
        await sender.reply(message.chat.id, text)


async def show_table(
    message: Message, tables: Tables, sender: Sender, publisher: Publisher, tr: Translator
) -> None:
    """/table: the chat's table message sent anew at the bottom (the old one deleted),
    unless nothing of the bot's came below it; as a reply to a command, only while
    the group's minute has room for one."""
    chat_id = message.chat.id
    record = await tables.lookups.open_table(chat_id)
    if record is None:
        text = outcome_text(NoTable(), tr)
        if text:
            await sender.reply(chat_id, text)
        return
    if publisher.is_last(record.chat_id, record.table_msg_id) or not sender.can_reply(chat_id):
        return
    await tables.repost(record.id)


def make_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.register(act, Act.filter())
    router.callback_query.register(table_button, TableButton.filter())
    router.message.register(leave, Command("leave"))
    router.message.register(cancel, Command("cancel"))
    router.message.register(show_table, Command("table"))
    return router
