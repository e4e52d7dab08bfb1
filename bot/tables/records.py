"""Players' records as /stats, /top, /history, a deal's review and an export read them.

A deal's record exists only once the deal has ended (it is written with the move that
ends it), so nothing here can show a card of a deal still being played.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import jsonio
from bot.db.history import GameLine, HistoryRepo, PlayerStats, TopLine
from bot.engine.base import DealLog, Scoresheet
from bot.tables.store import TableStore

__all__ = ["DealReview", "Export", "NotAllowed", "Records"]


@dataclass(frozen=True)
class DealReview:
    """An ended deal of a table: its record and the seats' names."""

    game: str
    names: tuple[str, ...]
    log: DealLog


@dataclass(frozen=True)
class NotAllowed:
    """The deal or game belongs to another chat's table, and the asker did not play it."""


@dataclass(frozen=True)
class Export:
    """A finished (or stopped) game's scoresheet and deal records, as a file's bytes."""

    filename: str
    data: bytes
    sheet: Scoresheet
    names: tuple[str, ...]


class Records:
    def __init__(self, store: TableStore, history: HistoryRepo) -> None:
        self.store = store
        self.history = history

    async def stats(self, user_id: int) -> PlayerStats | None:
        return await self.history.stats(user_id)

    async def top(self, game: str, chat_id: int | None) -> list[TopLine]:
        return await self.history.top(game, chat_id)

    async def recent(self, chat_id: int) -> list[GameLine]:
        return await self.history.recent(chat_id)

    async def deal(
        self, table_id: int, deal_no: int, *, chat_id: int, user_id: int
    ) -> DealReview | NotAllowed | None:
        """An ended deal, for the table's chat and its players only; ``None``: no such
        deal has ended (or no such table)."""
        record = await self.store.repo.get(table_id)
        if record is None:
            return None
        if chat_id != record.chat_id and all(seat.user_id != user_id for seat in record.seats):
            return NotAllowed()
        log = await self.history.deal(table_id, deal_no)
        if log is None:
            return None
        return DealReview(record.game, tuple(record.names()), log)

    async def export(self, chat_id: int, table_id: int | None = None) -> Export | None:
        """The chat's latest game (or ``table_id`` of the chat) as JSON: its settings,
        players, scoresheet and every ended deal's record."""
        if table_id is None:
            record = await self.store.repo.latest_in_chat(chat_id)
        else:
            record = await self.store.repo.get(table_id)
        if record is None or record.state is None or record.chat_id != chat_id:
            return None
        sheet = self.store.peek(record).scoresheet()
        deals = await self.history.deals(record.id)
        names = tuple(record.names())
        data = {
            "table": record.id,
            "game": record.game,
            "status": record.status.value,
            "conventions": record.conventions,
            "players": list(names),
            "scoresheet": sheet.to_json(),
            "deals": [log.to_json() for log in deals],
        }
        body = jsonio.dumps(data).encode()
        return Export(f"{record.game}-{record.id}.json", body, sheet, names)
