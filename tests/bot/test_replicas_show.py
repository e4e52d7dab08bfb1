"""Replicas sharing one real PostgreSQL show each table's changes as one process would:
a deal's result and a game's end are posted once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiogram import Bot

from bot import jsonio
from bot.app import App, create_app
from bot.bench.fake_telegram import FakeChat, FakeTelegram, FakeUser
from bot.db import Seat, TableRecord, TableStatus
from bot.engine import game_class
from bot.engine.base import Game
from tests import fake_telegram_fixtures as fixtures

fake_bot = fixtures.fake_bot


@dataclass
class Fleet:
    fake: FakeTelegram
    apps: list[App]
    group: FakeChat
    users: list[FakeUser]


@pytest.fixture
async def fleet(
    fake_telegram: FakeTelegram, fake_bot: Bot, postgres_url: str
) -> AsyncIterator[Fleet]:
    """Two replicas on one database, a group and three players."""
    users = [fake_telegram.add_user(name, started=True) for name in ("Ann", "Ben", "Cid")]
    group = fake_telegram.add_group("Cards", members=users)
    apps = [await create_app(fake_bot, postgres_url, default_locale="en") for _ in range(2)]
    yield Fleet(fake_telegram, apps, group, users)
    for app in apps:
        await app.close()


def played(until_over: bool) -> Game:
    """A game of three played by random moves until a deal ended (or the game)."""
    game = game_class("deberts").new(3, seed=5)
    moves = random.Random(1)
    while not game.is_over and (until_over or game.rows_scored == 0):
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, moves.choice(game.legal_actions(seat)))
    return game


async def stored(fleet: Fleet, game: Game, *, unposted_from: int) -> TableRecord:
    record = TableRecord(
        id=0,
        chat_id=fleet.group.id,
        game="deberts",
        status=TableStatus.FINISHED if game.is_over else TableStatus.PLAYING,
        host_id=fleet.users[0].id,
        seats=[Seat(u.first_name, user_id=u.id) for u in fleet.users],
        conventions={},
        lang="en",
        state=jsonio.dumps(game.to_json()),
        version=40,
        unposted_from=unposted_from,
    )
    return await fleet.apps[0].tables.store.repo.create(record)


@pytest.mark.parametrize("until_over", [False, True], ids=["deal", "game"])
async def test_a_result_two_replicas_show_at_once_is_posted_once(
    fleet: Fleet, until_over: bool
) -> None:
    game = played(until_over)
    first = game.rows_scored - 1
    record = await stored(fleet, game, unposted_from=first)
    # each replica committed a change since the deal ended, and shows what it finds
    # unposted, at the same time
    for app in fleet.apps:
        app.tables.showing.add(record.id, game.current_seat(), None)
    await asyncio.gather(*(app.tables.publish(record.id) for app in fleet.apps))

    def posted() -> tuple[int, int, int]:
        said = [m.text for m in fleet.fake.messages(fleet.group, from_bot=True)]
        results = [t for t in said if t.startswith(f"Deal {game.rows_scored} is over.")]
        ends = [t for t in said if t.startswith("Game over.")]
        return len(results), len(ends), len(fleet.fake.calls("sendPhoto"))

    assert posted() == (1, int(until_over), int(until_over))
    # a later showing finds nothing left to post
    for app in fleet.apps:
        app.tables.showing.add(record.id, game.current_seat(), None)
        await app.tables.publish(record.id)
    assert posted() == (1, int(until_over), int(until_over))
