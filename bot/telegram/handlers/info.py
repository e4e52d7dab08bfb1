"""/help, /rules and /score, in any chat."""

from __future__ import annotations

from html import escape

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.engine import GAME_NAMES
from bot.i18n import Translator
from bot.render.common import cut, game_title
from bot.render.lobby import conventions_summary
from bot.render.scores import scoresheet_text
from bot.render.texts import help_text, rules_text
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
        await sender.reply(
            message.chat.id,
            tr(
                "I know no game called “{name}”: /rules deberts or /rules thousand.",
                name=escape(cut(command.args or "", 32)),
            ),
        )
        return
    table = await tables.lookups.rules(message.chat.id)
    games = [asked] if asked else [table.game] if table else list(GAME_NAMES)
    parts = [rules_text(game, tr) for game in games]
    if table is not None and table.game in games:
        # each with what it means: the rules above are the defaults these may change
        summary = conventions_summary(table.conventions, table.turn_timer, tr, explain=True)
        parts.append(
            tr("<b>This table ({game}):</b>", game=game_title(table.game, tr)) + "\n" + summary
        )
    await sender.reply(message.chat.id, "\n\n".join(parts))


async def show_score(message: Message, tables: Tables, sender: Sender, tr: Translator) -> None:
    scores = await tables.lookups.scores(message.chat.id)
    if scores is None:
        await sender.reply(message.chat.id, tr("No game has been played in this chat yet."))
        return
    text = scoresheet_text(scores.sheet, list(scores.names), tr)
    if scores.cancelled:
        text += "\n\n" + tr("The table was cancelled.")  # the sheet stops short of an end
    await sender.reply(message.chat.id, text)


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.register(show_help, Command("help"))
    router.message.register(show_rules, Command("rules"))
    router.message.register(show_score, Command("score"))
    return router
