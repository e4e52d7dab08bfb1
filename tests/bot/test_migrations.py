"""Migrations: every step on both back ends, and SQLite files of the earlier schema."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine

from bot.db import TableRepo, TableStatus, migrations, open_database
from bot.db.repo import ChatHasTable
from bot.db.schema import metadata, tables
from tests.bot.legacy_schema import MIGRATIONS, make_legacy_file
from tests.bot.test_storage import table


def differences(conn: sa.Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(conn), metadata))


async def test_a_new_database_gets_the_schema_the_code_describes(database_url: str) -> None:
    db = await open_database(database_url)
    assert await db.schema_version() == migrations.head()
    async with db.connect() as conn:
        assert await conn.run_sync(differences) == []
    await db.close()
    again = await open_database(database_url)  # nothing left to run: nothing changes
    rows = await again.fetchall("SELECT version_num FROM alembic_version")
    assert [r["version_num"] for r in rows] == [migrations.head()]
    await again.close()


async def test_every_step_goes_down_and_up_again(database_url: str) -> None:
    db = await open_database(database_url)
    await TableRepo(db).create(table(deadline=5.0))

    def down_and_up(conn: sa.Connection) -> list[str | None]:
        cfg = migrations.config(conn)
        seen = []
        command.downgrade(cfg, "0001")
        seen.append(migrations.current(conn))
        command.upgrade(cfg, "head")
        seen.append(migrations.current(conn))
        return seen

    await db.close()
    engine = create_async_engine(database_url)
    async with engine.begin() as conn:
        assert await conn.run_sync(down_and_up) == ["0001", migrations.head()]
        assert await conn.run_sync(differences) == []
    await engine.dispose()
    db = await open_database(database_url)
    rows = await db.fetchall("SELECT chat_id, deadline FROM tables")
    assert [(r["chat_id"], r["deadline"]) for r in rows] == [(-5, None)]  # dropped, added back
    await db.close()


async def test_replicas_starting_at_once_migrate_once(postgres_url: str) -> None:
    opened = await asyncio.gather(*(open_database(postgres_url) for _ in range(3)))
    for db in opened:
        assert await db.schema_version() == migrations.head()
    await asyncio.gather(*(db.close() for db in opened))


ROWS = (
    "INSERT INTO tables (chat_id, game, status, host_id, seats, conventions, lang, state,"
    " version, table_msg_id, hand_msgs, seed, created_at, updated_at{more}) VALUES"
    ' (-1001234567890, \'deberts\', \'playing\', 1, \'[{{"name":"Ann","user_id":1,"bot":null}}]\','
    " '{{\"target\":301}}', 'en', '{{\"game\":\"deberts\"}}', 4, 10, '{{\"1\":11}}', 3, 1.5,"
    " 2.5{values});"
    "INSERT INTO tables (chat_id, game, status, host_id, seats, conventions, lang, created_at,"
    " updated_at) VALUES (-7, 'thousand', 'finished', 2, '[]', '{{}}', 'ru', 0, 0);"
    "INSERT INTO users VALUES (1, 'Ann', 'ru', 'en', 1, 0);"
    "INSERT INTO chats VALUES (-1001234567890, 'en');"
)


@pytest.mark.parametrize("steps", [len(MIGRATIONS), 2])
async def test_a_file_of_the_earlier_schema_keeps_everything(tmp_path: Path, steps: int) -> None:
    path = tmp_path / "bot.sqlite3"
    if steps == len(MIGRATIONS):  # a file of the schema before Alembic, in every column
        rows = ROWS.format(
            more=", unposted_from, deadline, remind_at, timeouts, reminders",
            values=", 2, 100.5, 60.5, '{\"0\":1}', '{\"1\":12}'",
        )
    else:
        rows = ROWS.format(more=", unposted_from", values=", 2")
    make_legacy_file(path, steps, rows)

    db = await open_database(path)
    assert await db.schema_version() == migrations.head()
    names = await db.fetchall("SELECT name FROM sqlite_master WHERE type='table'")
    assert "schema_version" not in {r["name"] for r in names}
    repo = TableRepo(db)
    record = await repo.open_in_chat(-1001234567890)
    assert record is not None
    assert (record.state, record.version, record.table_msg_id, record.hand_msgs) == (
        '{"game":"deberts"}',
        4,
        10,
        {1: 11},
    )
    assert (record.seats[0].name, record.conventions, record.seed, record.unposted_from) == (
        "Ann",
        {"target": 301},
        3,
        2,
    )
    if steps == len(MIGRATIONS):
        assert (record.deadline, record.remind_at, record.timeouts, record.reminders) == (
            100.5,
            60.5,
            {0: 1},
            {1: 12},
        )
    else:
        assert (record.deadline, record.timeouts, record.reminders) == (None, {}, {})
    assert await repo.latest_in_chat(-7) is None  # no state: never played
    people = await db.fetchall("SELECT * FROM users")
    assert [dict(r) for r in people] == [
        {"user_id": 1, "name": "Ann", "tg_lang": "ru", "lang": "en", "has_private": 1, "blocked": 0}
    ]
    chats = await db.fetchall("SELECT * FROM chats")
    assert [dict(r) for r in chats] == [{"chat_id": -1001234567890, "lang": "en"}]
    # and it is written to as any other
    record.version += 1
    await repo.save_state(record)
    record.chat_id = -8  # a chat with no open table: the chat's one is open already
    new = await repo.create(record)
    assert new.id == 3
    await db.close()


async def test_a_chat_keeps_one_open_table(database_url: str) -> None:
    await (await open_database(database_url)).close()

    def two_open_in_a_chat_then_up(conn: sa.Connection) -> None:
        cfg = migrations.config(conn)
        command.downgrade(cfg, "0008")  # before the database kept one open table a chat
        for chat_id, status in ((-5, "lobby"), (-5, "playing"), (-5, "finished"), (-6, "lobby")):
            conn.execute(
                sa.insert(tables).values(
                    chat_id=chat_id,
                    game="deberts",
                    status=status,
                    host_id=1,
                    seats="[]",
                    conventions="{}",
                    lang="en",
                    deadline=9.0,
                    created_at=0.0,
                    updated_at=0.0,
                )
            )
        command.upgrade(cfg, "head")

    engine = create_async_engine(database_url)
    async with engine.begin() as conn:
        await conn.run_sync(two_open_in_a_chat_then_up)
    await engine.dispose()

    db = await open_database(database_url)
    rows = await db.fetchall("SELECT id, status, deadline FROM tables ORDER BY id")
    # the chat's older open table is cancelled: the newest is the one shown there
    assert [(r["id"], r["status"], r["deadline"]) for r in rows] == [
        (1, "cancelled", None),
        (2, "playing", 9.0),
        (3, "finished", 9.0),
        (4, "lobby", 9.0),
    ]
    repo = TableRepo(db)
    with pytest.raises(ChatHasTable):
        await repo.create(table(-5, status=TableStatus.LOBBY))
    # a closed table beside the open one, and an open one in another chat, are no clash
    await repo.create(table(-5, status=TableStatus.FINISHED))
    await repo.create(table(-7, status=TableStatus.LOBBY))
    playing = await repo.open_in_chat(-5)
    assert playing is not None and playing.id == 2
    playing.status = TableStatus.FINISHED
    await repo.save(playing)
    opened = await repo.create(table(-5, status=TableStatus.LOBBY))
    assert (await repo.open_in_chat(-5)) == opened
    await db.close()
