"""Turn timers and a lobby's time to start: reminders, moves made for the absent, expiry."""

from __future__ import annotations

from bot.db.models import Seat, TableRecord, TableStatus
from bot.tables.autoplay import forced_card
from bot.tables.lifecycle import Lifecycle
from bot.tables.notices import Abandoned, Notice, TimedOut, WentAway
from bot.tables.ports import Presenter
from bot.tables.rules import AWAY_AFTER

__all__ = ["Deadlines"]

_Told = tuple[TableRecord, int, int, str]
"""A reminder to edit, to say that time ran out: the table, the person, the reminder
message and the move made for them."""


class Deadlines:
    """What happens when a turn or a lobby runs out of time."""

    def __init__(self, lifecycle: Lifecycle, presenter: Presenter) -> None:
        self.lifecycle = lifecycle
        self.store = lifecycle.store
        self.presenter = presenter

    async def due(self, now: float) -> list[int]:
        """The tables whose reminder or deadline fell due by ``now``."""
        return await self.store.repo.due(now)

    async def next_due(self, skip: list[int]) -> float | None:
        """The earliest reminder or deadline of a table not in ``skip``."""
        return await self.store.repo.next_due(skip=skip)

    async def on_timer(self, table_id: int, now: float) -> None:
        """A reminder or deadline fell due: remind, time the turn out, or close the lobby.

        Read again under the lock: a move made meanwhile has set a new deadline,
        and then there is nothing to do. A move made for the absent is shown once it is
        committed, as a press's is: on PostgreSQL the lock's transaction ends with the
        block, and a message sent inside could show a move a replica killed meanwhile
        never stored.
        """
        told: _Told | None = None
        async with self.store.lock(table_id):
            record = await self.store.repo.get(table_id)
            if record is None or record.deadline is None:
                return
            if record.status == TableStatus.LOBBY:
                if record.deadline <= now:
                    await self._expire(record)
                return
            if record.status != TableStatus.PLAYING or record.state is None:
                record.deadline = record.remind_at = None
                await self.store.repo.save(record)
                return
            if record.deadline <= now:
                told = await self._time_out(record)
            elif record.remind_at is not None and record.remind_at <= now:
                await self._remind(record, now)
        await self.lifecycle.showing.publish(table_id)
        if told is not None:
            # after the move is shown, so a Telegram failure here cannot hold it up: a
            # reminder gone without a word would leave the player to find the move on the table
            await self.presenter.timed_out(*told)

    async def postpone(self, table_id: int, when: float) -> None:
        """A timer that failed is tried again at ``when``, not at once and over again."""
        async with self.store.lock(table_id):
            await self.store.repo.postpone(table_id, when)

    async def _expire(self, record: TableRecord) -> None:
        record.status = TableStatus.CANCELLED
        record.deadline = record.remind_at = None
        record.version += 1
        await self.store.repo.save(record)
        await self.presenter.expired(record)
        await self.store.repo.save(record)

    async def _remind(self, record: TableRecord, now: float) -> None:
        record.remind_at = None
        await self.store.repo.save(record)
        seat = self.store.peek(record).current_seat()
        person = record.seats[seat] if seat is not None else None
        if person is None or person.is_bot or person.user_id is None or record.deadline is None:
            return
        left = max(1, round(record.deadline - now))
        await self.presenter.remind(record, person.user_id, left)

    async def _time_out(self, record: TableRecord) -> _Told | None:
        """A bot player makes the move the seat to act let time run out on; a forced last
        card is played as it is. The move is left to show (:meth:`Showing.publish`); the
        reminder it answers, to say what was done, is returned."""
        game = self.store.load(record)
        seat = game.current_seat()
        if seat is None or record.seats[seat].is_bot:
            record.deadline = record.remind_at = None
            await self.store.repo.save(record)
            return None
        forced = forced_card(record, game)
        if forced is not None:
            # the one card they could play: played for them, as if they had pressed it
            await self.lifecycle.move(record, seat, forced, defer=True)
            return None
        seed = (record.seed * 1_000_003 + record.version * 7_919 + 104_729) & 0x7FFF_FFFF
        level = self.lifecycle.bot_level
        code = await self.lifecycle.decide(record, game, seat, level, seed)
        person = record.seats[seat]
        missed = record.timeouts.get(seat, 0) + 1
        record.timeouts[seat] = missed
        if missed >= AWAY_AFTER and not [i for i, _ in record.humans() if i != seat]:
            # nobody left to play with: bots alone would only flood the chat
            await self.lifecycle.cancel(record, Abandoned())
            return None
        notice: Notice
        if missed >= AWAY_AFTER:
            record.seats[seat] = Seat(
                name=person.name, user_id=person.user_id, bot=level, away=True
            )
            notice = WentAway(person.name, missed)
        else:
            notice = TimedOut(person.name)
        # the reminder they did not answer is kept, to say what was done in their place
        reminder = record.reminders.pop(person.user_id, None) if person.user_id else None
        await self.lifecycle.move(record, seat, code, notice=notice, defer=True)
        if reminder is None or person.user_id is None:
            return None
        await self.store.repo.save_shown(record)  # the reminder is no longer kept
        return record, person.user_id, reminder, code
