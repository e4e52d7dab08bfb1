"""Replicas sharing one real PostgreSQL change a table one at a time: a change begun on
one waits for the other's to end and reads what it wrote, so none is lost or refused."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy as sa

from bot.db import Database, PeopleRepo, Seat, TableRecord, TableRepo, TableStatus, open_database
from bot.tables import People, Tables
from bot.tables.outcomes import AlreadyOpen, AlreadyPlayed, Joined, Moved, Opened
from tests.bot.test_domain import ANN, BEN, CID, GROUP, Everyone, Recorder


def named(url: str, name: str) -> str:
    """``url`` with its connections named ``name`` in ``pg_stat_activity``."""
    return (
        sa.make_url(url)
        .update_query_dict({"application_name": name})
        .render_as_string(hide_password=False)
    )


async def blocked_on_a_lock(db: Database, name: str) -> None:
    """Wait until a connection named ``name`` waits for a lock another one holds."""
    query = (
        "SELECT count(*) AS n FROM pg_stat_activity"
        " WHERE application_name = :name AND wait_event_type = 'Lock'"
    )
    async with asyncio.timeout(20):  # never, if nothing held the lock: the test fails
        await _wait_blocked(db, name, query)


async def _wait_blocked(db: Database, name: str, query: str) -> None:
    while True:
        # a transaction held open sees one snapshot of the statistics unless told otherwise
        await db.fetchone("SELECT pg_stat_clear_snapshot()")
        if (await db.fetchone(query, {"name": name}))["n"] > 0:
            return
        await asyncio.sleep(0.005)


@asynccontextmanager
async def replicas(url: str) -> AsyncIterator[tuple[str, Database, Database]]:
    """Two processes' databases on one server; the second's connections are named."""
    name = f"replica-{uuid.uuid4().hex[:8]}"
    one = await open_database(url)
    two = await open_database(named(url, name))
    try:
        yield name, one, two
    finally:
        await one.close()
        await two.close()


async def test_a_change_on_one_replica_waits_for_the_others_and_reads_what_it_wrote(
    postgres_url: str,
) -> None:
    async with replicas(postgres_url) as (name, one, two):
        repo_one, repo_two = TableRepo(one), TableRepo(two)
        record = TableRecord(
            id=0,
            chat_id=GROUP,
            game="deberts",
            status=TableStatus.PLAYING,
            host_id=1,
            seats=[Seat("Ann", user_id=1)],
            conventions={},
            lang="en",
            version=5,
        )
        table_id = (await repo_one.create(record)).id
        read_by_two: list[int] = []

        async def bump(repo: TableRepo, reads: list[int]) -> None:
            async with repo.locked(table_id):
                fresh = await repo.get(table_id)
                assert fresh is not None
                reads.append(fresh.version)
                fresh.version += 1
                await repo.save_state(fresh)

        async with repo_one.locked(table_id):
            first = await repo_one.get(table_id)
            assert first is not None and first.version == 5
            second = asyncio.create_task(bump(repo_two, read_by_two))
            # the other replica's change waits in PostgreSQL for this one's to end
            await blocked_on_a_lock(one, name)
            assert read_by_two == []
            first.version += 1
            await repo_one.save_state(first)
        await second
        # it read what this one wrote, and built on it: no change lost, none refused
        assert read_by_two == [6]
        stored = await repo_one.get(table_id)
        assert stored is not None and stored.version == 7


class Gate(Recorder):
    """A presenter that, the first time it shows a lobby, first lets ``meanwhile`` run."""

    def __init__(self) -> None:
        super().__init__()
        self.meanwhile: Callable[[], Awaitable[None]] | None = None

    async def lobby(
        self, record: TableRecord, *, settings: dict[str, tuple[Any, ...]] | None = None
    ) -> None:
        meanwhile, self.meanwhile = self.meanwhile, None
        if meanwhile is not None:
            await meanwhile()
        await super().lobby(record, settings=settings)


def domain(db: Database, presenter: Recorder) -> Tables:
    return Tables(
        TableRepo(db), People(PeopleRepo(db)), presenter, Everyone(), seed_source=lambda: 7
    )


async def test_presses_on_two_replicas_are_applied_one_after_the_other(postgres_url: str) -> None:
    async with replicas(postgres_url) as (name, one, two):
        gate = Gate()
        first, second = domain(one, gate), domain(two, Recorder())
        for who in (ANN, BEN, CID):
            await first.people.seen(who.id, who.name, "en", private=True)
        opened = await first.lobby.open(GROUP, ANN, "deberts", "en")
        assert isinstance(opened, Opened)
        table_id = opened.table.id
        joining: list[asyncio.Task[Any]] = []

        async def cid_joins_on_the_other_replica() -> None:
            joining.append(asyncio.create_task(second.lobby.press(table_id, 0, CID, "join", -1)))
            await blocked_on_a_lock(one, name)

        # Ben's join is being shown on one replica (its row held) when Cid's comes to the other
        gate.meanwhile = cid_joins_on_the_other_replica
        assert await first.lobby.press(table_id, 0, BEN, "join", -1) == Joined()
        assert await joining[0] == Joined()
        record = await second.store.repo.get(table_id)
        assert record is not None
        assert [s.user_id for s in record.seats] == [ANN.id, BEN.id, CID.id]
        assert record.version == opened.table.version + 2

        # the same game button pressed twice, the presses reaching both replicas at once
        await first.lobby.press(table_id, record.version, ANN, "start", -1)
        for _ in range(6):
            record = await first.store.repo.get(table_id)
            assert record is not None
            game = first.store.load(record)
            seat = game.current_seat()
            assert seat is not None
            who = (ANN, BEN, CID)[seat]
            move = game.legal_actions(seat)[0]
            outcomes = await asyncio.gather(
                first.play.act(table_id, record.version, who, move),
                second.play.act(table_id, record.version, who, move),
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["AlreadyPlayed", "Moved"]
            assert any(isinstance(o, Moved) for o in outcomes)
            assert any(isinstance(o, AlreadyPlayed) for o in outcomes)
            after = await second.store.repo.get(table_id)
            assert after is not None and after.version == record.version + 1
            game.apply(seat, move)
            # applied once: the stored game is the one with this move made once
            assert second.store.load(after).to_json() == game.to_json()
        await first.close()
        await second.close()


class CheckTogether(TableRepo):
    """A repository whose first look for a chat's open table waits until ``barrier``'s
    other party has looked too: both replicas find none before either opens one."""

    def __init__(self, db: Database, barrier: asyncio.Barrier) -> None:
        super().__init__(db)
        self.barrier: asyncio.Barrier | None = barrier

    async def open_in_chat(self, chat_id: int) -> TableRecord | None:
        found = await super().open_in_chat(chat_id)
        barrier, self.barrier = self.barrier, None
        if barrier is not None:
            await barrier.wait()
        return found


async def test_new_on_two_replicas_at_once_opens_one_table(postgres_url: str) -> None:
    async with replicas(postgres_url) as (_, one, two):
        both_looked = asyncio.Barrier(2)
        first, second = (
            Tables(
                CheckTogether(db, both_looked),
                People(PeopleRepo(db)),
                Recorder(),
                Everyone(),
                seed_source=lambda: 7,
            )
            for db in (one, two)
        )
        await first.people.seen(ANN.id, ANN.name, "en", private=True)
        await first.people.seen(BEN.id, BEN.name, "en", private=True)
        outcomes = await asyncio.gather(
            first.lobby.open(GROUP, ANN, "deberts", "en"),
            second.lobby.open(GROUP, BEN, "thousand", "en"),
        )
        opened = [o for o in outcomes if isinstance(o, Opened)]
        refused = [o for o in outcomes if isinstance(o, AlreadyOpen)]
        # one opened; the other is told of that table, as a /new during a game is
        assert len(opened) == len(refused) == 1
        assert refused[0].table.id == opened[0].table.id
        rows = await one.fetchall("SELECT id, status FROM tables")
        assert [(r["id"], r["status"]) for r in rows] == [(opened[0].table.id, "lobby")]
        await first.close()
        await second.close()


class Witness(Recorder):
    """A presenter that, each time it shows a game, reads the table's stored version
    through another process's database."""

    def __init__(self, other: Database) -> None:
        super().__init__()
        self.other = other
        self.stored: list[tuple[int, int]] = []
        """Per game shown, the version shown and the one stored (committed) then."""

    async def game(
        self,
        record: TableRecord,
        game: Any,
        *,
        rows_before: int,
        to_act_before: int | None,
        notices: Any = (),
    ) -> None:
        row = await self.other.fetchone(
            "SELECT version FROM tables WHERE id = :id", {"id": record.id}
        )
        self.stored.append((record.version, row["version"]))
        await super().game(
            record, game, rows_before=rows_before, to_act_before=to_act_before, notices=notices
        )


async def test_a_move_made_for_the_absent_is_shown_once_committed(postgres_url: str) -> None:
    async with replicas(postgres_url) as (_, one, two):
        witness = Witness(two)
        tables = Tables(
            TableRepo(one),
            People(PeopleRepo(one)),
            witness,
            Everyone(),
            seed_source=lambda: 7,
            default_timer=30,
            bot_level="random",
        )
        for who in (ANN, BEN):
            await tables.people.seen(who.id, who.name, "en", private=True)
        opened = await tables.lobby.open(GROUP, ANN, "deberts", "en")
        assert isinstance(opened, Opened)
        table_id = opened.table.id
        assert await tables.lobby.press(table_id, 0, BEN, "join", -1) == Joined()
        record = await tables.store.repo.get(table_id)
        assert record is not None
        await tables.lobby.press(table_id, record.version, ANN, "start", -1)
        await tables.publish(table_id)
        for _ in range(2):  # nobody presses: the timer moves, twice
            record = await tables.store.repo.get(table_id)
            assert record is not None and record.deadline is not None
            witness.stored.clear()
            await tables.deadlines.on_timer(table_id, record.deadline + 1)
            # another replica reading the table as it is shown finds the move stored
            assert witness.stored == [(record.version + 1, record.version + 1)]
            assert [type(n).__name__ for n in witness.notices[-1:]] == ["TimedOut"]
        await tables.close()


async def test_connections_carry_the_statement_and_idle_timeouts(postgres_url: str) -> None:
    db = await open_database(postgres_url, statement_timeout=2.5, idle_timeout=60)
    try:
        assert (await db.fetchone("SHOW statement_timeout"))["statement_timeout"] == "2500ms"
        shown = await db.fetchone("SHOW idle_in_transaction_session_timeout")
        assert shown["idle_in_transaction_session_timeout"] == "1min"
        # beside the options the URL carried already (this test's own schema)
        assert (await db.fetchone("SELECT count(*) AS n FROM tables"))["n"] == 0
        assert (await db.fetchone("SELECT current_schema() AS s"))["s"].startswith("t_")
    finally:
        await db.close()
