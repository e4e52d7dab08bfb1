"""Inline keyboards from (text, callback data) pairs, laid out in rows of given widths.

``InlineKeyboardBuilder`` copies its whole content on every button, which shows on
the hot path of a table with a dozen cards; this builds the markup in one go.
"""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

__all__ = ["keyboard"]


def keyboard(
    buttons: Sequence[tuple[str, CallbackData]], widths: Sequence[int] = (1,)
) -> InlineKeyboardMarkup:
    """Rows of ``widths`` buttons in turn; the last width repeats."""
    rows: list[list[InlineKeyboardButton]] = []
    at = 0
    step = 0
    while at < len(buttons):
        width = widths[min(step, len(widths) - 1)]
        rows.append(
            [
                InlineKeyboardButton(text=text, callback_data=data.pack())
                for text, data in buttons[at : at + width]
            ]
        )
        at += width
        step += 1
    return InlineKeyboardMarkup(inline_keyboard=rows)
