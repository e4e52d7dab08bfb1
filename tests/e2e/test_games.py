"""Whole games through Telegram: the real bot, long polling, a fake Bot API, simulated people."""

from __future__ import annotations

import random
from pathlib import Path

from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeMessage, FakeUser
from bot.render.keyboards.callbacks import Lobby, TableButton
from tests.bot.test_commands import solo
from tests.e2e.clock import FastClock
from tests.e2e.fixtures import Launch
from tests.e2e.harness import (
    BotProcess,
    Players,
    busiest_minute,
    cautious_policy,
    deal_starts,
    hand_message,
    legal_buttons,
    texts,
    version_of,
    wait_turn,
)
from tests.e2e.process import ChildBot

MAX_PRESSES = 3000


async def seat_players(
    fake: FakeTelegram, game: str, names: list[str], *, target_301: bool = False
) -> tuple[FakeChat, list[FakeUser], FakeMessage]:
    users = [fake.add_user(name) for name in names]
    group = fake.add_group("Cards", members=users)
    for user in users:
        await user.start_private()
        await fake.wait_for_message(user)
    await users[0].send(group, f"/new {game}")
    lobby = await fake.wait_for_message(group)
    most = 4 if game == "thousand" else 3
    assert f"Players (1 of 2–{most})" in lobby.text
    for user in users[1:]:
        answer = await (await user.press(lobby, "Join")).answer()
        assert answer.text == "You joined the table."
    if target_301:
        await (await users[0].press(lobby, "Settings")).answer()
        await (await users[0].press(lobby, "Target: 501")).answer()
        assert lobby.button("Target: 301")
        await (await users[0].press(lobby, "« Back")).answer()
    await (await users[0].press(lobby, "Start")).answer()
    return group, users, lobby


def one_clock(fake: FakeTelegram, proc: BotProcess) -> None:
    """The fake Telegram tells time by the clock the bot paces its messages on (which
    runs when the bot waits for a slot), so what reached it can be timed against
    Telegram's limits."""
    proc.clock.now = fake.clock()
    fake.clock = proc.clock


async def finish(fake: FakeTelegram, group: FakeChat, players: Players) -> str:
    """Play to the end: no minute may hold more than 20 of the group's messages, a bot
    restarted meanwhile included (the group's minute is kept in the database)."""
    await players.play(until=MAX_PRESSES)
    assert players.to_act() is None
    final = [t for t in texts(fake, group) if t.startswith("Game over.")]
    assert len(final) == 1, texts(fake, group)[-3:]
    # the table stayed in sight: at the start of every deal it was the newest message
    starts = deal_starts(fake, group)
    assert len(starts) >= 2 and all(last for _, last in starts), starts
    assert [n for n, _ in starts] == list(range(1, len(starts) + 1))
    assert busiest_minute(fake, group) <= 20
    return final[0]


async def test_deberts_two_players_play_a_whole_game(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    one_clock(fake_telegram, await launch())
    group, users, table = await seat_players(
        fake_telegram, "deberts", ["Ann", "Ben"], target_301=True
    )
    # Cid comes when the game is on: he asks for a seat at the next one
    cid = await ask_for_the_next_game(fake_telegram, group, "Cid")
    players = Players(fake_telegram, users, random.Random(2))
    final = await finish(fake_telegram, group, players)
    assert "wins!" in final
    sheet = [t for t in texts(fake_telegram, group) if "Scoresheet — Deberts" in t]
    assert sheet, "a scoresheet follows every deal"
    # the live table message became the final table: no buttons left, a winner named
    assert "🏆 Winner:" in table.text or any("🏆 Winner:" in t for t in texts(fake_telegram, group))
    mark = fake_telegram.mark()
    await play_again_in_the_group(fake_telegram, group, users, cid)
    told = await fake_telegram.wait_for_message(cid, since=mark)
    assert told.text == (
        "A new table of Deberts is open in “Cards”, and you have a seat at it, as you asked."
        " The host starts the game."
    )


async def ask_for_the_next_game(fake: FakeTelegram, group: FakeChat, name: str) -> FakeUser:
    """A member of ``group`` who presses Join when its game is on (as on a lobby message
    shown late) and, in the private chat that opens, asks for a seat at the next game."""
    user = fake.add_user(name)
    fake.add_member(group, user)
    table = await fake.wait_for(
        lambda: next((m for m in fake.messages(group) if m.find_buttons("🂠 My hand")), None)
    )
    table_id = TableButton.unpack(table.button("🂠 My hand").callback_data or "").table_id
    join = Lobby(table_id=table_id, version=0, action="join").pack()
    late = await (await user.press_data(table, join)).answer()
    assert late.url is not None
    await user.follow(late.url)
    offer = await fake.wait_for_message(user, lambda m: bool(m.buttons))
    assert "has already started" in offer.text
    await (await user.press(offer, "🪑 Seat me for the next game")).answer()
    assert offer.text.startswith("You will have a seat at the next table of Deberts")
    return user


async def play_again_in_the_group(
    fake: FakeTelegram, group: FakeChat, users: list[FakeUser], asked: FakeUser
) -> None:
    """ "Play again" under the final result opens a lobby with the finished table's settings,
    its presser the host; pressed again, it points to that lobby."""
    ann, ben = users
    (final,) = [m for m in fake.messages(group) if m.text.startswith("Game over.")]
    assert not (await (await ben.press(final, "🔁 Play again")).answer()).show_alert
    lobby = await fake.wait_for(
        lambda: next((m for m in fake.messages(group) if "a new table" in m.text), None)
    )
    # everyone who finished it is seated again, the presser first, then who asked
    assert f"1. Ben (host)\n2. Ann\n3. {asked.first_name}\n" in lobby.text
    assert "• Target: 301\n" in lobby.text
    again = await (await ann.press(final, "🔁 Play again")).answer()
    assert again.text == "There is already a table in this chat: Deberts."
    assert [m for m in fake.messages(group) if "a new table" in m.text] == [lobby]
    # only a finished table of this chat can be played again
    finished = int((final.button("🔁 Play again").callback_data or "").split(":")[1])
    other = fake.add_group("Other", members=users)
    await ann.send(other, "/help")
    elsewhere = await fake.wait_for_message(other)
    for table_id, message in ((finished, elsewhere), (finished + 1, lobby)):
        forged = await fake.callback_query(ann, message, f"r:{table_id}").answer()
        assert forged.text == "That is not possible now."
    assert not [m for m in fake.messages(other) if "a new table" in m.text]


async def test_deberts_three_players_play_a_whole_game(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    one_clock(fake_telegram, await launch())
    group, users, _ = await seat_players(
        fake_telegram, "deberts", ["Ann", "Ben", "Cid"], target_301=True
    )
    final = await finish(fake_telegram, group, Players(fake_telegram, users, random.Random(3)))
    assert "Final scores: Ann" in final


async def test_thousand_two_players_play_a_whole_game(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    one_clock(fake_telegram, await launch(seed=16))
    group, users, _ = await seat_players(fake_telegram, "thousand", ["Ann", "Ben"])
    players = Players(fake_telegram, users, random.Random(4), cautious_policy)
    final = await finish(fake_telegram, group, players)
    assert "wins!" in final
    assert any("Scoresheet — Thousand" in t for t in texts(fake_telegram, group))


async def test_thousand_three_players_play_a_whole_game(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    one_clock(fake_telegram, await launch(seed=14))
    group, users, _ = await seat_players(fake_telegram, "thousand", ["Ann", "Ben", "Cid"])
    players = Players(fake_telegram, users, random.Random(5), cautious_policy)
    final = await finish(fake_telegram, group, players)
    assert "wins!" in final


async def test_a_killed_bot_process_resumes_mid_deal_and_finishes_the_game(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    # The game's minutes pass twenty times faster, for the bot and for the fake Telegram
    # that times its calls; while the bot is down and starting again, at the wall's pace:
    # it comes back within the minute of its last messages before the kill.
    clock = FastClock(tmp_path / "clock.json", speed=20)
    fake.clock = clock
    child = ChildBot(fake, tmp_path / "bot.sqlite3", seed=60, clock=clock)
    async with child:
        group, users, table = await seat_players(fake, "deberts", ["Ann", "Ben"], target_301=True)
        players = Players(fake, users, random.Random(6))
        for _ in range(12):
            assert await players.step()
        await wait_turn(fake, users, players.version)
        found = players.to_act()
        assert found is not None
        user, message, buttons = found
        now = version_of(buttons[0])

        def shown() -> bool:
            """The table and every hand are done showing the state ``now``."""
            if any(version_of(b) != now for b in table.buttons if b.callback_data):
                return False
            for other in users:
                hand = hand_message(fake, other)
                if other is not user and hand is not None and legal_buttons(hand):
                    return False
            return True

        await fake.wait_for(shown, what="the table and hands to show the latest state")
        table_before = table.text
        hands_before = [hand_message(fake, u).text for u in users]  # type: ignore[union-attr]
        clock.at_speed(1)
        await child.kill()
        await child.start()
        # the restarted bot brings the messages up to date: nothing changed, nothing lost
        await fake.wait_idle()
        clock.at_speed(20)
        assert table.text == table_before
        assert [hand_message(fake, u).text for u in users] == hands_before  # type: ignore[union-attr]
        # a button sent before the restart keeps working: its version is still current
        players.version = version_of(buttons[0])
        answer = await (await user.press(message, buttons[0].text)).answer(timeout=15)
        assert not answer.show_alert
        # the group's 20 messages a minute held across the restart (finish checks them)
        await finish(fake, group, players)


async def test_a_repeated_press_is_answered_and_changes_nothing(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    fake = fake_telegram
    proc = await launch()
    _, users, _ = await seat_players(fake, "deberts", ["Ann", "Ben"])
    players = Players(fake, users, random.Random(7))
    found = players.to_act()
    assert found is not None
    user, message, buttons = found
    button = buttons[0]
    first = await fake.callback_query(user, message, button.callback_data or "").answer()
    assert first.text is None
    assert proc.app is not None
    await proc.app.publisher.throttle.settle()
    mark = fake.mark()
    again = await fake.callback_query(user, message, button.callback_data or "").answer()
    assert again.text == "Already played, or this button is out of date."
    assert not fake.calls("editMessageText", since=mark)
    assert not fake.calls("sendMessage", since=mark)


async def test_join_without_a_private_chat_gives_a_deep_link_that_completes_the_join(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    fake = fake_telegram
    await launch()
    ann = fake.add_user("Ann")
    ben = fake.add_user("Ben")
    group = fake.add_group("Cards", members=[ann, ben])
    await ann.start_private()
    await fake.wait_for_message(ann)
    await ann.send(group, "/new thousand")
    lobby = await fake.wait_for_message(group)
    answer = await (await ben.press(lobby, "Join")).answer()
    assert answer.show_alert
    assert answer.url == f"https://t.me/{fake.bot_username}?start=j1"
    assert "Ben" not in lobby.text
    await ben.follow(answer.url)
    reply = await fake.wait_for_message(ben)
    assert reply.text.startswith("You joined the table of Thousand in “Cards”.")
    await fake.wait_for(lambda: "2. Ben" in lobby.text)
    # the same link (table ids are easy to guess) seats nobody from outside the group
    eve = fake.add_user("Eve")
    await eve.follow(answer.url)
    refused = await fake.wait_for_message(eve)
    assert refused.text == "That table is in a group you are not a member of."
    await fake.wait_handled()
    assert "Eve" not in lobby.text
    await (await ann.press(lobby, "Start")).answer()
    assert hand_message(fake, ben) is not None


async def test_a_game_against_bots_in_a_private_chat(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    fake = fake_telegram
    await launch()
    ann = await solo(fake, "Two bots")
    players = Players(fake, [ann], random.Random(8))
    await players.play(until=MAX_PRESSES)
    final = [t for t in texts(fake, ann.id) if t.startswith("Game over.")]
    assert len(final) == 1
    assert hand_message(fake, ann) is None or not legal_buttons(hand_message(fake, ann))
    # "Play again" deals a new game against the same two bots
    (result,) = [m for m in fake.messages(ann) if m.text.startswith("Game over.")]
    await fake.wait_handled()
    # the result stays last, its button in view: the hand above it is edited, not sent anew
    assert fake.last_message(ann) is result
    assert (await (await ann.press(result, "🔁 Play again")).answer()).text is None
    await fake.wait_for(lambda: "deal 1 ·" in (fake.last_message(ann) or result).text)
    assert "Score: Ann 0 · Bot 1 0 · Bot 2 0\n" in texts(fake, ann.id)[-2]
    busy = await (await ann.press(result, "🔁 Play again")).answer()
    assert busy.show_alert and busy.text == "You already have a game here; /cancel ends it."
