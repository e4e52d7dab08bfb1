"""A restart brings every table back, and one it cannot read does not keep the others down."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.bench.fake_telegram import FakeTelegram
from bot.tables import SHOW_AGAIN, Person
from bot.tables.outcomes import Moved
from bot.tables.timers import RETRY_AFTER
from bot.telegram.sender import _MAX_ATTEMPTS as _SENDER_ATTEMPTS
from tests.bot.test_timer import TIMER, advance, open_table, press_any, record, seat_to_act, start
from tests.e2e.fixtures import Launch
from tests.e2e.harness import code_of, hand_message, legal_buttons, newer_legal, texts, version_of


@pytest.mark.parametrize(
    ("column", "garbage"),
    [("state", '{"game": "deberts", "seats": 2'), ("seats", "[{not json")],
)
async def test_a_table_that_cannot_be_read_does_not_stop_the_others_after_a_restart(
    fake_telegram: FakeTelegram,
    tmp_path: Path,
    launch: Launch,
    caplog: pytest.LogCaptureFixture,
    column: str,
    garbage: str,
) -> None:
    fake = fake_telegram
    database = tmp_path / "bot.sqlite3"
    proc = await launch(default_timer=TIMER)
    broken_group, (ann, _), broken_lobby, broken = await open_table(fake, "Ann", "Ben")
    await start(fake, broken_lobby, ann)
    group, (cid, dan), lobby, table_id = await open_table(fake, "Cid", "Dan")
    await start(fake, lobby, cid)
    await fake.wait_for(lambda: hand_message(fake, cid) and hand_message(fake, dan))
    await proc.stop()

    with closing(sqlite3.connect(database)) as db, db:
        db.execute(f"UPDATE tables SET {column}=? WHERE id=?", (garbage, broken))

    await proc.start()  # start-up resumes every table: it must not fail
    assert f"could not resume table {broken}" in caplog.text
    # a press at the broken table gets a plain answer, and the bot goes on
    mine = next(b.text for b in broken_lobby.buttons if "My hand" in b.text)
    answer = await (await ann.press(broken_lobby, mine)).answer()
    assert answer.text == "⚠️ Something went wrong on my side. Please try again later."
    await ann.send(broken_group, "/score")
    told = await fake.wait_for_message(broken_group)
    assert told.text == "⚠️ Something went wrong on my side. Please try again later."
    # the readable table plays on as before
    seat = await seat_to_act(proc, table_id)
    assert seat is not None
    before = (await record(proc, table_id)).version
    await press_any(fake, (cid, dan)[seat])
    assert (await record(proc, table_id)).version == before + 1

    # Both tables' turns run out. The broken one's timer fails and is put off a minute;
    # the readable one's turns still time out, a minute apart, and nothing spins meanwhile.
    caplog.clear()
    await advance(proc, TIMER)
    assert f"timer of table {broken} failed" in caplog.text
    time_up = [t for t in texts(fake, group) if t.startswith("⏰ Time is up")]
    assert len(time_up) == 1
    caplog.clear()
    await advance(proc, RETRY_AFTER - 1)
    assert "failed" not in caplog.text
    await advance(proc, 1)
    assert caplog.text.count(f"timer of table {broken} failed") == 1
    assert len([t for t in texts(fake, group) if t.startswith("⏰ Time is up")]) == 2


async def test_a_move_a_crash_left_unshown_is_shown_by_a_restart_during_an_outage(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    fake = fake_telegram
    proc = await launch()
    _, users, lobby, table_id = await open_table(fake, "Ann", "Ben")
    await start(fake, lobby, users[0])
    seat = await seat_to_act(proc, table_id)
    assert seat is not None
    user = users[seat]
    hand = await fake.wait_for(lambda: hand_message(fake, user))
    button = (await fake.wait_for(lambda: legal_buttons(hand)))[0]
    # the move is saved, and the bot dies before its press handler shows it
    assert proc.app is not None
    code = code_of(button)
    outcome = await proc.app.tables.play.act(
        table_id, version_of(button), Person(user.id, "x"), code
    )
    assert isinstance(outcome, Moved) and not outcome.shown_later
    await proc.stop()
    # the restart's first attempt at showing it meets Telegram out of reach
    fake.fail_next("editMessageText", 502, count=_SENDER_ATTEMPTS + 1)
    await proc.start()

    def shown() -> bool:
        return any(
            (message := hand_message(fake, u)) is not None
            and bool(newer_legal(message, version_of(button)))
            for u in users
        )

    await fake.wait_for(shown, what="the saved move to be shown")
    assert SHOW_AGAIN[0] in proc.clock.waited
