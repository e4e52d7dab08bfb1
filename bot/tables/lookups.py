"""What /rules and /score read of a chat's tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.db.models import TableRecord, TableStatus
from bot.engine.base import Scoresheet
from bot.tables.store import TableStore

__all__ = ["Lookups", "Scores", "TableRules"]


@dataclass(frozen=True)
class TableRules:
    """The chat's open table: its game and what its settings change."""

    game: str
    conventions: dict[str, Any]
    turn_timer: int
    autoplay: bool = True


@dataclass(frozen=True)
class Scores:
    """The scoresheet of the chat's latest game; ``cancelled``: it stops short of an end."""

    sheet: Scoresheet
    names: tuple[str, ...]
    cancelled: bool
    table_id: int | None = None


class Lookups:
    """A chat's tables as /rules and /score show them."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    async def open_table(self, chat_id: int) -> TableRecord | None:
        """The chat's open table (a lobby or a game), if it has one."""
        return await self.store.repo.open_in_chat(chat_id)

    async def rules(self, chat_id: int) -> TableRules | None:
        """The chat's open table's rules, if it has one."""
        record = await self.store.repo.open_in_chat(chat_id)
        if record is None:
            return None
        return TableRules(record.game, dict(record.conventions), record.turn_timer, record.autoplay)

    async def scores(self, chat_id: int) -> Scores | None:
        """The scoresheet of the game played last in the chat, if any was."""
        record = await self.store.repo.latest_in_chat(chat_id)
        if record is None or record.state is None:
            return None
        sheet = self.store.peek(record).scoresheet()
        cancelled = record.status == TableStatus.CANCELLED
        return Scores(sheet, tuple(record.names()), cancelled, record.id)
