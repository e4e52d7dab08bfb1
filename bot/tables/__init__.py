"""The table lifecycle: load, lock, apply through the engine, save, then show.

Every accepted change bumps the table's version and is committed before the
caller answers the user; a button pressed at an older version changes nothing.

Each table has two locks: ``state`` guards reading and saving the record, ``show``
guards its messages. A game press holds only ``state`` while it commits, is answered,
then shows what changed under ``show`` (:meth:`TableService.publish`), so the next
press is not kept waiting behind Telegram calls, and presses committed while an
earlier change is still being shown are shown together, once. Everything else takes
both locks (:meth:`TableService.lock`) and shows its change before letting go.
"""

from __future__ import annotations

from bot.tables.chats import ChatChanges
from bot.tables.core import KEEP_GAMES, SHOW_AGAIN, Person, Reply
from bot.tables.deadlines import AWAY_AFTER, TIMEOUT_LEVEL, Deadlines
from bot.tables.lobby import LOBBY_TTL, MAX_SEATS, MIN_SEATS, Lobbies
from bot.tables.play import Play

__all__ = [
    "AWAY_AFTER",
    "KEEP_GAMES",
    "LOBBY_TTL",
    "MAX_SEATS",
    "MIN_SEATS",
    "SHOW_AGAIN",
    "TIMEOUT_LEVEL",
    "Person",
    "Reply",
    "TableService",
]


class TableService(Lobbies, Play, Deadlines, ChatChanges):
    """A table from its lobby to its last deal, whatever its chat or its players do."""
