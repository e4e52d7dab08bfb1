"""What every change of a table goes through: bot players' moves, the turn's deadline,
the commit and showing it; and bringing a table's messages back."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from bot import ai, jsonio
from bot.ai.players import DEFAULT_BUDGET_MS, Budgets
from bot.db.history import HistoryRepo
from bot.db.models import TableRecord, TableStatus
from bot.engine.base import DealLog, Game, IllegalAction
from bot.tables.alarm import Alarm
from bot.tables.autoplay import AUTOPLAY_AFTER, forced_card
from bot.tables.notices import Notice
from bot.tables.outcomes import Moved, Refused
from bot.tables.ports import Presenter
from bot.tables.showing import Pending, Showing
from bot.tables.store import TableStore

__all__ = ["Chooser", "Lifecycle"]

log = logging.getLogger(__name__)

Chooser = Callable[[Game, int, str, int, float], str]
"""A bot player's move: ``(game, seat, level, seed, budget_ms) -> action``."""


class Lifecycle:
    """A table's changes, shared by the lobby, play, deadlines and chat changes."""

    def __init__(
        self,
        store: TableStore,
        showing: Showing,
        presenter: Presenter,
        alarm: Alarm,
        *,
        choose: Chooser = ai.choose,
        bot_level: str = "hard",
        budgets: Budgets | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.showing = showing
        self.presenter = presenter
        self.alarm = alarm
        self.choose = choose
        self.bot_level = bot_level
        self.budgets = budgets or {}
        """By game, what a bot player's decision is given to think (the default budget
        where none is given; :mod:`bot.ai.pace`)."""
        self.clock = clock
        self.history = HistoryRepo(store.repo.db)

    async def closed(self, record: TableRecord) -> None:
        """The table will not be played again: what memory held for it goes."""
        self.store.drop(record.id)
        await self.presenter.forget(record)

    async def cancel(self, record: TableRecord, notice: Notice | None = None) -> None:
        """Close the table; ``notice`` tells its chat and players why, if not just
        cancelled."""
        record.status = TableStatus.CANCELLED
        record.deadline = record.remind_at = None
        record.version += 1
        await self.closed(record)
        await self.store.repo.save(record)
        game = None if record.state is None else self.store.peek(record)
        await self.presenter.cancelled(record, game, notice)
        await self.store.repo.save(record)

    async def move(
        self,
        record: TableRecord,
        seat: int,
        code: str,
        *,
        notice: Notice | None = None,
        defer: bool = False,
    ) -> Moved | Refused:
        """One move for ``seat`` on a locked, current record: a press, or a timeout that
        ``notice`` tells the table of."""
        game = self.store.load(record)
        rows_before = game.rows_scored
        to_act_before = game.current_seat()
        deal_no, over = game.deal_no, game.is_over
        try:
            game.apply(seat, code)
        except IllegalAction as error:
            return Refused(error, tuple(record.names()))
        if notice is None:
            record.timeouts.pop(seat, None)
        await self.commit(
            record,
            game,
            rows_before=rows_before,
            to_act_before=to_act_before,
            notice=notice,
            moved=True,
            defer=defer,
            ended=_ended(game, deal_no, over),
        )
        user_id = record.seats[seat].user_id
        # their hand may show the move only later: then the answer is to say it was taken
        later = (
            notice is None
            and user_id is not None
            and game.current_seat() != seat
            and self.presenter.hand_waits(record, user_id)
        )
        return Moved(code, tuple(record.names()), shown_later=later)

    async def commit(
        self,
        record: TableRecord,
        game: Game,
        *,
        rows_before: int,
        to_act_before: int | None,
        notice: Notice | None = None,
        moved: bool = False,
        defer: bool = False,
        ended: list[DealLog] | None = None,
    ) -> None:
        """Let bot players move and save the new state; then show it, unless ``defer``
        leaves that to :meth:`Showing.publish` (the caller holds only the state lock).

        ``ended``: the records of deals the move ended; those the bots' moves end join
        them, and they are saved with the state, as are the results of a game it ends.
        """
        ended = [] if ended is None else ended
        await self._run_bots(record, game, ended)
        record.state = jsonio.dumps(game.to_json())
        record.version += 1
        finished = game.is_over and record.status != TableStatus.FINISHED
        also = self.history.writer(record, game, ended, finished=finished)
        if game.is_over:
            record.status = TableStatus.FINISHED
        if record.unposted_from is None and (game.is_over or game.rows_scored > rows_before):
            # a result is posted once only; if the bot dies before, a restart posts it
            record.unposted_from = rows_before
        self._arm(record, game, to_act_before, moved=moved)
        self.store.drop(record.id)
        if defer:
            await self.store.repo.save_state(record, also=also)
        else:
            await self.store.repo.save(record, also=also)
        self.alarm.set(record.remind_at or record.deadline)
        if not game.is_over:
            self.store.keep(record, game)  # as it is: the callers are done changing it
        self.showing.add(record.id, to_act_before, notice)
        if not defer:
            await self.showing.show_pending(record, game)

    def _arm(
        self, record: TableRecord, game: Game, to_act_before: int | None, *, moved: bool
    ) -> None:
        """The turn timer: a fresh deadline when a move was made or the turn passed on.

        Anything else (a resume, a seat changing hands) keeps the running deadline,
        so a restart does not give the seat to act more time. A forced last card is
        due in a moment instead (:mod:`~bot.tables.autoplay`): the timer plays it.
        """
        seat = game.current_seat()
        if record.status == TableStatus.PLAYING and forced_card(record, game) is not None:
            if moved or seat != to_act_before or record.deadline is None:
                record.deadline = self.clock() + AUTOPLAY_AFTER
                record.remind_at = None
            return
        if (
            record.status != TableStatus.PLAYING
            or record.solo
            or record.turn_timer <= 0
            or seat is None
            or record.seats[seat].is_bot
        ):
            record.deadline = record.remind_at = None
            return
        if moved or seat != to_act_before or record.deadline is None:
            now = self.clock()
            record.deadline = now + record.turn_timer
            record.remind_at = now + record.turn_timer * 2 / 3

    async def decide(
        self, record: TableRecord, game: Game, seat: int, level: str, seed: int
    ) -> str:
        """``level``'s move for ``seat``, with the time the table's game is given to think:
        off the event loop, which answers other tables meanwhile (the random player's at
        once)."""
        budget_ms = self.budgets.get(record.game, DEFAULT_BUDGET_MS)
        if level == "random":
            return self.choose(game, seat, level, seed, budget_ms)
        return await asyncio.to_thread(self.choose, game, seat, level, seed, budget_ms)

    async def _run_bots(self, record: TableRecord, game: Game, ended: list[DealLog]) -> None:
        step = 0
        while (seat := game.current_seat()) is not None and record.seats[seat].is_bot:
            level = record.seats[seat].bot or self.bot_level
            seed = (record.seed * 1_000_003 + record.version * 7_919 + step) & 0x7FFF_FFFF
            code = await self.decide(record, game, seat, level, seed)
            deal_no, over = game.deal_no, game.is_over
            game.apply(seat, code)
            ended += _ended(game, deal_no, over)
            step += 1

    async def resume_all(self, stopping: asyncio.Event | None = None) -> int:
        """After a restart: let waiting bots move, post what a crash left unposted and
        bring every table's messages up to date; how many tables were. (Replicas sharing
        the database: the tables another may have left unshown, see
        :meth:`~bot.db.repo.TableRepo.unfinished_ids`.) Once ``stopping`` is set no
        further table is taken up: the next start finds the rest."""
        resumed = 0
        for table_id in await self.store.repo.unfinished_ids():
            if stopping is not None and stopping.is_set():
                break
            async with self.store.lock(table_id):
                try:
                    if await self._resume(table_id):
                        resumed += 1
                except Exception:
                    # one table that cannot be read or shown must not keep the others down
                    log.exception("could not resume table %s", table_id)
        return resumed

    async def _resume(self, table_id: int) -> bool:
        record = await self.store.repo.get(table_id)
        if record is None or record.state is None:
            return False
        if record.status != TableStatus.PLAYING and record.unposted_from is None:
            return False
        game = self.store.load(record)
        rows = game.rows_scored
        to_act = game.current_seat()
        if to_act is not None and record.seats[to_act].is_bot:
            await self.commit(record, game, rows_before=rows, to_act_before=to_act)
        else:
            # through the same retries as a press: Telegram may be out of reach at start-up
            await self.showing.attempt(self.showing.show_saving, record, game, Pending(to_act))
        return True

    async def resend_hands(
        self, user_id: int, *, asked: bool = False, lost: int | None = None
    ) -> int:
        """Send the person's hands anew: a hand message was lost (``lost``: its id), or
        they opened the private chat again (``asked``: /start, which may come in bursts).
        A lost message is sent anew only where it is still the hand's: another process
        sharing the database may have sent the hand anew since, and deleted it."""
        repo = self.store.repo
        sent = 0
        for stale in await repo.playing_with(user_id):
            async with self.store.lock(stale.id):
                record = await repo.get(stale.id)
                if record is None or record.status != TableStatus.PLAYING or record.solo:
                    continue
                seat = record.seat_of(user_id)
                if seat is None or (
                    asked and not self.presenter.may_resend_hand(record.id, user_id)
                ):
                    continue
                if lost is not None and record.hand_msgs.get(user_id) != lost:
                    continue
                await self.presenter.hand(record, self.store.peek(record), seat, resend=True)
                await repo.save(record)
                sent += 1
        return sent

    async def redraw_hands(self, user_id: int) -> None:
        """The person's hand messages at group tables drawn again where they are (their
        language changed)."""
        repo = self.store.repo
        for stale in await repo.playing_with(user_id):
            async with self.store.lock(stale.id):
                record = await repo.get(stale.id)
                if record is None or record.status != TableStatus.PLAYING or record.solo:
                    continue
                seat = record.seat_of(user_id)
                if seat is not None:
                    await self.presenter.hand(record, self.store.peek(record), seat, resend=False)
                    await repo.save(record)

    async def repost(self, table_id: int) -> int | None:
        """Send the table's message anew at the bottom of its chat (the old one may be gone)."""
        repo = self.store.repo
        async with self.store.lock(table_id):
            record = await repo.get(table_id)
            if record is None or not record.is_open:
                return None
            old, old_chat = record.table_msg_id, record.chat_id
            record.table_msg_id = None
            await self.show(record)
            await repo.save(record)
            if old is not None and record.table_msg_id is not None:
                # the old message stays where it was, if the group has moved
                await self.presenter.delete(old_chat, old)
            return record.table_msg_id

    async def message_lost(self, chat_id: int, message_id: int) -> None:
        """A delayed edit found its message gone: the table or hands come anew."""
        if chat_id > 0:
            await self.resend_hands(chat_id, lost=message_id)
            return
        record = await self.store.repo.open_in_chat(chat_id)
        if record is not None and record.table_msg_id == message_id:
            await self.repost(record.id)

    async def show(self, record: TableRecord) -> None:
        """The table's current message (lobby or game) as it should look now."""
        if record.state is None:
            await self.presenter.lobby(record)
            return
        game = self.store.peek(record)
        await self.presenter.game(
            record, game, rows_before=game.rows_scored, to_act_before=game.current_seat()
        )


def _ended(game: Game, deal_no: int, over: bool) -> list[DealLog]:
    """The record of the deal a move just ended (the game was at ``deal_no``, over or
    not), if it ended one."""
    if game.deal_no == deal_no and game.is_over == over:
        return []
    log = game.ended_deal()
    return [log] if log is not None and log.deal_no == deal_no else []
