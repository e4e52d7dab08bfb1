"""Players' records as /stats, /top, /history, a deal's review and an export read them.

A deal's record exists only once the deal has ended (it is written with the move that
ends it), so nothing here can show a card of a deal still being played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot import jsonio
from bot.db.history import GameLine, HistoryRepo, PlayerStats, TopLine
from bot.db.models import TableStatus
from bot.engine.base import DealLog, Scoresheet
from bot.tables.store import TableStore

__all__ = ["DealReview", "Export", "NotAllowed", "Records", "played_numbers"]


def played_numbers(logs: Sequence[DealLog]) -> list[int]:
    """Each record's deal number as the players count deals (the game's ``deal_played``,
    the number its result and the scoresheet carry): a deal dealt anew keeps the number
    of the one it replaced. ``logs`` are a table's records from its first deal on, in
    order (each is written with the move that ends its deal, redeals too)."""
    redeals = 0
    numbers = []
    for log in logs:
        numbers.append(log.deal_no - redeals)
        redeals += log.redeal
    return numbers


@dataclass(frozen=True)
class DealReview:
    """An ended deal of a table, numbered as its result was (:func:`played_numbers`):
    the records of the deals dealt anew in its place, then its own once it has ended."""

    table_id: int
    game: str
    names: tuple[str, ...]
    deal_no: int
    logs: tuple[DealLog, ...]
    last: int
    """The number of the table's latest deal with a record: the review's last page."""
    over: bool
    """The game has ended (or stopped): every deal it will have is there."""


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

    @property
    def stem(self) -> str:
        """The file's name without its ``.json``: the game and the table's id."""
        return self.filename.removesuffix(".json")


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
        self, table_id: int, deal_no: int | None, *, chat_id: int, user_id: int
    ) -> DealReview | NotAllowed | None:
        """Deal ``deal_no`` (numbered as its result was; ``None``: the latest with a
        record) of a table, for the table's chat and its players only; ``None``: no such
        deal has ended (or no such table). A deal still being played has no record, so
        none of its cards can be shown."""
        record = await self.store.repo.get(table_id)
        if record is None:
            return None
        if chat_id != record.chat_id and all(seat.user_id != user_id for seat in record.seats):
            return NotAllowed()
        logs = await self.history.deals(table_id)
        numbers = played_numbers(logs)
        if not numbers:
            return None
        wanted = numbers[-1] if deal_no is None else deal_no
        found = tuple(log for log, n in zip(logs, numbers, strict=True) if n == wanted)
        if not found:
            return None
        over = record.status in (TableStatus.FINISHED, TableStatus.CANCELLED)
        return DealReview(
            record.id, record.game, tuple(record.names()), wanted, found, numbers[-1], over
        )

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
            # numbered as the results and the scoresheet are: a deal dealt anew keeps
            # the number of the one it replaced
            "deals": [
                {**log.to_json(), "deal_no": n}
                for log, n in zip(deals, played_numbers(deals), strict=True)
            ],
        }
        body = jsonio.dumps(data).encode()
        return Export(f"{record.game}-{record.id}.json", body, sheet, names)
