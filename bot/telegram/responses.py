"""Keeps aiogram's parsed-response models alive.

aiogram validates each reply with ``Response[<result type>]``; pydantic caches such
generic models only while something references them, so without this every API
call rebuilds its model (milliseconds of schema work per call).
"""

from __future__ import annotations

from typing import Any

from aiogram import methods
from aiogram.methods.base import Response

_USED = (
    methods.GetUpdates,
    methods.GetMe,
    methods.SendMessage,
    methods.EditMessageText,
    methods.DeleteMessage,
    methods.AnswerCallbackQuery,
    methods.GetChatMember,
    methods.SetMyCommands,
    methods.DeleteWebhook,
)

__all__ = ["keep_response_models"]

_KEPT: list[Any] = []


def keep_response_models() -> None:
    """Build and hold the models of the methods the bot calls."""
    if _KEPT:
        return
    for method in _USED:
        _KEPT.append(Response[method.__returning__])  # type: ignore[name-defined]
