"""What every change of a table goes through: its game loaded and kept parsed, bot
players' moves, the commit, showing it, and showing it again after an outage."""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakValueDictionary

from bot import ai, jsonio
from bot.bounded import keep
from bot.db.models import TableRecord, TableStatus
from bot.db.repo import PeopleRepo, TableRepo
from bot.engine import game_class
from bot.engine.base import Game, IllegalAction
from bot.i18n import Translator
from bot.render.cards import action_label
from bot.render.refusals import refusal
from bot.render.table import table_text
from bot.tables.locks import TableLocks
from bot.tasks import cancel_all
from bot.telegram.publisher import Publisher
from bot.telegram.sender import OUT_OF_REACH

__all__ = ["KEEP_GAMES", "SHOW_AGAIN", "Person", "Reply", "TableCore"]

log = logging.getLogger(__name__)

Chooser = Callable[[Game, int, str, int], str]
KEEP_GAMES = 4096
"""Parsed games kept in memory, of the tables moved most recently (a table left open and
idle, with no turn timer, is parsed again if it comes back)."""
SHOW_AGAIN = (5.0, 15.0, 30.0, 60.0)
"""Seconds before showing a table again while Telegram stays out of reach (the last
one repeats until it answers)."""


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    is_admin: Callable[[], Awaitable[bool]] | None = field(default=None, compare=False)


@dataclass
class _Pending:
    """Committed changes not shown yet: who was to act before the first, notices to post."""

    to_act_before: int | None
    notices: list[str] = field(default_factory=list)

    @property
    def notice(self) -> str | None:
        return "\n".join(self.notices) or None


@dataclass(frozen=True)
class Reply:
    """What to tell the user who acted: a toast, an alert, or a link to open."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


class TableCore:
    """The lifecycle shared by the lobby, play, deadlines and chat changes
    (:class:`~bot.tables.TableService` puts them together)."""

    def __init__(
        self,
        tables: TableRepo,
        people: PeopleRepo,
        publisher: Publisher,
        *,
        choose: Chooser = ai.choose,
        games: Callable[[str], type[Game]] = game_class,
        bot_level: str = "random",
        seed_source: Callable[[], int] | None = None,
        default_timer: int = 0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.people = people
        self.publisher = publisher
        self.choose = choose
        self.games = games
        self.bot_level = bot_level
        self.default_timer = default_timer
        self._seed_source = seed_source
        self.clock = clock
        self.on_deadline: Callable[[float | None], None] = lambda due: None
        # A table's or chat's locks last as long as someone holds, awaits or is about to
        # take them: one kept for every table ever played would grow without end.
        self._locks: WeakValueDictionary[int, TableLocks] = WeakValueDictionary()
        self._chat_locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        self._games: dict[int, tuple[int, Game]] = {}
        """Per table, the game last saved, parsed; the least recently moved go first."""
        self._pending: dict[int, _Pending] = {}
        self._again: dict[int, asyncio.Task[None]] = {}
        """Per table, the task that shows it again once Telegram answers."""
        publisher.on_shown = tables.save_shown
        publisher.throttle.on_lost = self._message_lost

    def lock(self, table_id: int) -> TableLocks:
        """Both of the table's locks: its state and its messages."""
        locks = self._locks.get(table_id)
        if locks is None:
            locks = TableLocks()
            self._locks[table_id] = locks
        return locks

    def _seed(self) -> int:
        if self._seed_source is not None:
            return self._seed_source()
        return secrets.randbits(31)

    def options(self, record: TableRecord) -> dict[str, tuple[Any, ...]]:
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
            keep(self._games, record.id, (record.version, game), KEEP_GAMES)
        return game

    async def _closed(self, record: TableRecord) -> None:
        """The table will not be played again: what memory held for it goes."""
        self._games.pop(record.id, None)
        await self.publisher.forget(record)

    async def _cancel(self, record: TableRecord, notice: str | None = None) -> None:
        """Close the table; ``notice`` (by default "The table was cancelled.") tells its
        chat and players why."""
        record.status = TableStatus.CANCELLED
        record.deadline = record.remind_at = None
        record.version += 1
        await self._closed(record)
        await self.tables.save(record)
        if record.state is None:
            await self.publisher.lobby(record)
        else:
            tr = self.publisher.tr(record.lang)
            notice = notice or tr("The table was cancelled.")
            game = self.peek(record)
            names = record.names()
            last = table_text(game.view(None, brief=True), names, tr, closed=True)
            # the table message says so too, so the notice, which tells the group at once,
            # may be left out when the group has used its minute rather than keep this waiting
            await self.publisher.show(record.chat_id, record.table_msg_id, f"{last}\n\n{notice}")
            if not record.solo:  # a private chat's own table and hand messages say it there
                await self.publisher.sender.reply(record.chat_id, notice)
            for user_id, message_id in record.hand_msgs.items():
                await self.publisher.edit(user_id, message_id, notice)
        await self.tables.save(record)

    async def _play(
        self,
        record: TableRecord,
        seat: int,
        code: str,
        tr: Translator,
        *,
        notice: str = "",
        defer: bool = False,
    ) -> Reply:
        """One move for ``seat`` on a locked, current record: a press or a timeout."""
        game = self.load(record)
        rows_before = game.rows_scored
        to_act_before = game.current_seat()
        try:
            game.apply(seat, code)
        except IllegalAction as error:
            return Reply(refusal(error, tr), alert=True)
        if not notice:
            record.timeouts.pop(seat, None)
        await self._commit(
            record,
            game,
            rows_before=rows_before,
            to_act_before=to_act_before,
            notice=notice or None,
            moved=True,
            defer=defer,
        )
        user_id = record.seats[seat].user_id
        if (
            not notice
            and user_id is not None
            and game.current_seat() != seat
            and self.publisher.hand_waits(record, user_id)
        ):
            # their hand shows the move only later: the answer says it was taken
            return Reply(f"✓ {action_label(code, tr, record.names())}")
        return Reply()

    async def _commit(
        self,
        record: TableRecord,
        game: Game,
        *,
        rows_before: int,
        to_act_before: int | None,
        notice: str | None = None,
        moved: bool = False,
        defer: bool = False,
    ) -> None:
        """Let bot players move and save the new state; then show it, unless ``defer``
        leaves that to :meth:`publish` (the caller holds only the state lock)."""
        await self._run_bots(record, game)
        record.state = jsonio.dumps(game.to_json())
        record.version += 1
        if game.is_over:
            record.status = TableStatus.FINISHED
        if record.unposted_from is None and (game.is_over or game.rows_scored > rows_before):
            # a result is posted once only; if the bot dies before, a restart posts it
            record.unposted_from = rows_before
        self._arm(record, game, to_act_before, moved=moved)
        self._games.pop(record.id, None)
        if defer:
            await self.tables.save_state(record)
        else:
            await self.tables.save(record)
        self.on_deadline(record.remind_at or record.deadline)
        if not game.is_over:
            # as it is: the callers are done changing it (see peek)
            keep(self._games, record.id, (record.version, game), KEEP_GAMES)
        pending = self._pending.get(record.id)
        if pending is None:
            pending = self._pending[record.id] = _Pending(to_act_before)
        if notice:
            pending.notices.append(notice)
        if not defer:
            await self._show_pending(record, game)

    async def _show_pending(self, record: TableRecord, game: Game) -> None:
        """Show every committed change of ``record`` (both locks held)."""
        pending = self._pending.pop(record.id, None)
        if pending is None:
            return
        await self._attempt(self._publish, record, game, pending)

    async def _attempt(
        self,
        show: Callable[..., Awaitable[None]],
        record: TableRecord,
        game: Game,
        pending: _Pending,
    ) -> bool:
        """``show`` what ``pending`` holds; ``False`` when Telegram was out of reach."""
        try:
            await show(
                record,
                game,
                rows_before=self._unposted(record, game),
                to_act_before=pending.to_act_before,
                notice=pending.notice,
            )
        except OUT_OF_REACH as error:
            self._show_again(record.id, pending, error)
            return False
        return True

    def _show_again(self, table_id: int, pending: _Pending, error: Exception) -> None:
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
                await self.publisher.sender.sleep(SHOW_AGAIN[min(attempt, len(SHOW_AGAIN) - 1)])
                if await self.publish(table_id):
                    return
        except Exception:
            log.exception("table %s could not be shown again", table_id)
        finally:
            self._again.pop(table_id, None)

    async def close(self) -> None:
        """The bot is stopping: a restart shows every table anew (:meth:`resume_all`)."""
        await cancel_all(self._again.values())

    @staticmethod
    def _unposted(record: TableRecord, game: Game) -> int:
        """The first scoresheet row not posted yet (all posted: the number of rows)."""
        if record.unposted_from is not None:
            return record.unposted_from
        return game.rows_scored

    async def publish(self, table_id: int) -> bool:
        """Show what presses committed on the table, if nobody has shown it yet; ``False``
        when Telegram was out of reach, and it will be shown again later.

        Runs under the show lock; the state lock is taken only to read the record and
        to mark posted results, so presses go on being committed meanwhile (saving only
        the game's columns: see :meth:`TableRepo.save_state`).
        """
        if table_id not in self._pending:
            return True
        locks = self.lock(table_id)
        async with locks.show:
            async with locks.state:
                pending = self._pending.pop(table_id, None)
                if pending is None:
                    return True  # shown by a publish that ran first
                record = await self.tables.get(table_id)
                if record is None or record.state is None:
                    return True
                if record.status == TableStatus.CANCELLED:
                    return True  # its messages say so now; a move made before is not shown
                game = self.peek(record)
            rows = game.rows_scored
            shown = (record.chat_id, record.table_msg_id, dict(record.hand_msgs))
            shown_all = await self._attempt(self.publisher.game, record, game, pending)
            if (record.chat_id, record.table_msg_id, record.hand_msgs) != shown:
                # only holders of the show lock write these columns; messages sent before
                # a failure are kept too, so a later attempt edits rather than sends again
                await self.tables.save_shown(record)
            if record.unposted_from is None:
                return shown_all
            async with locks.state:
                fresh = await self.tables.get(table_id)
                if fresh is not None:
                    if shown_all:
                        # presses committed meanwhile may have ended another deal
                        later = self.peek(fresh).rows_scored > rows
                        fresh.unposted_from = rows if later else None
                    else:
                        # the results posted before the failure are not posted again
                        fresh.unposted_from = record.unposted_from
                    await self.tables.save_state(fresh)
            return shown_all

    async def _publish(
        self,
        record: TableRecord,
        game: Game,
        *,
        rows_before: int,
        to_act_before: int | None,
        notice: str | None = None,
    ) -> None:
        shown = (record.table_msg_id, dict(record.hand_msgs), record.unposted_from)
        try:
            await self.publisher.game(
                record, game, rows_before=rows_before, to_act_before=to_act_before, notice=notice
            )
            record.unposted_from = None
        finally:
            # messages sent before a failure are kept, so a later attempt edits them
            if (record.table_msg_id, record.hand_msgs, record.unposted_from) != shown:
                await self.tables.save(record)

    def _arm(
        self, record: TableRecord, game: Game, to_act_before: int | None, *, moved: bool
    ) -> None:
        """The turn timer: a fresh deadline when a move was made or the turn passed on.

        Anything else (a resume, a seat changing hands) keeps the running deadline,
        so a restart does not give the seat to act more time.
        """
        seat = game.current_seat()
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

    async def _run_bots(self, record: TableRecord, game: Game) -> None:
        step = 0
        while (seat := game.current_seat()) is not None and record.seats[seat].is_bot:
            level = record.seats[seat].bot or self.bot_level
            seed = (record.seed * 1_000_003 + record.version * 7_919 + step) & 0x7FFF_FFFF
            if level == "random":
                code = self.choose(game, seat, level, seed)
            else:
                code = await asyncio.to_thread(self.choose, game, seat, level, seed)
            game.apply(seat, code)
            step += 1

    async def resume_all(self) -> int:
        """After a restart: let waiting bots move, post what a crash left unposted and
        bring every table's messages up to date; how many tables were."""
        resumed = 0
        for table_id in await self.tables.unfinished_ids():
            async with self.lock(table_id):
                try:
                    if await self._resume(table_id):
                        resumed += 1
                except Exception:
                    # one table that cannot be read or shown must not keep the others down
                    log.exception("could not resume table %s", table_id)
        return resumed

    async def _resume(self, table_id: int) -> bool:
        record = await self.tables.get(table_id)
        if record is None or record.state is None:
            return False
        if record.status != TableStatus.PLAYING and record.unposted_from is None:
            return False
        game = self.load(record)
        rows = game.rows_scored
        to_act = game.current_seat()
        if to_act is not None and record.seats[to_act].is_bot:
            await self._commit(record, game, rows_before=rows, to_act_before=to_act)
        else:
            # through the same retries as a press: Telegram may be out of reach at start-up
            await self._attempt(self._publish, record, game, _Pending(to_act))
        return True

    async def resend_hands(self, user_id: int, *, asked: bool = False) -> int:
        """Send the person's hands anew: a hand message was lost, or they opened the private
        chat again (``asked``: /start, which may come in bursts)."""
        sent = 0
        for stale in await self.tables.playing_with(user_id):
            async with self.lock(stale.id):
                record = await self.tables.get(stale.id)
                if record is None or record.status != TableStatus.PLAYING or record.solo:
                    continue
                seat = record.seat_of(user_id)
                if seat is None or (
                    asked and not self.publisher.may_resend_hand(record.id, user_id)
                ):
                    continue
                await self.publisher.hand(record, self.peek(record), seat, resend=True)
                await self.tables.save(record)
                sent += 1
        return sent

    async def repost(self, table_id: int) -> int | None:
        """Send the table's message anew at the bottom of its chat (the old one may be gone)."""
        async with self.lock(table_id):
            record = await self.tables.get(table_id)
            if record is None or not record.is_open:
                return None
            old, old_chat = record.table_msg_id, record.chat_id
            record.table_msg_id = None
            await self._show(record)
            await self.tables.save(record)
            if old is not None and record.table_msg_id is not None:
                # the old message stays where it was, if the group has moved
                await self.publisher.delete(old_chat, old)
            return record.table_msg_id

    async def _message_lost(self, chat_id: int, message_id: int) -> None:
        """A delayed edit found its message gone: the table or hands come anew."""
        if chat_id > 0:
            await self.resend_hands(chat_id)
            return
        record = await self.tables.open_in_chat(chat_id)
        if record is not None and record.table_msg_id == message_id:
            await self.repost(record.id)

    async def _show(self, record: TableRecord) -> None:
        """The table's current message (lobby or game) as it should look now."""
        if record.state is None:
            await self.publisher.lobby(record)
            return
        game = self.peek(record)
        await self.publisher.game(
            record, game, rows_before=game.rows_scored, to_act_before=game.current_seat()
        )
