"""/stats, /top, /history, /deal and /export: players' records, in groups and in private
chats."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.engine import GAME_NAMES
from bot.i18n import Translator
from bot.render.history import (
    chat_busy,
    deal_review_keyboard,
    deal_review_text,
    deal_usage,
    export_caption,
    export_usage,
    history_keyboard,
    history_text,
    no_game_yet,
    review_refusal,
    scoresheet_csv,
    stats_text,
    top_text,
)
from bot.render.keyboards.callbacks import Review
from bot.render.replies import Reply
from bot.tables import Tables
from bot.tables.records import DealReview
from bot.telegram.handlers.common import answer, game_named
from bot.telegram.sender import Sender

__all__ = ["make_router"]


async def show_stats(message: Message, tables: Tables, sender: Sender, tr: Translator) -> None:
    """The asker's statistics, or those of the person whose message they reply to."""
    replied = message.reply_to_message
    user = replied.from_user if replied is not None and replied.from_user else message.from_user
    if user is None or user.is_bot:
        return
    stats = await tables.records.stats(user.id)
    await sender.reply(message.chat.id, stats_text(stats, user.full_name, tr))


async def show_top(
    message: Message, command: CommandObject, tables: Tables, sender: Sender, tr: Translator
) -> None:
    """Each game's board (or the one named): the chat's in a group, everyone's in private."""
    asked = game_named(command.args)
    games = [asked] if asked else list(GAME_NAMES)
    group = message.chat.type != "private"
    parts = []
    for game in games:
        lines = await tables.records.top(game, message.chat.id if group else None)
        parts.append(top_text(game, lines, tr, chat=group))
    await sender.reply(message.chat.id, "\n\n".join(parts))


async def show_history(message: Message, tables: Tables, sender: Sender, tr: Translator) -> None:
    lines = await tables.records.recent(message.chat.id)
    await sender.reply(message.chat.id, history_text(lines, tr), history_keyboard(lines, tr))


async def show_deal(
    message: Message, command: CommandObject, tables: Tables, sender: Sender, tr: Translator
) -> None:
    """``/deal N``: deal N of the chat's latest game (numbered as its result was), once it
    has ended; ``/deal``: the latest that has."""
    if message.from_user is None:
        return
    scores = await tables.lookups.scores(message.chat.id)
    number = (command.args or "").strip()
    if scores is None or scores.table_id is None or not (number.isdigit() or not number):
        await sender.reply(message.chat.id, deal_usage(tr))
        return
    review = await tables.records.deal(
        scores.table_id,
        int(number) if number else None,
        chat_id=message.chat.id,
        user_id=message.from_user.id,
    )
    if not isinstance(review, DealReview):
        await sender.reply(message.chat.id, review_refusal(review, tr))
        return
    await sender.reply(
        message.chat.id, deal_review_text(review, tr), deal_review_keyboard(review, tr)
    )


async def review_button(
    callback: CallbackQuery, callback_data: Review, tables: Tables, sender: Sender, tr: Translator
) -> None:
    """ "Show the deal" under a result or a game of ``/history`` (a new message), or the
    review's own previous and next buttons (that message, edited)."""
    message = callback.message
    if message is None:
        await answer(sender, callback, Reply(review_refusal(None, tr), alert=True))
        return
    chat_id = message.chat.id
    review = await tables.records.deal(
        callback_data.table_id, callback_data.deal, chat_id=chat_id, user_id=callback.from_user.id
    )
    if not isinstance(review, DealReview):
        await answer(sender, callback, Reply(review_refusal(review, tr), alert=True))
        return
    text, markup = deal_review_text(review, tr), deal_review_keyboard(review, tr)
    # a message too old for the bot to see is not edited: the deal comes anew
    if callback_data.page and isinstance(message, Message):
        await sender.edit(chat_id, message.message_id, text, markup)
    elif await sender.reply(chat_id, text, markup) is None:
        # the group's replies for this minute are used up
        busy = chat_busy(tr)
        await answer(sender, callback, Reply(busy, alert=True))
        return
    await sender.answer(callback)


async def export(
    message: Message, command: CommandObject, tables: Tables, sender: Sender, tr: Translator
) -> None:
    """The chat's latest game as a file: ``/export`` (or ``/export json``) its scoresheet
    and every ended deal as JSON, ``/export csv`` its scoresheet as a CSV table."""
    kind = (command.args or "json").strip().lower()
    if kind not in ("json", "csv"):
        await sender.reply(
            message.chat.id,
            export_usage(tr),
        )
        return
    exported = await tables.records.export(message.chat.id)
    if exported is None:
        await sender.reply(message.chat.id, no_game_yet(tr))
        return
    if kind == "csv":
        data = scoresheet_csv(exported.sheet, exported.names, tr)
        caption = export_caption(True, tr)
        await sender.send_file(message.chat.id, "document", f"{exported.stem}.csv", data, caption)
        return
    caption = export_caption(False, tr)
    await sender.send_file(message.chat.id, "document", exported.filename, exported.data, caption)


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.register(show_stats, Command("stats"))
    router.message.register(show_top, Command("top"))
    router.message.register(show_history, Command("history"))
    router.message.register(show_deal, Command("deal"))
    router.message.register(export, Command("export"))
    router.callback_query.register(review_button, Review.filter())
    return router
