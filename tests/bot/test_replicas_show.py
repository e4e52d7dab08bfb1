"""Replicas sharing one real PostgreSQL show each table's changes as one process would:
a deal's result and a game's end are posted once, and no message goes back to an
older state of its table than one another replica showed."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from aiogram import Bot

from bot import jsonio
from bot.app import App, create_app
from bot.bench.fake_telegram import FakeChat, FakeTelegram, FakeUser
from bot.db import Seat, TableRecord, TableStatus
from bot.db.schema import message_versions
from bot.engine import game_class
from bot.engine.base import Game
from tests import fake_telegram_fixtures as fixtures
from tests.e2e.harness import ManualClock

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


async def stored(
    fleet: Fleet,
    game: Game,
    *,
    unposted_from: int | None,
    group: FakeChat | None = None,
    users: list[FakeUser] | None = None,
) -> TableRecord:
    group, users = group or fleet.group, users or fleet.users
    record = TableRecord(
        id=0,
        chat_id=group.id,
        game="deberts",
        status=TableStatus.FINISHED if game.is_over else TableStatus.PLAYING,
        host_id=users[0].id,
        seats=[Seat(u.first_name, user_id=u.id) for u in users],
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


async def test_a_message_is_never_edited_back_to_an_older_state_of_its_table(
    fake_telegram: FakeTelegram, fake_bot: Bot, postgres_url: str
) -> None:
    clock = ManualClock(now=1_000.0)
    ann = fake_telegram.add_user("Ann", started=True)
    group = fake_telegram.add_group("Cards", members=[ann])
    one, two = [
        await create_app(fake_bot, postgres_url, clock=clock, sleep=clock.sleep) for _ in range(2)
    ]
    try:
        message_id = await one.sender.send(group.id, "version 8")
        assert message_id is not None

        def shown() -> str:
            (message,) = [
                m
                for m in fake_telegram.messages(group, from_bot=True)
                if m.message_id == message_id
            ]
            return message.text

        table_id = 7
        throttle = two.publisher.throttle
        # one replica shows version 9, and has 10 waiting for the group's edit interval
        await throttle.edit(
            group.id, message_id, "version 9", None, interval=4, shows=(table_id, 9)
        )
        assert shown() == "version 9"
        await throttle.edit(
            group.id, message_id, "version 10", None, interval=4, shows=(table_id, 10)
        )
        assert shown() == "version 9"
        # the other shows version 11 meanwhile
        assert await one.publisher.edit(group.id, message_id, "version 11", shows=(table_id, 11))
        assert shown() == "version 11"
        # the edit that waited would take the message back: it is left out
        clock.advance(4)
        await throttle.settle()
        assert shown() == "version 11"
        assert [c.params["text"] for c in fake_telegram.calls("editMessageText")] == [
            "version 9",
            "version 11",
        ]
        # a later state is shown, whichever replica has it
        clock.advance(4)
        await throttle.edit(
            group.id, message_id, "version 12", None, interval=4, shows=(table_id, 12)
        )
        assert shown() == "version 12"
        # a message sent anew starts from the version it shows
        sent = await one.publisher.show(group.id, None, "version 13", shows=(table_id, 13))
        assert sent is not None
        assert await two.publisher.edit(group.id, sent, "version 12", shows=(table_id, 12))
        assert fake_telegram.messages(group, from_bot=True)[-1].text == "version 13"
    finally:
        await one.close()
        await two.close()


async def test_a_replica_starting_shows_only_the_tables_left_unshown(
    fleet: Fleet, fake_bot: Bot, postgres_url: str
) -> None:
    fake, one = fleet.fake, fleet.apps[0]
    others = [fake.add_user(name, started=True) for name in ("Dan", "Eve", "Fay")]
    other_group = fake.add_group("More cards", members=others)
    # two tables shown by a replica
    shown = await stored(fleet, played(False), unposted_from=None)
    unshown = await stored(
        fleet, played(False), unposted_from=None, group=other_group, users=others
    )
    for table_id in (shown.id, unshown.id):
        one.tables.showing.add(table_id, None, None)
        await one.tables.publish(table_id)
    # a move is committed at the second, and its replica dies before showing it
    repo = one.tables.store.repo
    record = await repo.get(unshown.id)
    assert record is not None
    game = one.tables.store.load(record)
    seat = game.current_seat()
    assert seat is not None
    game.apply(seat, game.legal_actions(seat)[0])
    record.state = jsonio.dumps(game.to_json())
    record.version += 1
    await repo.save_state(record)
    mark = fake.mark()

    starting = await create_app(fake_bot, postgres_url, default_locale="en")
    try:
        assert await starting.tables.resume_all() == 1
    finally:
        await starting.close()
    chats = {c.params.get("chat_id") for c in fake.calls(since=mark)}
    # the table shown is left as it is; the other shows the move, buttons at its version
    assert chats.isdisjoint({fleet.group.id, *(u.id for u in fleet.users)})
    assert other_group.id in chats
    table = fake.messages(other_group, from_bot=True)[-1]
    versions = {b.callback_data.split(":")[2] for b in table.buttons if b.callback_data}
    assert versions == {str(record.version)}


@pytest.mark.parametrize(
    ("turn_began", "called_ago"),
    [(False, 0), (True, 0), (True, 60)],
    ids=["turn-goes-on", "turn-began", "turn-began-long-after-a-call"],
)
async def test_a_message_another_replica_sent_anew_is_edited_not_sent_a_third_time(
    fleet: Fleet, turn_began: bool, called_ago: float
) -> None:
    one, two = fleet.apps
    game = played(until_over=False)
    to_act = game.current_seat()
    assert to_act is not None
    record = await stored(fleet, game, unposted_from=None)
    one.tables.showing.add(record.id, to_act, None)
    await one.tables.publish(record.id)
    # the other replica has read the table and is about to show a change of it ...
    stale = await two.tables.store.repo.get(record.id)
    assert stale is not None and stale.table_msg_id is not None and stale.hand_msgs
    # ... when the first sends its table and a hand anew, deleting the old ones
    assert await one.tables.lifecycle.repost(record.id) != stale.table_msg_id
    waiting = next(u for seat, u in enumerate(fleet.users) if seat != to_act)
    assert await one.tables.lifecycle.resend_hands(waiting.id) == 1
    mark = fleet.fake.mark()
    # when the other replica last showed the hands
    async with one.db.connect() as conn:
        await conn.execute(
            sa.update(message_versions).values(shown_at=message_versions.c.shown_at - called_ago)
        )

    # A turn that began calls its player with their hand sent anew, unless a replica
    # called them or showed their hand lately; that saves where the messages are
    # before the table is edited. Else the table's edit comes first.
    await two.publisher.game(
        stale,
        two.tables.store.peek(stale),
        rows_before=game.rows_scored,
        to_act_before=None if turn_began else to_act,
    )
    await two.publisher.throttle.settle()
    # the messages it found gone were sent anew already: it edits those
    called = [fleet.users[to_act].id] if turn_began and called_ago else []
    assert [c.params["chat_id"] for c in fleet.fake.calls("sendMessage", since=mark)] == called
    now = await one.tables.store.repo.get(record.id)
    assert now is not None
    for chat, message_id in [
        (fleet.group.id, now.table_msg_id),
        *((user.id, now.hand_msgs[user.id]) for user in fleet.users),
    ]:
        live = [m.message_id for m in fleet.fake.messages(chat, from_bot=True) if m.buttons]
        assert live == [message_id]


async def test_a_hand_found_gone_is_sent_anew_only_where_it_is_still_the_hand(
    fleet: Fleet,
) -> None:
    one, two = fleet.apps
    game = played(until_over=False)
    record = await stored(fleet, game, unposted_from=None)
    one.tables.showing.add(record.id, game.current_seat(), None)
    await one.tables.publish(record.id)
    ann = fleet.users[0]
    shown = await two.tables.store.repo.get(record.id)
    assert shown is not None
    old = shown.hand_msgs[ann.id]
    assert await one.tables.lifecycle.resend_hands(ann.id) == 1
    mark = fleet.fake.mark()
    # an edit the other replica held back finds the old hand gone: it was sent anew
    await two.tables.lifecycle.message_lost(ann.id, old)
    assert fleet.fake.calls("sendMessage", since=mark) == []
    # the hand as it is now, gone too: sent anew
    now = await two.tables.store.repo.get(record.id)
    assert now is not None
    await two.tables.lifecycle.message_lost(ann.id, now.hand_msgs[ann.id])
    assert [c.params["chat_id"] for c in fleet.fake.calls("sendMessage", since=mark)] == [ann.id]
