"""Repositories over :class:`~bot.db.database.Database`; every write is committed at once."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping
from contextlib import asynccontextmanager
from functools import cache
from typing import Any, Generic, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection

from bot import jsonio
from bot.bounded import keep
from bot.db.database import Database
from bot.db.models import Seat, TableRecord, TableStatus
from bot.db.schema import chats, message_versions, next_seats, tables, users

__all__ = [
    "CLAIM_FOR",
    "KEEP_PEOPLE",
    "KEEP_ROWS",
    "ChatHasTable",
    "PeopleRepo",
    "StaleTable",
    "TableRepo",
]

K = TypeVar("K")
V = TypeVar("V")

_OPEN = (TableStatus.LOBBY.value, TableStatus.PLAYING.value)
KEEP_ROWS = 4096
"""Rows of open tables kept in memory: past that, the one written or read from the
database least recently goes (a table left open and idle is read again)."""
KEEP_PEOPLE = 65536
"""Users, and group chats, whose details are kept in memory: past that, the one kept or
changed least recently goes."""
CLAIM_FOR = 30.0
"""Seconds a process that took a due timer has to fire it before another may
(:meth:`TableRepo.due` when replicas share the database)."""
_INTEGERS = range(-(2**63), 2**63)
"""What a 64-bit id column holds (SQLite's INTEGER, PostgreSQL's BIGINT)."""


Writer = Callable[[AsyncConnection], Awaitable[None]]
"""More statements a save runs in its transaction, after the table's row."""


class StaleTable(RuntimeError):
    """A save of a table whose stored row has moved on since the record was read."""

    def __init__(self, table_id: int, version: int | None) -> None:
        super().__init__(f"table {table_id} changed since it was read at version {version}")
        self.table_id = table_id


class ChatHasTable(RuntimeError):
    """A table opened in a chat that has an open one (a lobby or a game) already: the
    database keeps one per chat, also when replicas open one there at once."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"chat {chat_id} has an open table already")
        self.chat_id = chat_id


def _record(row: Mapping[Any, Any]) -> TableRecord:
    record = TableRecord(
        id=row["id"],
        chat_id=row["chat_id"],
        game=row["game"],
        status=TableStatus(row["status"]),
        host_id=row["host_id"],
        seats=[Seat.from_json(s) for s in jsonio.loads(row["seats"])],
        conventions=jsonio.loads(row["conventions"]),
        lang=row["lang"],
        solo=bool(row["solo"]),
        turn_timer=row["turn_timer"],
        autoplay=bool(row["autoplay"]),
        state=row["state"],
        version=row["version"],
        table_msg_id=row["table_msg_id"],
        hand_msgs=_ints(row["hand_msgs"]),
        seed=row["seed"],
        unposted_from=row["unposted_from"],
        deadline=row["deadline"],
        remind_at=row["remind_at"],
        timeouts=_ints(row["timeouts"]),
        reminders=_ints(row["reminders"]),
        stored_version=row["version"],
    )
    record.shown_stored = record.shown()
    return record


def _ints(text: str) -> dict[int, int]:
    return {int(k): v for k, v in jsonio.loads(text).items()}


def _merged(read: dict[int, int], mine: dict[int, int], stored: dict[int, int]) -> dict[int, int]:
    """``stored`` with the entries ``mine`` changed since it was ``read``."""
    merged = dict(stored)
    for key in read.keys() | mine.keys():
        if read.get(key) != mine.get(key):
            if key in mine:
                merged[key] = mine[key]
            else:
                merged.pop(key, None)
    return merged


def _adopt(record: TableRecord, row: Mapping[Any, Any]) -> None:
    """What another process changed of where the table's messages are since ``record``
    read them (``row``: as stored now) taken into ``record``; its own changes stay."""
    assert record.shown_stored is not None
    chat_id, table_msg_id, hands, reminders = record.shown_stored
    if record.chat_id == chat_id:
        record.chat_id = row["chat_id"]
    if record.table_msg_id == table_msg_id:
        record.table_msg_id = row["table_msg_id"]
    record.hand_msgs = _merged(dict(hands), record.hand_msgs, _ints(row["hand_msgs"]))
    record.reminders = _merged(dict(reminders), record.reminders, _ints(row["reminders"]))


def _json_ints(values: dict[int, int]) -> str:
    return jsonio.dumps({str(k): v for k, v in values.items()})


_WRITTEN: dict[str, Callable[[TableRecord], Any]] = {
    "chat_id": lambda r: r.chat_id,
    "game": lambda r: r.game,
    "status": lambda r: r.status.value,
    "solo": lambda r: int(r.solo),
    "host_id": lambda r: r.host_id,
    "seats": lambda r: jsonio.dumps([s.to_json() for s in r.seats]),
    "conventions": lambda r: jsonio.dumps(r.conventions),
    "turn_timer": lambda r: r.turn_timer,
    "autoplay": lambda r: int(r.autoplay),
    "state": lambda r: r.state,
    "version": lambda r: r.version,
    "lang": lambda r: r.lang,
    "table_msg_id": lambda r: r.table_msg_id,
    "hand_msgs": lambda r: _json_ints(r.hand_msgs),
    "seed": lambda r: r.seed,
    "unposted_from": lambda r: r.unposted_from,
    "deadline": lambda r: r.deadline,
    "remind_at": lambda r: r.remind_at,
    "timeouts": lambda r: _json_ints(r.timeouts),
    "reminders": lambda r: _json_ints(r.reminders),
}
"""Each column of a table's row, as written from its record."""
_COLUMNS = tuple(_WRITTEN)
_STATE_COLUMNS = (
    "status",
    "seats",
    "state",
    "version",
    "unposted_from",
    "deadline",
    "remind_at",
    "timeouts",
)
_SHOWN_COLUMNS = ("chat_id", "table_msg_id", "hand_msgs", "reminders")
_T = tables.c


def _values(record: TableRecord, columns: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(_WRITTEN[column](record) for column in columns)


def _params(columns: tuple[str, ...], values: tuple[Any, ...]) -> dict[str, Any]:
    return {f"new_{c}": v for c, v in zip(columns, values, strict=True)}


def _new(columns: tuple[str, ...]) -> dict[str, Any]:
    return {c: sa.bindparam(f"new_{c}", type_=tables.c[c].type) for c in (*columns, "updated_at")}


# Statements are built once: SQLAlchemy then finds each compiled in its cache at once.
_INSERT = sa.insert(tables).values({**_new(_COLUMNS), "created_at": sa.bindparam("new_updated_at")})
_GET = sa.select(tables).where(_T.id == sa.bindparam("id"))
_LOCK = _GET.with_for_update()
_SHOWN_NOW = (
    sa.select(*(_T[c] for c in _SHOWN_COLUMNS)).where(_T.id == sa.bindparam("id")).with_for_update()
)
_POSTPONE = (
    sa.update(tables)
    .where(_T.id == sa.bindparam("key_id"), _T.deadline.is_not(None))
    .values(
        deadline=sa.case(
            (_T.deadline > sa.bindparam("when"), _T.deadline), else_=sa.bindparam("when")
        ),
        remind_at=None,
        claimed_until=None,
        updated_at=sa.bindparam("now"),
    )
)
_OPEN_IN_CHAT = (
    sa.select(tables)
    .where(_T.chat_id == sa.bindparam("chat_id"), _T.status.in_(_OPEN))
    .order_by(_T.id.desc())
    .limit(1)
)
_LATEST_IN_CHAT = (
    sa.select(tables)
    .where(_T.chat_id == sa.bindparam("chat_id"), _T.state.is_not(None))
    .order_by(_T.id.desc())
    .limit(1)
)
_TIMED = (_T.deadline.is_not(None), _T.status.in_(_OPEN))
_COMES_DUE = sa.case((_T.remind_at < _T.deadline, _T.remind_at), else_=_T.deadline)
_NEXT_DUE = sa.select(
    # a timer another process has taken comes due again only if its claim runs out
    sa.func.min(sa.case((_T.claimed_until > _COMES_DUE, _T.claimed_until), else_=_COMES_DUE))
).where(*_TIMED, _T.id.not_in(sa.bindparam("skip", expanding=True)))
_IS_DUE = sa.or_(_T.deadline <= sa.bindparam("now"), _T.remind_at <= sa.bindparam("now"))
_DUE = sa.select(_T.id).where(*_TIMED, _IS_DUE).order_by(_T.id)
_CLAIMABLE = (
    sa.select(_T.id)
    .where(
        *_TIMED,
        _IS_DUE,
        sa.or_(_T.claimed_until.is_(None), _T.claimed_until <= sa.bindparam("now")),
    )
    # a table locked by a change under way is left to the next look: its deadline moves
    .with_for_update(skip_locked=True)
)
_CLAIM = (
    sa.update(tables)
    .where(_T.id.in_(_CLAIMABLE.scalar_subquery()))
    .values(claimed_until=sa.bindparam("until"))
    .returning(_T.id)
)
_OPEN_IDS_IN_CHAT = sa.select(_T.id).where(
    _T.chat_id == sa.bindparam("chat_id"), _T.status.in_(_OPEN)
)
_UNFINISHED = (
    sa.select(_T.id)
    .where(
        sa.or_(
            _T.status == TableStatus.PLAYING.value,
            sa.and_(_T.status == TableStatus.FINISHED.value, _T.unposted_from.is_not(None)),
        )
    )
    .order_by(_T.id)
)
_MV = message_versions.c
_UNSHOWN = (
    sa.select(_T.id)
    .select_from(
        tables.outerjoin(
            message_versions,
            sa.and_(_MV.chat_id == _T.chat_id, _MV.message_id == _T.table_msg_id),
        )
    )
    .where(
        sa.or_(
            sa.and_(
                _T.status == TableStatus.PLAYING.value,
                sa.or_(_MV.version.is_(None), _MV.version < _T.version),
            ),
            sa.and_(_T.status == TableStatus.FINISHED.value, _T.unposted_from.is_not(None)),
        )
    )
    .order_by(_T.id)
)
_SEATED = {
    # a seat of the user's in the seats' JSON, however an earlier version spaced it
    "sqlite": sa.text(
        "EXISTS (SELECT 1 FROM json_each(tables.seats)"
        " WHERE json_extract(value, '$.user_id') = :user_id)"
    ),
    "postgresql": sa.text("CAST(tables.seats AS JSONB) @> CAST(:seats AS JSONB)"),
}


@cache
def _update(columns: tuple[str, ...], checked: bool) -> sa.Update:
    stmt = sa.update(tables).where(_T.id == sa.bindparam("key_id"))
    if checked:
        stmt = stmt.where(_T.version == sa.bindparam("stored_version"))
    stmt = stmt.values(_new(columns))
    if "deadline" in columns:  # a timer fired, or a new one set: no longer anyone's
        stmt = stmt.values(claimed_until=None)
    return stmt


@cache
def _playing_with(dialect: str) -> sa.Select[Any]:
    return (
        sa.select(tables)
        .where(_T.status == TableStatus.PLAYING.value, _SEATED[dialect])
        .order_by(_T.id)
    )


_ASK_NEXT_SEAT = sa.text(
    "INSERT INTO next_seats (table_id, user_id, name, asked_at)"
    " VALUES (:table_id, :user_id, :name, :asked_at)"
    " ON CONFLICT (table_id, user_id) DO NOTHING"
)
_NEXT_SEATS = (
    sa.select(next_seats.c.user_id, next_seats.c.name)
    .where(next_seats.c.table_id == sa.bindparam("table_id"))
    .order_by(next_seats.c.asked_at, next_seats.c.user_id)
)
_DROP_NEXT_SEATS = sa.delete(next_seats).where(next_seats.c.table_id == sa.bindparam("table_id"))


class TableRepo:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._rows: dict[int, dict[str, Any]] = {}
        """The rows of open tables as last read or written, when this process is the
        database's only writer (:attr:`Database.only_writer`): a press then finds its
        table without a trip to the database. Replicas sharing a database read each time."""
        self._writes = 0
        """Writes begun so far: a row read from the database is kept only if none began
        meanwhile."""
        self._locked: dict[int, tuple[AsyncConnection, RowMapping | None]] = {}
        """Per table locked by :meth:`locked`, the row as the lock read it, until the
        first :meth:`get` in the lock takes it (a read spared)."""

    @asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[None]:
        """The table's row locked against other processes until the block ends: on
        PostgreSQL, one transaction (see :meth:`Database.hold`) that begins with
        ``SELECT … FOR UPDATE`` of the row, so that replicas sharing the database change
        a table one at a time, each reading what the one before wrote. One process alone
        on a SQLite file has only its own locks to take (:class:`~bot.tables.locks.TableLocks`)."""
        if self.db.only_writer or table_id not in _INTEGERS:
            yield
            return
        async with self.db.hold() as conn:
            row = (await conn.execute(_LOCK, {"id": table_id})).mappings().first()
            self._locked[table_id] = (conn, row)
            try:
                yield
            finally:
                if self._locked.get(table_id, (None,))[0] is conn:
                    del self._locked[table_id]

    async def _execute(self, stmt: sa.Executable, params: dict[str, Any]) -> sa.CursorResult[Any]:
        async with self.db.connect() as conn:
            return await conn.execute(stmt, params)

    async def _mappings(self, stmt: sa.Executable, params: dict[str, Any]) -> list[RowMapping]:
        return list((await self._execute(stmt, params)).mappings())

    async def _ids(self, stmt: sa.Executable, params: dict[str, Any]) -> list[int]:
        return [int(i) for i in (await self._execute(stmt, params)).scalars()]

    async def create(self, record: TableRecord) -> TableRecord:
        """The new table's row, its id set in ``record``. Refused (:class:`ChatHasTable`)
        if its chat has an open table and it is open too."""
        values = _values(record, _COLUMNS)
        params = {**_params(_COLUMNS, values), "new_updated_at": time.time()}
        try:
            async with self.db.connect() as conn:
                if self.db.held() is None:
                    result = await conn.execute(_INSERT, params)
                else:  # a refusal undoes the insert only, not the transaction held
                    async with conn.begin_nested():
                        result = await conn.execute(_INSERT, params)
        except sa.exc.IntegrityError as error:
            # the one key an insert can clash on: the chat's open table
            raise ChatHasTable(record.chat_id) from error
        key = result.inserted_primary_key
        assert key is not None
        record.id = int(key[0])
        record.stored_version = record.version
        record.shown_stored = record.shown()
        self._remember(record.id, _COLUMNS, values)
        return record

    async def save(self, record: TableRecord, *, also: Writer | None = None) -> None:
        """The whole record; refused (:class:`StaleTable`) if the stored row has moved on
        since the record was read. ``also`` writes more in the same transaction."""
        await self._save(record, _COLUMNS, checked=True, also=also)

    async def save_state(self, record: TableRecord, *, also: Writer | None = None) -> None:
        """The game's side of the record, leaving the message ids to :meth:`save_shown`:
        a move is saved while its table's messages may still be on their way. Refused
        (:class:`StaleTable`) if the stored row has moved on since the record was read.
        ``also`` writes more in the same transaction."""
        await self._save(record, _STATE_COLUMNS, checked=True, also=also)

    async def save_shown(self, record: TableRecord) -> None:
        """Where the table's messages are: its chat, the table message, each hand.

        Not checked against the version: moves go on being saved while the messages
        are on their way, and only the one showing them writes these columns. Not
        written when this record read or wrote them as they are (a hand sent anew is
        saved as soon as it is sent, and again once the change is shown).

        Replicas sharing the database may each send some of a table's messages anew
        while showing the same change: what another wrote since ``record`` read these
        columns is kept (and taken into ``record``), only this one's changes written, so
        that nobody loses track of a live message."""
        if record.shown() == record.shown_stored:
            return
        if self.db.only_writer or record.shown_stored is None:
            await self._save(record, _SHOWN_COLUMNS, checked=False)
            return
        async with self.db.hold() as conn:
            row = (await conn.execute(_SHOWN_NOW, {"id": record.id})).mappings().first()
            if row is not None:
                _adopt(record, row)
            await self._save(record, _SHOWN_COLUMNS, checked=False)

    async def postpone(self, table_id: int, when: float) -> None:
        """Put a running deadline off to ``when`` at the earliest, with no reminder before.
        The row is not read: this is what a table gets whose timer failed, and the row
        may be one that cannot be read."""
        self._writes += 1
        self._rows.pop(table_id, None)  # read again, as stored, when next needed
        self._locked.pop(table_id, None)
        await self._execute(_POSTPONE, {"key_id": table_id, "when": when, "now": time.time()})

    async def _together(
        self, stmt: sa.Executable, params: dict[str, Any], also: Writer, checked: bool
    ) -> sa.CursorResult[Any]:
        """``stmt``, then ``also``, in one transaction; nothing of ``also`` is written
        when a ``checked`` statement finds the row moved on."""
        async with self.db.transaction() as conn:
            result = await conn.execute(stmt, params)
            if not checked or result.rowcount:
                await also(conn)
            return result

    async def _save(
        self,
        record: TableRecord,
        columns: tuple[str, ...],
        *,
        checked: bool,
        also: Writer | None = None,
    ) -> None:
        table_id, values = record.id, _values(record, columns)
        checked = checked and record.stored_version is not None
        params = {**_params(columns, values), "new_updated_at": time.time(), "key_id": table_id}
        if checked:
            params["stored_version"] = record.stored_version
        self._writes += 1
        self._locked.pop(table_id, None)  # the lock's read is out of date now
        try:
            if also is None:
                result = await self._execute(_update(columns, checked), params)
            else:
                result = await self._together(_update(columns, checked), params, also, checked)
        except BaseException:
            # the statement may have run or not: the next read asks the database
            self._rows.pop(table_id, None)
            raise
        if checked and result.rowcount == 0:
            self._rows.pop(table_id, None)
            raise StaleTable(table_id, record.stored_version)
        if "version" in columns:
            record.stored_version = record.version
        if "hand_msgs" in columns:
            record.shown_stored = record.shown()
        self._remember(table_id, columns, values)

    def _remember(self, table_id: int, columns: tuple[str, ...], values: tuple[Any, ...]) -> None:
        row = self._rows.pop(table_id, None)
        if row is None:
            if columns is not _COLUMNS:
                return  # a partial write: the whole row is read when first needed
            row = {"id": table_id}
        row.update(zip(columns, values, strict=True))
        # closed tables are read rarely; keep memory for open ones
        if row["status"] in _OPEN and self.db.only_writer:
            keep(self._rows, table_id, row, KEEP_ROWS)

    async def get(self, table_id: int) -> TableRecord | None:
        if table_id not in _INTEGERS:
            return None  # a forged id no id column can even hold
        row = self._rows.get(table_id)
        if row is not None:
            return _record(row)
        locked = self._locked.get(table_id)
        if locked is not None and locked[0] is self.db.held():
            del self._locked[table_id]  # read by the lock; a later read asks again
            return None if locked[1] is None else _record(locked[1])
        writes = self._writes
        found = await self._mappings(_GET, {"id": table_id})
        if not found:
            return None
        if found[0]["status"] in _OPEN and writes == self._writes and self.db.only_writer:
            row = {key: found[0][key] for key in ("id", *_COLUMNS)}
            keep(self._rows, table_id, row, KEEP_ROWS)
        return _record(found[0])

    async def open_in_chat(self, chat_id: int) -> TableRecord | None:
        rows = await self._mappings(_OPEN_IN_CHAT, {"chat_id": chat_id})
        return _record(rows[0]) if rows else None

    async def latest_in_chat(self, chat_id: int) -> TableRecord | None:
        """The table being played, else the last one played to the end or stopped mid-game
        (a lobby opened since has no scores yet)."""
        rows = await self._mappings(_LATEST_IN_CHAT, {"chat_id": chat_id})
        return _record(rows[0]) if rows else None

    async def next_due(self, skip: Collection[int] = ()) -> float | None:
        """The earliest reminder or deadline of any open table but those in ``skip``."""
        result = await self._execute(_NEXT_DUE, {"skip": list(skip)})
        due = result.scalar()
        return float(due) if due is not None else None

    async def due(self, now: float) -> list[int]:
        """Open tables with a reminder or a deadline at or before ``now``, for this
        process to fire.

        Replicas sharing the database each take a due table from the others in one
        statement: it is theirs to fire for :data:`CLAIM_FOR` seconds (until a save
        of its deadline or :meth:`postpone` releases it), then, if still due, anyone's
        again, as when its replica died meanwhile."""
        if self.db.only_writer:
            return await self._ids(_DUE, {"now": now})
        return sorted(await self._ids(_CLAIM, {"now": now, "until": now + CLAIM_FOR}))

    async def playing_with(self, user_id: int) -> list[TableRecord]:
        """Games in progress where ``user_id`` holds a seat."""
        params = {"user_id": user_id, "seats": jsonio.dumps([{"user_id": user_id}])}
        rows = await self._mappings(_playing_with(self.db.dialect), params)
        return [_record(r) for r in rows]

    async def ask_next_seat(self, table_id: int, user_id: int, name: str) -> bool:
        """``user_id`` asks for a seat at the table the game of ``table_id`` is played
        again at; ``False`` if they had asked already."""
        params = {"table_id": table_id, "user_id": user_id, "name": name, "asked_at": time.time()}
        result = await self._execute(_ASK_NEXT_SEAT, params)
        return bool(result.rowcount)

    async def next_seats(self, table_id: int) -> list[tuple[int, str]]:
        """Who asked for a seat at the next table of ``table_id``, first asked first."""
        rows = await self._execute(_NEXT_SEATS, {"table_id": table_id})
        return [(int(row.user_id), str(row.name)) for row in rows]

    async def drop_next_seats(self, table_id: int) -> None:
        await self._execute(_DROP_NEXT_SEATS, {"table_id": table_id})

    async def open_ids_in_chat(self, chat_id: int) -> list[int]:
        return await self._ids(_OPEN_IDS_IN_CHAT, {"chat_id": chat_id})

    async def unfinished_ids(self) -> list[int]:
        """Tables in play, and finished ones whose last results may not be posted yet.

        Replicas sharing the database keep showing their tables while one starts: only
        those whose table message does not show their latest version (see
        :mod:`bot.db.shown`), as the process that changed them last may have died before
        showing it, and finished ones with results maybe not posted."""
        if self.db.only_writer:
            return await self._ids(_UNFINISHED, {})
        return await self._ids(_UNSHOWN, {})


class _Kept(Generic[K, V]):
    """Values read from the database once and kept until a write of theirs begins.

    A read already under way when a write begins may have read the old value, so it
    is not kept; one begun after queues behind the write and reads what it wrote.
    Nothing is kept unless ``kept`` (another process may write the values too).
    """

    def __init__(self, kept: bool = True) -> None:
        self._values: dict[K, V] = {}
        self._writes = 0
        self._kept = kept

    async def get(self, key: K, read: Callable[[], Awaitable[V]]) -> V:
        if key in self._values:
            return self._values[key]
        writes = self._writes
        value = await read()
        if writes == self._writes and self._kept:
            keep(self._values, key, value, KEEP_PEOPLE)
        return value

    async def get_many(
        self, keys: Collection[K], read: Callable[[list[K]], Awaitable[dict[K, V]]], missing: V
    ) -> dict[K, V]:
        """Each key's value: those not kept are read together (``missing`` for a key the
        read does not return)."""
        values = {key: self._values[key] for key in keys if key in self._values}
        unread = [key for key in keys if key not in values]
        if not unread:
            return values
        writes = self._writes
        found = await read(unread)
        for key in unread:
            value = values[key] = found.get(key, missing)
            if writes == self._writes and self._kept:
                keep(self._values, key, value, KEEP_PEOPLE)
        return values

    def forget(self, key: K) -> None:
        """Called before a write of ``key``'s value."""
        self._writes += 1
        self._values.pop(key, None)


# ON CONFLICT … DO UPDATE reads the same in SQLite and PostgreSQL. A user stored as they
# are already is not written again: no row is inserted, so none conflicts or is rewritten,
# and on PostgreSQL the statement commits as a read, without waiting for its log to reach
# the disk (most updates come from people the bot knows, as it knows them).
_SEEN_USER = sa.text(
    "INSERT INTO users (user_id, name, tg_lang, has_private)"
    " SELECT CAST(:user_id AS BIGINT), CAST(:name AS TEXT), CAST(:tg_lang AS TEXT),"
    " CAST(:has_private AS INTEGER)"
    " WHERE NOT EXISTS (SELECT 1 FROM users WHERE user_id = :user_id AND name = :name"
    " AND tg_lang IS NOT DISTINCT FROM CAST(:tg_lang AS TEXT)"
    " AND (:has_private = 0 OR (has_private = 1 AND blocked = 0)))"
    " ON CONFLICT (user_id) DO UPDATE SET name=excluded.name, tg_lang=excluded.tg_lang,"
    " has_private=CASE WHEN excluded.has_private=1 THEN 1 ELSE users.has_private END,"
    " blocked=CASE WHEN excluded.has_private=1 THEN 0 ELSE users.blocked END"
)
_USER = sa.select(users).where(users.c.user_id == sa.bindparam("user_id"))
_LANGS = sa.select(users.c.user_id, users.c.lang, users.c.tg_lang).where(
    users.c.user_id.in_(sa.bindparam("user_ids", expanding=True))
)
_BLOCKED = sa.update(users).where(users.c.user_id == sa.bindparam("key_user_id")).values(blocked=1)
_USER_LANG = sa.text(
    "INSERT INTO users (user_id, lang) VALUES (:user_id, :lang)"
    " ON CONFLICT (user_id) DO UPDATE SET lang=excluded.lang"
)
_CHAT_LANG = sa.select(chats.c.lang).where(chats.c.chat_id == sa.bindparam("chat_id"))
_MOVE_CHAT = sa.text(
    "INSERT INTO chats (chat_id, lang) SELECT :new_chat_id, lang FROM chats"
    " WHERE chat_id = :old_chat_id ON CONFLICT (chat_id) DO NOTHING"
)
_SET_CHAT_LANG = sa.text(
    "INSERT INTO chats (chat_id, lang) VALUES (:chat_id, :lang)"
    " ON CONFLICT (chat_id) DO UPDATE SET lang=excluded.lang"
)


def _seen_params(user_id: int, name: str, tg_lang: str | None, private: bool) -> dict[str, Any]:
    return {"user_id": user_id, "name": name, "tg_lang": tg_lang, "has_private": int(private)}


class PeopleRepo:
    """Users (their language, whether they opened a private chat) and group chats' language."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._seen: dict[int, tuple[str, str | None, bool]] = {}
        """Each user as last written, to skip writing them again as they are; only while
        this process is the only writer (another may have marked them blocked)."""
        # every update needs the language of whoever acts, or of the group it came from
        self._langs: _Kept[int, str | None] = _Kept(db.only_writer)
        self._chat_langs: _Kept[int, str | None] = _Kept(db.only_writer)

    async def _execute(self, stmt: sa.Executable, params: dict[str, Any]) -> sa.CursorResult[Any]:
        async with self.db.connect() as conn:
            return await conn.execute(stmt, params)

    async def seen_user(
        self, user_id: int, name: str, tg_lang: str | None, private: bool = False
    ) -> str | None:
        """An update came from the user: stored as they are now. Their language (their
        choice, else their Telegram one), which the update needs too."""
        if not self.db.only_writer:
            # nothing kept: one read says both whether to write and the language
            row = await self.user(user_id)
            if (
                row is not None
                and (row["name"], row["tg_lang"]) == (name, tg_lang)
                and (not private or (row["has_private"] and not row["blocked"]))
            ):
                lang: str | None = row["lang"] or row["tg_lang"]
                return lang
            await self._execute(_SEEN_USER, _seen_params(user_id, name, tg_lang, private))
            return (row["lang"] if row is not None else None) or tg_lang
        # most updates come from people we already know as they are: skip the write
        known = self._seen.get(user_id)
        if known is not None and known[:2] == (name, tg_lang) and (known[2] or not private):
            return await self.user_lang(user_id)
        keep(self._seen, user_id, (name, tg_lang, private or bool(known and known[2])), KEEP_PEOPLE)
        self._langs.forget(user_id)
        await self._execute(_SEEN_USER, _seen_params(user_id, name, tg_lang, private))
        return await self.user_lang(user_id)

    async def user(self, user_id: int) -> RowMapping | None:
        return (await self._execute(_USER, {"user_id": user_id})).mappings().first()

    async def has_private(self, user_id: int) -> bool:
        row = await self.user(user_id)
        return bool(row and row["has_private"] and not row["blocked"])

    async def set_blocked(self, user_id: int) -> None:
        self._seen.pop(user_id, None)
        await self._execute(_BLOCKED, {"key_user_id": user_id})

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        self._langs.forget(user_id)
        await self._execute(_USER_LANG, {"user_id": user_id, "lang": lang})

    async def user_lang(self, user_id: int) -> str | None:
        """The language the user chose, else their Telegram one (asked once per change)."""

        async def read() -> str | None:
            row = await self.user(user_id)
            return (row["lang"] or row["tg_lang"]) if row is not None else None

        return await self._langs.get(user_id, read)

    async def user_langs(self, user_ids: Collection[int]) -> dict[int, str | None]:
        """:meth:`user_lang` of each, read in one statement."""

        async def read(unread: list[int]) -> dict[int, str | None]:
            result = await self._execute(_LANGS, {"user_ids": unread})
            return {row.user_id: row.lang or row.tg_lang for row in result}

        return await self._langs.get_many(user_ids, read, None)

    async def chat_lang(self, chat_id: int) -> str | None:
        async def read() -> str | None:
            result = await self._execute(_CHAT_LANG, {"chat_id": chat_id})
            lang: str | None = result.scalar()
            return lang

        return await self._chat_langs.get(chat_id, read)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its language goes along."""
        self._chat_langs.forget(new_chat_id)
        await self._execute(_MOVE_CHAT, {"new_chat_id": new_chat_id, "old_chat_id": old_chat_id})

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        self._chat_langs.forget(chat_id)
        await self._execute(_SET_CHAT_LANG, {"chat_id": chat_id, "lang": lang})
