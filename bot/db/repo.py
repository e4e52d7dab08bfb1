"""Repositories over :class:`~bot.db.database.Database`; every write is committed at once."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Collection
from functools import cache
from typing import Any, Generic, TypeVar

import aiosqlite

from bot import jsonio
from bot.bounded import keep
from bot.db.database import Database
from bot.db.models import Seat, TableRecord, TableStatus

__all__ = ["KEEP_PEOPLE", "KEEP_ROWS", "PeopleRepo", "TableRepo"]

K = TypeVar("K")
V = TypeVar("V")

_OPEN = (TableStatus.LOBBY.value, TableStatus.PLAYING.value)
KEEP_ROWS = 4096
"""Rows of open tables kept in memory: past that, the one written or read from SQLite
least recently goes (a table left open and idle is read again)."""
KEEP_PEOPLE = 65536
"""Users, and group chats, whose details are kept in memory: past that, the one kept or
changed least recently goes."""
_SQLITE_INTEGERS = range(-(2**63), 2**63)


def _record(row: aiosqlite.Row | dict[str, Any]) -> TableRecord:
    return TableRecord(
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
        state=row["state"],
        version=row["version"],
        table_msg_id=row["table_msg_id"],
        hand_msgs={int(k): v for k, v in jsonio.loads(row["hand_msgs"]).items()},
        seed=row["seed"],
        unposted_from=row["unposted_from"],
        deadline=row["deadline"],
        remind_at=row["remind_at"],
        timeouts={int(k): v for k, v in jsonio.loads(row["timeouts"]).items()},
        reminders={int(k): v for k, v in jsonio.loads(row["reminders"]).items()},
    )


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


def _values(record: TableRecord, columns: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(_WRITTEN[column](record) for column in columns)


@cache
def _update_sql(columns: tuple[str, ...]) -> str:
    return f"UPDATE tables SET {', '.join(f'{c}=?' for c in columns)}, updated_at=? WHERE id=?"


class TableRepo:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._rows: dict[int, dict[str, Any]] = {}
        """The rows of open tables as last read or written. This process is the only
        writer, so a press finds its table without a trip to SQLite's thread."""
        self._writes = 0
        """Writes begun so far: a row read from SQLite is kept only if none began meanwhile."""

    async def create(self, record: TableRecord) -> TableRecord:
        now = time.time()
        values = _values(record, _COLUMNS)
        record.id = await self.db.insert(
            f"INSERT INTO tables ({', '.join(_COLUMNS)}, created_at, updated_at)"
            f" VALUES ({', '.join('?' * (len(_COLUMNS) + 2))})",
            (*values, now, now),
        )
        self._remember(record.id, _COLUMNS, values)
        return record

    async def save(self, record: TableRecord) -> None:
        await self._update(record, _COLUMNS)

    async def save_state(self, record: TableRecord) -> None:
        """The game's side of the record, leaving the message ids to :meth:`save_shown`:
        a move is saved while its table's messages may still be on their way."""
        await self._update(record, _STATE_COLUMNS)

    async def save_shown(self, record: TableRecord) -> None:
        """Where the table's messages are: its chat, the table message, each hand."""
        await self._update(record, _SHOWN_COLUMNS)

    async def postpone(self, table_id: int, when: float) -> None:
        """Put a running deadline off to ``when`` at the earliest, with no reminder before.
        The row is not read: this is what a table gets whose timer failed, and the row
        may be one that cannot be read."""
        self._writes += 1
        self._rows.pop(table_id, None)  # read again, as SQLite has it, when next needed
        await self.db.write(
            "UPDATE tables SET deadline=MAX(deadline, ?), remind_at=NULL, updated_at=?"
            " WHERE id=? AND deadline IS NOT NULL",
            (when, time.time(), table_id),
        )

    async def _update(self, record: TableRecord, columns: tuple[str, ...]) -> None:
        table_id, values = record.id, _values(record, columns)
        self._writes += 1
        try:
            await self.db.write(_update_sql(columns), (*values, time.time(), table_id))
        except BaseException:
            # the statement may have run or not: the next read asks SQLite
            self._rows.pop(table_id, None)
            raise
        self._remember(table_id, columns, values)

    def _remember(self, table_id: int, columns: tuple[str, ...], values: tuple[Any, ...]) -> None:
        row = self._rows.pop(table_id, None)
        if row is None:
            if columns is not _COLUMNS:
                return  # a partial write: the whole row is read when first needed
            row = {"id": table_id}
        row.update(zip(columns, values, strict=True))
        if row["status"] in _OPEN:  # closed tables are read rarely; keep memory for open ones
            keep(self._rows, table_id, row, KEEP_ROWS)

    async def get(self, table_id: int) -> TableRecord | None:
        if table_id not in _SQLITE_INTEGERS:
            return None  # a forged id SQLite cannot even hold
        row = self._rows.get(table_id)
        if row is not None:
            return _record(row)
        writes = self._writes
        found = await self.db.fetchone("SELECT * FROM tables WHERE id=?", (table_id,))
        if found is None:
            return None
        if found["status"] in _OPEN and writes == self._writes:
            row = {key: found[key] for key in ("id", *_COLUMNS)}
            keep(self._rows, table_id, row, KEEP_ROWS)
        return _record(found)

    async def open_in_chat(self, chat_id: int) -> TableRecord | None:
        row = await self.db.fetchone(
            "SELECT * FROM tables WHERE chat_id=? AND status IN (?,?) ORDER BY id DESC LIMIT 1",
            (chat_id, *_OPEN),
        )
        return _record(row) if row else None

    async def latest_in_chat(self, chat_id: int) -> TableRecord | None:
        """The table being played, else the last one played to the end or stopped mid-game
        (a lobby opened since has no scores yet)."""
        row = await self.db.fetchone(
            "SELECT * FROM tables WHERE chat_id=? AND state IS NOT NULL ORDER BY id DESC LIMIT 1",
            (chat_id,),
        )
        return _record(row) if row else None

    async def next_due(self, skip: Collection[int] = ()) -> float | None:
        """The earliest reminder or deadline of any open table but those in ``skip``."""
        row = await self.db.fetchone(
            "SELECT MIN(MIN(deadline, COALESCE(remind_at, deadline))) FROM tables"
            " WHERE deadline IS NOT NULL AND status IN (?,?)"
            " AND id NOT IN (SELECT value FROM json_each(?))",
            (*_OPEN, jsonio.dumps(list(skip))),
        )
        return float(row[0]) if row and row[0] is not None else None

    async def due(self, now: float) -> list[int]:
        """Open tables with a reminder or a deadline at or before ``now``."""
        rows = await self.db.fetchall(
            "SELECT id FROM tables WHERE deadline IS NOT NULL AND status IN (?,?)"
            " AND (deadline <= ? OR remind_at <= ?) ORDER BY id",
            (*_OPEN, now, now),
        )
        return [int(r[0]) for r in rows]

    async def playing_with(self, user_id: int) -> list[TableRecord]:
        """Games in progress where ``user_id`` holds a seat."""
        rows = await self.db.fetchall(
            "SELECT * FROM tables WHERE status=? AND EXISTS (SELECT 1 FROM json_each(seats)"
            " WHERE json_extract(value, '$.user_id')=?) ORDER BY id",
            (TableStatus.PLAYING.value, user_id),
        )
        return [_record(r) for r in rows]

    async def open_ids_in_chat(self, chat_id: int) -> list[int]:
        rows = await self.db.fetchall(
            "SELECT id FROM tables WHERE chat_id=? AND status IN (?,?)", (chat_id, *_OPEN)
        )
        return [int(r[0]) for r in rows]

    async def unfinished_ids(self) -> list[int]:
        """Tables in play, and finished ones whose last results may not be posted yet."""
        rows = await self.db.fetchall(
            "SELECT id FROM tables WHERE status=? OR (status=? AND unposted_from IS NOT NULL)"
            " ORDER BY id",
            (TableStatus.PLAYING.value, TableStatus.FINISHED.value),
        )
        return [int(r[0]) for r in rows]


class _Kept(Generic[K, V]):
    """Values read from SQLite once and kept until a write of theirs begins.

    A read already under way when a write begins may have read the old value, so it
    is not kept; one begun after queues behind the write and reads what it wrote.
    """

    def __init__(self) -> None:
        self._values: dict[K, V] = {}
        self._writes = 0

    async def get(self, key: K, read: Callable[[], Awaitable[V]]) -> V:
        if key in self._values:
            return self._values[key]
        writes = self._writes
        value = await read()
        if writes == self._writes:
            keep(self._values, key, value, KEEP_PEOPLE)
        return value

    def forget(self, key: K) -> None:
        """Called before a write of ``key``'s value."""
        self._writes += 1
        self._values.pop(key, None)


class PeopleRepo:
    """Users (their language, whether they opened a private chat) and group chats' language."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._seen: dict[int, tuple[str, str | None, bool]] = {}
        # every update needs the language of whoever acts, or of the group it came from
        self._langs: _Kept[int, str | None] = _Kept()
        self._chat_langs: _Kept[int, str | None] = _Kept()

    async def seen_user(
        self, user_id: int, name: str, tg_lang: str | None, private: bool = False
    ) -> None:
        # most updates come from people we already know as they are: skip the write
        known = self._seen.get(user_id)
        if known is not None and known[:2] == (name, tg_lang) and (known[2] or not private):
            return
        seen = (name, tg_lang, private or bool(known and known[2]))
        keep(self._seen, user_id, seen, KEEP_PEOPLE)
        self._langs.forget(user_id)
        await self.db.write(
            "INSERT INTO users (user_id, name, tg_lang, has_private) VALUES (?,?,?,?)"
            " ON CONFLICT(user_id) DO UPDATE SET name=excluded.name, tg_lang=excluded.tg_lang,"
            " has_private=MAX(users.has_private, excluded.has_private),"
            " blocked=CASE WHEN excluded.has_private=1 THEN 0 ELSE users.blocked END",
            (user_id, name, tg_lang, int(private)),
        )

    async def user(self, user_id: int) -> aiosqlite.Row | None:
        return await self.db.fetchone("SELECT * FROM users WHERE user_id=?", (user_id,))

    async def has_private(self, user_id: int) -> bool:
        row = await self.user(user_id)
        return bool(row and row["has_private"] and not row["blocked"])

    async def set_blocked(self, user_id: int) -> None:
        self._seen.pop(user_id, None)
        await self.db.write("UPDATE users SET blocked=1 WHERE user_id=?", (user_id,))

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        self._langs.forget(user_id)
        await self.db.write(
            "INSERT INTO users (user_id, lang) VALUES (?,?)"
            " ON CONFLICT(user_id) DO UPDATE SET lang=excluded.lang",
            (user_id, lang),
        )

    async def user_lang(self, user_id: int) -> str | None:
        """The language the user chose, else their Telegram one (asked once per change)."""

        async def read() -> str | None:
            row = await self.user(user_id)
            return (row["lang"] or row["tg_lang"]) if row is not None else None

        return await self._langs.get(user_id, read)

    async def chat_lang(self, chat_id: int) -> str | None:
        async def read() -> str | None:
            row = await self.db.fetchone("SELECT lang FROM chats WHERE chat_id=?", (chat_id,))
            return row["lang"] if row else None

        return await self._chat_langs.get(chat_id, read)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its language goes along."""
        self._chat_langs.forget(new_chat_id)
        await self.db.write(
            "INSERT OR IGNORE INTO chats (chat_id, lang) SELECT ?, lang FROM chats WHERE chat_id=?",
            (new_chat_id, old_chat_id),
        )

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        self._chat_langs.forget(chat_id)
        await self.db.write(
            "INSERT INTO chats (chat_id, lang) VALUES (?,?)"
            " ON CONFLICT(chat_id) DO UPDATE SET lang=excluded.lang",
            (chat_id, lang),
        )
