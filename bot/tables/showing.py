"""Showing committed changes: once for every press committed meanwhile, and again after
Telegram was out of reach."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.db.models import TableRecord, TableStatus
from bot.engine.base import Game
from bot.tables.notices import Notice
from bot.tables.ports import Presenter, Unreachable
from bot.tables.store import TableStore
from bot.tasks import cancel_all

__all__ = ["SHOW_AGAIN", "Pending", "Showing", "unposted"]

log = logging.getLogger(__name__)

SHOW_AGAIN = (5.0, 15.0, 30.0, 60.0)
"""Seconds before showing a table again while Telegram stays out of reach (the last
one repeats until it answers)."""


@dataclass
class Pending:
    """Committed changes not shown yet: who was to act before the first, notices to post."""

    to_act_before: int | None
    notices: list[Notice] = field(default_factory=list)


def unposted(record: TableRecord, game: Game) -> int:
    """The first scoresheet row not posted yet (all posted: the number of rows)."""
    if record.unposted_from is not None:
        return record.unposted_from
    return game.rows_scored


class Showing:
    """What is committed and not shown yet, per table, and showing it."""

    def __init__(
        self,
        store: TableStore,
        presenter: Presenter,
        *,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.store = store
        self.presenter = presenter
        self.sleep = sleep
        self._pending: dict[int, Pending] = {}
        self._again: dict[int, asyncio.Task[None]] = {}
        """Per table, the task that shows it again once Telegram answers."""

    def add(self, table_id: int, to_act_before: int | None, notice: Notice | None) -> None:
        """A change of the table is committed: it is to be shown, with ``notice``."""
        pending = self._pending.get(table_id)
        if pending is None:
            pending = self._pending[table_id] = Pending(to_act_before)
        if notice is not None:
            pending.notices.append(notice)

    async def show_pending(self, record: TableRecord, game: Game) -> None:
        """Show every committed change of ``record`` (both locks held)."""
        pending = self._pending.pop(record.id, None)
        if pending is None:
            return
        await self.attempt(self.show_saving, record, game, pending)

    async def attempt(
        self,
        show: Callable[..., Awaitable[None]],
        record: TableRecord,
        game: Game,
        pending: Pending,
    ) -> bool:
        """``show`` what ``pending`` holds; ``False`` when Telegram was out of reach."""
        try:
            await show(
                record,
                game,
                rows_before=unposted(record, game),
                to_act_before=pending.to_act_before,
                notices=pending.notices,
            )
        except Unreachable as error:
            self._show_again(record.id, pending, error)
            return False
        return True

    def _show_again(self, table_id: int, pending: Pending, error: Exception) -> None:
        """Telegram stayed out of reach past the sender's retries: what ``pending`` held is
        shown by a later attempt, or by the next change along with it. The state is saved;
        without this the players would wait for buttons that never come."""
        newer = self._pending.get(table_id)
        if newer is None:
            self._pending[table_id] = pending
        else:  # changes committed since: shown together, as from the older one
            newer.to_act_before = pending.to_act_before
            newer.notices[:0] = pending.notices
        if table_id not in self._again:
            log.warning("table %s not shown (%s); it will be again", table_id, error)
            self._again[table_id] = asyncio.create_task(self._show_later(table_id))

    async def _show_later(self, table_id: int) -> None:
        try:
            for attempt in itertools.count():
                await self.sleep(SHOW_AGAIN[min(attempt, len(SHOW_AGAIN) - 1)])
                if await self.publish(table_id):
                    return
        except Exception:
            log.exception("table %s could not be shown again", table_id)
        finally:
            self._again.pop(table_id, None)

    async def close(self) -> None:
        """The bot is stopping: a restart shows every table anew."""
        await cancel_all(self._again.values())

    async def publish(self, table_id: int) -> bool:
        """Show what presses committed on the table, if nobody has shown it yet; ``False``
        when Telegram was out of reach, and it will be shown again later.

        Runs under the show lock; the state lock is taken only to read the record and
        to mark posted results, so presses go on being committed meanwhile (saving only
        the game's columns: see :meth:`TableRepo.save_state`).
        """
        if table_id not in self._pending:
            return True
        repo = self.store.repo
        locks = self.store.lock(table_id)
        async with locks.show:
            async with locks.state:
                pending = self._pending.pop(table_id, None)
                if pending is None:
                    return True  # shown by a publish that ran first
                record = await repo.get(table_id)
                if record is None or record.state is None:
                    return True
                if record.status == TableStatus.CANCELLED:
                    return True  # its messages say so now; a move made before is not shown
                game = self.store.peek(record)
            rows = game.rows_scored
            shown = (record.chat_id, record.table_msg_id, dict(record.hand_msgs))
            shown_all = await self.attempt(self.presenter.game, record, game, pending)
            if (record.chat_id, record.table_msg_id, record.hand_msgs) != shown:
                # only holders of the show lock write these columns; messages sent before
                # a failure are kept too, so a later attempt edits rather than sends again
                await repo.save_shown(record)
            if record.unposted_from is None:
                return shown_all
            async with locks.state:
                fresh = await repo.get(table_id)
                if fresh is not None:
                    if shown_all:
                        # presses committed meanwhile may have ended another deal
                        later = self.store.peek(fresh).rows_scored > rows
                        fresh.unposted_from = rows if later else None
                    else:
                        # the results posted before the failure are not posted again
                        fresh.unposted_from = record.unposted_from
                    await repo.save_state(fresh)
            return shown_all

    async def show_saving(
        self,
        record: TableRecord,
        game: Game,
        *,
        rows_before: int,
        to_act_before: int | None,
        notices: Sequence[Notice] = (),
    ) -> None:
        """The game shown with both locks held, the record saved as it is shown."""
        shown = (record.table_msg_id, dict(record.hand_msgs), record.unposted_from)
        try:
            await self.presenter.game(
                record, game, rows_before=rows_before, to_act_before=to_act_before, notices=notices
            )
            record.unposted_from = None
        finally:
            # messages sent before a failure are kept, so a later attempt edits them
            if (record.table_msg_id, record.hand_msgs, record.unposted_from) != shown:
                await self.store.repo.save(record)
