"""What a player meets around a table, in the domain: the bots the host picks, a join
that comes too late, a second table asked for while one is running, the language
changed mid-game, a game played again."""

from __future__ import annotations

import time
from pathlib import Path

from bot import ai
from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeMessage, FakeUser
from bot.db import PeopleRepo, TableRepo, open_database
from bot.db.models import Seat, TableRecord, TableStatus
from bot.engine import new_game
from bot.engine.base import Game
from bot.i18n import Translator, make_i18n
from bot.render.keyboards.callbacks import Lobby, TableButton
from bot.render.lobby import lobby_text
from bot.tables import People, Tables
from bot.tables.outcomes import (
    AlreadySeated,
    Done,
    GameOver,
    Left,
    NotPossible,
    Opened,
    SeatAsked,
    Started,
)
from bot.tables.person import Person
from tests.bot.chats import group_of, person, private_menu
from tests.bot.test_domain import ANN, BEN, GROUP, Everyone, Recorder, domain
from tests.e2e.harness import BotProcess, hand_message

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
    ann = await person(fake, "Ann")
    ask = await private_menu(fake, ann, "/new thousand")
    await (await ann.press(ask, "Two bots")).answer()
    assert [b.text for b in ask.buttons] == ["Easy", "Hard"]
    group = fake.add_group("Cards", members=[ann])
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    assert lobby.find_buttons("+ Easy bot") and lobby.find_buttons("+ Hard bot")
    assert not lobby.find_buttons("Add a bot")


async def test_a_move_made_for_a_player_out_of_time_is_the_hard_bots(tmp_path: Path) -> None:
    levels: list[str] = []

    def choose(game: Game, seat: int, level: str, seed: int, budget_ms: float) -> str:
        levels.append(level)
        return ai.choose(game, seat, "random", seed, budget_ms)

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


async def _playing(fake: FakeTelegram, group: FakeChat, ann: FakeUser) -> FakeMessage:
    """Ann's Deberts table in ``group``, with a bot, its game started; its message."""
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    await (await ann.press(lobby, "+ Hard bot")).answer()
    await (await ann.press(lobby, "Start")).answer()
    await fake.wait_for(lambda: hand_message(fake, ann))
    return lobby


async def test_new_while_a_game_runs_says_so_before_any_question(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,) = await group_of(fake, "Ann")
    await _playing(fake, group, ann)
    mark = fake.mark()
    await ann.send(group, "/new")
    pointer = await fake.wait_for_message(group, lambda m: not m.buttons, since=mark)
    assert pointer.text == (
        "A game of Deberts is on in this chat: its table is the message this answers. A new"
        " table can be opened once it ends."
    )
    # the table is posted again below, and the pointer answers it; no game is offered
    assert pointer.reply_to is not None and pointer.reply_to.find_buttons("🂠 My hand")
    await fake.wait_handled()
    assert not [m for m in fake.messages(group, from_bot=True) if m.find_buttons("Thousand")]
    # in private, a game against bots: said before asking how many bots
    ask = await private_menu(fake, ann, "/new thousand")
    assert ask.text == "How many bot opponents?"
    await (await ann.press(ask, "One bot")).answer()
    await (await ann.press(ask, "Easy")).answer()
    await fake.wait_handled()
    mark = fake.mark()
    await ann.send(ann.id, "/new")
    told = await fake.wait_for_message(ann, since=mark)
    assert told.text == "You already have a game here; /cancel ends it."
    assert told.reply_to is not None and not told.buttons


async def test_a_late_join_is_told_the_game_has_started_and_may_ask_for_the_next(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, carl) = await group_of(fake, "Ann", "Carl", supergroup=True)
    table = await _playing(fake, group, ann)
    table_id = TableButton.unpack(table.button("🂠 My hand").callback_data or "").table_id
    join = Lobby(table_id=table_id, version=0, action="join").pack()
    late = await (await carl.press_data(table, join)).answer()
    # the private chat opens, where what a latecomer may do is offered
    assert late.url == f"https://t.me/{fake.bot_username}?start=j{table_id}"
    mark = fake.mark()
    await carl.follow(late.url)
    told = await fake.wait_for_message(carl, since=mark)
    assert told.text == (
        "The game of Deberts in “Cards” has already started: watch it on its table, or take a"
        " seat at the next game, which “Play again” under its result opens."
    )
    code = str(group.id).removeprefix("-100")
    assert told.button("Open the table").url == f"https://t.me/c/{code}/{table.message_id}"
    await (await carl.press(told, "🪑 Seat me for the next game")).answer()
    assert told.text.startswith("You will have a seat at the next table of Deberts")
    assert [b.text for b in told.buttons] == ["Open the table"]
    assert await running.app.tables.store.repo.next_seats(table_id) == [(carl.id, "Carl")]


async def test_a_join_by_link_names_the_table_and_its_group(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    ann, ben = await person(fake, "Ann"), fake.add_user("Ben")
    group = fake.add_group("Friday cards", members=[ann, ben])
    await ann.send(group, "/new thousand")
    lobby = await fake.wait_for_message(group)
    needs = await (await ben.press(lobby, "Join")).answer()
    assert needs.url is not None and "?start=j" in needs.url
    await ben.start_private(needs.url.split("?start=")[1])
    told = await fake.wait_for_message(ben, lambda m: "joined" in m.text)
    assert told.text == (
        "You joined the table of Thousand in “Friday cards”. Your cards come here once the"
        " host starts the game."
    )
    assert "2. Ben" in lobby.text


async def test_lang_redraws_the_table_and_the_hands_at_once(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,) = await group_of(fake, "Ann")
    table = await _playing(fake, group, ann)
    hand = hand_message(fake, ann)
    assert hand is not None and "your hand, Ann" in hand.text
    assert table.text.startswith("Deberts · deal")
    # the group's language: its table says it at once, with no move made
    await ann.send(group, "/lang ru")
    await fake.wait_for(lambda: table.text.startswith("Деберц · сдача"), what="table in Russian")
    # Ann's own language: her hand, here and in a private game
    await ann.send(ann.id, "/lang ru")
    await fake.wait_for(lambda: "ваши карты, Ann" in hand.text, what="hand in Russian")
    ask = await private_menu(fake, ann, "/new thousand")
    await (await ann.press(ask, "Один бот")).answer()
    await (await ann.press(ask, "Лёгкий")).answer()
    solo = await fake.wait_for(
        lambda: hand_message(fake, ann) not in (None, hand) and hand_message(fake, ann)
    )
    assert solo is not None and "ваши карты, Ann" in solo.text
    await ann.send(ann.id, "/lang en")
    await fake.wait_for(lambda: "your hand, Ann" in solo.text, what="private game in English")
    await fake.wait_for(lambda: "your hand, Ann" in hand.text, what="group hand in English")


def test_the_lobby_lists_its_players_before_its_settings() -> None:
    tr = Translator(make_i18n("en"), "en")
    record = TableRecord(
        id=1,
        chat_id=GROUP,
        game="deberts",
        status=TableStatus.LOBBY,
        host_id=ANN.id,
        seats=[Seat("Ann", user_id=ANN.id), Seat("Bot 1", bot="easy")],
        conventions=new_game("deberts", 2, seed=1).conventions.to_json(),
        lang="en",
    )
    lines = lobby_text(record, tr, 2, 3).splitlines()
    assert lines[2:5] == ["Players (2 of 2–3):", "1. Ann (host)", "2. Bot 1 🤖 (Easy)"]
    assert lines[6].startswith("• Target: ")


async def test_play_again_seats_everyone_who_finished_and_the_presser_runs_it(
    domain: tuple[Tables, Recorder],
) -> None:
    tables, _ = domain
    finished = await tables.store.repo.create(
        TableRecord(
            id=0,
            chat_id=GROUP,
            game="deberts",
            status=TableStatus.FINISHED,
            host_id=ANN.id,
            seats=[
                Seat("Ann", user_id=ANN.id),
                Seat("Ben", user_id=BEN.id),
                Seat("Bot 1", bot="easy"),
            ],
            conventions=new_game("deberts", 3, seed=1).conventions.to_json(),
            lang="en",
        )
    )
    again = await tables.lobby.again(finished.id, GROUP, BEN, "en")
    assert isinstance(again, Opened)
    table = again.table
    assert table.host_id == BEN.id and table.status == TableStatus.LOBBY
    assert [(s.user_id, s.bot) for s in table.seats] == [
        (BEN.id, None),
        (ANN.id, None),
        (None, "easy"),
    ]
    # each person may leave; the host starts it
    assert await tables.lobby.press(table.id, table.version, ANN, "leave", -1) == Left()
    fresh = await tables.store.repo.get(table.id)
    assert fresh is not None and [s.name for s in fresh.seats] == ["Ben", "bot1"]
    assert await tables.lobby.press(table.id, fresh.version, BEN, "start", -1) == Started()


async def test_play_again_seats_who_asked_during_the_game_while_seats_are_left(
    domain: tuple[Tables, Recorder],
) -> None:
    tables, recorder = domain
    cid, dan = Person(3, "Cid"), Person(4, "Dan")
    for who in (cid, dan):
        await tables.people.seen(who.id, who.name, "en", private=True)
    opened = await tables.lobby.open(GROUP, ANN, "deberts", "en")
    assert isinstance(opened, Opened)
    table_id = opened.table.id
    assert await tables.lobby.press(table_id, 0, ANN, "bot", 1) == Done()
    assert await tables.lobby.press(table_id, 1, ANN, "start", -1) == Started()
    # Cid asks first (twice), Dan next, Ben last; Ann is at the table already
    assert isinstance(await tables.lobby.ask_next_seat(table_id, cid), SeatAsked)
    assert isinstance(await tables.lobby.ask_next_seat(table_id, cid), SeatAsked)
    assert isinstance(await tables.lobby.ask_next_seat(table_id, dan), SeatAsked)
    assert isinstance(await tables.lobby.ask_next_seat(table_id, BEN), SeatAsked)
    assert await tables.lobby.ask_next_seat(table_id, ANN) == AlreadySeated()
    record = await tables.store.repo.get(table_id)
    assert record is not None
    record.status = TableStatus.FINISHED  # as its last deal leaves it
    await tables.store.repo.save(record)
    assert await tables.lobby.ask_next_seat(table_id, Person(5, "Eve")) == GameOver()
    again = await tables.lobby.again(table_id, GROUP, ANN, "en")
    assert isinstance(again, Opened)
    # Ann, then Cid and Dan in the order they asked: a person's seat before a bot's;
    # Ben, who asked last, finds the table full and is told so
    assert [(s.user_id, s.bot) for s in again.table.seats] == [
        (ANN.id, None),
        (cid.id, None),
        (dan.id, None),
    ]
    new_id = again.table.id
    assert recorder.told_next == [
        (new_id, cid.id, True),
        (new_id, dan.id, True),
        (new_id, BEN.id, False),
    ]
    assert await tables.store.repo.next_seats(table_id) == []
