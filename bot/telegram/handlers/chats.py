"""The group itself changes: the bot is removed, or the group becomes a supergroup."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import LEAVE_TRANSITION, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message

from bot.tables import Tables
from bot.telegram.handlers.filters import GROUPS, in_chat, migrating_from, migrating_to

__all__ = ["make_router"]


async def removed(event: ChatMemberUpdated, tables: Tables) -> None:
    await tables.chats.close_chat(event.chat.id)


async def migrated_to(message: Message, tables: Tables) -> None:
    assert message.migrate_to_chat_id is not None
    await tables.chats.move_chat(message.chat.id, message.migrate_to_chat_id)


async def migrated_from(message: Message, tables: Tables) -> None:
    assert message.migrate_from_chat_id is not None
    await tables.chats.move_chat(message.migrate_from_chat_id, message.chat.id)


def make_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(in_chat(*GROUPS))
    router.my_chat_member.filter(in_chat(*GROUPS))
    router.my_chat_member.register(removed, ChatMemberUpdatedFilter(LEAVE_TRANSITION))
    # both service messages arrive (one in each chat); the second finds nothing left to move
    router.message.register(migrated_to, migrating_to)
    router.message.register(migrated_from, migrating_from)
    return router
