"""The tables as saved, and what memory keeps of them: each one's locks, its game parsed."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any
from weakref import WeakValueDictionary

from bot import jsonio
from bot.bounded import keep
from bot.db.models import TableRecord, TableStatus
from bot.db.repo import TableRepo
from bot.engine import game_class
from bot.engine.base import Game
from bot.tables.locks import TableLocks

__all__ = ["KEEP_GAMES", "TableStore"]

KEEP_GAMES = 4096
"""Parsed games kept in memory, of the tables moved most recently (a table left open and
idle, with no turn timer, is parsed again if it comes back)."""


class TableStore:
    """The table rows (``repo``), the locks that guard them and their games kept parsed."""

    def __init__(self, repo: TableRepo, games: Callable[[str], type[Game]] = game_class) -> None:
        self.repo = repo
        self.games = games
        # A table's or chat's locks last as long as someone holds, awaits or is about to
        # take them: one kept for every table ever played would grow without end.
        self._locks: WeakValueDictionary[int, TableLocks] = WeakValueDictionary()
        self._chat_locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        self._games: dict[int, tuple[int, Game]] = {}
        """Per table, the game last saved, parsed; the least recently moved go first."""

    def lock(self, table_id: int) -> TableLocks:
        """Both of the table's locks: its state and its messages. Holding the state lock
        holds the table's row too, against other processes sharing the database."""
        locks = self._locks.get(table_id)
        if locks is None:
            locks = TableLocks(functools.partial(self.repo.locked, table_id))
            self._locks[table_id] = locks
        return locks

    def chat_lock(self, chat_id: int) -> asyncio.Lock:
        """The chat's lock, for opening its one table."""
        return self._chat_locks.setdefault(chat_id, asyncio.Lock())

    def options(self, record: TableRecord) -> dict[str, tuple[Any, ...]]:
        """The table's conventions and the values each may take."""
        return self.games(record.game).conventions_type.options()

    def load(self, record: TableRecord) -> Game:
        """The table's game, the caller's own to change."""
        return self.peek(record).clone()

    def peek(self, record: TableRecord) -> Game:
        """The table's game, read only: the last one saved is kept parsed, as long games
        grow big, and is shared by everyone who reads it until a move replaces it."""
        cached = self._games.get(record.id)
        if cached is not None and cached[0] == record.version:
            return cached[1]
        assert record.state is not None
        game = self.games(record.game).from_json(jsonio.loads(record.state))
        if record.status == TableStatus.PLAYING:  # a closed table is read rarely
            self.keep(record, game)
        return game

    def keep(self, record: TableRecord, game: Game) -> None:
        """``game`` is the table's as saved at its version now: readers share it (see
        :meth:`peek`), so nobody may change it any more."""
        keep(self._games, record.id, (record.version, game), KEEP_GAMES)

    def drop(self, table_id: int) -> None:
        """The game kept for the table is out of date, or the table is closed."""
        self._games.pop(table_id, None)
