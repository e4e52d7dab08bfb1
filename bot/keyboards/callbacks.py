"""Typed callback data. Each fits Telegram's 64 bytes: a table id, a state version, a short code."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

__all__ = ["Act", "Lang", "Lobby", "NewGame", "Solo", "TableButton"]


class NewGame(CallbackData, prefix="n"):
    """The game picked under a plain ``/new``."""

    game: str


class Solo(CallbackData, prefix="s"):
    """A private game: ``bots`` opponents at ``level``; ``level`` empty while still choosing."""

    game: str
    bots: int
    level: str = ""


class Lobby(CallbackData, prefix="l"):
    """A lobby button: join, leave, bot, settings, opt (cycle option ``o``), back, start, cancel."""

    t: int
    v: int
    a: str
    o: int = -1


class Act(CallbackData, prefix="a"):
    """A game action ``c`` (an engine action code) pressed at state version ``v``."""

    t: int
    v: int
    c: str


class TableButton(CallbackData, prefix="t"):
    """Read-only buttons under the public table message: ``hand`` or ``last``.

    They answer from the current state whatever their version ``v``: nothing they
    do depends on the moment they were sent.
    """

    t: int
    v: int
    a: str


class Lang(CallbackData, prefix="g"):
    """A language picked under ``/lang``."""

    code: str
