"""Inline keyboards of callback buttons as plain data, laid out in rows of given widths.

A table's keyboards are rebuilt on every move. As aiogram models each of a dozen
buttons would be copied or validated, then walked again to be written out; as
tuples of ``(text, callback data)`` they cost a few allocations, compare and hash
by content, and go out as JSON in one step. :meth:`Keyboard.as_markup` gives
aiogram's model where one is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

__all__ = ["Button", "Keyboard", "keyboard", "rows"]

Button = tuple[str, str]
"""A callback button: its text and its callback data."""
Rows = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True, slots=True)
class Keyboard:
    rows: Rows

    def __add__(self, other: Keyboard) -> Keyboard:
        return Keyboard(self.rows + other.rows)

    def as_json(self) -> dict[str, Any]:
        """The ``reply_markup`` object of the Bot API."""
        return {
            "inline_keyboard": [
                [{"text": text, "callback_data": data} for text, data in row] for row in self.rows
            ]
        }

    def as_markup(self) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[
                [InlineKeyboardButton(text=text, callback_data=data) for text, data in row]
                for row in self.rows
            ]
        )


def rows(buttons: Sequence[tuple[str, CallbackData | str]], widths: Sequence[int] = (1,)) -> Rows:
    """Rows of ``widths`` buttons in turn; the last width repeats. ``str`` data is packed."""
    out: list[tuple[Button, ...]] = []
    at = 0
    step = 0
    while at < len(buttons):
        width = widths[min(step, len(widths) - 1)]
        out.append(
            tuple(
                (text, data if isinstance(data, str) else data.pack())
                for text, data in buttons[at : at + width]
            )
        )
        at += width
        step += 1
    return tuple(out)


def keyboard(
    buttons: Sequence[tuple[str, CallbackData | str]], widths: Sequence[int] = (1,)
) -> Keyboard:
    """Rows of ``widths`` buttons in turn; the last width repeats. ``str`` data is packed."""
    return Keyboard(rows(buttons, widths))
