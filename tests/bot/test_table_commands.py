"""What a player meets around a table, in the domain: the bots the host picks, a join
that comes too late, a second table asked for while one is running, the language
changed mid-game, a game played again."""

from __future__ import annotations

import time
from pathlib import Path

from bot import ai
from bot.bench.fake_telegram import FakeTelegram
from bot.db import PeopleRepo, TableRepo, open_database
from bot.engine.base import Game
from bot.tables import People, Tables
from bot.tables.outcomes import Done, NotPossible, Opened, Started
from tests.bot.test_domain import ANN, BEN, GROUP, Everyone, Recorder, domain
from tests.e2e.harness import BotProcess

__all__ = ["domain"]


async def test_the_host_picks_each_bots_level_and_nobody_is_offered_the_random_player(
    domain: tuple[Tables, Recorder],
) -> None:
    tables, _ = domain
    opened = await tables.lobby.open(GROUP, ANN, "thousand", "en")
    assert isinstance(opened, Opened)
    table_id = opened.table.id
    assert await tables.lobby.press(table_id, 0, ANN, "bot", 1) == Done()
    assert await tables.lobby.press(table_id, 1, ANN, "bot", 0) == Done()
    # no level past the two offered, nor the old button that chose none
    assert await tables.lobby.press(table_id, 2, ANN, "bot", 2) == NotPossible()
    assert await tables.lobby.press(table_id, 2, ANN, "bot", -1) == NotPossible()
    record = await tables.store.repo.get(table_id)
    assert record is not None
    assert [s.bot for s in record.seats] == [None, "hard", "easy"]
    # a private game asked for at a level people are not offered plays the strongest
    solo = await tables.lobby.open(ANN.id, ANN, "deberts", "en", solo_bots=2, level="random")
    assert isinstance(solo, Opened)
    assert [s.bot for s in solo.table.seats] == [None, "hard", "hard"]


async def test_people_choose_between_the_easy_and_the_hard_bot_only(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    ann = fake.add_user("Ann")
    await ann.start_private()
    await fake.wait_for_message(ann)
    await ann.send(ann.id, "/new thousand")
    ask = await fake.wait_for_message(ann, lambda m: bool(m.buttons))
    await (await ann.press(ask, "Two bots")).answer()
    assert [b.text for b in ask.buttons] == ["Easy", "Hard"]
    group = fake.add_group("Cards", members=[ann])
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    assert lobby.find_buttons("+ Easy bot") and lobby.find_buttons("+ Hard bot")
    assert not lobby.find_buttons("Add a bot")


async def test_a_move_made_for_a_player_out_of_time_is_the_hard_bots(tmp_path: Path) -> None:
    levels: list[str] = []

    def choose(game: Game, seat: int, level: str, seed: int) -> str:
        levels.append(level)
        return ai.choose(game, seat, "random", seed)

    db = await open_database(tmp_path / "timer.sqlite3")
    people = People(PeopleRepo(db))
    for who in (ANN, BEN):
        await people.seen(who.id, who.name, "en", private=True)
    tables = Tables(TableRepo(db), people, Recorder(), Everyone(), choose=choose, default_timer=30)
    try:
        opened = await tables.lobby.open(GROUP, ANN, "deberts", "en")
        assert isinstance(opened, Opened)
        table_id = opened.table.id
        await tables.lobby.press(table_id, 0, BEN, "join", -1)
        assert await tables.lobby.press(table_id, 1, ANN, "start", -1) == Started()
        await tables.deadlines.on_timer(table_id, time.time() + 3600)
        assert levels == ["hard"]
    finally:
        await tables.close()
        await db.close()
