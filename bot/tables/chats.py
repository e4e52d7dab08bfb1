"""A table's chat changes under it: its language, a move to a supergroup, the bot removed."""

from __future__ import annotations

from bot.db.models import TableStatus
from bot.db.repo import PeopleRepo
from bot.tables.lifecycle import Lifecycle
from bot.tables.ports import Presenter

__all__ = ["ChatChanges"]


class ChatChanges:
    """Tables following their chat when it moves or goes."""

    def __init__(self, lifecycle: Lifecycle, people: PeopleRepo, presenter: Presenter) -> None:
        self.lifecycle = lifecycle
        self.store = lifecycle.store
        self.people = people
        self.presenter = presenter

    async def set_language(self, table_id: int, lang: str) -> None:
        """Its chat's language changed: the table speaks it from its next message on."""
        # under the table's locks: a move committed meanwhile must not be written over
        async with self.store.lock(table_id):
            record = await self.store.repo.get(table_id)
            if record is not None and record.is_open:
                record.lang = lang
                await self.store.repo.save(record)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its open tables follow, their messages posted there."""
        self.presenter.chat_moved(old_chat_id, new_chat_id)
        await self.people.move_chat(old_chat_id, new_chat_id)
        for table_id in await self.store.repo.open_ids_in_chat(old_chat_id):
            async with self.store.lock(table_id):
                record = await self.store.repo.get(table_id)
                if record is None or not record.is_open or record.chat_id != old_chat_id:
                    continue
                record.chat_id = new_chat_id
                record.table_msg_id = None
                await self.store.repo.save(record)
                await self.lifecycle.show(record)
                await self.store.repo.save(record)

    async def close_chat(self, chat_id: int) -> None:
        """The bot left the group: its tables close, and nothing is sent there any more."""
        for table_id in await self.store.repo.open_ids_in_chat(chat_id):
            async with self.store.lock(table_id):
                record = await self.store.repo.get(table_id)
                if record is None or not record.is_open or record.chat_id != chat_id:
                    continue
                record.status = TableStatus.CANCELLED
                record.version += 1
                await self.lifecycle.closed(record)
                await self.store.repo.save(record)
                await self.presenter.chat_closed(record)
