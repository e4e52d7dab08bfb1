"""The menus a player goes through before a table: games, bot opponents, levels,
languages; and the command menu Telegram shows."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.engine import GAME_NAMES, game_class
from bot.i18n import LOCALES, Translator
from bot.render.common import game_title, level_label
from bot.render.keyboards.callbacks import Lang, NewGame, Solo

__all__ = [
    "bots_keyboard",
    "bots_question",
    "command_menu",
    "games_keyboard",
    "games_question",
    "language_question",
    "languages_keyboard",
    "level_question",
    "levels_keyboard",
]

_LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}
"""Each language in its own words: whoever cannot read the chat's one finds theirs."""


def games_question(tr: Translator) -> str:
    return tr("Which game?")


def games_keyboard(tr: Translator) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    for name in GAME_NAMES:
        kb.button(text=game_title(name, tr), callback_data=NewGame(game=name))
    return kb.as_markup()


def bots_question(tr: Translator) -> str:
    return tr("How many bot opponents?")


def bots_keyboard(game: str, tr: Translator) -> InlineKeyboardMarkup:
    """As many bots as the game seats beside the player: Thousand for four, three."""
    labels = (tr("One bot"), tr("Two bots"), tr("Three bots"))
    kb = InlineKeyboardBuilder()
    for n, label in enumerate(labels[: game_class(game).max_seats - 1], start=1):
        kb.button(text=label, callback_data=Solo(game=game, bots=n))
    return kb.as_markup()


def level_question(tr: Translator) -> str:
    return tr("Which level?")


def levels_keyboard(
    game: str, bots: int, levels: Sequence[str], tr: Translator
) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    for level in levels:
        kb.button(
            text=level_label(level, tr), callback_data=Solo(game=game, bots=bots, level=level)
        )
    return kb.as_markup()


def language_question(tr: Translator) -> str:
    return tr("Choose the language:")


def languages_keyboard() -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    for locale in LOCALES:
        kb.button(text=_LANGUAGE_NAMES[locale], callback_data=Lang(locale=locale))
    return kb.as_markup()


def command_menu(tr: Translator, *, private: bool) -> list[tuple[str, str]]:
    """The commands and what each does, for a private chat or a group: the commands
    /help lists, in its order."""
    return [
        ("new", tr("Start a game against bots") if private else tr("Open a table")),
        ("table", tr("Show the table again, below")),
        ("score", tr("The scoresheet")),
        ("deal", tr("A deal of the last game, card by card")),
        ("stats", tr("Your statistics and rating")),
        ("top", tr("The best players")),
        ("history", tr("Recent games")),
        ("export", tr("The last game as a file")),
        ("rules", tr("The rules")),
        ("lang", tr("Language")),
        ("leave", tr("Leave the game")),
        ("cancel", tr("Close the table")),
        ("help", tr("How to play with the bot")),
    ]
