"""Inline keyboards as plain data, laid out in rows of given widths: callback buttons,
and links (a URL the button opens).

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

__all__ = ["Button", "Keyboard", "Link", "keyboard", "rows"]


@dataclass(frozen=True, slots=True)
class Link:
    """A button that opens ``url`` (e.g. a private chat with the bot) rather than
    calling back."""

    text: str
    url: str


Button = tuple[str, str] | Link
"""A callback button (its text and its callback data), or a link."""
Rows = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True, slots=True)
class Keyboard:
    rows: Rows

    def __add__(self, other: Keyboard) -> Keyboard:
        return Keyboard(self.rows + other.rows)

    def as_json(self) -> dict[str, Any]:
        """The ``reply_markup`` object of the Bot API."""
        return {"inline_keyboard": [[_json(button) for button in row] for row in self.rows]}

    def as_markup(self) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[[_model(button) for button in row] for row in self.rows]
        )


def _json(button: Button) -> dict[str, str]:
    if isinstance(button, Link):
        return {"text": button.text, "url": button.url}
    return {"text": button[0], "callback_data": button[1]}


def _model(button: Button) -> InlineKeyboardButton:
    if isinstance(button, Link):
        return InlineKeyboardButton(text=button.text, url=button.url)
    return InlineKeyboardButton(text=button[0], callback_data=button[1])


def _packed(button: tuple[str, CallbackData | str] | Link) -> Button:
    if isinstance(button, Link):
        return button
    text, data = button
    return (text, data if isinstance(data, str) else data.pack())


Item = tuple[str, CallbackData | str] | Link
"""A button as the keyboard's maker gives it: callback data may be a model to pack."""


def rows(buttons: Sequence[Item], widths: Sequence[int] = (1,)) -> Rows:
    """Rows of ``widths`` buttons in turn; the last width repeats. ``str`` data is packed."""
    out: list[tuple[Button, ...]] = []
    at = 0
    step = 0
    while at < len(buttons):
        width = widths[min(step, len(widths) - 1)]
        out.append(tuple(_packed(button) for button in buttons[at : at + width]))
        at += width
        step += 1
    return tuple(out)


def keyboard(buttons: Sequence[Item], widths: Sequence[int] = (1,)) -> Keyboard:
    """Rows of ``widths`` buttons in turn; the last width repeats. ``str`` data is packed."""
    return Keyboard(rows(buttons, widths))
