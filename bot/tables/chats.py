"""A chat changes under its table: its language, a move to a supergroup, the bot removed."""

from __future__ import annotations

from bot.db.models import TableStatus
from bot.tables.lifecycle import Lifecycle
from bot.tables.outcomes import LanguageChosen, NotAllowed
from bot.tables.people import People
from bot.tables.person import Person
from bot.tables.ports import Presenter

__all__ = ["ChatChanges"]


class ChatChanges:
    """Tables following their chat when it moves or goes."""

    def __init__(self, lifecycle: Lifecycle, people: People, presenter: Presenter) -> None:
        self.lifecycle = lifecycle
        self.store = lifecycle.store
        self.people = people
        self.presenter = presenter

    async def choose_language(
        self, chat_id: int, who: Person, lang: str, *, private: bool
    ) -> LanguageChosen | NotAllowed:
        """``who`` chose the chat's language: in a private chat their own; a group's needs
        its table's host or an admin."""
        if private:
            await self.people.set_user_lang(who.id, lang)
            # the game here and the hands at group tables say it at once
            table = await self.store.repo.open_in_chat(chat_id)
            if table is not None:
                await self.set_language(table.id, lang)
            await self.lifecycle.redraw_hands(who.id)
            return LanguageChosen(lang)
        table = await self.store.repo.open_in_chat(chat_id)
        host = table is not None and table.host_id == who.id
        if not host and not (who.is_admin is not None and await who.is_admin()):
            return NotAllowed()
        await self.people.set_chat_lang(chat_id, lang)
        if table is not None:
            await self.set_language(table.id, lang)
        return LanguageChosen(lang)

    async def set_language(self, table_id: int, lang: str) -> None:
        """Its chat's language changed: the table's message (and hands) say it at once."""
        # under the table's locks: a move committed meanwhile must not be written over
        async with self.store.lock(table_id):
            record = await self.store.repo.get(table_id)
            if record is not None and record.is_open:
                record.lang = lang
                await self.store.repo.save(record)
                await self.lifecycle.show(record)
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
