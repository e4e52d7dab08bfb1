"""The table service on its own: refusals change nothing, versions guard every press."""

from __future__ import annotations

import asyncio
import gc
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Protocol

import pytest
from aiogram.client.default import DefaultBotProperties

from bot import jsonio
from bot.app import App, create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import ApiCall, FakeChat, FakeMessage
from bot.db.models import Seat, TableRecord
from bot.engine.base import Game
from bot.i18n import Translator, make_i18n
from bot.render.cards import action_label
from bot.render.keyboards.callbacks import Lobby, TableButton
from bot.render.outcomes import reply as render_reply
from bot.render.replies import Reply
from bot.tables import Person
from bot.tables import store as tables_store
from bot.tables.outcomes import Cancelled, Opened
from bot.telegram.rates import (
    GROUP_EDIT_INTERVAL,
    HAND_EDIT_INTERVAL,
    NOTIFY_AFTER,
    STRAINED_HAND_EDIT_INTERVAL,
)
from tests import fake_telegram_fixtures as fixtures
from tests.e2e.harness import ManualClock, VirtualClock

fake_telegram = fixtures.fake_telegram


class Clock(Protocol):
    def __call__(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


@asynccontextmanager
async def service(
    fake: FakeTelegram, tmp_path: Path, clock: Clock, *, seed: int, database: str | None = None
) -> AsyncIterator[tuple[App, Translator]]:
    """The bot's app on a fresh database (a SQLite file in ``tmp_path``, or the URL
    ``database``), without polling: tests call its services."""
    bot = fake.make_bot(default=DefaultBotProperties(parse_mode="HTML"))
    app = await create_app(
        bot,
        database or tmp_path / "b.sqlite3",
        seed_source=lambda: seed,
        sleep=clock.sleep,
        clock=clock,
    )
    try:
        yield app, Translator(make_i18n("en"), "en")
    finally:
        await app.close()
        await bot.session.close()


REASONS = {
    "You must follow suit.",
    "You have no card of the led suit: you must play a trump.",
    "You must beat the highest trump on the table.",
}


async def started_table(
    app: App, fake: FakeTelegram, names: list[str], tr: Translator, *, private_chats: bool = False
) -> tuple[FakeChat, list[Person], TableRecord]:
    """A Deberts table in a new group, opened by the first of ``names``, joined by the
    others and started, through the service; ``private_chats``: everyone has opened
    their chat with the bot."""
    users = [fake.add_user(n, started=private_chats) for n in names]
    group = fake.add_group("Cards", members=users)
    people = [Person(u.id, u.first_name) for u in users]
    for user in users:
        await app.tables.people.seen(user.id, user.first_name, "en", private=True)
    opened = await app.tables.lobby.open(group.id, people[0], "deberts", "en")
    assert isinstance(opened, Opened)
    record = opened.table
    for who in people[1:]:
        current = await app.tables.store.repo.get(record.id)
        assert current is not None
        await app.tables.lobby.press(record.id, current.version, who, "join", -1)
    current = await app.tables.store.repo.get(record.id)
    assert current is not None
    await app.tables.lobby.press(record.id, current.version, people[0], "start", -1)
    return group, people, record


def table_message(fake: FakeTelegram, group: FakeChat) -> FakeMessage:
    """The group's live table message: the newest whose buttons are the table's own (the
    lobby's, or "My hand" and "Last trick"), not a deal result's "Show the deal"."""
    own = (f"{Lobby.__prefix__}:", f"{TableButton.__prefix__}:")
    return next(
        m
        for m in reversed(fake.messages(group))
        if any((b.callback_data or "").startswith(own) for b in m.buttons)
    )


async def saved_game(app: App, table_id: int) -> tuple[TableRecord, Game]:
    """The table as saved, and its game."""
    record = await app.tables.store.repo.get(table_id)
    assert record is not None
    return record, app.tables.store.load(record)


async def press_first_legal(
    app: App, table_id: int, people: list[Person], tr: Translator
) -> Reply | None:
    """The player to act presses their first legal button; ``None`` once the game is over."""
    current, game = await saved_game(app, table_id)
    seat = game.current_seat()
    if seat is None:
        return None
    action = game.legal_actions(seat)[0]
    return await act(app, table_id, current.version, people[seat], action, tr)


async def act(
    app: App, table_id: int, version: int, who: Person, code: str, tr: Translator
) -> Reply:
    """A game button pressed, and what its presser is answered."""
    return render_reply(await app.tables.play.act(table_id, version, who, code), tr)


async def test_a_card_that_is_not_legal_is_refused_with_the_rule_and_changes_nothing(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    clock = VirtualClock()
    async with service(fake, tmp_path, clock, seed=11) as (app, tr):
        _, people, record = await started_table(app, fake, ["Ann", "Ben", "Cid"], tr)
        rng = random.Random(3)
        refused = set()
        for _ in range(300):
            current = await app.tables.store.repo.get(record.id)
            assert current is not None
            game = app.tables.store.load(current)
            if game.is_over:
                break
            seat = game.current_seat()
            assert seat is not None
            legal = game.legal_actions(seat)
            view = game.view(seat)
            illegal = [f"c{c}" for c in view["hand"] if f"c{c}" not in legal]
            if game.phase == "play" and illegal:
                before = (current.version, current.state)
                mark = fake.mark()
                reply = await act(app, record.id, current.version, people[seat], illegal[0], tr)
                assert reply.alert and reply.text in REASONS
                refused.add(reply.text)
                after = await app.tables.store.repo.get(record.id)
                assert after is not None and (after.version, after.state) == before
                assert not fake.calls(since=mark)
                # somebody else pressing is told it is not their seat's move, and whose
                other = people[(seat + 1) % 3]
                wrong = await act(app, record.id, current.version, other, legal[0], tr)
                turn = f"It is not your turn: {['Ann', 'Ben', 'Cid'][seat]} is to move."
                assert wrong.alert and wrong.text == turn
            await app.tables.play.act(record.id, current.version, people[seat], rng.choice(legal))
            await app.tables.publish(record.id)
        assert "You must follow suit." in refused


async def test_an_edit_held_back_by_the_throttle_cannot_undo_a_cancel(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    # time moves only when the test says so: held-back edits wait until then
    clock = ManualClock()
    async with service(fake, tmp_path, clock, seed=5) as (app, tr):
        group, people, record = await started_table(
            app, fake, ["Ann", "Ben"], tr, private_chats=True
        )
        table = table_message(fake, group)
        held = False
        for _ in range(6):  # quick moves: the group's table edits are held back
            before = table.text
            assert await press_first_legal(app, record.id, people, tr)
            await app.tables.publish(record.id)
            held = held or table.text == before
        assert held, "some edit of the table message waits in the throttle"
        assert table.reply_markup is not None
        hands = [fake.messages(person.id)[-1] for person in people]

        assert await app.tables.leaving.cancel(group.id, people[0]) == Cancelled()
        cancelled = (table.text, table.reply_markup, [h.text for h in hands])
        assert table.reply_markup is None
        assert all(h.text == "The table was cancelled." and h.reply_markup is None for h in hands)
        mark = fake.mark()
        clock.advance(60)
        await app.publisher.throttle.settle()
        # nothing that waited came later to bring the buttons back
        assert (table.text, table.reply_markup, [h.text for h in hands]) == cancelled
        assert not fake.calls("editMessageText", since=mark)


async def test_the_hand_of_a_player_a_bot_plays_for_loses_its_buttons_at_the_end(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    async with service(fake, tmp_path, VirtualClock(), seed=4) as (app, tr):
        _, people, record = await started_table(app, fake, ["Ann", "Ben"], tr, private_chats=True)
        while (await saved_game(app, record.id))[1].current_seat() != 1:
            await press_first_legal(app, record.id, people, tr)
        current, _ = await saved_game(app, record.id)
        ann = current.seats[0]
        # what three turns timed out in a row leave: a bot plays for Ann, the seat hers
        current.seats[0] = Seat(name=ann.name, user_id=ann.user_id, bot="easy", away=True)
        await app.tables.store.repo.save(current)
        while await press_first_legal(app, record.id, people, tr):
            await app.tables.publish(record.id)
        await app.publisher.throttle.settle()
        ended, game = await saved_game(app, record.id)
        assert game.is_over and ended.seats[0].away
        hands = [fake.chat(p.id).messages[ended.hand_msgs[p.id]] for p in people]
        # her old buttons would only answer "This game is over."
        assert [hand.reply_markup for hand in hands] == [None, None]


async def test_a_bid_edits_the_bidders_hand_and_the_next_bidders_but_no_other_hand(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    clock = ManualClock()
    async with service(fake, tmp_path, clock, seed=5) as (app, tr):
        group, people, record = await started_table(
            app, fake, ["Ann", "Ben", "Cid"], tr, private_chats=True
        )
        table = table_message(fake, group)
        bids = 0
        for _ in range(12):  # all passing deals again: a few rounds of bids are enough
            current, game = await saved_game(app, record.id)
            if "bidding" not in game.phase:
                break
            seat = game.current_seat()
            assert seat is not None
            legal = game.legal_actions(seat)
            action = "pass" if "pass" in legal else legal[0]
            mark = fake.mark()
            await app.tables.play.act(record.id, current.version, people[seat], action)
            await app.tables.publish(record.id)
            clock.advance(60)  # anything held back goes out now
            await app.publisher.throttle.settle()
            _, after = await saved_game(app, record.id)
            shown = {c.params.get("chat_id") for c in fake.calls(since=mark)}
            if after.is_over or after.deal_no != game.deal_no:
                continue  # a redeal shows every hand anew
            bids += 1
            to_act = after.current_seat()
            waiting = {p.id for s, p in enumerate(people) if s not in (seat, to_act)}
            assert not shown & waiting, "a hand whose cards and buttons stayed is not edited"
            assert people[seat].id in shown  # the bidder's buttons go
            if to_act is not None:
                bidder_hand = fake.messages(people[to_act].id)[-1]
                assert "Auction: " in bidder_hand.text and "Your turn" in bidder_hand.text
            assert "Auction: " in table.text
        assert bids >= 2


async def test_a_first_turn_moments_after_the_hands_were_sent_is_an_edit_a_late_turn_is_sent(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    # Telegram notifies of a new message, not of an edit: a player whose hand came as a
    # new message moments ago has been called, and their turn edits it in place; one
    # whose last call is NOTIFY_AFTER old gets their turn as a new message
    fake = fake_telegram
    clock = ManualClock()
    async with service(fake, tmp_path, clock, seed=5) as (app, tr):
        _, people, record = await started_table(app, fake, ["Ann", "Ben"], tr, private_chats=True)

        async def passes() -> int | None:
            """The player to act passes; whose turn it is then."""
            current, game = await saved_game(app, record.id)
            seat = game.current_seat()
            assert seat is not None and "pass" in game.legal_actions(seat)
            await act(app, record.id, current.version, people[seat], "pass", tr)
            await app.tables.publish(record.id)
            return (await saved_game(app, record.id))[1].current_seat()

        def sent_to(user: Person, mark: int) -> int:
            calls = fake.calls("sendMessage", since=mark)
            return len([c for c in calls if c.params.get("chat_id") == user.id])

        _, game = await saved_game(app, record.id)
        first = game.current_seat()
        assert first is not None
        second = people[1 - first]
        dealt = fake.messages(second.id)[-1]  # sent as the game started
        clock.advance(3)
        mark = fake.mark()
        assert await passes() == 1 - first
        turn = fake.messages(second.id)[-1]
        assert turn.message_id == dealt.message_id and "Your turn" in turn.text
        assert sent_to(second, mark) == 0
        # their next turn comes long after this one: a new message
        assert await passes() == first
        clock.advance(NOTIFY_AFTER)
        await app.publisher.throttle.settle()
        mark = fake.mark()
        assert await passes() == 1 - first  # the second round of bidding
        assert sent_to(second, mark) == 1
        assert "Your turn" in fake.messages(second.id)[-1].text


@pytest.mark.parametrize("strained", [False, True], ids=["keeping-up", "overloaded"])
async def test_a_hand_edited_moments_ago_shows_a_move_later_and_the_answer_names_it(
    strained: bool, fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    # overloaded, the bot edits a waiting hand less often: the move shows later still
    fake = fake_telegram
    clock = ManualClock()
    async with service(fake, tmp_path, clock, seed=5) as (app, tr):
        _, people, record = await started_table(app, fake, ["Ann", "Ben"], tr, private_chats=True)
        # moves some seconds apart, each after every edit held back went out: the last
        # one edits the hand of the player to act (a turn after their first, see
        # NOTIFY_AFTER) and the table at once
        for _ in range(3):
            clock.advance(GROUP_EDIT_INTERVAL)
            await app.publisher.throttle.settle()
            reply = await press_first_legal(app, record.id, people, tr)
            assert reply is not None and not reply.text  # the hand shows the move at once
            await app.tables.publish(record.id)
        app.publisher.strained = lambda: strained
        current, game = await saved_game(app, record.id)
        seat = game.current_seat()
        assert seat is not None
        presser = people[seat]
        clock.advance(0.5)  # their turn began half a second ago, with an edit of their hand
        mark = fake.mark()
        action = game.legal_actions(seat)[0]
        reply = await act(app, record.id, current.version, presser, action, tr)
        # the hand will show the move later: the answer says it was taken
        assert reply.text == f"✓ {action_label(action, tr)}" and not reply.alert
        await app.tables.publish(record.id)
        _, after = await saved_game(app, record.id)
        assert after.current_seat() not in (seat, None)

        def edits() -> list[ApiCall]:
            calls = fake.calls("editMessageText", since=mark)
            return [c for c in calls if c.params.get("chat_id") == presser.id]

        assert not edits()
        await asyncio.sleep(0)  # the tasks holding edits back start, to wait on the clock
        assert clock.asleep() == 2  # the hand's edit and the table's
        clock.advance(HAND_EDIT_INTERVAL)
        # the table's waits for its group interval, and the strained hand's for its own
        assert clock.asleep() == (2 if strained else 1)
        if strained:
            clock.advance(STRAINED_HAND_EDIT_INTERVAL - HAND_EDIT_INTERVAL)
        await fake.wait_for_call(
            "editMessageText", lambda c: c.params.get("chat_id") == presser.id, since=mark
        )
        assert len(edits()) == 1


async def test_a_game_being_shown_is_not_changed_by_the_presses_after_it(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    # publish shows a table outside its state lock, from the one parsed game every reader
    # shares (peek), while later presses are committed: each must change its own copy
    fake = fake_telegram
    async with service(fake, tmp_path, VirtualClock(), seed=7) as (app, tr):
        _, people, record = await started_table(app, fake, ["Ann", "Ben"], tr)
        shown: list[tuple[Game, dict[str, object]]] = []
        for _ in range(12):
            current = await app.tables.store.repo.get(record.id)
            assert current is not None
            game = app.tables.store.peek(current)
            assert app.tables.store.peek(current) is game  # read from memory, not parsed again
            shown.append((game, game.to_json()))
            seat = game.current_seat()
            assert seat is not None
            await app.tables.play.act(
                record.id, current.version, people[seat], game.legal_actions(seat)[0]
            )
        assert all(game.to_json() == state for game, state in shown)
        assert len({id(game) for game, _ in shown}) == len(shown)


async def test_a_table_that_closes_leaves_nothing_of_it_in_memory(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    # a bot up for months opens tables without end: what it holds must be for open ones
    fake = fake_telegram
    async with service(fake, tmp_path, VirtualClock(), seed=3) as (app, tr):

        async def play(record: TableRecord, people: list[Person], moves: int) -> None:
            for _ in range(moves):
                if not await press_first_legal(app, record.id, people, tr):
                    return
                await app.tables.publish(record.id)

        def held() -> dict[str, int]:
            gc.collect()  # a table's two locks refer to each other
            store, publisher = app.tables.store, app.publisher
            return {
                "locks": len(store._locks) + len(store._chat_locks),
                "games": len(store._games) + len(app.tables.showing._pending),
                "resent": len(publisher._hand_resent),
                "rows": len(store.repo._rows),
                "hands": len(publisher._hand_shown) + len(publisher._turn_at),
                "unreachable": len(publisher._unreachable),
            }

        played = await started_table(app, fake, ["Ann", "Ben"], tr, private_chats=True)
        # nobody here opened the chat with the bot: the group is told how to get the cards
        cancelled = await started_table(app, fake, ["Cid", "Dan", "Eve"], tr)
        left = await started_table(app, fake, ["Fay", "Gus"], tr, private_chats=True)
        await play(cancelled[2], cancelled[1], 5)
        await play(left[2], left[1], 5)
        await play(played[2], played[1], 3)
        for _, people, record in (played, cancelled, left):
            for who in people:  # the player to act gets their hand message anew
                await app.tables.play.hand(record.id, who)
            await app.publisher.remind(record, people[0].id, 5)
        before = held()
        assert before.pop("locks") == 0  # nobody holds or awaits them between presses
        assert all(before.values()), before
        await app.tables.leaving.cancel(cancelled[0].id, cancelled[1][0])
        await app.tables.chats.close_chat(left[0].id)  # the bot was removed from the group
        await play(played[2], played[1], 10_000)
        _, game = await saved_game(app, played[2].id)
        assert game.is_over
        await app.publisher.throttle.settle()
        assert held() == dict.fromkeys(held(), 0)


async def test_tables_beyond_the_parsed_games_kept_are_read_again_the_same(
    fake_telegram: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables_store, "KEEP_GAMES", 1)
    fake = fake_telegram
    async with service(fake, tmp_path, VirtualClock(), seed=9) as (app, tr):
        tables = [await started_table(app, fake, [f"A{n}", f"B{n}"], tr) for n in range(3)]
        for _ in range(4):
            for _, people, record in tables:
                reply = await press_first_legal(app, record.id, people, tr)
                assert reply is not None and reply.text is None
                assert len(app.tables.store._games) == 1
        for _, _, record in tables:
            current, game = await saved_game(app, record.id)
            assert current.state is not None and current.version > record.version
            assert game.to_json() == jsonio.loads(current.state)


async def test_each_deal_result_and_the_score_reach_every_hand_in_its_message(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    clock = VirtualClock()
    async with service(fake, tmp_path, clock, seed=7) as (app, tr):
        _, people, record = await started_table(
            app, fake, ["Ann", "Ben", "Cid"], tr, private_chats=True
        )
        while (await saved_game(app, record.id))[1].rows_scored < 2:
            assert await press_first_legal(app, record.id, people, tr)
            await app.tables.publish(record.id)
        await app.publisher.throttle.settle()
        current, game = await saved_game(app, record.id)
        sheet = game.scoresheet()
        score = "Score: " + " · ".join(
            f"{p.name} {t}".replace("-", "−") for p, t in zip(people, sheet.totals, strict=True)
        )
        for person in people:
            hand = fake.chat(person.id).messages[current.hand_msgs[person.id]]
            lines = hand.text.splitlines()
            assert lines[1].startswith(f"Deal {sheet.rows[-1].deal_no}: Ann ")
            assert lines[2] == score
            # the first deal's result was edited into the hand message that now says the second's
            assert any("Deal 1: Ann " in text for text in [hand.text, *hand.history])
