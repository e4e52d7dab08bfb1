"""Filters on the chat an update comes from, as coroutines.

aiogram runs a filter that is a plain function (a magic ``F`` filter too) on a
worker thread through ``asyncio.to_thread``: a hand-over to another thread and
back for every update that reaches the router, which under load waits for the
event loop's thread to let go. A coroutine is checked inline.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram.types import CallbackQuery, ChatMemberUpdated, Message

__all__ = ["GROUPS", "button_in", "in_chat", "migrating_from", "migrating_to"]

GROUPS = frozenset({"group", "supergroup"})


def in_chat(*types: str) -> Callable[[Message | ChatMemberUpdated], Awaitable[bool]]:
    """A message or membership change in a chat of one of ``types``."""
    kinds = frozenset(types)

    async def check(event: Message | ChatMemberUpdated) -> bool:
        return event.chat.type in kinds

    return check


def button_in(*types: str) -> Callable[[CallbackQuery], Awaitable[bool]]:
    """A button under a message in a chat of one of ``types``."""
    kinds = frozenset(types)

    async def check(query: CallbackQuery) -> bool:
        return query.message is not None and query.message.chat.type in kinds

    return check


async def migrating_to(message: Message) -> bool:
    return bool(message.migrate_to_chat_id)


async def migrating_from(message: Message) -> bool:
    return bool(message.migrate_from_chat_id)
