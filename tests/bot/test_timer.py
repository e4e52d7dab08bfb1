"""The turn timer and the lobby's expiry, on a wall clock the tests move by hand."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Collection
from pathlib import Path

import pytest

from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeMessage, FakeUser
from bot.db.models import TableRecord, TableStatus
from bot.engine import game_class
from bot.render.cards import cards_line, sort_codes
from bot.tables.autoplay import AUTOPLAY_AFTER
from bot.tables.timers import RETRY_AFTER
from tests.bot.test_service import table_message
from tests.e2e.harness import BotProcess, hand_message, legal_buttons, texts

TIMER = 60


@pytest.fixture
async def timed(fake_telegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot with a 60-second turn timer for new tables."""
    proc = BotProcess(fake_telegram, tmp_path / "bot.sqlite3", default_timer=TIMER)
    await proc.start()
    yield proc
    await proc.stop()


async def advance(proc: BotProcess, seconds: float) -> None:
    """Move the wall clock on and wait until every timer due by then has run."""
    assert proc.app is not None
    proc.wall.advance(seconds)
    await asyncio.wait_for(proc.app.timers.settled(), 5)


async def record(proc: BotProcess, table_id: int) -> TableRecord:
    assert proc.app is not None
    found = await proc.app.tables.store.repo.get(table_id)
    assert found is not None
    return found


async def seat_to_act(proc: BotProcess, table_id: int) -> int | None:
    assert proc.app is not None
    return proc.app.tables.store.load(await record(proc, table_id)).current_seat()


async def open_table(
    fake: FakeTelegram, *names: str
) -> tuple[FakeChat, list[FakeUser], FakeMessage, int]:
    users = [fake.add_user(n) for n in names]
    group = fake.add_group("Cards", members=users)
    for user in users:
        await user.start_private()
        await fake.wait_for_message(user)
    await users[0].send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    for user in users[1:]:
        await (await user.press(lobby, "Join")).answer()
    table_id = int((lobby.button("Join").callback_data or "").split(":")[1])
    return group, users, lobby, table_id


async def start(fake: FakeTelegram, lobby: FakeMessage, host: FakeUser) -> None:
    answer = await (await host.press(lobby, "Start")).answer()
    assert answer.text == "The game has started."


async def started_pair(fake: FakeTelegram, proc: BotProcess) -> tuple[FakeChat, int, str]:
    """Ann and Ben's table under way: its group, its id and the name of the player to act."""
    group, (ann, _), lobby, table_id = await open_table(fake, "Ann", "Ben")
    await start(fake, lobby, ann)
    seat = await seat_to_act(proc, table_id)
    assert seat is not None and proc.app is not None
    return group, table_id, ("Ann", "Ben")[seat]


async def turn_running(
    fake: FakeTelegram, proc: BotProcess
) -> tuple[FakeChat, int, int, list[FakeUser]]:
    """Ann and Ben's table under way: its group, its id, the seat to act, Ann and Ben."""
    group, users, lobby, table_id = await open_table(fake, "Ann", "Ben")
    await start(fake, lobby, users[0])
    seat = await seat_to_act(proc, table_id)
    assert seat is not None
    return group, table_id, seat, users


async def press_any(fake: FakeTelegram, user: FakeUser) -> None:
    hand = await fake.wait_for(lambda: hand_message(fake, user))
    buttons = await fake.wait_for(lambda: legal_buttons(hand))
    answer = await (await user.press(hand, buttons[0].text)).answer()
    assert not answer.show_alert, answer.text


async def test_a_reminder_then_a_bot_moves_for_the_player_and_the_table_says_so(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    group, table_id, seat, users = await turn_running(fake, timed)
    late, waiting = users[seat], users[1 - seat]
    hand = await fake.wait_for(lambda: hand_message(fake, late))
    stale = (await fake.wait_for(lambda: legal_buttons(hand)))[0].callback_data or ""
    offered = " ".join(b.text for b in legal_buttons(hand))
    before = await record(timed, table_id)

    mark = fake.mark()
    await advance(timed, TIMER * 2 / 3 - 1)
    assert not fake.calls("sendMessage", since=mark)
    await advance(timed, 1)
    reminders = fake.calls("sendMessage", since=mark)
    assert [(c.params["chat_id"], c.params["text"]) for c in reminders] == [
        (late.id, "⏰ Your move: 20 s left, then a bot moves for you.")
    ]
    # one reminder per turn, however long the wait
    mark = fake.mark()
    await advance(timed, TIMER / 3 - 1)
    assert not fake.calls("sendMessage", since=mark)
    assert (await record(timed, table_id)).version == before.version

    await advance(timed, 1)
    assert f"⏰ Time is up for {late.first_name}: a bot made the move for them." in texts(
        fake, group
    )
    # the reminder now says what was done in the player's place
    (reminder,) = [m for m in fake.messages(late.id) if m.text.startswith("⏰")]
    await fake.wait_for(lambda: reminder.text.startswith("⏰ Time ran out"))
    assert not reminder.deleted
    made = reminder.text.removeprefix("⏰ Time ran out: a bot made your move (").removesuffix(").")
    assert made and made in offered
    after = await record(timed, table_id)
    assert after.version > before.version and after.state != before.state
    assert after.timeouts == {seat: 1}
    assert not any("⏰" in t for t in texts(fake, waiting))
    # the player's own press, too late, is refused and changes nothing
    answer = await (await late.press_data(hand, stale)).answer()
    assert answer.text == "Already played, or this button is out of date."
    assert (await record(timed, table_id)).version == after.version


async def test_a_reminder_goes_once_the_turn_is_over(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    group, users, lobby, table_id = await open_table(fake, "Ann", "Ben")
    await start(fake, lobby, users[0])
    for ended_by in ("a move", "the timer", "a move after a restart"):
        seat = await seat_to_act(timed, table_id)
        assert seat is not None
        late = users[seat]
        mark = fake.mark()
        await advance(timed, TIMER * 2 / 3)
        reminder = await fake.wait_for_message(
            late, lambda m: m.text.startswith("⏰ Your move"), since=mark
        )
        assert not reminder.deleted
        if ended_by == "a move after a restart":
            await timed.restart()  # the reminder is known to the new run too
        if ended_by.startswith("a move"):
            await press_any(fake, late)
        else:
            await advance(timed, TIMER / 3)
            assert f"⏰ Time is up for {late.first_name}: a bot made the move for them." in (
                texts(fake, group)
            )
        await fake.wait_handled()
        if ended_by == "the timer":
            assert not reminder.deleted and reminder.text.startswith("⏰ Time ran out: a bot")
        else:
            assert reminder.deleted, ended_by


@pytest.mark.parametrize("how", ["away", "/leave", "/cancel"])
async def test_a_reminder_goes_when_a_bot_takes_its_seat_or_the_table_closes(
    fake_telegram: FakeTelegram, timed: BotProcess, how: str
) -> None:
    fake = fake_telegram
    group, (ann, ben), lobby, table_id = await open_table(fake, "Ann", "Ben")
    await start(fake, lobby, ann)
    reminders: list[FakeMessage] = []
    for _ in range(3 if how == "away" else 1):
        while await seat_to_act(timed, table_id) != 0:
            await press_any(fake, ben)
        mark = fake.mark()
        await advance(timed, TIMER * 2 / 3)
        reminders.append(
            await fake.wait_for_message(
                ann, lambda m: m.text.startswith("⏰ Your move"), since=mark
            )
        )
        if how == "away":
            await advance(timed, TIMER / 3)
    if how == "away":
        assert (await record(timed, table_id)).seats[0].away
    else:
        await ann.send(group, how)
    await fake.wait_handled()
    if how == "away":  # each turn timed out: its reminder says so
        assert not any(reminder.deleted for reminder in reminders)
        assert all(r.text.startswith("⏰ Time ran out: a bot") for r in reminders)
    else:
        assert all(reminder.deleted for reminder in reminders), how


async def until_away(fake: FakeTelegram, proc: BotProcess, table_id: int, other: FakeUser) -> int:
    """Let seat 0 time out until a bot keeps it, ``other`` playing seat 1; the timeouts."""
    timeouts = 0
    while not (await record(proc, table_id)).seats[0].away:
        assert timeouts < 3
        if await seat_to_act(proc, table_id) == 0:
            await advance(proc, TIMER)
            timeouts += 1
        else:
            await press_any(fake, other)
    return timeouts


async def ann_away(fake: FakeTelegram, proc: BotProcess) -> tuple[FakeChat, FakeUser, int]:
    """Ann and Ben's table under way, a bot keeping Ann's seat: its group, Ann, its id."""
    group, (ann, ben), lobby, table_id = await open_table(fake, "Ann", "Ben")
    await start(fake, lobby, ann)
    await until_away(fake, proc, table_id, ben)
    return group, ann, table_id


@pytest.mark.parametrize("where", ["hand", "My hand", "Last trick"])
async def test_after_three_timeouts_in_a_row_a_bot_keeps_the_seat_until_a_press(
    fake_telegram: FakeTelegram, timed: BotProcess, where: str
) -> None:
    fake = fake_telegram
    group, (ann, ben), lobby, table_id = await open_table(fake, "Ann", "Ben")
    await start(fake, lobby, ann)
    assert await until_away(fake, timed, table_id, ben) == 3
    shown = texts(fake, group)
    assert shown.count("⏰ Time is up for Ann: a bot made the move for them.") == 2
    assert (
        "⏰ Ann missed 3 turns in a row: a bot plays for them until they press"
        " any button of this table." in shown
    )
    # Ann's turns now pass at once; Ben plays on with no deadline running for her
    for _ in range(3):
        assert await seat_to_act(timed, table_id) == 1
        await press_any(fake, ben)
    away = await record(timed, table_id)
    # the bot standing in plays at the level the bot was given (here, as in every test,
    # the random player; people's tables get the hard one)
    assert away.seats[0].bot == "random" and away.seats[0].user_id == ann.id
    # her hand says so, and follows the game the bot plays for her
    await fake.wait_handled()
    kept = [m for m in fake.messages(ann.id, from_bot=True) if "your hand, Ann" in m.text][-1]
    assert [b.text for b in kept.buttons] == ["I am back"]
    lines = kept.text.splitlines()
    assert "A bot plays for you. Press “I am back” to play again." in lines
    assert "Your turn." not in lines
    assert away.state is not None
    held = game_class(away.game).from_json(json.loads(away.state)).view(0)["hand"]
    assert f"Your cards: {cards_line(sort_codes(held), 'en')}" in lines
    deal = next(w for w in table_message(fake, group).text.split(" · ") if w.startswith("deal "))
    assert f" · {deal} · " in lines[0]

    # any button of the table will do: one in her private hand, or one of the group's
    if where == "hand":
        pressed, button = kept, "I am back"
    else:
        pressed = table_message(fake, group)
        button = next(b.text for b in pressed.buttons if where in b.text)
    answer = await (await ann.press(pressed, button)).answer()
    assert answer.text == "Welcome back: you have your seat again."
    assert "Ann is back and plays again." in texts(fake, group)
    back = await record(timed, table_id)
    assert not back.seats[0].is_bot and not back.seats[0].away
    assert back.timeouts == {}
    await fake.wait_for(lambda: (hand := hand_message(fake, ann)) is not None and hand.buttons)


async def test_an_away_player_tapping_twice_is_welcomed_then_shown_their_hand(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    group, ann, _ = await ann_away(fake, timed)
    table = table_message(fake, group)
    first = await ann.press(table, "🂠 My hand")
    second = await ann.press(table, "🂠 My hand")
    assert (await first.answer()).text == "Welcome back: you have your seat again."
    shown = await second.answer()
    assert shown.show_alert and (shown.text or "").startswith("Your cards: "), shown


async def test_an_away_player_may_leave_for_good(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    group, ann, table_id = await ann_away(fake, timed)
    await ann.send(group, "/leave")
    await fake.wait_for_message(group, lambda m: "Ann left the table" in m.text)
    left = (await record(timed, table_id)).seats[0]
    assert left.is_bot and not left.away  # her presses no longer take it back
    answer = await (await ann.press(table_message(fake, group), "🂠 My hand")).answer()
    assert answer.text == "You are not at this table."


@pytest.mark.parametrize("what", ["a restart", "the other player's /leave"])
async def test_a_reminder_stays_while_its_turn_runs(
    fake_telegram: FakeTelegram, timed: BotProcess, what: str
) -> None:
    fake = fake_telegram
    group, table_id, seat, users = await turn_running(fake, timed)
    late, other = users[seat], users[1 - seat]
    mark = fake.mark()
    await advance(timed, TIMER * 2 / 3)
    reminder = await fake.wait_for_message(
        late, lambda m: m.text.startswith("⏰ Your move"), since=mark
    )
    if what == "a restart":
        await timed.restart()
    else:
        await other.send(group, "/leave")
    await fake.wait_handled()
    assert await seat_to_act(timed, table_id) == seat  # nobody moved: the turn runs on
    assert not reminder.deleted, what
    await press_any(fake, late)
    await fake.wait_handled()
    assert reminder.deleted


async def test_a_table_whose_last_person_lets_three_turns_run_out_closes(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,), lobby, table_id = await open_table(fake, "Ann")
    await (await ann.press(lobby, "+ Hard bot")).answer()
    await start(fake, lobby, ann)
    hand = await fake.wait_for(lambda: hand_message(fake, ann))
    timeouts = 0
    while (await record(timed, table_id)).status == TableStatus.PLAYING:
        assert timeouts < 3
        # the bot moves at once, so every turn left waiting is Ann's
        assert await seat_to_act(timed, table_id) == 0
        await advance(timed, TIMER)
        timeouts += 1
    assert timeouts == 3
    shown = texts(fake, group)
    assert shown.count("⏰ Time is up for Ann: a bot made the move for them.") == 2
    closing = "⏰ Nobody is playing at this table any more: it is closed."
    assert shown.count(closing) == 1
    assert "The table was cancelled." not in shown  # the one notice says it
    assert lobby.text.endswith(closing)
    # the last state of the game stays, but nobody's turn: nobody moves any more
    assert "Score: Ann" in lobby.text and "Turn:" not in lobby.text
    # bots alone do not play on: no seat is handed to one, nothing more is due
    assert not any("missed 3 turns" in t for t in shown)
    closed = await record(timed, table_id)
    assert closed.status == TableStatus.CANCELLED
    assert closed.deadline is None and closed.remind_at is None
    assert hand.text == closing and not hand.buttons
    mark = fake.mark()
    await advance(timed, TIMER * 10)
    assert not fake.calls(since=mark)
    # the chat is free for a new table
    await ann.send(group, "/new thousand")
    fresh = await fake.wait_for_message(group)
    assert fresh.text.startswith("Thousand — a new table")


@pytest.mark.parametrize("stored", [True, False], ids=["put-off-stored", "put-off-failing"])
async def test_a_timer_that_fails_is_tried_again_a_minute_later_not_at_once(
    fake_telegram: FakeTelegram,
    timed: BotProcess,
    monkeypatch: pytest.MonkeyPatch,
    stored: bool,
) -> None:
    fake = fake_telegram
    group, table_id, name = await started_pair(fake, timed)
    seat = await seat_to_act(timed, table_id)
    assert timed.app is not None
    service = timed.app.tables.deadlines
    real = service.on_timer
    tried: list[float] = []

    async def fails_once(table_id: int, now: float) -> None:
        tried.append(now)
        if len(tried) == 1:
            raise RuntimeError("disk I/O error")
        await real(table_id, now)

    async def cannot_store(table_id: int, when: float) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(service, "on_timer", fails_once)
    if not stored:
        # the new deadline is not written either: the table stays due in SQLite
        monkeypatch.setattr(service, "postpone", cannot_store)
    before = await record(timed, table_id)
    mark = fake.mark()
    await advance(timed, TIMER * 2 / 3)  # the reminder is due, and its handling fails
    assert len(tried) == 1
    assert not fake.calls("sendMessage", since=mark)
    assert (await record(timed, table_id)).version == before.version
    # not tried again in a loop, nor before the minute is up; the turn is not lost either
    await advance(timed, RETRY_AFTER - 1)
    assert len(tried) == 1
    await advance(timed, 1)
    assert len(tried) == 2
    assert f"⏰ Time is up for {name}: a bot made the move for them." in texts(fake, group)
    assert (await record(timed, table_id)).timeouts == {seat: 1}


async def test_a_table_whose_timer_waits_holds_up_no_other_table(
    fake_telegram: FakeTelegram, timed: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_telegram
    slow_group, slow_id, slow_name = await started_pair(fake, timed)
    group, _, name = await started_pair(fake, timed)
    assert timed.app is not None
    service = timed.app.tables.deadlines
    real = service.on_timer
    slot = asyncio.Event()
    slow_runs: list[float] = []

    async def waits_for_a_slot(table_id: int, now: float) -> None:
        if table_id == slow_id:
            # as a group that has used its minute does: its notice waits for a slot
            slow_runs.append(now)
            await slot.wait()
        await real(table_id, now)

    monkeypatch.setattr(service, "on_timer", waits_for_a_slot)

    def time_up(chat: FakeChat) -> list[str]:
        return [t for t in texts(fake, chat) if t.startswith("⏰ Time is up")]

    # both turns run out at once: the other table's goes on regardless, turn after turn
    timed.wall.advance(TIMER)
    await fake.wait_for(lambda: time_up(group), what="the other table's time-out")
    assert time_up(group) == [f"⏰ Time is up for {name}: a bot made the move for them."]
    timed.wall.advance(TIMER)
    await fake.wait_for(lambda: len(time_up(group)) == 2, what="its next time-out")
    # still due all along, the waiting table's timer was not started a second time
    assert len(slow_runs) == 1 and not time_up(slow_group)

    slot.set()
    await advance(timed, 0)
    assert time_up(slow_group) == [f"⏰ Time is up for {slow_name}: a bot made the move for them."]
    assert len(slow_runs) == 1


async def test_the_timers_outlive_a_database_read_that_fails(
    fake_telegram: FakeTelegram, timed: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_telegram
    group, _, name = await started_pair(fake, timed)
    assert timed.app is not None
    repo = timed.app.tables.store.repo
    real = repo.next_due
    failed: list[bool] = []

    async def fails_once(skip: Collection[int] = ()) -> float | None:
        if not failed:
            failed.append(True)
            raise sqlite3.OperationalError("disk I/O error")
        return await real(skip)

    monkeypatch.setattr(repo, "next_due", fails_once)
    await advance(timed, 1)
    assert failed
    await advance(timed, TIMER - 1)
    assert f"⏰ Time is up for {name}: a bot made the move for them." in texts(fake, group)


async def test_with_the_timer_off_nothing_happens_however_long_the_wait(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    _, (ann, ben), lobby, table_id = await open_table(fake, "Ann", "Ben")
    await (await ann.press(lobby, "Settings")).answer()
    while "Turn timer: off" not in [b.text for b in lobby.buttons]:
        timer = next(b.text for b in lobby.buttons if b.text.startswith("Turn timer"))
        await (await ann.press(lobby, timer)).answer()
    await (await ann.press(lobby, "« Back")).answer()
    assert "• Turn timer: off" in lobby.text
    await start(fake, lobby, ann)
    await fake.wait_for(lambda: hand_message(fake, ann) and hand_message(fake, ben))
    before = await record(timed, table_id)
    assert before.deadline is None
    mark = fake.mark()
    await advance(timed, 24 * 3600)
    assert not fake.calls(since=mark)
    after = await record(timed, table_id)
    assert (after.version, after.status) == (before.version, TableStatus.PLAYING)


async def test_an_unstarted_lobby_closes_after_thirty_minutes(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _), lobby, table_id = await open_table(fake, "Ann", "Ben")
    assert "A table not started within 30 minutes closes." in lobby.text
    await advance(timed, 30 * 60 - 1)
    assert (await record(timed, table_id)).status == TableStatus.LOBBY
    await advance(timed, 1)
    assert lobby.text == "This table was not started within 30 minutes and is closed."
    assert not lobby.buttons
    assert (await record(timed, table_id)).status == TableStatus.CANCELLED
    # the chat is free for a new table
    await ann.send(group, "/new thousand")
    fresh = await fake.wait_for_message(group)
    assert fresh.text.startswith("Thousand — a new table")


async def test_deadlines_survive_a_restart_and_are_not_extended_by_it(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    group, table_id, name = await started_pair(fake, timed)
    deadline = (await record(timed, table_id)).deadline
    assert deadline == timed.wall() + TIMER

    await advance(timed, TIMER / 2)
    await timed.restart()
    assert (await record(timed, table_id)).deadline == deadline
    await advance(timed, TIMER / 2 - 1)
    assert f"⏰ Time is up for {name}: a bot made the move for them." not in texts(fake, group)
    await advance(timed, 1)
    assert f"⏰ Time is up for {name}: a bot made the move for them." in texts(fake, group)

    # down past a whole deadline: the move is made as soon as the bot is back
    seat = await seat_to_act(timed, table_id)
    assert seat is not None
    name = ("Ann", "Ben")[seat]
    await timed.stop()
    timed.wall.advance(TIMER * 10)
    mark = fake.mark()
    await timed.start()
    assert timed.app is not None
    await asyncio.wait_for(timed.app.timers.settled(), 5)
    notices = [
        c.params["text"]
        for c in fake.calls("sendMessage", since=mark)
        if c.params["chat_id"] == group.id
    ]
    assert notices.count(f"⏰ Time is up for {name}: a bot made the move for them.") == 1
    assert (await record(timed, table_id)).deadline == timed.wall() + TIMER


async def test_a_player_who_blocked_the_bot_is_told_how_to_fix_it_and_gets_the_hand_back(
    fake_telegram: FakeTelegram, timed: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben), lobby, table_id = await open_table(fake, "Ann", "Ben")
    ben.block_bot()
    await start(fake, lobby, ann)
    notice = (
        "Ben, I cannot send you your cards: you may have blocked me. Unblock me, open the"
        f" chat with @{fake.bot_username} and press /start. Until then your turns time out."
    )
    await fake.wait_for(lambda: notice in texts(fake, group))
    assert hand_message(fake, ben) is None
    # Ben's turns time out; the notice is not repeated every move
    for _ in range(4):
        if await seat_to_act(timed, table_id) == 1:
            await advance(timed, TIMER)
        else:
            await press_any(fake, ann)
    assert texts(fake, group).count(notice) == 1
    assert any("⏰ Time is up for Ben" in t for t in texts(fake, group))

    mark = fake.mark()
    await ben.start_private()
    hand = await fake.wait_for(lambda: hand_message(fake, ben))
    assert hand.message_id > 0
    await fake.wait_handled()  # the hand is sent before its message id is saved
    assert any(c.params.get("chat_id") == ben.id for c in fake.calls("sendMessage", since=mark))
    current = await record(timed, table_id)
    assert ben.id in current.hand_msgs


async def last_cards(
    fake: FakeTelegram, proc: BotProcess, table_id: int, users: list[FakeUser]
) -> int:
    """Ann and Ben play their first legal cards until the one to act holds one card."""
    assert proc.app is not None
    while True:
        game = proc.app.tables.store.load(await record(proc, table_id))
        seat = game.current_seat()
        assert seat is not None
        if game.view(seat, brief=True)["phase"] == "play" and len(game.view(seat)["hand"]) == 1:
            return seat
        await press_any(fake, users[seat])


async def test_forced_last_cards_play_themselves_after_a_moment(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, table_id, _, users = await turn_running(fake, running)
    assert running.app is not None
    seat = await last_cards(fake, running, table_id, users)
    before = await record(running, table_id)
    assert before.deadline == running.wall() + AUTOPLAY_AFTER and before.remind_at is None
    hand = await fake.wait_for(lambda: hand_message(fake, users[seat]))
    await fake.wait_for(lambda: "Your last card plays itself in a moment." in hand.text)
    await advance(running, AUTOPLAY_AFTER / 2)
    assert (await record(running, table_id)).version == before.version  # shown a moment
    await advance(running, AUTOPLAY_AFTER / 2)
    after = await record(running, table_id)
    assert after.version == before.version + 1
    # the other's last card, then the deal is over, with nobody pressing
    await advance(running, AUTOPLAY_AFTER)
    game = running.app.tables.store.load(await record(running, table_id))
    assert game.rows_scored == 1
    # played as the player would have: no "time is up", no timeout counted
    assert not any("Time is up" in t for t in texts(fake, group.id))
    assert not (await record(running, table_id)).timeouts


async def test_a_table_set_so_leaves_the_last_card_to_its_player(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    _, users, lobby, table_id = await open_table(fake, "Ann", "Ben")
    await (await users[0].press(lobby, "Settings")).answer()
    assert "Forced last cards play themselves: yes" in lobby.text
    await (await users[0].press(lobby, "Forced last cards play themselves: yes")).answer()
    await fake.wait_for(lambda: "Forced last cards play themselves: no" in lobby.text)
    await (await users[0].press(lobby, "« Back")).answer()
    await start(fake, lobby, users[0])
    seat = await last_cards(fake, running, table_id, users)
    waiting = await record(running, table_id)
    assert waiting.deadline is None and not waiting.autoplay
    hand = await fake.wait_for(lambda: hand_message(fake, users[seat]))
    assert "plays itself" not in hand.text
    await advance(running, 60)
    assert (await record(running, table_id)).version == waiting.version
