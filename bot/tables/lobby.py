"""Opening a table, its lobby's buttons, starting and cancelling it, and leaving it."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from html import escape
from typing import Any

from bot.db.models import Seat, TableRecord, TableStatus
from bot.db.repo import PeopleRepo
from bot.i18n import Translator
from bot.render.replies import Reply
from bot.tables.lifecycle import Lifecycle
from bot.tables.person import Person
from bot.tables.rules import LOBBY_TTL, MAX_SEATS, MIN_SEATS, TURN_TIMERS
from bot.telegram.publisher import Publisher

__all__ = ["Lobbies", "host_left"]


def host_left(record: TableRecord, user_id: int) -> None:
    """The host left: the person seated longest runs the table now."""
    people = [seat.user_id for _, seat in record.humans() if seat.user_id is not None]
    if record.host_id == user_id and people:
        record.host_id = people[0]


class Lobbies:
    """A table before its game: opened, joined, set up, started or cancelled; and left."""

    def __init__(
        self,
        lifecycle: Lifecycle,
        people: PeopleRepo,
        publisher: Publisher,
        *,
        bot_level: str = "random",
        default_timer: int = 0,
        seed_source: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.lifecycle = lifecycle
        self.store = lifecycle.store
        self.people = people
        self.publisher = publisher
        self.bot_level = bot_level
        self.default_timer = default_timer
        self._seed_source = seed_source
        self.clock = clock

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
    ) -> tuple[TableRecord, bool]:
        """A new lobby (or, with ``solo_bots``, a started private game); else the open one."""
        bots = [level or self.bot_level] * solo_bots
        conventions = self.store.games(game).conventions_type().to_json()
        return await self._open(
            chat_id, host, game, lang, bots, conventions, self.default_timer, solo=solo_bots > 0
        )

    async def again(
        self, table_id: int, chat_id: int, host: Person, lang: str
    ) -> tuple[TableRecord, bool] | None:
        """A table like the finished ``table_id`` of ``chat_id``: its game, conventions,
        turn timer and bot players, with ``host`` in it (a private game starts at once);
        else the chat's open table. ``None`` if there is no such finished table."""
        like = await self.store.repo.get(table_id)
        if like is None or like.chat_id != chat_id or like.status != TableStatus.FINISHED:
            return None
        cls = self.store.games(like.game)
        conventions = cls.conventions_type.from_json(like.conventions).to_json()
        bots = [s.bot for s in like.seats if s.bot is not None and s.user_id is None]
        if like.solo and not bots:
            return None  # a private game needs its bot players
        return await self._open(
            chat_id, host, like.game, lang, bots, conventions, like.turn_timer, solo=like.solo
        )

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
    ) -> tuple[TableRecord, bool]:
        # one table per chat: two /new at once must not both find none and open one each
        async with self.store.chat_lock(chat_id):
            existing = await self.store.repo.open_in_chat(chat_id)
            if existing is not None:
                return existing, False
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
                seed=self._seed(),
                deadline=None if solo else self.clock() + LOBBY_TTL,
            )
            if solo or await self.people.has_private(host.id):
                record.seats.append(Seat(name=host.name, user_id=host.id))
            for n, level in enumerate(bots[: MAX_SEATS - len(record.seats)], start=1):
                record.seats.append(Seat(name=self._bot_name(n, lang), bot=level))
            record = await self.store.repo.create(record)
            async with self.store.lock(record.id):
                if record.solo:
                    await self._start(record)
                else:
                    await self.publisher.lobby(record)
                    await self.store.repo.save(record)
                    self.lifecycle.alarm.set(record.deadline)
            return record, True

    def _bot_name(self, n: int, lang: str) -> str:
        tr = self.publisher.tr(lang)
        return tr("Bot {n}", n=n)

    async def press(
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
        async with self.store.lock(table_id):
            record = await self.store.repo.get(table_id)
            if record is None or record.status != TableStatus.LOBBY:
                return Reply(tr("This table is no longer open."))
            if chat_id is not None and chat_id != record.chat_id:
                return Reply(tr("This button belongs to another chat."), alert=True)
            if action == "join":
                return await self._join(record, who, tr)
            if action == "leave":
                return await self._leave_lobby(record, who, tr)
            if version != record.version:
                # its message may be out of date too, if an edit was lost: shown anew (in the
                # view the button was on), the next press works
                on_settings = action in ("opt", "back")
                await self.publisher.lobby(
                    record, settings=self.store.options(record) if on_settings else None
                )
                await self.store.repo.save(record)
                return Reply(tr("This button is out of date."))
            if not await self._may_manage(record, who):
                return Reply(tr("Only the host or a chat admin can do that."), alert=True)
            if action == "settings":
                await self.publisher.lobby(record, settings=self.store.options(record))
                await self.store.repo.save(record)
                return Reply()
            if action == "back":
                await self.publisher.lobby(record)
                await self.store.repo.save(record)
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
                if not record.humans():
                    # bots alone would play the whole game at once and flood the chat
                    return Reply(tr("Someone has to join the table first."), alert=True)
                await self._start(record)
                return Reply(tr("The game has started."))
            if action == "cancel":
                await self.lifecycle.cancel(record)
                return Reply(tr("The table was cancelled."))
            return Reply(tr("That is not possible now."))

    async def join(self, table_id: int, who: Person, tr: Translator) -> Reply:
        """Join from a deep link: the user has just opened the private chat."""
        record = await self.store.repo.get(table_id)
        # a link's table id is easy to guess: only the table's group may sit at it
        if record is not None and not await self.publisher.sender.is_member(record.chat_id, who.id):
            return Reply(tr("That table is in a group you are not a member of."))
        async with self.store.lock(table_id):
            record = await self.store.repo.get(table_id)
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
        if who.id == record.host_id and not record.humans():
            await self.lifecycle.cancel(record)  # nobody is left to start it
            return Reply(tr("You left the table."))
        host_left(record, who.id)
        await self._lobby_changed(record)
        return Reply(tr("You left the table."))

    async def _toggle(self, record: TableRecord, option: int, tr: Translator) -> Reply:
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
        else:
            return Reply(tr("That is not possible now."))
        record.version += 1
        await self.store.repo.save(record)
        await self.publisher.lobby(record, settings=options)
        await self.store.repo.save(record)
        return Reply()

    async def _lobby_changed(self, record: TableRecord) -> Reply:
        record.version += 1
        await self.store.repo.save(record)
        await self.publisher.lobby(record)
        await self.store.repo.save(record)
        return Reply()

    async def _may_manage(self, record: TableRecord, who: Person) -> bool:
        if who.id == record.host_id:
            return True
        return who.is_admin is not None and await who.is_admin()

    async def _start(self, record: TableRecord) -> None:
        cls = self.store.games(record.game)
        conventions = cls.conventions_type.from_json(record.conventions)
        game = cls.new(len(record.seats), conventions, record.seed)
        record.status = TableStatus.PLAYING
        self.publisher.lobby_over(record)
        await self.lifecycle.commit(record, game, rows_before=0, to_act_before=None)

    async def cancel(self, chat_id: int, who: Person, tr: Translator) -> Reply:
        record = await self.store.repo.open_in_chat(chat_id)
        if record is None:
            return Reply(tr("There is no open table in this chat."))
        async with self.store.lock(record.id):
            record = await self.store.repo.get(record.id)
            if record is None or not record.is_open:
                return Reply(tr("There is no open table in this chat."))
            if not await self._may_manage(record, who):
                return Reply(tr("Only the host or a chat admin can do that."))
            await self.lifecycle.cancel(record)
        return Reply()

    async def leave_game(self, chat_id: int, who: Person, tr: Translator) -> Reply:
        """A player leaves mid-game: a bot takes the seat; with nobody left the table closes."""
        record = await self.store.repo.open_in_chat(chat_id)
        if record is None:
            return Reply(tr("There is no open table in this chat."))
        if record.status == TableStatus.LOBBY:
            return await self.press(record.id, record.version, who, "leave", -1, tr)
        async with self.store.lock(record.id):
            record = await self.store.repo.get(record.id)
            if record is None or record.status != TableStatus.PLAYING:
                return Reply(tr("There is no open table in this chat."))
            seat = record.seat_of(who.id)
            if seat is None:
                seat = record.away_seat_of(who.id)  # a bot plays for them, the seat is theirs
            if seat is None:
                return Reply(tr("You are not at this table."))
            old = record.seats[seat]
            record.seats[seat] = Seat(name=old.name, user_id=old.user_id, bot=self.bot_level)
            host_left(record, who.id)
            message_id = record.hand_msgs.pop(who.id, None)
            if message_id is not None:
                await self.publisher.edit(who.id, message_id, tr("You left the table."))
            if not record.humans():
                await self.lifecycle.cancel(record)  # which tells the chat
                return Reply()
            game = self.store.load(record)
            table_tr = self.publisher.tr(record.lang)
            notice = table_tr(
                "{name} left the table; a bot plays for them now.", name=escape(old.name)
            )
            await self.lifecycle.commit(
                record,
                game,
                rows_before=game.rows_scored,
                to_act_before=game.current_seat(),
                notice=notice,
            )
        return Reply()
