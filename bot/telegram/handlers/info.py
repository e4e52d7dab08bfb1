"""/help, /rules and /score, in any chat."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.engine import GAME_NAMES
from bot.i18n import Translator
from bot.render.texts import chat_rules_text, chat_scores_text, help_text, unknown_game_text
from bot.tables import Tables
from bot.telegram.handlers.common import game_named
from bot.telegram.sender import Sender

__all__ = ["make_router"]


async def show_help(message: Message, sender: Sender, tr: Translator) -> None:
    await sender.reply(message.chat.id, help_text(tr))


async def show_rules(
    message: Message, command: CommandObject, tables: Tables, sender: Sender, tr: Translator
) -> None:
    asked = game_named(command.args)
    if asked is None and (command.args or "").strip():
        await sender.reply(message.chat.id, unknown_game_text(command.args or "", tr))
        return
    table = await tables.lookups.rules(message.chat.id)
    games = [asked] if asked else [table.game] if table else list(GAME_NAMES)
    await sender.reply(message.chat.id, chat_rules_text(games, table, tr))


async def show_score(message: Message, tables: Tables, sender: Sender, tr: Translator) -> None:
    scores = await tables.lookups.scores(message.chat.id)
    await sender.reply(message.chat.id, chat_scores_text(scores, tr))


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.register(show_help, Command("help"))
    router.message.register(show_rules, Command("rules"))
    router.message.register(show_score, Command("score"))
    return router
