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

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from html import escape
from typing import Any
from weakref import WeakValueDictionary

from bot import ai, jsonio
from bot.db.models import Seat, TableRecord, TableStatus
from bot.db.repo import PeopleRepo, TableRepo
from bot.engine import game_class
from bot.engine.base import Game, IllegalAction
from bot.i18n import Translator
from bot.kept import keep
from bot.render.lobby import LOBBY_MINUTES, TURN_TIMERS
from bot.render.table import hand_alert, last_trick_text, table_text
from bot.services.publisher import Publisher
from bot.services.reasons import refusal
from bot.services.sender import OUT_OF_REACH
from bot.services.tasks import cancel_all

__all__ = [
    "AWAY_AFTER",
    "LOBBY_TTL",
    "MAX_SEATS",
    "MIN_SEATS",
    "TIMEOUT_LEVEL",
    "Person",
    "Reply",
    "TableService",
]

log = logging.getLogger(__name__)

MIN_SEATS = 2
MAX_SEATS = 3
Chooser = Callable[[Game, int, str, int], str]
LOBBY_TTL = LOBBY_MINUTES * 60
"""Seconds an unstarted lobby stays open."""
KEEP_GAMES = 4096
"""Parsed games kept in memory, of the tables moved most recently (a table left open and
idle, with no turn timer, is parsed again if it comes back)."""
AWAY_AFTER = 3
"""Turns timed out in a row after which a bot keeps the seat until its person returns."""
TIMEOUT_LEVEL = "easy"
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


class _TableLock(asyncio.Lock):
    """One of a table's two locks: whoever holds or awaits it keeps the pair in use."""

    def __init__(self, pair: _Locks) -> None:
        super().__init__()
        self.pair = pair


class _Locks:
    def __init__(self) -> None:
        self.state = _TableLock(self)
        self.show = _TableLock(self)

    async def __aenter__(self) -> None:
        # always ``show`` first: a publish holds it while it waits for ``state``
        await self.show.acquire()
        try:
            await self.state.acquire()
        except BaseException:
            self.show.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.state.release()
        self.show.release()


@dataclass(frozen=True)
class Reply:
    """What to tell the user who acted: a toast, an alert, or a link to open."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


class TableService:
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
        self._locks: WeakValueDictionary[int, _Locks] = WeakValueDictionary()
        self._chat_locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        self._games: dict[int, tuple[int, Game]] = {}
        """Per table, the game last saved, parsed; the least recently moved go first."""
        self._pending: dict[int, _Pending] = {}
        self._again: dict[int, asyncio.Task[None]] = {}
        """Per table, the task that shows it again once Telegram answers."""
        publisher.on_shown = tables.save_shown
        publisher.throttle.on_lost = self._message_lost

    def lock(self, table_id: int) -> _Locks:
        """Both of the table's locks: its state and its messages."""
        locks = self._locks.get(table_id)
        if locks is None:
            locks = _Locks()
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

    # -- opening ---------------------------------------------------------------------

    async def open(
        self,
        chat_id: int,
        host: Person,
        game: str,
        lang: str,
        *,
        solo_bots: int = 0,
        level: str | None = None,
    ) -> tuple[TableRecord, bool]:
        """A new lobby (or, with ``solo_bots``, a started private game); else the open one."""
        async with self._chat_locks.setdefault(chat_id, asyncio.Lock()):
            return await self._open(chat_id, host, game, lang, solo_bots, level)

    async def _open(
        self, chat_id: int, host: Person, game: str, lang: str, solo_bots: int, level: str | None
    ) -> tuple[TableRecord, bool]:
        existing = await self.tables.open_in_chat(chat_id)
        if existing is not None:
            return existing, False
        conventions = self.games(game).conventions_type().to_json()
        record = TableRecord(
            id=0,
            chat_id=chat_id,
            game=game,
            status=TableStatus.LOBBY,
            host_id=host.id,
            seats=[],
            conventions=conventions,
            lang=lang,
            solo=solo_bots > 0,
            turn_timer=self.default_timer,
            seed=self._seed(),
            deadline=None if solo_bots else self.clock() + LOBBY_TTL,
        )
        if record.solo or await self.people.has_private(host.id):
            record.seats.append(Seat(name=host.name, user_id=host.id))
        for n in range(solo_bots):
            record.seats.append(Seat(name=self._bot_name(n + 1, lang), bot=level or self.bot_level))
        record = await self.tables.create(record)
        async with self.lock(record.id):
            if record.solo:
                await self._start(record)
            else:
                await self.publisher.lobby(record)
                await self.tables.save(record)
                self.on_deadline(record.deadline)
        return record, True

    def _bot_name(self, n: int, lang: str) -> str:
        tr = self.publisher.tr(lang)
        return tr("Bot {n}", n=n)

    # -- lobby -----------------------------------------------------------------------

    async def lobby(
        self,
        table_id: int,
        version: int,
        who: Person,
        action: str,
        option: int,
        tr: Translator,
        *,
        chat_id: int | None = None,
    ) -> Reply:
        """A lobby button; ``chat_id`` is where it was pressed (``who.is_admin`` asks there)."""
        async with self.lock(table_id):
            record = await self.tables.get(table_id)
            if record is None or record.status != TableStatus.LOBBY:
                return Reply(tr("This table is no longer open."))
            if chat_id is not None and chat_id != record.chat_id:
                return Reply(tr("This button belongs to another chat."), alert=True)
            if action == "join":
                return await self._join(record, who, tr)
            if action == "leave":
                return await self._leave_lobby(record, who, tr)
            if version != record.version:
                return Reply(tr("This button is out of date."))
            if not await self._may_manage(record, who):
                return Reply(tr("Only the host or a chat admin can do that."), alert=True)
            if action == "settings":
                await self.publisher.lobby(record, settings=self.options(record))
                await self.tables.save(record)
                return Reply()
            if action == "back":
                await self.publisher.lobby(record)
                await self.tables.save(record)
                return Reply()
            if action == "opt":
                return await self._toggle(record, option, tr)
            if action == "bot":
                if len(record.seats) >= MAX_SEATS:
                    return Reply(tr("The table is full."))
                bots = sum(1 for s in record.seats if s.is_bot)
                record.seats.append(
                    Seat(name=self._bot_name(bots + 1, record.lang), bot=self.bot_level)
                )
                return await self._lobby_changed(record)
            if action == "start":
                if not MIN_SEATS <= len(record.seats) <= MAX_SEATS:
                    return Reply(tr("A table needs 2 or 3 players."), alert=True)
                await self._start(record)
                return Reply(tr("The game has started."))
            if action == "cancel":
                await self._cancel(record)
                return Reply(tr("The table was cancelled."))
            return Reply(tr("That is not possible now."))

    async def join(self, table_id: int, who: Person, tr: Translator) -> Reply:
        """Join from a deep link: the user has just opened the private chat."""
        async with self.lock(table_id):
            record = await self.tables.get(table_id)
            if record is None or record.status != TableStatus.LOBBY:
                return Reply(tr("This table is no longer open."))
            return await self._join(record, who, tr)

    async def _join(self, record: TableRecord, who: Person, tr: Translator) -> Reply:
        if record.seat_of(who.id) is not None:
            return Reply(tr("You are already at this table."))
        if len(record.seats) >= MAX_SEATS:
            return Reply(tr("The table is full."))
        if not await self.people.has_private(who.id):
            me = await self.publisher.sender.bot.me()
            url = f"https://t.me/{me.username}?start=j{record.id}"
            text = tr("To get your cards privately, open a chat with me first: {url}", url=url)
            return Reply(text, alert=True, url=url)
        record.seats.append(Seat(name=who.name, user_id=who.id))
        await self._lobby_changed(record)
        return Reply(tr("You joined the table."))

    async def _leave_lobby(self, record: TableRecord, who: Person, tr: Translator) -> Reply:
        seat = record.seat_of(who.id)
        if seat is None:
            return Reply(tr("You are not at this table."))
        del record.seats[seat]
        await self._lobby_changed(record)
        return Reply(tr("You left the table."))

    async def _toggle(self, record: TableRecord, option: int, tr: Translator) -> Reply:
        options = self.options(record)
        names = list(options)
        if 0 <= option < len(names):
            name = names[option]
            values = options[name]
            current = record.conventions.get(name, values[0])
            at = values.index(current) if current in values else -1
            record.conventions = (
                self.games(record.game)
                .conventions_type.from_json(record.conventions)
                .replace(name, values[(at + 1) % len(values)])
                .to_json()
            )
        elif option == len(names):
            at = TURN_TIMERS.index(record.turn_timer) if record.turn_timer in TURN_TIMERS else -1
            record.turn_timer = TURN_TIMERS[(at + 1) % len(TURN_TIMERS)]
        else:
            return Reply(tr("That is not possible now."))
        record.version += 1
        await self.tables.save(record)
        await self.publisher.lobby(record, settings=options)
        await self.tables.save(record)
        return Reply()

    async def _lobby_changed(self, record: TableRecord) -> Reply:
        record.version += 1
        await self.tables.save(record)
        await self.publisher.lobby(record)
        await self.tables.save(record)
        return Reply()

    async def _may_manage(self, record: TableRecord, who: Person) -> bool:
        if who.id == record.host_id:
            return True
        return who.is_admin is not None and await who.is_admin()

    async def _start(self, record: TableRecord) -> None:
        cls = self.games(record.game)
        conventions = cls.conventions_type.from_json(record.conventions)
        game = cls.new(len(record.seats), conventions, record.seed)
        record.status = TableStatus.PLAYING
        self.publisher.lobby_over(record)
        await self._commit(record, game, rows_before=0, to_act_before=None)

    def _closed(self, record: TableRecord) -> None:
        """The table will not be played again: what memory held for it goes."""
        self._games.pop(record.id, None)
        self.publisher.forget(record)

    async def _cancel(self, record: TableRecord) -> None:
        record.status = TableStatus.CANCELLED
        record.deadline = record.remind_at = None
        record.version += 1
        self._closed(record)
        await self.tables.save(record)
        if record.state is None:
            await self.publisher.lobby(record)
        else:
            tr = self.publisher.tr(record.lang)
            notice = tr("The table was cancelled.")
            game = self.peek(record)
            names = [s.name for s in record.seats]
            last = table_text(game.view(None, brief=True), names, tr)
            # the table message says so too, so the notice, which tells the group at once,
            # may be left out when the group has used its minute rather than keep this waiting
            await self.publisher.show(record.chat_id, record.table_msg_id, f"{last}\n\n{notice}")
            await self.publisher.sender.reply(record.chat_id, notice)
            for user_id, message_id in record.hand_msgs.items():
                await self.publisher.edit(user_id, message_id, notice)
        await self.tables.save(record)

    async def cancel(self, chat_id: int, who: Person, tr: Translator) -> Reply:
        record = await self.tables.open_in_chat(chat_id)
        if record is None:
            return Reply(tr("There is no open table in this chat."))
        async with self.lock(record.id):
            record = await self.tables.get(record.id)
            if record is None or not record.is_open:
                return Reply(tr("There is no open table in this chat."))
            if not await self._may_manage(record, who):
                return Reply(tr("Only the host or a chat admin can do that."))
            await self._cancel(record)
        return Reply()

    # -- play ------------------------------------------------------------------------

    async def act(
        self, table_id: int, version: int, who: Person, code: str, tr: Translator
    ) -> Reply:
        """A game button: the change is committed, not yet shown; the caller answers the
        press, then calls :meth:`publish`."""
        async with self.lock(table_id).state:
            record = await self.tables.get(table_id)
            if record is None or record.state is None:
                return Reply(tr("This table is no longer open."))
            if record.status != TableStatus.PLAYING:
                return Reply(tr("This game is over."))
            seat = record.seat_of(who.id)
            if seat is None:
                if record.away_seat_of(who.id) is not None:
                    return await self._come_back(record, who.id, tr, defer=True)
                return Reply(tr("You are not at this table."), alert=True)
            if version != record.version:
                return Reply(tr("Already played, or this button is out of date."))
            return await self._play(record, seat, code, tr, defer=True)

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
        return Reply()

    async def leave_game(self, chat_id: int, who: Person, tr: Translator) -> Reply:
        """A player leaves mid-game: a bot takes the seat; with nobody left the table closes."""
        record = await self.tables.open_in_chat(chat_id)
        if record is None:
            return Reply(tr("There is no open table in this chat."))
        if record.status == TableStatus.LOBBY:
            return await self.lobby(record.id, record.version, who, "leave", -1, tr)
        async with self.lock(record.id):
            record = await self.tables.get(record.id)
            if record is None or record.status != TableStatus.PLAYING:
                return Reply(tr("There is no open table in this chat."))
            seat = record.seat_of(who.id)
            if seat is None:
                return Reply(tr("You are not at this table."))
            old = record.seats[seat]
            record.seats[seat] = Seat(name=old.name, user_id=old.user_id, bot=self.bot_level)
            message_id = record.hand_msgs.pop(who.id, None)
            if message_id is not None:
                await self.publisher.edit(who.id, message_id, tr("You left the table."))
            if not record.humans():
                await self._cancel(record)
                return Reply(tr("The table was cancelled."))
            game = self.load(record)
            table_tr = self.publisher.tr(record.lang)
            notice = table_tr("{name} left the table; a bot plays for them now.", name=old.name)
            await self._commit(
                record,
                game,
                rows_before=game.rows_scored,
                to_act_before=game.current_seat(),
                notice=notice,
            )
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
        bring every table's messages up to date."""
        resumed = 0
        for stale in await self.tables.unfinished():
            async with self.lock(stale.id):
                record = await self.tables.get(stale.id)
                if record is None or record.state is None:
                    continue
                if record.status != TableStatus.PLAYING and record.unposted_from is None:
                    continue
                game = self.load(record)
                rows = game.rows_scored
                to_act = game.current_seat()
                try:
                    if to_act is not None and record.seats[to_act].is_bot:
                        await self._commit(record, game, rows_before=rows, to_act_before=to_act)
                    else:
                        unposted = record.unposted_from
                        await self._publish(
                            record,
                            game,
                            rows_before=rows if unposted is None else unposted,
                            to_act_before=to_act,
                        )
                except Exception:
                    log.exception("could not resume table %s", record.id)
                    continue
                resumed += 1
        return resumed

    # -- timers --------------------------------------------------------------------

    async def on_timer(self, table_id: int, now: float) -> None:
        """A reminder or deadline fell due: remind, time the turn out, or close the lobby.

        Read again under the lock: a move made meanwhile has set a new deadline,
        and then there is nothing to do.
        """
        async with self.lock(table_id):
            record = await self.tables.get(table_id)
            if record is None or record.deadline is None:
                return
            if record.status == TableStatus.LOBBY:
                if record.deadline <= now:
                    await self._expire(record)
                return
            if record.status != TableStatus.PLAYING or record.state is None:
                record.deadline = record.remind_at = None
                await self.tables.save(record)
                return
            if record.deadline <= now:
                await self._time_out(record)
            elif record.remind_at is not None and record.remind_at <= now:
                await self._remind(record, now)

    async def postpone(self, table_id: int, when: float) -> None:
        async with self.lock(table_id):
            record = await self.tables.get(table_id)
            if record is not None and record.deadline is not None:
                record.deadline = max(record.deadline, when)
                record.remind_at = None
                await self.tables.save(record)

    async def _expire(self, record: TableRecord) -> None:
        record.status = TableStatus.CANCELLED
        record.deadline = record.remind_at = None
        record.version += 1
        await self.tables.save(record)
        tr = self.publisher.tr(record.lang)
        text = tr("This table was not started within {n} minutes and is closed.", n=LOBBY_TTL // 60)
        record.table_msg_id = await self.publisher.show(record.chat_id, record.table_msg_id, text)
        await self.tables.save(record)

    async def _remind(self, record: TableRecord, now: float) -> None:
        record.remind_at = None
        await self.tables.save(record)
        seat = self.peek(record).current_seat()
        person = record.seats[seat] if seat is not None else None
        if person is None or person.is_bot or person.user_id is None or record.deadline is None:
            return
        user_tr = await self.publisher.user_tr(person.user_id, record.lang)
        left = max(1, round(record.deadline - now))
        text = user_tr("⏰ Your move: {n} s left, then a bot moves for you.", n=left)
        await self.publisher.sender.send(person.user_id, text)

    async def _time_out(self, record: TableRecord) -> None:
        """A bot player makes the move the seat to act let time run out on."""
        game = self.load(record)
        seat = game.current_seat()
        if seat is None or record.seats[seat].is_bot:
            record.deadline = record.remind_at = None
            await self.tables.save(record)
            return
        seed = (record.seed * 1_000_003 + record.version * 7_919 + 104_729) & 0x7FFF_FFFF
        code = await asyncio.to_thread(self.choose, game, seat, TIMEOUT_LEVEL, seed)
        person = record.seats[seat]
        missed = record.timeouts.get(seat, 0) + 1
        record.timeouts[seat] = missed
        table_tr = self.publisher.tr(record.lang)
        if missed >= AWAY_AFTER and not [i for i, _ in record.humans() if i != seat]:
            # nobody left to play with: bots alone would only flood the chat
            await self.publisher.sender.send(
                record.chat_id,
                table_tr("⏰ Nobody is playing at this table any more: it is closed."),
            )
            await self._cancel(record)
            return
        if missed >= AWAY_AFTER:
            record.seats[seat] = Seat(
                name=person.name, user_id=person.user_id, bot=TIMEOUT_LEVEL, away=True
            )
            notice = table_tr(
                "⏰ {name} missed {n} turns in a row: a bot plays for them until they press"
                " any button of this table.",
                name=escape(person.name),
                n=missed,
            )
        else:
            notice = table_tr(
                "⏰ Time is up for {name}: a bot made the move for them.", name=escape(person.name)
            )
        await self._play(record, seat, code, table_tr, notice=notice)

    async def _come_back(
        self, record: TableRecord, user_id: int, tr: Translator, *, defer: bool = False
    ) -> Reply:
        """A person a bot was playing for pressed a button: the seat is theirs again."""
        seat = record.away_seat_of(user_id)
        assert seat is not None and record.state is not None
        old = record.seats[seat]
        record.seats[seat] = Seat(name=old.name, user_id=old.user_id)
        record.timeouts.pop(seat, None)
        game = self.load(record)
        table_tr = self.publisher.tr(record.lang)
        await self._commit(
            record,
            game,
            rows_before=game.rows_scored,
            to_act_before=game.current_seat(),
            notice=table_tr("{name} is back and plays again.", name=escape(old.name)),
            defer=defer,
        )
        return Reply(tr("Welcome back: you have your seat again."))

    async def resend_hands(self, user_id: int) -> int:
        """The person opened the private chat again: send their hands anew."""
        sent = 0
        for stale in await self.tables.playing_with(user_id):
            async with self.lock(stale.id):
                record = await self.tables.get(stale.id)
                if record is None or record.status != TableStatus.PLAYING or record.solo:
                    continue
                seat = record.seat_of(user_id)
                if seat is None:
                    continue
                await self.publisher.hand(record, self.peek(record), seat, resend=True)
                await self.tables.save(record)
                sent += 1
        return sent

    # -- read-only -------------------------------------------------------------------

    async def hand(self, table_id: int, who: Person, tr: Translator) -> Reply:
        """The presser's hand as an alert; at their turn the hand message comes again too,
        as it may have been deleted and nothing else would bring its buttons back."""
        record = await self.tables.get(table_id)
        if record is None or record.state is None:
            return Reply(tr("This table is no longer open."), alert=True)
        seat = record.seat_of(who.id)
        if seat is None and record.away_seat_of(who.id) is not None:
            async with self.lock(table_id):
                fresh = await self.tables.get(table_id)
                if (
                    fresh is not None
                    and fresh.status == TableStatus.PLAYING
                    and fresh.away_seat_of(who.id) is not None
                ):
                    return await self._come_back(fresh, who.id, tr)
        if seat is None:
            return Reply(tr("You are not at this table."), alert=True)
        game = self.peek(record)
        if record.status == TableStatus.PLAYING and game.current_seat() == seat:
            async with self.lock(table_id):
                fresh = await self.tables.get(table_id)
                if fresh is not None and fresh.version == record.version:
                    await self.publisher.hand(fresh, game, seat, resend=True)
                    await self.tables.save(fresh)
        return Reply(hand_alert(game.view(seat, brief=True), tr), alert=True)

    async def last_trick(
        self,
        table_id: int,
        tr: Translator,
        *,
        who: Person | None = None,
        chat_id: int | None = None,
    ) -> Reply:
        """The last trick, for the table's chat and its players only."""
        record = await self.tables.get(table_id)
        if record is None or record.state is None:
            return Reply(tr("This table is no longer open."), alert=True)
        seated = who is not None and record.seat_of(who.id) is not None
        if chat_id is not None and chat_id != record.chat_id and not seated:
            return Reply(tr("This button belongs to another chat."), alert=True)
        view = self.peek(record).view(None, brief=True)
        return Reply(last_trick_text(view, [s.name for s in record.seats], tr), alert=True)

    # -- the chat itself changes -----------------------------------------------------

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

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its open tables follow, their messages posted there."""
        self.publisher.sender.moved.setdefault(old_chat_id, new_chat_id)
        await self.people.move_chat(old_chat_id, new_chat_id)
        for table_id in await self.tables.open_ids_in_chat(old_chat_id):
            async with self.lock(table_id):
                record = await self.tables.get(table_id)
                if record is None or not record.is_open or record.chat_id != old_chat_id:
                    continue
                record.chat_id = new_chat_id
                record.table_msg_id = None
                await self.tables.save(record)
                await self._show(record)
                await self.tables.save(record)

    async def close_chat(self, chat_id: int) -> None:
        """The bot left the group: its tables close, and nothing is sent there any more."""
        for table_id in await self.tables.open_ids_in_chat(chat_id):
            async with self.lock(table_id):
                record = await self.tables.get(table_id)
                if record is None or not record.is_open or record.chat_id != chat_id:
                    continue
                record.status = TableStatus.CANCELLED
                record.version += 1
                self._closed(record)
                await self.tables.save(record)
                tr = self.publisher.tr(record.lang)
                for user_id, message_id in record.hand_msgs.items():
                    await self.publisher.edit(user_id, message_id, tr("The table was cancelled."))

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
