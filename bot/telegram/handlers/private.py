"""The private chat: /start (also the deep links that complete a join or open the whole
help or rules), games against bots."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import KICKED, ChatMemberUpdatedFilter, Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, ChatMemberUpdated, InlineKeyboardMarkup, Message

from bot.engine import GAME_NAMES, game_class
from bot.i18n import Translator
from bot.render.keyboards.callbacks import Again, NewGame, NextSeat, Solo
from bot.render.menus import (
    bots_keyboard,
    bots_question,
    games_keyboard,
    games_question,
    level_question,
    levels_keyboard,
)
from bot.render.outcomes import (
    already_open_text,
    joined_by_link,
    message_link,
    opened_reply,
    outcome_text,
    reply,
    seat_asked_text,
)
from bot.render.texts import help_text
from bot.tables import Tables
from bot.tables.outcomes import GameUnderWay, Joined, NotPossible, SeatAsked
from bot.tables.rules import BOT_LEVELS
from bot.telegram.handlers.common import answer, game_named, person
from bot.telegram.handlers.filters import button_in, in_chat
from bot.telegram.handlers.info import rules_asked, send_rules
from bot.telegram.sender import Sender

__all__ = ["make_router"]


async def start_deep_link(
    message: Message,
    command: CommandObject,
    bot: Bot,
    sender: Sender,
    tables: Tables,
    tr: Translator,
) -> None:
    arg = command.args or ""
    assert message.from_user is not None
    if arg.startswith("j") and arg[1:].isdigit():
        outcome = await tables.lobby.join(int(arg[1:]), person(message.from_user, bot, None))
        if isinstance(outcome, Joined | GameUnderWay) and outcome.table is not None:
            table = outcome.table
            title: str | None
            username: str | None
            try:
                chat = await bot.get_chat(table.chat_id)
                title, username = chat.title, chat.username
            except TelegramAPIError:
                title = username = None  # the table is named without its group then
            link = message_link(table.chat_id, table.table_msg_id, username)
            said, markup = joined_by_link(outcome, title, link, tr)
            await sender.send(message.chat.id, said, markup)
        else:
            me = await bot.me()
            text = outcome_text(outcome, tr, bot_username=me.username or "")
            if text:
                await sender.send(message.chat.id, text)
        await tables.resend_hands(message.from_user.id, asked=True)
        return
    games = rules_asked(arg)
    if games is not None:
        # from the button under /rules in a group: the whole text, here
        await send_rules(message.chat.id, games, tables, sender, tr)
        return
    await start(message, sender, tables, tr)  # also the button under /help in a group


async def start(message: Message, sender: Sender, tables: Tables, tr: Translator) -> None:
    await sender.send(message.chat.id, help_text(tr))
    if message.from_user is not None:
        # back after blocking the bot: the hands it could not send come now
        await tables.resend_hands(message.from_user.id, asked=True)


async def new_private(
    message: Message, command: CommandObject, sender: Sender, tables: Tables, tr: Translator
) -> None:
    running = await tables.lobby.running(message.chat.id)
    if running is not None:
        # said before any question: the game here is to be ended first
        text = already_open_text(running, tr, private=True)
        await sender.send(message.chat.id, text, reply_to=running.table.table_msg_id)
        return
    game = game_named(command.args)
    if game is not None:
        await sender.send(message.chat.id, bots_question(tr), bots_keyboard(game, tr))
        return
    await sender.send(message.chat.id, games_question(tr), games_keyboard(tr))


async def pick_game(
    callback: CallbackQuery, callback_data: NewGame, sender: Sender, tr: Translator
) -> None:
    if callback_data.game not in GAME_NAMES or not isinstance(callback.message, Message):
        await answer(sender, callback, reply(NotPossible(), tr))
        return
    # through the sender: a second tap, which changes nothing, is no error
    await sender.edit(
        callback.message.chat.id,
        callback.message.message_id,
        bots_question(tr),
        bots_keyboard(callback_data.game, tr),
    )
    await sender.answer(callback)


def _bots_fit(game: str, bots: int) -> bool:
    """Whether ``game`` exists and seats ``bots`` bots beside the player."""
    return game in GAME_NAMES and 1 <= bots < game_class(game).max_seats


async def pick_bots(
    callback: CallbackQuery, callback_data: Solo, sender: Sender, tr: Translator
) -> None:
    if not _bots_fit(callback_data.game, callback_data.bots):
        await answer(sender, callback, reply(NotPossible(), tr))
        return
    if isinstance(callback.message, Message):
        await sender.edit(
            callback.message.chat.id,
            callback.message.message_id,
            level_question(tr),
            levels_keyboard(callback_data.game, callback_data.bots, BOT_LEVELS, tr),
        )
    await sender.answer(callback)


async def start_solo(
    callback: CallbackQuery,
    callback_data: Solo,
    bot: Bot,
    sender: Sender,
    tables: Tables,
    tr: Translator,
) -> None:
    game, bots, level = callback_data.game, callback_data.bots, callback_data.level
    if not _bots_fit(game, bots) or level not in BOT_LEVELS:
        await answer(sender, callback, reply(NotPossible(), tr))
        return
    chat_id = callback.from_user.id
    who = person(callback.from_user, bot, None)
    opened = await tables.lobby.open(chat_id, who, game, tr.locale, solo_bots=bots, level=level)
    if isinstance(callback.message, Message):
        await sender.delete(chat_id, callback.message.message_id)
    await answer(sender, callback, opened_reply(opened, tr, private=True))


async def play_again(
    callback: CallbackQuery,
    callback_data: Again,
    bot: Bot,
    sender: Sender,
    tables: Tables,
    tr: Translator,
) -> None:
    who = person(callback.from_user, bot, None)
    opened = await tables.lobby.again(callback_data.table_id, callback.from_user.id, who, tr.locale)
    await answer(sender, callback, opened_reply(opened, tr, private=True))


async def seat_next(
    callback: CallbackQuery,
    callback_data: NextSeat,
    bot: Bot,
    sender: Sender,
    tables: Tables,
    tr: Translator,
) -> None:
    """ "Seat me for the next game", under the answer to a join that came late."""
    who = person(callback.from_user, bot, None)
    outcome = await tables.lobby.ask_next_seat(callback_data.table_id, who)
    if isinstance(outcome, SeatAsked) and isinstance(callback.message, Message):
        # the offer says it was taken; the link to the table stays
        message = callback.message
        links = [
            [button for button in row if button.url]
            for row in (message.reply_markup.inline_keyboard if message.reply_markup else [])
        ]
        kept = InlineKeyboardMarkup(inline_keyboard=[row for row in links if row])
        text = seat_asked_text(outcome.table.game, tr)
        await sender.edit(message.chat.id, message.message_id, text, kept)
        await sender.answer(callback)
        return
    me = await bot.me()
    await answer(sender, callback, reply(outcome, tr, bot_username=me.username or ""))


async def blocked(event: ChatMemberUpdated, tables: Tables) -> None:
    """Someone blocked the bot: their hands are skipped until they come back."""
    await tables.people.blocked(event.from_user.id)


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(in_chat("private"))
    router.callback_query.filter(button_in("private"))
    router.my_chat_member.filter(in_chat("private"))
    router.message.register(start_deep_link, CommandStart(deep_link=True))
    router.message.register(start, CommandStart())
    router.message.register(new_private, Command("new"))
    router.callback_query.register(pick_game, NewGame.filter())
    router.callback_query.register(pick_bots, Solo.filter(F.level == ""))
    router.callback_query.register(start_solo, Solo.filter(F.level != ""))
    router.callback_query.register(play_again, Again.filter())
    router.callback_query.register(seat_next, NextSeat.filter())
    router.my_chat_member.register(blocked, ChatMemberUpdatedFilter(KICKED))
    return router
