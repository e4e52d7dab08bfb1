"""The table domain: a table from its lobby to its last deal, whatever its chat or its
players do.

Every accepted change bumps the table's version and is committed before the
caller answers the user; a button pressed at an older version changes nothing.

Each table has two locks: ``state`` guards reading and saving the record, ``show``
guards its messages. A game press holds only ``state`` while it commits, is answered,
then shows what changed under ``show`` (:meth:`Tables.publish`), so the next press is
not kept waiting behind Telegram calls, and presses committed while an earlier change
is still being shown are shown together, once. Everything else takes both locks
(:meth:`TableStore.lock`) and shows its change before letting go.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot import ai
from bot.ai.players import Budgets
from bot.db.repo import TableRepo
from bot.engine import game_class
from bot.engine.base import Game
from bot.tables.alarm import Alarm
from bot.tables.chats import ChatChanges
from bot.tables.deadlines import Deadlines
from bot.tables.leaving import Leaving
from bot.tables.lifecycle import Chooser, Lifecycle
from bot.tables.lobby import Lobbies
from bot.tables.lookups import Lookups
from bot.tables.people import People
from bot.tables.person import Person
from bot.tables.play import Play
from bot.tables.ports import Members, Presenter
from bot.tables.records import Records
from bot.tables.showing import SHOW_AGAIN, Showing
from bot.tables.store import KEEP_GAMES, TableStore

__all__ = ["KEEP_GAMES", "SHOW_AGAIN", "Alarm", "People", "Person", "Tables"]


class Tables:
    """The domain's services over one store of tables, each given what it needs:
    ``lobby`` (opening, joining, setting up, starting), ``leaving`` (/leave and /cancel),
    ``play`` (a game's buttons), ``deadlines`` (turn timers and a lobby's time to start)
    ``chats`` (a chat changing under its table) and ``lookups`` (what /rules and /score
    read); ``people`` are the people and chats the bot has met."""

    def __init__(
        self,
        repo: TableRepo,
        people: People,
        presenter: Presenter,
        members: Members,
        *,
        alarm: Alarm | None = None,
        choose: Chooser = ai.choose,
        games: Callable[[str], type[Game]] = game_class,
        bot_level: str = "hard",
        budgets: Budgets | None = None,
        seed_source: Callable[[], int] | None = None,
        default_timer: int = 0,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.people = people
        self.store = TableStore(repo, games)
        self.showing = Showing(self.store, presenter, sleep=sleep)
        self.lifecycle = Lifecycle(
            self.store,
            self.showing,
            presenter,
            alarm or Alarm(),
            choose=choose,
            bot_level=bot_level,
            budgets=budgets,
            clock=clock,
        )
        self.lobby = Lobbies(
            self.lifecycle,
            people,
            presenter,
            members,
            bot_level=bot_level,
            default_timer=default_timer,
            seed_source=seed_source,
            clock=clock,
        )
        self.leaving = Leaving(self.lifecycle, self.lobby, presenter, bot_level=bot_level)
        self.play = Play(self.lifecycle, presenter)
        self.deadlines = Deadlines(self.lifecycle, presenter)
        self.chats = ChatChanges(self.lifecycle, people, presenter)
        self.lookups = Lookups(self.store)
        self.records = Records(self.store, self.lifecycle.history)

    async def publish(self, table_id: int) -> bool:
        """Show what presses committed on the table (see :meth:`Showing.publish`)."""
        return await self.showing.publish(table_id)

    async def repost(self, table_id: int) -> int | None:
        """The table's message sent anew at the bottom of its chat; its id."""
        return await self.lifecycle.repost(table_id)

    async def resend_hands(self, user_id: int, *, asked: bool = False) -> int:
        """The person's hand messages sent anew; how many."""
        return await self.lifecycle.resend_hands(user_id, asked=asked)

    async def resume_all(self, stopping: asyncio.Event | None = None) -> int:
        """After a restart: every unfinished table's messages brought up to date (no
        more once ``stopping`` is set)."""
        return await self.lifecycle.resume_all(stopping)

    async def close(self) -> None:
        """The bot is stopping: a restart shows every table anew (:meth:`resume_all`)."""
        await self.showing.close()
