"""Inline keyboards from (text, callback data) pairs, laid out in rows of given widths.

``InlineKeyboardBuilder`` copies its whole content on every button, which shows on
the hot path of a table with a dozen cards; this builds the markup in one go, and
skips pydantic's validation: every field is a string the bot itself made.
"""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

__all__ = ["button", "keyboard", "markup", "rows"]


# Copies of validated templates: a copy with new field values is a fraction of the
# cost of a validation (or of ``model_construct``, slower still for a dozen fields).
_BUTTON = InlineKeyboardButton(text="", callback_data="")
_MARKUP = InlineKeyboardMarkup(inline_keyboard=[])


def button(text: str, data: str) -> InlineKeyboardButton:
    """A callback button, equal to ``InlineKeyboardButton(text=text, callback_data=data)``."""
    return _BUTTON.model_copy(update={"text": text, "callback_data": data})


def markup(rows: list[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup:
    """Equal to ``InlineKeyboardMarkup(inline_keyboard=rows)``."""
    return _MARKUP.model_copy(update={"inline_keyboard": rows})


def rows(
    buttons: Sequence[tuple[str, CallbackData | str]], widths: Sequence[int] = (1,)
) -> list[list[InlineKeyboardButton]]:
    """Rows of ``widths`` buttons in turn; the last width repeats."""
    out: list[list[InlineKeyboardButton]] = []
    at = 0
    step = 0
    while at < len(buttons):
        width = widths[min(step, len(widths) - 1)]
        out.append(
            [
                button(text, data if isinstance(data, str) else data.pack())
                for text, data in buttons[at : at + width]
            ]
        )
        at += width
        step += 1
    return out


def keyboard(
    buttons: Sequence[tuple[str, CallbackData | str]], widths: Sequence[int] = (1,)
) -> InlineKeyboardMarkup:
    """Rows of ``widths`` buttons in turn; the last width repeats. ``str`` data is packed."""
    return markup(rows(buttons, widths))
