"""Typed callback data. Each fits Telegram's 64 bytes: a table id, a state version, a short code.

``pack()`` writes the prefix and the field values only ("a:12:7:cTH"), so the field names
cost no bytes.
"""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

__all__ = [
    "Act",
    "Again",
    "Lang",
    "Lobby",
    "NewGame",
    "Review",
    "Solo",
    "TableButton",
    "act_data",
    "lobby_data",
    "packed",
    "table_button_data",
]


class NewGame(CallbackData, prefix="n"):
    """The game picked under a plain ``/new``."""

    game: str


class Solo(CallbackData, prefix="s"):
    """A private game: ``bots`` opponents at ``level``; ``level`` empty while still choosing."""

    game: str
    bots: int
    level: str = ""


class Lobby(CallbackData, prefix="l"):
    """A lobby button pressed at the table's state ``version``: ``action`` is join, leave,
    bot, settings, opt (cycle the setting numbered ``option``), back, start or cancel."""

    table_id: int
    version: int
    action: str
    option: int = -1


class Act(CallbackData, prefix="a"):
    """A game ``action`` (an engine action code) pressed at the table's state ``version``."""

    table_id: int
    version: int
    action: str


class TableButton(CallbackData, prefix="t"):
    """Read-only buttons under the public table message: ``show`` is ``hand`` or ``last``.

    They answer from the current state whatever their ``version``: nothing they do
    depends on the moment they were sent.
    """

    table_id: int
    version: int
    show: str


class Again(CallbackData, prefix="r"):
    """ "Play again" under a game's final result: a new table like table ``table_id``."""

    table_id: int


class NextSeat(CallbackData, prefix="w"):
    """ "Seat me for the next game", offered to whoever came when the game of table
    ``table_id`` was on."""

    table_id: int


class Review(CallbackData, prefix="v"):
    """An ended deal of table ``table_id`` shown (``deal``: numbered as its result was):
    ``page`` 0 under a deal's result or ``/history`` sends it as a new message, 1 (the
    review's own previous and next buttons) shows it in place of the one pressed."""

    table_id: int
    deal: int
    page: int = 0


class Lang(CallbackData, prefix="g"):
    """A language picked under ``/lang``."""

    locale: str


_SEP = ":"
_MAX_BYTES = 64


def packed(prefix: str, *values: int | str) -> str:
    """What ``CallbackData.pack()`` gives for these field values, without building a model.

    The hand keyboard packs a dozen buttons on every move; the model behind ``pack()``
    costs more than the rest of the keyboard. Raises ``ValueError`` where ``pack()`` would.
    """
    parts = [prefix]
    for value in values:
        text = str(int(value)) if isinstance(value, bool) else str(value)
        if _SEP in text:
            raise ValueError(f"Separator symbol {_SEP!r} can not be used in value {text!r}")
        parts.append(text)
    data = _SEP.join(parts)
    if len(data.encode()) > _MAX_BYTES:
        raise ValueError(f"Resulted callback data is too long! len({data!r}.encode()) > 64")
    return data


def act_data(table_id: int, version: int, action: str) -> str:
    """``Act(table_id=table_id, version=version, action=action).pack()``."""
    return packed(Act.__prefix__, table_id, version, action)


def table_button_data(table_id: int, version: int, show: str) -> str:
    """``TableButton(table_id=table_id, version=version, show=show).pack()``."""
    return packed(TableButton.__prefix__, table_id, version, show)


def lobby_data(table_id: int, version: int, action: str, option: int = -1) -> str:
    """``Lobby(table_id=table_id, version=version, action=action, option=option).pack()``."""
    return packed(Lobby.__prefix__, table_id, version, action, option)
