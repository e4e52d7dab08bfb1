"""/help, /rules and /score, in any chat. In a group /help and /rules say a few lines,
with a button that opens the whole text in the private chat (``/start help``,
``/start rules_deberts``): long texts would push the table off the screen."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.engine import GAME_NAMES
from bot.i18n import Translator
from bot.render.texts import (
    RULES_PAYLOAD,
    chat_rules_text,
    chat_scores_text,
    help_keyboard,
    help_summary_text,
    help_text,
    rules_keyboard,
    rules_summary_text,
    unknown_game_text,
)
from bot.tables import Tables
from bot.telegram.handlers.common import game_named
from bot.telegram.sender import Sender

__all__ = ["make_router", "rules_asked", "send_rules"]


async def show_help(message: Message, bot: Bot, sender: Sender, tr: Translator) -> None:
    if message.chat.type == "private":
        await sender.reply(message.chat.id, help_text(tr))
        return
    me = await bot.me()
    await sender.reply(message.chat.id, help_summary_text(tr), help_keyboard(me.username or "", tr))


def rules_asked(payload: str) -> list[str] | None:
    """The games a start payload asks the rules of (``rules``: all), or ``None``."""
    if payload == RULES_PAYLOAD:
        return list(GAME_NAMES)
    prefix = RULES_PAYLOAD + "_"
    if payload.startswith(prefix) and payload[len(prefix) :] in GAME_NAMES:
        return [payload[len(prefix) :]]
    return None


async def send_rules(
    chat_id: int, asked: list[str], tables: Tables, sender: Sender, tr: Translator
) -> None:
    """The whole rules of the games ``asked`` (none: the chat's table's game, else every
    game) and the chat's table's settings, in a private chat."""
    table = await tables.lookups.rules(chat_id)
    games = asked or ([table.game] if table else list(GAME_NAMES))
    await sender.reply(chat_id, chat_rules_text(games, table, tr))


async def show_rules(
    message: Message,
    command: CommandObject,
    bot: Bot,
    tables: Tables,
    sender: Sender,
    tr: Translator,
) -> None:
    asked = game_named(command.args)
    if asked is None and (command.args or "").strip():
        await sender.reply(message.chat.id, unknown_game_text(command.args or "", tr))
        return
    if message.chat.type == "private":
        await send_rules(message.chat.id, [asked] if asked else [], tables, sender, tr)
        return
    table = await tables.lookups.rules(message.chat.id)
    games = [asked] if asked else [table.game] if table else list(GAME_NAMES)
    me = await bot.me()
    await sender.reply(
        message.chat.id,
        rules_summary_text(games, table, tr),
        rules_keyboard(games, me.username or "", tr),
    )


async def show_score(message: Message, tables: Tables, sender: Sender, tr: Translator) -> None:
    scores = await tables.lookups.scores(message.chat.id)
    await sender.reply(message.chat.id, chat_scores_text(scores, tr))


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.register(show_help, Command("help"))
    router.message.register(show_rules, Command("rules"))
    router.message.register(show_score, Command("score"))
    return router
