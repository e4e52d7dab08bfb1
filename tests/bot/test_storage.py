"""Storage: tables and people round-trip, on a SQLite file and on PostgreSQL alike."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from bot.db import Database, Seat, StaleTable, TableRecord, TableRepo, TableStatus, open_database
from bot.db import repo as repo_module
from bot.db.repo import CLAIM_FOR, PeopleRepo


def table(chat_id: int = -5, **fields: object) -> TableRecord:
    record = TableRecord(
        id=0,
        chat_id=chat_id,
        game="deberts",
        status=TableStatus.PLAYING,
        host_id=1,
        seats=[Seat("Ann", user_id=1)],
        conventions={},
        lang="ru",
    )
    for name, value in fields.items():
        setattr(record, name, value)
    return record


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """What this process keeps in memory is kept only when it is the database's only
    writer, as with a SQLite file."""
    return f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"


def unreachable(tmp_path: Path) -> Database:
    """A database that fails every statement: a file in a folder that does not exist."""
    return Database(create_async_engine(f"sqlite+aiosqlite:///{tmp_path}/missing/bot.sqlite3"))


async def test_a_table_round_trips(database_url: str) -> None:
    db = await open_database(database_url)
    repo = TableRepo(db)
    record = table(
        seats=[Seat("Ann", user_id=1), Seat("Bot 1", bot="random")],
        conventions={"target": 301},
        state='{"game":"deberts"}',
        version=7,
        table_msg_id=10,
        hand_msgs={1: 11},
        seed=3,
        reminders={1: 12},
        chat_id=-1001234567890123,  # supergroups' ids need 64 bits
    )
    created = await repo.create(record)
    assert created.id > 0
    loaded = await repo.get(created.id)
    assert loaded == created
    assert await TableRepo(db).get(created.id) == created
    assert await repo.open_in_chat(-1001234567890123) == created
    assert await repo.unfinished_ids() == [created.id]
    created.status = TableStatus.FINISHED
    await repo.save(created)
    assert await repo.open_in_chat(-1001234567890123) is None
    assert await repo.latest_in_chat(-1001234567890123) == created
    assert await repo.get(2**63) is None  # an id no column can hold: not looked up
    await db.close()


async def test_every_write_is_committed_as_it_runs(database_url: str) -> None:
    db = await open_database(database_url)
    repo = TableRepo(db)
    record = await repo.create(table(game="thousand", state='{"game":"thousand"}', version=1))
    record.version = 2
    await repo.save_state(record)
    # another connection pool, as a restarted bot (or another process) would open, sees it
    other = await open_database(database_url)
    rows = await other.fetchall("SELECT id, version FROM tables")
    assert [(r["id"], r["version"]) for r in rows] == [(record.id, 2)]
    await other.close()
    await db.close()


async def test_a_writer_holding_an_older_read_fails_instead_of_overwriting(
    database_url: str,
) -> None:
    db = await open_database(database_url)
    first, second = TableRepo(db), TableRepo(db)
    record = await first.create(table(state="{}", version=1))
    stale = await second.get(record.id)
    assert stale is not None
    record.version, record.state = 2, '{"moved":1}'
    await first.save_state(record)
    stale.version, stale.state = 2, '{"moved":2}'
    with pytest.raises(StaleTable):
        await second.save_state(stale)
    with pytest.raises(StaleTable):
        await second.save(stale)
    assert stale.id not in second._rows  # the next read asks the database
    fresh = await second.get(record.id)
    assert fresh is not None and fresh.state == '{"moved":1}'
    # where the messages are is written whatever the version: the one showing them does
    stale.table_msg_id = 77
    await second.save_shown(stale)
    fresh = await second.get(record.id)
    assert fresh is not None
    fresh.version, fresh.state = 3, '{"moved":3}'
    await second.save(fresh)  # a record read after the change saves
    shown = await TableRepo(db).get(record.id)
    assert shown is not None
    assert (shown.version, shown.state, shown.table_msg_id) == (3, '{"moved":3}', 77)
    await db.close()


async def test_deadlines_come_due_in_order_and_put_off(database_url: str) -> None:
    db = await open_database(database_url)
    repo = TableRepo(db)
    early = await repo.create(table(-1, deadline=100.0, remind_at=60.0))
    late = await repo.create(table(-2, deadline=90.0))
    await repo.create(table(-3))  # no timer
    await repo.create(table(-4, deadline=10.0, status=TableStatus.FINISHED))  # closed
    assert await repo.next_due() == 60.0
    assert await repo.next_due(skip=[early.id]) == 90.0
    assert await repo.next_due(skip=[early.id, late.id]) is None
    assert await repo.due(59.0) == []
    assert await repo.due(60.0) == [early.id]
    assert await repo.due(95.0) == [early.id, late.id]
    await repo.postpone(early.id, 120.0)  # later than its deadline: the deadline moves
    await repo.postpone(late.id, 50.0)  # earlier: the deadline stays
    moved, kept = await repo.get(early.id), await repo.get(late.id)
    assert moved is not None and kept is not None
    assert (moved.deadline, moved.remind_at) == (120.0, None)
    assert (kept.deadline, kept.remind_at) == (90.0, None)
    assert await repo.next_due() == 90.0
    await db.close()


async def test_a_table_read_from_memory_is_the_one_stored(sqlite_url: str, tmp_path: Path) -> None:
    db = await open_database(sqlite_url)
    repo, fresh = TableRepo(db), TableRepo(db)  # fresh: nothing remembered, reads the database

    async def same(table_id: int) -> TableRecord:
        remembered = await repo.get(table_id)
        assert remembered is not None
        assert remembered == await TableRepo(db).get(table_id)
        return remembered

    record = await repo.create(table(status=TableStatus.LOBBY, conventions={"target": 301}))
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
    # a table read first from the database is remembered from then on
    assert await fresh.get(record.id) == await TableRepo(db).get(record.id)
    record.version = 4
    await fresh.save_state(record)
    assert (await fresh.get(record.id)) == await TableRepo(db).get(record.id)
    # a write that fails forgets the row; the next read asks the database
    repo.db = unreachable(tmp_path)
    record.version = 5
    with pytest.raises(sa.exc.OperationalError):
        await repo.save_state(record)
    assert record.id not in repo._rows
    await repo.db.close()
    repo.db = db
    assert (await same(record.id)).version == 4
    record.version = 4  # as stored
    record.status = TableStatus.FINISHED
    await repo.save(record)
    assert record.id not in repo._rows  # closed tables are not kept in memory
    assert (await same(record.id)).status == TableStatus.FINISHED
    await db.close()


async def test_a_language_read_from_memory_is_the_one_stored(
    sqlite_url: str, tmp_path: Path
) -> None:
    db = await open_database(sqlite_url)
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
    await people.move_chat(-5, -1007)  # told twice: nothing changes
    assert await same(-1007) == "ru"
    # a read already on its way when the language changes does not keep the old one
    reading = asyncio.ensure_future(people.chat_lang(-9))
    await asyncio.sleep(0)
    await people.set_chat_lang(-9, "en")
    # it may have read the row before or after the write (on PostgreSQL the two run on two
    # connections at once); either way, what memory keeps afterwards is the stored one
    assert await reading in (None, "en")
    assert await same(-9) == "en"
    # so does a person's, whose own choice comes before their Telegram language
    await people.seen_user(7, "Ann", "ru")
    reading = asyncio.ensure_future(people.user_lang(7))
    await asyncio.sleep(0)
    await people.set_user_lang(7, "en")
    assert await reading in ("ru", "en")
    assert await people.user_lang(7) == "en" == await PeopleRepo(db).user_lang(7)
    # every group read once is answered from memory from then on, a group never read is not
    assert await people.chat_lang(-404) is None
    people.db = unreachable(tmp_path)
    assert [await people.chat_lang(c) for c in (-5, -1007, -9, -404)] == ["ru", "ru", "en", None]
    with pytest.raises(sa.exc.OperationalError):
        await people.chat_lang(-405)
    await people.db.close()
    await db.close()


async def test_a_person_blocks_the_bot_and_comes_back(database_url: str) -> None:
    db = await open_database(database_url)
    people = PeopleRepo(db)
    assert not await people.has_private(5)
    await people.seen_user(5, "Ann", "en")
    assert not await people.has_private(5)
    await people.seen_user(5, "Ann", "en", private=True)
    assert await people.has_private(5)
    await people.set_blocked(5)
    assert not await people.has_private(5)
    await people.seen_user(5, "Ann B", "en")  # a group press does not unblock
    assert not await people.has_private(5)
    await people.seen_user(5, "Ann B", "en", private=True)  # writing to the bot does
    assert await people.has_private(5)
    user = await people.user(5)
    assert user is not None and (user["name"], user["has_private"], user["blocked"]) == (
        "Ann B",
        1,
        0,
    )
    await db.close()


async def test_a_person_seen_as_stored_is_not_written_again(database_url: str) -> None:
    # every update says who sent it; on PostgreSQL, where nothing is kept in memory, a
    # write for each would wait for the log to reach the disk before the press goes on
    db = await open_database(database_url)

    async def writes(user_id: int, name: str, tg_lang: str | None, private: bool) -> bool:
        """Whether a process that has kept nothing writes the user's row on seeing them."""
        xmin = f"SELECT CAST(xmin AS TEXT) AS x FROM users WHERE user_id={user_id}"
        before = await db.fetchone(xmin) if db.dialect == "postgresql" else None
        await PeopleRepo(db).seen_user(user_id, name, tg_lang, private=private)
        if db.dialect == "postgresql":
            return bool(await db.fetchone(xmin) != before)
        return bool((await db.fetchone("SELECT changes() AS n"))["n"])

    assert await writes(5, "Ann", "en", True)
    assert not await writes(5, "Ann", "en", True)
    assert not await writes(5, "Ann", "en", False)  # a press in a group changes nothing
    assert await writes(5, "Ann", None, False)
    assert not await writes(5, "Ann", None, False)
    await PeopleRepo(db).set_blocked(5)
    assert not await writes(5, "Ann", None, False)
    assert await writes(5, "Ann", None, True)  # writing to the bot again unblocks
    assert await PeopleRepo(db).has_private(5)
    await db.close()


async def test_seeing_a_person_tells_their_language_and_a_tables_are_read_at_once(
    database_url: str,
) -> None:
    db = await open_database(database_url)
    statements: list[str] = []
    sa.event.listen(
        db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2])
    )
    people = PeopleRepo(db)
    assert await people.seen_user(5, "Ann", "en", private=True) == "en"
    await people.set_user_lang(5, "ru")
    await people.seen_user(6, "Ben", None)
    await people.user_lang(5)
    statements.clear()
    assert await people.seen_user(5, "Ann", "en") == "ru"  # their choice comes first
    assert await people.user_langs([5, 6, 7]) == {5: "ru", 6: None, 7: None}
    # without memory (PostgreSQL), one read for the sighting and one for the table's
    # players; on SQLite memory answers, but for the one never met
    assert len(statements) == (2 if db.dialect == "postgresql" else 1)
    assert await people.seen_user(5, "Ann", "uk") == "ru"  # a new Telegram language
    assert await PeopleRepo(db).user_langs([6]) == {6: None}
    await people.set_user_lang(6, "en")
    assert await people.user_langs([5, 6]) == {5: "ru", 6: "en"}
    await db.close()


async def test_where_the_messages_are_is_written_once_a_change(database_url: str) -> None:
    # a hand sent anew is saved as it is sent, and again once the change is shown:
    # on PostgreSQL each write waits for the log to reach the disk
    db = await open_database(database_url)
    writes: list[str] = []
    sa.event.listen(
        db.engine.sync_engine,
        "before_cursor_execute",
        lambda *a: writes.append(a[2]) if a[2].startswith("UPDATE") else None,
    )
    repo = TableRepo(db)
    record = await repo.create(table(state="{}", version=1, hand_msgs={1: 10}))
    await repo.save_shown(record)
    assert writes == []
    record.hand_msgs[1] = 11
    await repo.save_shown(record)
    await repo.save_shown(record)
    assert len(writes) == 1
    fresh = await TableRepo(db).get(record.id)
    assert fresh is not None and fresh.hand_msgs == {1: 11}
    await TableRepo(db).save_shown(fresh)  # as read
    fresh.reminders[1] = 12
    await TableRepo(db).save_shown(fresh)
    assert len(writes) == 2
    assert (await TableRepo(db).get(record.id) or record).reminders == {1: 12}
    await db.close()


async def test_games_a_person_plays_are_found_whatever_the_seats_spacing(
    database_url: str,
) -> None:
    db = await open_database(database_url)
    repo = TableRepo(db)

    def seated(chat_id: int, user_ids: list[int]) -> TableRecord:
        seats = [Seat(f"P{u}", user_id=u) for u in user_ids] + [Seat("Bot", bot="easy")]
        return table(chat_id, host_id=user_ids[0], seats=seats, state="{}", version=1)

    ann_and_ben = await repo.create(seated(-1, [1, 2]))
    ben_only = await repo.create(seated(-2, [2]))
    eleven = await repo.create(seated(-3, [11]))  # 1 is a prefix of 11: no match
    lobby = seated(-4, [1])
    lobby.status = TableStatus.LOBBY
    await repo.create(lobby)
    # a row written by an earlier version, with spaces after the separators
    await db.write(
        "UPDATE tables SET seats=:seats WHERE id=:id",
        {"seats": '[{"name": "P2", "user_id": 2, "bot": null}]', "id": ben_only.id},
    )

    assert [r.id for r in await TableRepo(db).playing_with(1)] == [ann_and_ben.id]
    assert [r.id for r in await TableRepo(db).playing_with(2)] == [ann_and_ben.id, ben_only.id]
    assert [r.id for r in await TableRepo(db).playing_with(11)] == [eleven.id]
    assert await TableRepo(db).playing_with(3) == []
    await db.close()


async def test_memory_keeps_a_bounded_number_of_tables_and_people(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a bot running for months meets more tables and people than it should hold at once;
    # what it lets go is read from the database again, the same as it was
    monkeypatch.setattr(repo_module, "KEEP_ROWS", 3)
    monkeypatch.setattr(repo_module, "KEEP_PEOPLE", 3)
    db = await open_database(sqlite_url)
    repo, people = TableRepo(db), PeopleRepo(db)
    records = []
    for n in range(8):
        records.append(await repo.create(table(-10 - n, host_id=n, version=n)))
        await people.seen_user(n, f"P{n}", "en" if n % 2 else "ru")
        if n % 3 == 0:
            await people.set_chat_lang(-10 - n, "en")
    for _ in range(2):  # read from the database, then again (by then the oldest were let go)
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


async def test_replicas_sharing_a_database_see_each_others_changes_at_once(
    postgres_url: str,
) -> None:
    one, other = await open_database(postgres_url), await open_database(postgres_url)
    assert not one.only_writer
    tables = [TableRepo(one), TableRepo(other)]
    people = [PeopleRepo(one), PeopleRepo(other)]
    record = await tables[0].create(table(state="{}", version=1))
    for step in range(2, 6):  # turns taken on either replica, each read the other's
        mine = await tables[step % 2].get(record.id)
        assert mine is not None and mine.version == step - 1
        mine.version += 1
        await tables[step % 2].save_state(mine)
    assert [(await t.get(record.id) or record).version for t in tables] == [5, 5]

    for step, lang in enumerate(("en", "ru", "en")):
        await people[step % 2].set_chat_lang(-5, lang)
        assert [await p.chat_lang(-5) for p in people] == [lang, lang]
        await people[step % 2].set_user_lang(7, lang)
        assert [await p.user_lang(7) for p in people] == [lang, lang]
    # blocked on one replica, back through the other: each write is made, none skipped
    await people[0].seen_user(7, "Ann", "ru", private=True)
    await people[1].set_blocked(7)
    assert [await p.has_private(7) for p in people] == [False, False]
    await people[0].seen_user(7, "Ann", "ru", private=True)
    assert [await p.has_private(7) for p in people] == [True, True]
    await one.close()
    await other.close()


async def test_replicas_fire_each_due_timer_once(postgres_url: str) -> None:
    replicas = [await open_database(postgres_url) for _ in range(3)]
    repos = [TableRepo(db) for db in replicas]
    ids = [(await repos[0].create(table(-n, deadline=100.0 + n))).id for n in range(6)]
    # all look at once: each due table goes to exactly one of them
    taken = await asyncio.gather(*(repo.due(110.0) for repo in repos))
    assert sorted(i for mine in taken for i in mine) == ids
    assert await repos[0].due(111.0) == []  # taken, and the claims have not run out
    # no replica wakes for a timer another has taken, until its claim runs out
    assert await repos[1].next_due() == 110.0 + CLAIM_FOR
    # fired: the table's new deadline is anyone's again when it comes
    owner = next(n for n, mine in enumerate(taken) if ids[0] in mine)
    fired = await repos[owner].get(ids[0])
    assert fired is not None
    fired.version, fired.deadline = fired.version + 1, 115.0
    await repos[owner].save_state(fired)
    assert await repos[1].next_due() == 115.0
    assert await repos[2].due(115.0) == [ids[0]]
    # a replica that died holding a claim: the others fire its tables once it runs out
    assert await repos[1].due(110.0 + CLAIM_FOR - 1) == []
    later = await repos[1].due(110.0 + CLAIM_FOR)
    assert later == ids[1:]
    # a timer that failed is put off: released, and due again only at its new time
    await repos[1].postpone(ids[1], 200.0)
    assert ids[1] not in await repos[2].due(150.0)
    assert ids[1] in await repos[2].due(200.0)
    for db in replicas:
        await db.close()
