"""The table domain on its own, without Telegram: a presenter that only records what it
was asked to show stands in for the publisher, and every answer is a typed outcome."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import ai
from bot.db import PeopleRepo, TableRepo, open_database
from bot.db.models import TableRecord
from bot.engine.base import Game
from bot.tables import People, Person, Tables
from bot.tables.notices import Notice, WentBot
from bot.tables.outcomes import (
    AlreadyPlayed,
    Joined,
    LeftGame,
    Moved,
    NeedsPrivateChat,
    NotAllowed,
    NotSeated,
    Opened,
    Refused,
    Started,
)
from bot.tables.ports import Members, Presenter


class Recorder:
    """Shows nothing; keeps what it was asked to show."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, int]] = []
        self.notices: list[Notice] = []
        self.told_next: list[tuple[int, int, bool]] = []

    async def lobby(
        self, record: TableRecord, *, settings: dict[str, tuple[Any, ...]] | None = None
    ) -> None:
        self.shown.append(("lobby", record.version))

    def lobby_over(self, record: TableRecord) -> None:
        pass

    async def game(
        self,
        record: TableRecord,
        game: Game,
        *,
        rows_before: int,
        to_act_before: int | None,
        notices: Sequence[Notice] = (),
    ) -> None:
        self.shown.append(("game", record.version))
        self.notices.extend(notices)

    async def hand(self, record: TableRecord, game: Game, seat: int, *, resend: bool) -> None:
        pass

    def hand_waits(self, record: TableRecord, user_id: int) -> bool:
        return False

    def may_resend_hand(self, table_id: int, user_id: int) -> bool:
        return False

    async def cancelled(
        self, record: TableRecord, game: Game | None, notice: Notice | None = None
    ) -> None:
        self.shown.append(("cancelled", record.version))

    async def chat_closed(self, record: TableRecord) -> None:
        pass

    async def expired(self, record: TableRecord) -> None:
        pass

    async def remind(self, record: TableRecord, user_id: int, seconds_left: int) -> None:
        pass

    async def timed_out(
        self, record: TableRecord, user_id: int, message_id: int, action: str
    ) -> None:
        pass

    async def next_table(self, record: TableRecord, user_id: int) -> None:
        self.told_next.append((record.id, user_id, record.seat_of(user_id) is not None))

    async def left(self, record: TableRecord, user_id: int, message_id: int) -> None:
        pass

    async def forget(self, record: TableRecord) -> None:
        pass

    async def delete(self, chat_id: int, message_id: int) -> None:
        pass

    def chat_moved(self, old_chat_id: int, new_chat_id: int) -> None:
        pass

    def bot_name(self, number: int, lang: str) -> str:
        return f"bot{number}"


class Everyone:
    async def is_member(self, chat_id: int, user_id: int) -> bool:
        return True


GROUP = -100
ANN, BEN, CID = Person(1, "Ann"), Person(2, "Ben"), Person(3, "Cid")


@pytest.fixture
async def domain(tmp_path: Path) -> AsyncIterator[tuple[Tables, Recorder]]:
    db = await open_database(tmp_path / "domain.sqlite3")
    recorder = Recorder()
    presenter: Presenter = recorder
    members: Members = Everyone()
    people = People(PeopleRepo(db))
    for who in (ANN, BEN):
        await people.seen(who.id, who.name, "en", private=True)
    tables = Tables(TableRepo(db), people, presenter, members, seed_source=lambda: 7)
    try:
        yield tables, recorder
    finally:
        await tables.close()
        await db.close()


async def test_a_game_is_opened_joined_started_and_played_through_outcomes_alone(
    domain: tuple[Tables, Recorder],
) -> None:
    tables, recorder = domain
    opened = await tables.lobby.open(GROUP, ANN, "deberts", "en")
    assert isinstance(opened, Opened) and opened.table.seats[0].user_id == ANN.id
    table_id = opened.table.id
    # Cid never opened the private chat: the join waits for it, and says which table
    assert await tables.lobby.press(table_id, 0, CID, "join", -1) == NeedsPrivateChat(table_id)
    assert await tables.lobby.press(table_id, 0, BEN, "join", -1) == Joined()
    lobby = await tables.store.repo.get(table_id)
    assert lobby is not None
    assert await tables.lobby.press(table_id, lobby.version, BEN, "start", -1) == NotAllowed()
    assert await tables.lobby.press(table_id, lobby.version, ANN, "start", -1) == Started()

    record = await tables.store.repo.get(table_id)
    assert record is not None
    game = tables.store.load(record)
    seat = game.current_seat()
    assert seat is not None
    who, other = (ANN, BEN) if seat == 0 else (BEN, ANN)
    illegal = next(a for a in ("c7S", "cAH", "nonsense") if a not in game.legal_actions(seat))
    assert isinstance(await tables.play.act(table_id, record.version, who, illegal), Refused)
    assert await tables.play.act(table_id, record.version, CID, illegal) == NotSeated()
    move = game.legal_actions(seat)[0]
    moved = await tables.play.act(table_id, record.version, who, move)
    assert moved == Moved(move, ("Ann", "Ben"), shown_later=False)
    # the move is committed, and shown once it is published
    assert ("game", record.version + 1) not in recorder.shown
    assert await tables.publish(table_id)
    assert recorder.shown[-1] == ("game", record.version + 1)
    assert await tables.play.act(table_id, record.version, other, move) == AlreadyPlayed()

    # leaving mid-game: a bot takes the seat, and the table is told in a notice
    assert await tables.leaving.leave(GROUP, BEN) == LeftGame()
    assert recorder.notices == [WentBot("Ben")]


async def test_a_bot_thinking_at_one_table_does_not_hold_up_another(tmp_path: Path) -> None:
    # The hard bot at Ann's table thinks until the test lets it go; meanwhile Ben
    # opens a private game and plays a card, answered in full. Were the bot's
    # decision made on the event loop, nothing else could run until it returned.
    # The bot thinks for the budget the tables were given (the machine's speed).
    thinking, release = threading.Event(), threading.Event()
    budgets: set[float] = set()

    def choose(game: Game, seat: int, level: str, seed: int, budget_ms: float) -> str:
        budgets.add(budget_ms)
        if level == "hard":
            thinking.set()
            if not release.wait(20):
                raise TimeoutError("the other table was not answered while the bot thought")
        return ai.choose(game, seat, "easy", seed, budget_ms)

    db = await open_database(tmp_path / "thinking.sqlite3")
    people = People(PeopleRepo(db))
    for who in (ANN, BEN):
        await people.seen(who.id, who.name, "en", private=True)
    tables = Tables(
        TableRepo(db),
        people,
        Recorder(),
        Everyone(),
        choose=choose,
        budgets={"deberts": 330.0},
        seed_source=lambda: 7,
    )

    async def ann_plays() -> None:
        opened = await tables.lobby.open(ANN.id, ANN, "deberts", "en", solo_bots=1, level="hard")
        assert isinstance(opened, Opened)
        if not thinking.is_set():  # Ann is to act first: her card sets the bot thinking
            record = await tables.store.repo.get(opened.table.id)
            assert record is not None
            game = tables.store.load(record)
            seat = game.current_seat()
            assert seat is not None
            move = game.legal_actions(seat)[0]
            assert isinstance(await tables.play.act(record.id, record.version, ANN, move), Moved)

    try:
        ann = asyncio.create_task(ann_plays())
        assert await asyncio.to_thread(thinking.wait, 20)
        opened = await tables.lobby.open(BEN.id, BEN, "deberts", "en", solo_bots=1, level="easy")
        assert isinstance(opened, Opened)
        record = await tables.store.repo.get(opened.table.id)
        assert record is not None
        game = tables.store.load(record)
        seat = game.current_seat()
        assert seat is not None and record.seats[seat].user_id == BEN.id
        move = game.legal_actions(seat)[0]
        assert isinstance(await tables.play.act(record.id, record.version, BEN, move), Moved)
        assert not ann.done()  # Ann's bot is still thinking
        release.set()
        await ann
        assert budgets == {330.0}
    finally:
        release.set()
        await tables.close()
        await db.close()
