"""Opening a table, its lobby's buttons, joining it and starting it."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from bot.db.models import Seat, TableRecord, TableStatus
from bot.db.repo import ChatHasTable
from bot.tables.lifecycle import Lifecycle
from bot.tables.outcomes import (
    AlreadyOpen,
    AlreadySeated,
    Cancelled,
    Done,
    GameOver,
    GameUnderWay,
    Joined,
    Left,
    NeedsPrivateChat,
    NobodySeated,
    NotAllowed,
    NotMember,
    NotPossible,
    NotSeated,
    Opened,
    OtherChat,
    OutOfDate,
    SeatAsked,
    SeatsWanted,
    Started,
    TableFull,
    TableGone,
)
from bot.tables.people import People
from bot.tables.person import Person
from bot.tables.ports import Members, Presenter
from bot.tables.rules import BOT_LEVELS, LOBBY_TTL, MIN_SEATS, TURN_TIMERS

__all__ = ["Lobbies", "LobbyPress", "host_left", "may_manage"]

LobbyPress = (
    Done
    | TableGone
    | OtherChat
    | OutOfDate
    | NotAllowed
    | TableFull
    | SeatsWanted
    | NobodySeated
    | Started
    | Cancelled
    | NotPossible
    | AlreadySeated
    | NeedsPrivateChat
    | Joined
    | GameUnderWay
    | NotSeated
    | Left
    | NotMember
)
"""What a lobby button, or joining by a link, comes to."""


async def may_manage(record: TableRecord, who: Person) -> bool:
    """Whether ``who`` runs the table: its host, or an admin of its chat."""
    if who.id == record.host_id:
        return True
    return who.is_admin is not None and await who.is_admin()


def host_left(record: TableRecord, user_id: int) -> None:
    """The host left: the person seated longest runs the table now."""
    people = [seat.user_id for _, seat in record.humans() if seat.user_id is not None]
    if record.host_id == user_id and people:
        record.host_id = people[0]


class Lobbies:
    """A table before its game: opened, joined, set up, started, cancelled or left."""

    def __init__(
        self,
        lifecycle: Lifecycle,
        people: People,
        presenter: Presenter,
        members: Members,
        *,
        bot_level: str = "hard",
        default_timer: int = 0,
        seed_source: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.lifecycle = lifecycle
        self.store = lifecycle.store
        self.people = people
        self.presenter = presenter
        self.members = members
        self.bot_level = bot_level
        self.default_timer = default_timer
        self._seed_source = seed_source
        self.clock = clock

    def level(self, chosen: str | None) -> str:
        """The level a bot the host chose plays at: the one chosen, of those people may
        choose; the strongest when none was. A level people are never offered (the random
        player, which tests and benchmarks give the domain as its ``bot_level``) stands
        for every choice."""
        if self.bot_level not in BOT_LEVELS:
            return self.bot_level
        return chosen if chosen in BOT_LEVELS else BOT_LEVELS[-1]

    def _seed(self) -> int:
        if self._seed_source is not None:
            return self._seed_source()
        return secrets.randbits(31)

    async def open(
        self,
        chat_id: int,
        host: Person,
        game: str,
        lang: str,
        *,
        solo_bots: int = 0,
        level: str | None = None,
    ) -> Opened | AlreadyOpen:
        """A new lobby (or, with ``solo_bots``, a started private game); else the open one."""
        bots = [self.level(level)] * solo_bots
        conventions = self.store.games(game).conventions_type().to_json()
        return await self._open(
            chat_id, host, game, lang, bots, conventions, self.default_timer, solo=solo_bots > 0
        )

    async def again(
        self, table_id: int, chat_id: int, host: Person, lang: str
    ) -> Opened | AlreadyOpen | NotPossible:
        """A table like the finished ``table_id`` of ``chat_id``: its game, conventions,
        turn timer, people and bot players, with ``host`` in it and running it (a private
        game starts at once); else the chat's open table. Each person may leave it."""
        like = await self.store.repo.get(table_id)
        if like is None or like.chat_id != chat_id or like.status != TableStatus.FINISHED:
            return NotPossible()
        cls = self.store.games(like.game)
        conventions = cls.conventions_type.from_json(like.conventions).to_json()
        bots = [s.bot for s in like.seats if s.bot is not None and s.user_id is None]
        if like.solo and not bots:
            return NotPossible()  # a private game needs its bot players
        # the people who played it to its end, one whose turns a bot took included; not
        # one who left it
        people = [s for s in like.seats if s.user_id is not None and (not s.is_bot or s.away)]
        # then those who asked for a seat while it was on, before its bots
        asked = [] if like.solo else await self.store.repo.next_seats(like.id)
        for user_id, name in asked:
            if all(s.user_id != user_id for s in people) and await self.members.is_member(
                chat_id, user_id
            ):
                people.append(Seat(name=name, user_id=user_id))
        opened = await self._open(
            chat_id,
            host,
            like.game,
            lang,
            bots,
            conventions,
            like.turn_timer,
            solo=like.solo,
            autoplay=like.autoplay,
            people=[] if like.solo else people,
        )
        if isinstance(opened, Opened) and asked:
            await self.store.repo.drop_next_seats(like.id)
            for user_id, _ in asked:
                if user_id != host.id:
                    await self.presenter.next_table(opened.table, user_id)
        return opened

    async def ask_next_seat(self, table_id: int, who: Person) -> LobbyPress | SeatAsked | GameOver:
        """``who`` came while the game of ``table_id`` was on and asks for a seat at the
        table its "Play again" opens (a lobby is simply joined)."""
        record = await self.store.repo.get(table_id)
        if record is not None and not await self.members.is_member(record.chat_id, who.id):
            return NotMember()
        if record is None or record.status == TableStatus.CANCELLED:
            return TableGone()
        if record.status == TableStatus.LOBBY:
            return await self.join(table_id, who)
        if record.status == TableStatus.FINISHED:
            return GameOver()
        if record.seat_of(who.id) is not None:
            return AlreadySeated()
        await self.store.repo.ask_next_seat(table_id, who.id, who.name)
        return SeatAsked(record)

    async def _open(
        self,
        chat_id: int,
        host: Person,
        game: str,
        lang: str,
        bots: list[str],
        conventions: dict[str, Any],
        turn_timer: int,
        *,
        solo: bool,
        autoplay: bool = True,
        people: list[Seat] | None = None,
    ) -> Opened | AlreadyOpen:
        # one table per chat: two /new at once must not both find none and open one each
        # (the lock within this process; the database's index across replicas)
        async with self.store.chat_lock(chat_id):
            existing = await self.store.repo.open_in_chat(chat_id)
            if existing is not None:
                return AlreadyOpen(existing)
            record = TableRecord(
                id=0,
                chat_id=chat_id,
                game=game,
                status=TableStatus.LOBBY,
                host_id=host.id,
                seats=[],
                conventions=conventions,
                lang=lang,
                solo=solo,
                turn_timer=turn_timer,
                autoplay=autoplay,
                seed=self._seed(),
                deadline=None if solo else self.clock() + LOBBY_TTL,
            )
            if solo or await self.people.has_private(host.id):
                record.seats.append(Seat(name=host.name, user_id=host.id))
            most = self.store.games(game).max_seats
            for seat in people or []:
                user_id = seat.user_id
                if (
                    len(record.seats) < most
                    and user_id is not None
                    and user_id != host.id
                    and record.seat_of(user_id) is None
                    and await self.people.has_private(user_id)
                ):
                    record.seats.append(Seat(name=seat.name, user_id=user_id))
            room = most - len(record.seats)
            for n, level in enumerate(bots[:room], start=1):
                record.seats.append(Seat(name=self.presenter.bot_name(n, lang), bot=level))
            try:
                record = await self.store.repo.create(record)
            except ChatHasTable:
                # another replica opened one meanwhile: the database keeps one per chat
                existing = await self.store.repo.open_in_chat(chat_id)
                if existing is None:
                    raise  # and it closed again at once: rare enough to fail the command
                return AlreadyOpen(existing)
            async with self.store.lock(record.id):
                if record.solo:
                    await self.start(record)
                else:
                    await self.presenter.lobby(record)
                    await self.store.repo.save(record)
                    self.lifecycle.alarm.set(record.deadline)
            return Opened(record)

    async def running(self, chat_id: int) -> AlreadyOpen | None:
        """The chat's open table, lobby or game, if it has one: a new table waits for it."""
        record = await self.store.repo.open_in_chat(chat_id)
        return None if record is None else AlreadyOpen(record)

    async def press(
        self,
        table_id: int,
        version: int,
        who: Person,
        action: str,
        option: int,
        *,
        chat_id: int | None = None,
    ) -> LobbyPress:
        """A lobby button; ``chat_id`` is where it was pressed (``who.is_admin`` asks there)."""
        async with self.store.lock(table_id):
            record = await self.store.repo.get(table_id)
            if record is not None and record.status == TableStatus.PLAYING and action == "join":
                return GameUnderWay(record)
            if record is None or record.status != TableStatus.LOBBY:
                return TableGone()
            if chat_id is not None and chat_id != record.chat_id:
                return OtherChat()
            if action == "join":
                return await self._join(record, who)
            if action == "leave":
                return await self._leave(record, who)
            if version != record.version:
                # its message may be out of date too, if an edit was lost: shown anew (in the
                # view the button was on), the next press works
                on_settings = action in ("opt", "back")
                await self.presenter.lobby(
                    record, settings=self.store.options(record) if on_settings else None
                )
                await self.store.repo.save(record)
                return OutOfDate()
            if not await may_manage(record, who):
                return NotAllowed()
            if action == "settings":
                await self.presenter.lobby(record, settings=self.store.options(record))
                await self.store.repo.save(record)
                return Done()
            if action == "back":
                await self.presenter.lobby(record)
                await self.store.repo.save(record)
                return Done()
            if action == "opt":
                return await self._toggle(record, option)
            max_seats = self.store.games(record.game).max_seats
            if action == "bot":
                # ``option``: the level the host chose, as its place in BOT_LEVELS
                if not 0 <= option < len(BOT_LEVELS):
                    return NotPossible()
                if len(record.seats) >= max_seats:
                    return TableFull()
                bots = sum(1 for s in record.seats if s.is_bot)
                name = self.presenter.bot_name(bots + 1, record.lang)
                record.seats.append(Seat(name=name, bot=self.level(BOT_LEVELS[option])))
                return await self._changed(record)
            if action == "start":
                if not MIN_SEATS <= len(record.seats) <= max_seats:
                    return SeatsWanted(MIN_SEATS, max_seats)
                if not record.humans():
                    # bots alone would play the whole game at once and flood the chat
                    return NobodySeated()
                await self.start(record)
                return Started()
            if action == "cancel":
                await self.lifecycle.cancel(record)
                return Cancelled()
            return NotPossible()

    async def join(self, table_id: int, who: Person) -> LobbyPress:
        """Join from a deep link: the user has just opened the private chat."""
        record = await self.store.repo.get(table_id)
        # a link's table id is easy to guess: only the table's group may sit at it
        if record is not None and not await self.members.is_member(record.chat_id, who.id):
            return NotMember()
        async with self.store.lock(table_id):
            record = await self.store.repo.get(table_id)
            if record is not None and record.status == TableStatus.PLAYING:
                if record.seat_of(who.id) is not None:
                    return AlreadySeated()
                return GameUnderWay(record)
            if record is None or record.status != TableStatus.LOBBY:
                return TableGone()
            return await self._join(record, who)

    async def _join(
        self, record: TableRecord, who: Person
    ) -> AlreadySeated | TableFull | NeedsPrivateChat | Joined:
        if record.seat_of(who.id) is not None:
            return AlreadySeated()
        if len(record.seats) >= self.store.games(record.game).max_seats:
            return TableFull()
        if not await self.people.has_private(who.id):
            return NeedsPrivateChat(record.id)
        record.seats.append(Seat(name=who.name, user_id=who.id))
        await self._changed(record)
        return Joined(record)

    async def _leave(self, record: TableRecord, who: Person) -> NotSeated | Left:
        seat = record.seat_of(who.id)
        if seat is None:
            return NotSeated()
        del record.seats[seat]
        if who.id == record.host_id and not record.humans():
            await self.lifecycle.cancel(record)  # nobody is left to start it
            return Left()
        host_left(record, who.id)
        await self._changed(record)
        return Left()

    async def _toggle(self, record: TableRecord, option: int) -> Done | NotPossible:
        options = self.store.options(record)
        names = list(options)
        if 0 <= option < len(names):
            name = names[option]
            values = options[name]
            current = record.conventions.get(name, values[0])
            at = values.index(current) if current in values else -1
            record.conventions = (
                self.store.games(record.game)
                .conventions_type.from_json(record.conventions)
                .replace(name, values[(at + 1) % len(values)])
                .to_json()
            )
        elif option == len(names):
            at = TURN_TIMERS.index(record.turn_timer) if record.turn_timer in TURN_TIMERS else -1
            record.turn_timer = TURN_TIMERS[(at + 1) % len(TURN_TIMERS)]
        elif option == len(names) + 1:
            record.autoplay = not record.autoplay
        else:
            return NotPossible()
        record.version += 1
        await self.store.repo.save(record)
        await self.presenter.lobby(record, settings=options)
        await self.store.repo.save(record)
        return Done()

    async def _changed(self, record: TableRecord) -> Done:
        record.version += 1
        await self.store.repo.save(record)
        await self.presenter.lobby(record)
        await self.store.repo.save(record)
        return Done()

    async def start(self, record: TableRecord) -> None:
        """Deal the table's game (both its locks held)."""
        cls = self.store.games(record.game)
        conventions = cls.conventions_type.from_json(record.conventions)
        game = cls.new(len(record.seats), conventions, record.seed)
        record.status = TableStatus.PLAYING
        self.presenter.lobby_over(record)
        await self.lifecycle.commit(record, game, rows_before=0, to_act_before=None)
