"""Typed callback data. Each fits Telegram's 64 bytes: a table id, a state version, a short code."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

__all__ = [
    "Act",
    "Again",
    "Lang",
    "Lobby",
    "NewGame",
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


class Again(CallbackData, prefix="r"):
    """ "Play again" under a game's final result: a new table like table ``t``."""

    t: int


class Lang(CallbackData, prefix="g"):
    """A language picked under ``/lang``."""

    code: str


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


def act_data(t: int, v: int, c: str) -> str:
    """``Act(t=t, v=v, c=c).pack()``."""
    return packed(Act.__prefix__, t, v, c)


def table_button_data(t: int, v: int, a: str) -> str:
    """``TableButton(t=t, v=v, a=a).pack()``."""
    return packed(TableButton.__prefix__, t, v, a)


def lobby_data(t: int, v: int, a: str, o: int = -1) -> str:
    """``Lobby(t=t, v=v, a=a, o=o).pack()``."""
    return packed(Lobby.__prefix__, t, v, a, o)
