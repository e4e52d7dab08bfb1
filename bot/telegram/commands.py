"""The command menus Telegram shows, per chat kind and language."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
)
from aiogram.utils.i18n import I18n

from bot.i18n import LOCALES, Translator
from bot.render.menus import command_menu

__all__ = ["set_commands"]


def _commands(tr: Translator, private: bool) -> list[BotCommand]:
    items = command_menu(tr, private=private)
    return [BotCommand(command=c, description=d) for c, d in items]


async def set_commands(bot: Bot, i18n: I18n, default_locale: str) -> None:
    for private in (True, False):
        scope = BotCommandScopeAllPrivateChats() if private else BotCommandScopeAllGroupChats()
        for locale in LOCALES:
            tr = Translator(i18n, locale)
            await bot.set_my_commands(_commands(tr, private), scope=scope, language_code=locale)
        default = Translator(i18n, default_locale)
        await bot.set_my_commands(_commands(default, private), scope=scope)
