"""Opening a table in a group and the lobby buttons."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, User

from bot.engine import GAME_NAMES
from bot.i18n import Translator
from bot.render.keyboards.callbacks import Again, Lobby, NewGame
from bot.render.menus import games_keyboard, games_question
from bot.render.outcomes import already_open_text, lobby_reply, opened_reply
from bot.render.outcomes import reply as render_reply
from bot.tables import Tables
from bot.tables.outcomes import AlreadyOpen, NotPossible, Opened
from bot.telegram.handlers.common import answer, game_named, person
from bot.telegram.handlers.filters import GROUPS, button_in, in_chat
from bot.telegram.sender import Sender

__all__ = ["make_router"]


async def _open(
    chat_id: int,
    game: str,
    user: User,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    tr: Translator,
) -> None:
    opened = await tables.lobby.open(chat_id, person(user, bot, None), game, tr.locale)
    if isinstance(opened, AlreadyOpen):
        await _point_to(opened, sender, tables, tr)


async def _point_to(opened: AlreadyOpen, sender: Sender, tables: Tables, tr: Translator) -> None:
    """The chat's open table, posted again, and a reply to it saying a new one must wait."""
    # the table and a pointer to it, both replies: a flood of /new posts only a few
    if sender.can_reply(opened.table.chat_id, 2):
        # posted again below: the old message may have been deleted or scrolled far away
        message_id = await tables.repost(opened.table.id)
        text = already_open_text(opened, tr, private=False)
        await sender.reply(opened.table.chat_id, text, reply_to=message_id)


async def new_table(
    message: Message,
    command: CommandObject,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    tr: Translator,
) -> None:
    assert message.from_user is not None
    running = await tables.lobby.running(message.chat.id)
    if running is not None:
        # said first: a game choice would only lead to the same answer
        await _point_to(running, sender, tables, tr)
        return
    game = game_named(command.args)
    if game is not None:
        await _open(message.chat.id, game, message.from_user, bot, tables, sender, tr)
        return
    await sender.reply(message.chat.id, games_question(tr), games_keyboard(tr))


async def pick_game(
    callback: CallbackQuery,
    callback_data: NewGame,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    tr: Translator,
) -> None:
    if callback_data.game in GAME_NAMES and isinstance(callback.message, Message):
        chat_id = callback.message.chat.id
        await sender.delete(chat_id, callback.message.message_id)
        await _open(chat_id, callback_data.game, callback.from_user, bot, tables, sender, tr)
        await sender.answer(callback)
        return
    await answer(sender, callback, render_reply(NotPossible(), tr))


async def play_again(
    callback: CallbackQuery,
    callback_data: Again,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    tr: Translator,
) -> None:
    opened: Opened | AlreadyOpen | NotPossible = NotPossible()
    if isinstance(callback.message, Message):
        chat_id = callback.message.chat.id
        who = person(callback.from_user, bot, None)
        opened = await tables.lobby.again(callback_data.table_id, chat_id, who, tr.locale)
    # the answer says where the table is: a reply in the group would take from its budget
    await answer(sender, callback, opened_reply(opened, tr, private=False))


async def lobby_button(
    callback: CallbackQuery,
    callback_data: Lobby,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    tr: Translator,
) -> None:
    chat = callback.message.chat if callback.message else None
    outcome = await tables.lobby.press(
        callback_data.table_id,
        callback_data.version,
        person(callback.from_user, bot, chat),
        callback_data.action,
        callback_data.option,
        chat_id=chat.id if chat else None,
    )
    me = await bot.me()
    await answer(sender, callback, lobby_reply(outcome, tr, bot_username=me.username or ""))


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(in_chat(*GROUPS))
    router.callback_query.filter(button_in(*GROUPS))
    router.message.register(new_table, Command("new"))
    router.callback_query.register(pick_game, NewGame.filter())
    router.callback_query.register(lobby_button, Lobby.filter())
    router.callback_query.register(play_again, Again.filter())
    return router
