"""Hostile and odd input through the real Dispatcher: each is answered and changes nothing.

Forged or foreign callback data, buttons pressed by the wrong people or in the
wrong place, junk command arguments, the bot removed from a group, a group
upgraded to a supergroup, edited commands and deleted messages.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.app import App
from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import Button, FakeChat, FakeMessage, FakeUser
from bot.db.models import TableRecord, TableStatus
from bot.db.sends import HELD
from bot.telegram.rates import RESEND_HAND_AFTER
from tests.bot.chats import group_of, person, private_menu
from tests.bot.test_commands import lobby_with, started
from tests.e2e.harness import (
    BotProcess,
    ManualClock,
    Players,
    hand_message,
    legal_buttons,
    live_table,
    texts,
)

HUGE = "9" * 30


@pytest.fixture(autouse=True)
def no_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No handler may fail on any of this: the error router would log it."""
    caplog.set_level(logging.INFO)
    yield
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures]


async def record_of(running: BotProcess, table_id: int) -> TableRecord:
    assert running.app is not None
    record = await running.app.tables.store.repo.get(table_id)
    assert record is not None
    return record


def table_id_of(message: FakeMessage) -> int:
    data = next(b.callback_data for b in message.buttons if b.callback_data)
    assert data is not None
    return int(data.split(":")[1])


async def host_to_play(
    fake: FakeTelegram, group: FakeChat, host: FakeUser
) -> tuple[FakeMessage, int, FakeMessage, list[Button]]:
    """A started table whose host acts first: its message, id, the host's hand and legal buttons."""
    table = await started(fake, group, host)
    hand = await fake.wait_for(lambda: hand_message(fake, host))
    legal = await fake.wait_for(lambda: legal_buttons(hand))
    return table, table_id_of(table), hand, legal


async def test_forged_foreign_and_malformed_callback_data_is_answered_and_changes_nothing(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    lobby = await lobby_with(fake, group, ann)
    table_id = table_id_of(lobby)
    before = await record_of(running, table_id)
    text, markup = lobby.text, lobby.reply_markup
    forged = [
        "",
        "other-bot:42",
        "x:1:2",
        "a",
        "a:abc:0:cAS",
        "a:1",
        "a:1:2:c:AS",
        f"a:{HUGE}:0:cAS",
        f"a:{table_id}:{HUGE}:cAS",
        f"l:{HUGE}:0:join:-1",
        f"l:-{HUGE}:0:start:-1",
        f"l:{table_id}:0:start:extra",
        f"l:{table_id}:0:explode:-1",
        f"l:{table_id}:0:opt:{HUGE}",
        f"t:{HUGE}:0:hand",
        f"t:{table_id}:0:nothing",
        f"v:{HUGE}:1:0",
        f"v:{table_id}:1:0",
        f"v:{table_id}:-1:1",
        f"v:{table_id}:{HUGE}:1",
        f"v:{table_id}:1:x",
        "g:de",
        "n:chess",
        "s:chess:9:",
        "s:deberts:9:hard",
        "\u0000\u202e" + "é" * 30,
    ]
    for data in forged:
        for user, chat in ((ben, group), (ben, ben)):
            where = lobby if chat is group else fake.last_message(ben)
            assert where is not None
            answer = await (await user.press_data(where, data)).answer()
            assert answer.text, (data, answer)
    after = await record_of(running, table_id)
    assert (after.version, after.status, after.seats) == (
        before.version,
        before.status,
        before.seats,
    )
    assert (lobby.text, lobby.reply_markup) == (text, markup)
    assert fake.calls("sendMessage", since=0)[-1].params["chat_id"] in (group.id, ben.id)


async def test_a_forged_version_action_or_card_on_a_real_table_is_refused(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    table, table_id, hand, _ = await host_to_play(fake, group, ann)
    before = await record_of(running, table_id)
    v = before.version
    mine = {(b.callback_data or "").rsplit(":", 1)[-1] for b in hand.buttons}
    not_mine = next(f"c{r}{s}" for r in "789TJQKA" for s in "SCDH" if f"c{r}{s}" not in mine)
    table_text, hand_text = table.text, hand.text
    for data in (
        f"a:{table_id}:{v + 7}:{sorted(mine)[0]}",
        f"a:{table_id}:{v - 1}:{sorted(mine)[0]}",
        f"a:{table_id}:{v}:zzz",
        f"a:{table_id}:{v}:{not_mine}",
        f"a:{table_id}:{v}:b120",
        f"a:{table_id}:{v}:cXY",
        f"a:{table_id}:{v}:",
        f"l:{table_id}:{v}:start:-1",
        f"l:{table_id}:{v}:join:-1",
    ):
        answer = await (await ann.press_data(hand, data)).answer()
        assert answer.text, (data, answer)
    after = await record_of(running, table_id)
    assert (after.version, after.state) == (v, before.state)
    assert (table.text, hand.text) == (table_text, hand_text)


async def test_buttons_pressed_by_people_not_at_the_table_are_refused(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table, table_id, hand, _ = await host_to_play(fake, group, ann)
    before = await record_of(running, table_id)
    card = legal_buttons(hand)[0].callback_data or ""
    played = await (await ben.press_data(table, card)).answer()
    assert played.show_alert and played.text == "You are not at this table."
    mine = await (await ben.press(table, "🂠 My hand")).answer()
    assert mine.text == "You are not at this table."
    cancelled = await (await ben.press_data(table, f"l:{table_id}:0:cancel:-1")).answer()
    assert cancelled.text == "This table is no longer open."
    after = await record_of(running, table_id)
    assert (after.version, after.status) == (before.version, TableStatus.PLAYING)


async def test_buttons_on_finished_or_cancelled_tables_change_nothing(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table, table_id, hand, card = await host_to_play(fake, group, ann)
    data = card[0].callback_data or ""
    await ann.send(group, "/cancel")
    await fake.wait_for(lambda: hand.text == "The table was cancelled.")
    cancelled = await record_of(running, table_id)
    assert cancelled.status == TableStatus.CANCELLED
    late = await (await ann.press_data(hand, data)).answer()
    assert late.text == "The table was cancelled."
    lobby_late = await (await ann.press_data(table, f"l:{table_id}:0:start:-1")).answer()
    assert lobby_late.text == "This table is no longer open."
    # a finished table: the same
    other = fake.add_group("Second", members=[ann, ben])
    table2 = await started(fake, other, ann)
    second = table_id_of(table2)
    hand2 = await fake.wait_for(lambda: hand_message(fake, ann))
    buttons = await fake.wait_for(lambda: legal_buttons(hand2))
    assert running.app is not None
    record = await record_of(running, second)
    record.status = TableStatus.FINISHED
    await running.app.tables.store.repo.save(record)
    mark = fake.mark()
    over = await (await ann.press(hand2, buttons[0].text)).answer()
    assert over.text == "This game is over."
    assert not fake.calls("sendMessage", since=mark) and not fake.calls(
        "editMessageText", since=mark
    )
    assert (await record_of(running, second)).version == record.version
    assert (await record_of(running, table_id)).version == cancelled.version


async def test_buttons_left_on_a_cancelled_table_say_so_and_go(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    old, table_id, hand, card = await host_to_play(fake, group, ann)
    data = card[0].callback_data or ""
    # the table message cannot be edited any more (too old): the cancel is said anew
    fake.fail_next(
        "editMessageText",
        400,
        description="Bad Request: message can't be edited",
        when=lambda params: params.get("message_id") == old.message_id,
    )
    await ann.send(group, "/cancel")
    await fake.wait_for(lambda: hand.text == "The table was cancelled.")
    assert old.buttons
    last = next(b.callback_data for b in old.buttons if b.text == "Last trick")
    mine = await (await ann.press(old, "🂠 My hand")).answer()
    assert mine.text == "The table was cancelled."
    await fake.wait_for(lambda: not old.buttons)
    for pressed in (last or "", data):
        answer = await (await ann.press_data(old, pressed)).answer()
        assert answer.text == "The table was cancelled."
    assert (await record_of(running, table_id)).status == TableStatus.CANCELLED


async def test_a_table_button_pressed_in_another_chat_is_refused(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    lobby = await lobby_with(fake, group, ann)
    table_id = table_id_of(lobby)
    # Carl owns another group where the bot also is, and forges this table's buttons there
    carl = await person(fake, "Carl")
    elsewhere = fake.add_group("Elsewhere", members=[carl])
    await carl.send(elsewhere, "/help")
    there = await fake.wait_for_message(elsewhere)
    before = await record_of(running, table_id)
    for action in ("join", "bot", "settings", "start", "cancel"):
        answer = await (
            await carl.press_data(there, f"l:{table_id}:{before.version}:{action}:-1")
        ).answer()
        assert answer.text == "This button belongs to another chat.", action
    after = await record_of(running, table_id)
    assert (after.version, after.status, after.seats) == (
        before.version,
        before.status,
        before.seats,
    )
    await (await ann.press(lobby, "+ Hard bot")).answer()
    await (await ann.press(lobby, "Start")).answer()
    await fake.wait_for(lambda: hand_message(fake, ann))
    last = await (await carl.press_data(there, f"t:{table_id}:0:last")).answer()
    assert last.text == "This button belongs to another chat."


async def test_commands_with_junk_arguments_are_answered_and_change_nothing(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    assert running.app is not None
    tables = running.app.tables.store.repo
    await ann.send(group, "/new chess")
    offer = await fake.wait_for_message(group)
    assert offer.text == "Which game?" and [b.text for b in offer.buttons] == [
        "Deberts",
        "Thousand",
    ]
    await ann.send(group, "/new " + "<b>x" * 1000)
    assert (await fake.wait_for_message(group)).text == "Which game?"
    assert await tables.open_in_chat(group.id) is None
    await ann.send(group, "/rules " + "<b>x" * 1000)
    rules = await fake.wait_for_message(group)
    named = "<b>x" * 7 + "<b>…"  # cut, and shown as written
    assert rules.text == f"I know no game called “{named}”: /rules deberts or /rules thousand."
    await ann.send(group, "/lang de")
    ask = await fake.wait_for_message(group)
    assert ask.text == "Choose the language:"
    assert running.app is not None
    assert await running.app.tables.people.chat_lang(group.id) is None
    await ann.send(ann, f"/start j{HUGE}")
    assert (await fake.wait_for_message(ann)).text == "This table is no longer open."
    await ann.send(ann, "/start j-1")
    assert "Deberts and Thousand" in (await fake.wait_for_message(ann)).text
    await ann.send(ann, "/new " + "z" * 4000)
    assert (await fake.wait_for_message(ann)).text == "Which game?"
    assert await tables.open_in_chat(ann.id) is None


async def test_the_bot_removed_from_a_group_closes_its_table_and_sends_nothing_there(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann, ben)
    table_id = table_id_of(table)
    hands = [await fake.wait_for(lambda u=u: hand_message(fake, u)) for u in (ann, ben)]
    mark = fake.mark()
    fake.kick_bot(group)  # Ann, the owner, removes the bot
    await fake.wait_for(lambda: all(h.text == "The table was cancelled." for h in hands))
    assert (await record_of(running, table_id)).status == TableStatus.CANCELLED
    assert running.app is not None
    assert await running.app.tables.people.has_private(ann.id)  # kicking is not blocking
    await ann.send(ann, "/help")
    await fake.wait_for_message(ann)
    to_group = [c for c in fake.calls(since=mark) if c.params.get("chat_id") == group.id]
    assert not to_group, to_group


async def test_a_group_upgraded_to_a_supergroup_takes_its_table_along(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann)
    table_id = table_id_of(table)
    new_id = fake.migrate_group(group)
    moved = await fake.wait_for_message(new_id, lambda m: bool(m.buttons))
    assert table_id_of(moved) == table_id
    assert (await record_of(running, table_id)).chat_id == new_id
    mark = fake.mark()
    hand = await fake.wait_for(lambda: hand_message(fake, ann))
    buttons = await fake.wait_for(lambda: legal_buttons(hand))
    answer = await (await ann.press(hand, buttons[0].text)).answer()
    assert not answer.show_alert
    await fake.wait_for_call("editMessageText", lambda c: c.params["chat_id"] == new_id, since=mark)
    assert not [c for c in fake.calls(since=mark) if c.params.get("chat_id") == group.id]
    await ann.send(new_id, "/new thousand")
    pointer = await fake.wait_for_message(new_id, lambda m: not m.buttons)
    assert pointer.text.startswith("A game of Deberts is on in this chat")


async def test_a_send_refused_with_migrate_to_chat_id_follows_the_new_chat(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann)
    table_id = table_id_of(table)
    # the upgrade is learnt only from the error, as when its service message was missed
    upgraded = fake.add_group("Cards", members=[ann, ben], supergroup=True)
    for method in ("sendMessage", "editMessageText"):
        fake.fail_next(
            method,
            400,
            count=None,
            description="Bad Request: group chat was upgraded to a supergroup chat",
            parameters={"migrate_to_chat_id": upgraded.id},
            when=lambda p: p.get("chat_id") == group.id,
        )
    hand = await fake.wait_for(lambda: hand_message(fake, ann))
    buttons = await fake.wait_for(lambda: legal_buttons(hand))
    answer = await (await ann.press(hand, buttons[0].text)).answer()
    assert not answer.show_alert
    moved = await fake.wait_for_message(upgraded, lambda m: bool(m.buttons), since=0)
    assert table_id_of(moved) == table_id
    await fake.wait_for(lambda: fake.calls("answerCallbackQuery", since=0))
    # the record is saved just after the message is sent
    async with asyncio.timeout(5):
        while (await record_of(running, table_id)).chat_id != upgraded.id:  # noqa: ASYNC110
            await asyncio.sleep(0.01)


async def test_a_flood_of_commands_in_a_group_keeps_nobody_waiting(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    _, table_id, hand, legal = await host_to_play(fake, group, ann)
    await fake.wait_handled()
    mark, waited = fake.mark(), list(running.clock.waited)
    await ben.send(group, "/new deberts")  # the table posted again, and a pointer to it
    await fake.wait_handled()
    for n in range(24):
        await ben.send(group, "/help" if n % 2 else "/new deberts")
    await fake.wait_handled(timeout=20)
    sent = [c for c in fake.calls("sendMessage", since=mark) if c.params["chat_id"] == group.id]
    # replies take at most half of the group's 20 messages a minute, and none waited for one
    assert 1 <= len(sent) <= 10
    assert running.clock.waited == waited
    pointers = [c for c in sent if c.params["text"].startswith("A game of Deberts is on")]
    assert pointers and all("reply_parameters" in c.params for c in pointers)
    # the game goes on: the table's own messages have the other half
    version = (await record_of(running, table_id)).version
    answer = await (await ann.press(hand, legal[0].text)).answer()
    assert not answer.show_alert
    await fake.wait_handled()
    assert (await record_of(running, table_id)).version > version


@pytest.fixture
async def paced(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> AsyncIterator[tuple[App, ManualClock]]:
    """The bot with its Bot API calls paced on a clock that moves only when a test says."""
    pace = ManualClock(now=0.0)
    proc = BotProcess(fake_telegram, tmp_path / "bot.sqlite3", manual_pace=pace)
    app = await proc.start()
    yield app, pace
    await proc.stop()


async def use_up_the_minute(app: App, group: FakeChat) -> None:
    while app.sender.slot_wait(group.id) == 0:
        await app.sender.send(group.id, "news")


async def test_a_lobby_in_a_group_that_used_its_minute_answers_presses_at_once(
    fake_telegram: FakeTelegram, paced: tuple[App, ManualClock]
) -> None:
    fake, (app, pace) = fake_telegram, paced
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    lobby = await lobby_with(fake, group, ann)
    await use_up_the_minute(app, group)
    # the clock stands still: a press waiting for the group's next slot never returns
    async with asyncio.timeout(5):
        assert not (await (await ben.press(lobby, "Join")).answer()).show_alert
        await fake.wait_handled()
    assert "Ben" not in lobby.text
    pace.advance(HELD)  # a slot frees: the lobby catches up
    await fake.wait_for(lambda: "Ben" in lobby.text)


async def test_language_buttons_in_a_group_that_used_its_minute_keep_nobody_waiting(
    fake_telegram: FakeTelegram, paced: tuple[App, ManualClock]
) -> None:
    fake, (app, pace) = fake_telegram, paced
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/lang")
    picker = await fake.wait_for_message(group)
    await use_up_the_minute(app, group)
    async with asyncio.timeout(5):  # the clock stands still: nothing may wait on it
        for user in (ben, ann, ann):  # a refusal, then the admin's choice and its repeat
            await (await user.press(picker, "English")).answer()
        await fake.wait_handled()
    pace.advance(HELD)
    await fake.wait_for(lambda: picker.text == "Language: English.")


async def test_a_game_cancelled_in_a_group_that_used_its_minute_keeps_nobody_waiting(
    fake_telegram: FakeTelegram, paced: tuple[App, ManualClock]
) -> None:
    fake, (app, pace) = fake_telegram, paced
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann, ben)
    hands = [await fake.wait_for(lambda u=u: hand_message(fake, u)) for u in (ann, ben)]
    await use_up_the_minute(app, group)
    async with asyncio.timeout(5):  # the clock stands still: nothing may wait on it
        await ann.send(group, "/cancel")
        await fake.wait_handled()
    assert all(h.text == "The table was cancelled." for h in hands)
    pace.advance(HELD)  # a slot frees: the table message says it too
    await fake.wait_for(lambda: table.text.endswith("The table was cancelled."))
    assert not table.buttons


async def test_the_table_replaces_its_lobby_at_once_when_the_game_starts(
    fake_telegram: FakeTelegram, paced: tuple[App, ManualClock]
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    lobby = await lobby_with(fake, group, ann)
    await (await ben.press(lobby, "Join")).answer()
    await (await ann.press(lobby, "Start")).answer()
    # with the clock still, a table edit paced from the last lobby edit would never go
    await fake.wait_for(lambda: any(b.text == "🂠 My hand" for b in lobby.buttons))


async def test_a_move_is_shown_while_its_answer_is_on_its_way(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    _, _, hand, legal = await host_to_play(fake, group, ann)
    before = hand.text
    gate = fake.hold("answerCallbackQuery")  # Telegram slow to take Ann's answer
    press = await ann.press(hand, legal[0].text)
    await gate.wait_arrived()
    # the next player's buttons (Ann's again, after the bot's move) do not wait for the
    # answer's round trip
    await fake.wait_for(lambda: hand.text != before and legal_buttons(hand))
    assert not press.answered
    gate.release()
    await press.answer()


async def test_an_edited_command_is_not_run_again(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/help")
    await fake.wait_for_message(group)
    sent = fake.messages(group, from_bot=False)[-1].to_api()
    fake.queue_update("edited_message", {**sent, "text": "/new deberts", "edit_date": 1})
    mark = fake.mark()
    await ann.send(group, "/score")
    reply = await fake.wait_for_message(group)
    assert reply.text == "No game has been played in this chat yet."
    assert len(fake.calls("sendMessage", since=mark)) == 1
    assert running.app is not None
    assert await running.app.tables.store.repo.open_in_chat(group.id) is None


async def test_a_deleted_table_message_is_sent_again(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    lobby = await lobby_with(fake, group, ann)
    lobby.deleted = True  # an admin deleted it: nobody could join any more
    await ann.send(group, "/new deberts")
    again = await fake.wait_for_message(group, lambda m: bool(m.buttons))
    assert again.find_buttons("Join")
    await (await ann.press(again, "+ Hard bot")).answer()
    await (await ann.press(again, "Start")).answer()
    hand = await fake.wait_for(lambda: hand_message(fake, ann))
    buttons = await fake.wait_for(lambda: legal_buttons(hand))
    shown = await fake.wait_for(lambda: live_table(fake, group))
    shown.deleted = True
    mark = fake.mark()
    await (await ann.press(hand, buttons[0].text)).answer()
    table = await fake.wait_for_message(group, lambda m: bool(m.buttons), since=mark)
    assert table.find_buttons("🂠 My hand")


async def test_a_deleted_hand_message_is_sent_again_when_it_is_needed(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann, ben)
    hands = {u.id: await fake.wait_for(lambda u=u: hand_message(fake, u)) for u in (ann, ben)}
    actor = await fake.wait_for(
        lambda: next((u for u in (ann, ben) if legal_buttons(hands[u.id])), None)
    )
    waiting = ben if actor is ann else ann
    hands[waiting.id].deleted = True
    await (await actor.press(hands[actor.id], legal_buttons(hands[actor.id])[0].text)).answer()
    fresh = await fake.wait_for(
        lambda: (m := hand_message(fake, waiting)) is not None and not m.deleted and m
    )
    assert fresh is not hands[waiting.id]
    # pressing My hand brings back a hand message deleted while it is one's turn
    now = await fake.wait_for(
        lambda: next((u for u in (ann, ben) if legal_buttons(hand_message(fake, u) or fresh)), None)
    )
    current = hand_message(fake, now)
    assert current is not None
    current.deleted = True
    await (await now.press(table, "🂠 My hand")).answer()
    back = await fake.wait_for(lambda: hand_message(fake, now))
    assert back is not current and legal_buttons(back)


async def test_the_private_game_menu_pressed_twice_or_late_answers_quietly(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    ann = await person(fake, "Ann")
    menu = await private_menu(fake, ann)
    assert menu.text == "Which game?"
    # a double tap: the second press comes from the message as it was before the first
    thousand = menu.button("Thousand").callback_data or ""
    for _ in range(2):
        answer = await (await ann.press_data(menu, thousand)).answer()
        assert answer.text is None, answer.text
        assert menu.text == "How many bot opponents?"
    two = menu.button("Two bots").callback_data or ""
    for _ in range(2):
        answer = await (await ann.press_data(menu, two)).answer()
        assert answer.text is None, answer.text
        assert menu.text == "Which level?"
    answer = await (await ann.press(menu, "Easy")).answer()
    assert not answer.show_alert
    await fake.wait_for(lambda: hand_message(fake, ann))


async def test_a_language_change_during_a_move_does_not_undo_the_move(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    zed = fake.add_user("Zed")
    fake.add_member(group, zed, admin=True)
    await started(fake, group, ann, ben)
    assert running.app is not None
    tables = running.app.tables.store.repo
    record = await tables.open_in_chat(group.id)
    assert record is not None
    # Zed is no host: the bot asks Telegram whether Zed is an admin, and that answer waits
    gate = fake.hold("getChatMember", count=1)
    await zed.send(group, "/lang ru")
    await gate.wait_arrived()

    def to_act() -> tuple[FakeUser, FakeMessage] | None:
        for user in (ann, ben):
            hand = hand_message(fake, user)
            if hand is not None and legal_buttons(hand):
                return user, hand
        return None

    player, hand = await fake.wait_for(to_act)
    answer = await (await player.press(hand, legal_buttons(hand)[0].text)).answer()
    assert not answer.show_alert
    moved = await tables.get(record.id)
    assert moved is not None and moved.version > record.version
    gate.release()
    await fake.wait_for_message(group, lambda m: m.text == "Язык: русский.")
    after = await tables.get(record.id)
    assert after is not None
    assert (after.state, after.version) == (moved.state, moved.version)
    assert after.lang == "ru"
    assert await running.app.tables.people.chat_lang(group.id) == "ru"


async def test_my_hand_pressed_over_and_over_sends_the_hand_again_once(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann, ben)
    actor = await fake.wait_for(
        lambda: next((u for u in (ann, ben) if legal_buttons(hand_message(fake, u) or table)), None)
    )
    mark = fake.mark()
    for _ in range(6):
        shown = await (await actor.press(table, "🂠 My hand")).answer()
        assert shown.show_alert and (shown.text or "").startswith("Your cards: ")
    await fake.wait_handled()
    sent = [c for c in fake.calls("sendMessage", since=mark) if c.params["chat_id"] == actor.id]
    assert len(sent) == 1  # the first press brings the hand down; the rest only show it
    hand = hand_message(fake, actor)
    assert hand is not None and legal_buttons(hand)
    # a while later, the hand may have been lost again: a press brings it once more
    assert running.app is not None
    await running.clock.sleep(RESEND_HAND_AFTER)
    mark = fake.mark()
    await (await actor.press(table, "🂠 My hand")).answer()
    await fake.wait_handled()
    assert [c for c in fake.calls("sendMessage", since=mark) if c.params["chat_id"] == actor.id]


async def test_start_sent_over_and_over_during_a_game_sends_the_hand_again_once(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await started(fake, group, ann, ben)
    await fake.wait_for(lambda: hand_message(fake, ben))
    mark = fake.mark()
    for _ in range(5):
        await ben.send(ben, "/start")
    await fake.wait_handled()
    sent = [c.params["text"] for c in fake.calls("sendMessage", since=mark)]
    assert len([t for t in sent if "your hand, Ben" in t]) == 1
    assert len([t for t in sent if t.startswith("<b>Deberts and Thousand")]) == 5
    hand = hand_message(fake, ben)
    assert hand is not None and not hand.deleted


async def test_names_that_look_like_html_are_shown_as_written(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    names = ["<b>Ann</b>", "Ben & Co <3", "Cid</i>"]
    group, users = await group_of(fake, *names)
    table = await lobby_with(fake, group, *users, game="thousand")
    assert all(name in table.text for name in names)
    await (await users[0].press(table, "Start")).answer()
    players = Players(fake, users, random.Random(7))
    while not any(t.startswith("Deal 1 is over.") for t in texts(fake, group)):
        assert await players.play(until=1) == 1
    result = next(t for t in texts(fake, group) if t.startswith("Deal 1 is over."))
    assert all(name.split()[0] in result for name in names)
    assert all(name in table.text for name in names)
    for user in users:
        hand = hand_message(fake, user)
        assert hand is not None and user.first_name in hand.text
    await users[0].send(group, "/score")
    sheet = await fake.wait_for_message(group, lambda m: "Scoresheet" in m.text)
    assert sheet.text.splitlines()[1].split() == ["<b>Ann<…", "Ben", "&", "C…", "Cid</i>"]
    await users[2].send(group, "/leave")
    notice = await fake.wait_for_message(group, lambda m: "left the table" in m.text)
    assert notice.text == "Cid</i> left the table; a bot plays for them now."
    assert not [c for c in fake.calls() if c.error and "parse" in c.error]
