"""SQLite storage: WAL, versioned migrations, tables round-trip."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.db import Seat, TableRecord, TableRepo, TableStatus, open_database
from bot.db import repo as repo_module
from bot.db.migrations import MIGRATIONS
from bot.db.repo import PeopleRepo


async def test_migrations_run_once_and_are_recorded(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "bot.sqlite3"
    db = await open_database(path)
    assert await db.schema_version() == len(MIGRATIONS)
    row = await db.fetchone("PRAGMA journal_mode")
    assert row is not None and row[0] == "wal"
    await db.close()
    again = await open_database(path)
    assert await again.schema_version() == len(MIGRATIONS)
    rows = await again.fetchall("SELECT version FROM schema_version")
    assert len(rows) == 1
    await again.close()


async def test_a_database_of_an_earlier_schema_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    with closing(sqlite3.connect(path)) as old:
        old.executescript(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);"
            "INSERT INTO schema_version (version) VALUES (3);"
            + "".join(MIGRATIONS[:3])
            + "INSERT INTO tables (chat_id, game, status, host_id, seats, conventions, lang,"
            " state, version, hand_msgs, created_at, updated_at) VALUES (-5, 'deberts',"
            " 'playing', 1, '[]', '{}', 'en', '{\"game\":\"deberts\"}', 4, '{\"1\":11}', 0, 0);"
        )

    db = await open_database(path)
    assert await db.schema_version() == len(MIGRATIONS)
    record = await TableRepo(db).open_in_chat(-5)
    await db.close()
    assert record is not None
    assert (record.state, record.version, record.hand_msgs) == ('{"game":"deberts"}', 4, {1: 11})
    assert record.reminders == {}


async def test_a_table_round_trips(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.sqlite3")
    repo = TableRepo(db)
    record = TableRecord(
        id=0,
        chat_id=-5,
        game="deberts",
        status=TableStatus.PLAYING,
        host_id=1,
        seats=[Seat("Ann", user_id=1), Seat("Bot 1", bot="random")],
        conventions={"target": 301},
        lang="ru",
        state='{"game":"deberts"}',
        version=7,
        table_msg_id=10,
        hand_msgs={1: 11},
        seed=3,
        reminders={1: 12},
    )
    created = await repo.create(record)
    assert created.id > 0
    loaded = await repo.get(created.id)
    assert loaded == created
    assert await repo.open_in_chat(-5) == created
    assert await repo.unfinished_ids() == [created.id]
    created.status = TableStatus.FINISHED
    await repo.save(created)
    assert await repo.open_in_chat(-5) is None
    assert await repo.latest_in_chat(-5) == created
    await db.close()


async def test_every_write_is_committed_as_it_runs(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    repo = TableRepo(db)
    record = await repo.create(
        TableRecord(
            id=0,
            chat_id=-5,
            game="thousand",
            status=TableStatus.PLAYING,
            host_id=1,
            seats=[Seat("Ann", user_id=1)],
            conventions={},
            lang="en",
            state='{"game":"thousand"}',
            version=1,
        )
    )
    record.version = 2
    await repo.save_state(record)
    # another connection, as a restarted bot would open, sees both at once
    with closing(sqlite3.connect(path)) as other:
        rows = other.execute("SELECT id, version FROM tables").fetchall()
    assert rows == [(record.id, 2)]
    await db.close()


def _size(path: Path) -> int:
    return path.stat().st_size


async def test_the_wal_file_is_cut_back_after_a_busy_spell(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    await db.write("CREATE TABLE scratch (body BLOB)")
    blob = b"x" * 4096
    # One transaction must sit in the WAL whole, so the file grows past the cap.
    await db.write("BEGIN")
    await db.conn.executemany("INSERT INTO scratch VALUES (?)", [(blob,)] * 2400)
    await db.write("COMMIT")
    wal = Path(f"{path}-wal")
    assert _size(wal) > 8 * 1024 * 1024
    await db.fetchone("PRAGMA wal_checkpoint(PASSIVE)")
    await db.write("DELETE FROM scratch WHERE rowid = 1")
    assert _size(wal) <= 4 * 1024 * 1024
    await db.close()


async def test_a_table_read_from_memory_is_the_one_sqlite_holds(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.sqlite3")
    repo, fresh = TableRepo(db), TableRepo(db)  # fresh: nothing remembered, reads SQLite

    async def same(table_id: int) -> TableRecord:
        remembered = await repo.get(table_id)
        assert remembered is not None
        assert remembered == await TableRepo(db).get(table_id)
        return remembered

    record = await repo.create(
        TableRecord(
            id=0,
            chat_id=-5,
            game="deberts",
            status=TableStatus.LOBBY,
            host_id=1,
            seats=[Seat("Ann", user_id=1)],
            conventions={"target": 301},
            lang="ru",
        )
    )
    await same(record.id)
    record.status, record.state, record.version = TableStatus.PLAYING, '{"a":1}', 3
    record.seats.append(Seat("Бот", bot="easy"))
    record.timeouts = {1: 2}
    await repo.save_state(record)
    await same(record.id)
    record.table_msg_id, record.hand_msgs, record.chat_id = 7, {1: 8}, -6
    await repo.save_shown(record)
    loaded = await same(record.id)
    assert (loaded.chat_id, loaded.hand_msgs, loaded.version) == (-6, {1: 8}, 3)
    # each read is a record of its own: changing one changes nothing remembered
    loaded.hand_msgs[1] = 99
    assert (await same(record.id)).hand_msgs == {1: 8}
    # a table read first from SQLite is remembered from then on
    assert await fresh.get(record.id) == await TableRepo(db).get(record.id)
    record.version = 4
    await fresh.save_state(record)
    assert (await fresh.get(record.id)) == await TableRepo(db).get(record.id)
    # a write that fails forgets the row; the next read asks SQLite
    await db.close()
    record.version = 5
    with pytest.raises(ValueError, match="closed"):
        await repo.save_state(record)
    assert record.id not in repo._rows
    db = await open_database(tmp_path / "bot.sqlite3")
    repo.db = db
    assert (await same(record.id)).version == 4
    record.status = TableStatus.FINISHED
    await repo.save(record)
    assert record.id not in repo._rows  # closed tables are not kept in memory
    assert (await same(record.id)).status == TableStatus.FINISHED
    await db.close()


async def test_a_language_read_from_memory_is_the_one_sqlite_holds(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.sqlite3")
    people = PeopleRepo(db)

    async def same(chat_id: int) -> str | None:
        remembered = await people.chat_lang(chat_id)
        assert remembered == await PeopleRepo(db).chat_lang(chat_id)
        return remembered

    assert await same(-5) is None
    await people.set_chat_lang(-5, "en")
    assert await same(-5) == "en"
    await people.set_chat_lang(-5, "ru")
    assert await same(-5) == "ru"
    # a group that became a supergroup keeps its language, though its new id was read before
    assert await same(-1007) is None
    await people.move_chat(-5, -1007)
    assert await same(-1007) == "ru"
    # a read already on its way when the language changes does not keep the old one
    reading = asyncio.ensure_future(people.chat_lang(-9))
    await asyncio.sleep(0)
    await people.set_chat_lang(-9, "en")
    assert await reading is None
    assert await same(-9) == "en"
    # so does a person's, whose own choice comes before their Telegram language
    await people.seen_user(7, "Ann", "ru")
    reading = asyncio.ensure_future(people.user_lang(7))
    await asyncio.sleep(0)
    await people.set_user_lang(7, "en")
    assert await reading == "ru"
    assert await people.user_lang(7) == "en" == await PeopleRepo(db).user_lang(7)
    # every group read once is answered from memory from then on, a group never read is not
    assert await people.chat_lang(-404) is None
    await db.close()
    assert [await people.chat_lang(c) for c in (-5, -1007, -9, -404)] == ["ru", "ru", "en", None]
    with pytest.raises(ValueError, match="closed"):
        await people.chat_lang(-405)


async def test_games_a_person_plays_are_found_whatever_the_seats_spacing(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    repo = TableRepo(db)

    def table(chat_id: int, user_ids: list[int]) -> TableRecord:
        return TableRecord(
            id=0,
            chat_id=chat_id,
            game="deberts",
            status=TableStatus.PLAYING,
            host_id=user_ids[0],
            seats=[Seat(f"P{u}", user_id=u) for u in user_ids] + [Seat("Bot", bot="easy")],
            conventions={},
            lang="en",
            state="{}",
            version=1,
        )

    ann_and_ben = await repo.create(table(-1, [1, 2]))
    ben_only = await repo.create(table(-2, [2]))
    eleven = await repo.create(table(-3, [11]))  # 1 is a prefix of 11: no match
    lobby = table(-4, [1])
    lobby.status = TableStatus.LOBBY
    await repo.create(lobby)
    # a row written by an earlier version, with spaces after the separators
    with closing(sqlite3.connect(path)) as other:
        other.execute(
            "UPDATE tables SET seats=? WHERE id=?",
            ('[{"name": "P2", "user_id": 2, "bot": null}]', ben_only.id),
        )
        other.commit()

    assert [r.id for r in await TableRepo(db).playing_with(1)] == [ann_and_ben.id]
    assert [r.id for r in await TableRepo(db).playing_with(2)] == [ann_and_ben.id, ben_only.id]
    assert [r.id for r in await TableRepo(db).playing_with(11)] == [eleven.id]
    assert await TableRepo(db).playing_with(3) == []
    await db.close()


async def test_memory_keeps_a_bounded_number_of_tables_and_people(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a bot running for months meets more tables and people than it should hold at once;
    # what it lets go is read from SQLite again, the same as it was
    monkeypatch.setattr(repo_module, "KEEP_ROWS", 3)
    monkeypatch.setattr(repo_module, "KEEP_PEOPLE", 3)
    db = await open_database(tmp_path / "bot.sqlite3")
    repo, people = TableRepo(db), PeopleRepo(db)
    records = []
    for n in range(8):
        record = TableRecord(
            id=0,
            chat_id=-10 - n,
            game="deberts",
            status=TableStatus.PLAYING,
            host_id=n,
            seats=[Seat("Ann", user_id=n)],
            conventions={},
            lang="ru",
            version=n,
        )
        records.append(await repo.create(record))
        await people.seen_user(n, f"P{n}", "en" if n % 2 else "ru")
        if n % 3 == 0:
            await people.set_chat_lang(-10 - n, "en")
    for _ in range(2):  # read from SQLite, then again (by then the oldest were let go)
        for n, record in enumerate(records):
            assert await repo.get(record.id) == await TableRepo(db).get(record.id)
            assert (await repo.get(record.id) or record).version == n
            assert await people.user_lang(n) == ("en" if n % 2 else "ru")
            assert await people.chat_lang(-10 - n) == ("en" if n % 3 == 0 else None)
    assert len(repo._rows) == 3
    assert len(people._seen) == len(people._langs._values) == len(people._chat_langs._values) == 3
    # a table just written to is kept before one that was not
    assert list(repo._rows) == [r.id for r in records[5:]]
    records[5].version = 50
    await repo.save(records[5])
    await repo.get(records[0].id)
    assert list(repo._rows) == [records[7].id, records[5].id, records[0].id]
    assert (await repo.get(records[5].id) or records[0]).version == 50
    await db.close()
