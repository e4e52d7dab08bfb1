"""Players' records through Telegram: two finished games in a group, then /stats, /top,
/history, /deal, "Show the deal" under a deal's result (refused for a deal still being
played and to another chat), the picture of the score posted with each final result and
/export."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import struct
from collections.abc import Awaitable, Callable

from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeMessage, FakeUser
from bot.history import chart
from tests.e2e.fixtures import Launch
from tests.e2e.harness import Players, texts

MAX_PRESSES = 3000


async def _game(
    fake: FakeTelegram,
    group: FakeChat,
    users: list[FakeUser],
    seed: int,
    after_first_deal: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """One Deberts game to 501 in ``group``, opened by the first user; ``after_first_deal``
    runs once the first deal's result is posted, the second deal being played."""
    await users[0].send(group, "/new deberts")
    lobby = await fake.wait_for_message(group, lambda m: "Players (1 of 2–3)" in m.text)
    for user in users[1:]:
        await (await user.press(lobby, "Join")).answer()
    await (await users[0].press(lobby, "Settings")).answer()
    await (await users[0].press(lobby, "Target: 501")).answer()
    await (await users[0].press(lobby, "« Back")).answer()
    await (await users[0].press(lobby, "Start")).answer()
    players = Players(fake, users, random.Random(seed))
    if after_first_deal is not None:
        while not _results(fake, group, since=lobby.message_id):
            assert await players.step()
        await after_first_deal()
    await players.play(until=MAX_PRESSES)
    assert players.to_act() is None


def _results(fake: FakeTelegram, group: FakeChat, since: int = 0) -> list[FakeMessage]:
    """The deals' results posted in the group (after message ``since``)."""
    return [
        m
        for m in fake.messages(group, from_bot=True)
        if m.message_id > since and re.match(r"Deal \d+ is over\.", m.text)
    ]


def _review(message: FakeMessage) -> tuple[int, int]:
    """The table and deal a "Show the deal" button under ``message`` shows."""
    _, table_id, deal, _ = message.button("🃏 Show the deal").callback_data.split(":")
    return int(table_id), int(deal)


async def _reply(fake: FakeTelegram, group: FakeChat, user: FakeUser, text: str) -> FakeMessage:
    before = len(fake.messages(group, from_bot=True))
    await user.send(group, text)
    return await fake.wait_for(
        lambda: (
            fake.messages(group, from_bot=True)[-1]
            if len(fake.messages(group, from_bot=True)) > before
            else None
        ),
        timeout=30,
    )


async def test_records_of_two_games_in_a_group(fake_telegram: FakeTelegram, launch: Launch) -> None:
    fake = fake_telegram
    # the games fill the group's minute of messages: the commands after them are not
    # about Telegram's pacing, which other tests cover
    await launch(group_messages_per_minute=1000)
    users = [fake.add_user(name) for name in ("Ann", "Ben")]
    group = fake.add_group("Cards", members=users)
    for user in users:
        await user.start_private()
        await fake.wait_for_message(user)
    stranger = fake.add_user("Zed")
    elsewhere = fake.add_group("Elsewhere", members=[stranger])

    async def forged_presses() -> None:
        """Deal 2 is being played: no button shows it; deal 1 is not shown elsewhere."""
        first = _results(fake, group)[-1]
        table_id, deal = _review(first)
        assert deal == 1
        answer = await (await users[0].press_data(first, f"v:{table_id}:2:0")).answer()
        assert answer.show_alert and answer.text == "That deal has not been played to its end."
        mark = fake.mark()
        answer = await (await stranger.press_data(1, f"v:{table_id}:1:0", chat=elsewhere)).answer()
        assert answer.text == "Only the table's chat and players may see its deals."
        assert not fake.calls("sendMessage", since=mark)

    await _game(fake, group, users, 3)
    await _game(fake, group, users, 4, after_first_deal=forged_presses)
    pictures = await fake.wait_for(
        lambda: (
            found if len(found := [m for m in fake.messages(group) if m.attachment]) == 2 else None
        ),
        timeout=30,
    )
    for picture in pictures:
        assert picture.attachment is not None
        kind, name, png = picture.attachment
        assert (kind, name) == ("photo", "score.png")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (chart.WIDTH, chart.HEIGHT)
        assert 10_000 < len(png) < 300_000
    assert len([t for t in texts(fake, group) if t.startswith("Game over.")]) == 2

    stats = await _reply(fake, group, users[0], "/stats")
    assert "Games: 2" in stats.text and "Rating (2 players)" in stats.text
    # replying to Ben's message asks for his
    said = await users[1].send(group, "hello")
    before = len(fake.messages(group, from_bot=True))
    await users[0].send(group, "/stats", reply_to=said)
    theirs = await fake.wait_for(
        lambda: (
            fake.messages(group, from_bot=True)[-1]
            if len(fake.messages(group, from_bot=True)) > before
            else None
        ),
        timeout=30,
    )
    assert theirs.text.startswith("Ben")
    top = await _reply(fake, group, users[0], "/top deberts")
    assert "Best of this chat: Deberts" in top.text
    history = await _reply(fake, group, users[0], "/history")
    assert history.text.count("Deberts #") == 2
    deal = await _reply(fake, group, users[1], "/deal 1")
    assert deal.text.startswith("Deal 1") and "Ann:" in deal.text and "1. " in deal.text
    await _show_the_deal(fake, group, users)
    export = await _reply(fake, group, users[0], "/export")
    assert export.attachment is not None
    kind, name, data = export.attachment
    assert kind == "document" and name.endswith(".json")
    exported = json.loads(data)
    assert exported["players"] == ["Ann", "Ben"]
    assert exported["scoresheet"]["winner"] is not None
    assert [d["deal_no"] for d in exported["deals"]] == list(range(1, len(exported["deals"]) + 1))
    sheet = await _reply(fake, group, users[0], "/export csv")
    assert sheet.attachment is not None
    kind, name, data = sheet.attachment
    assert kind == "document" and name == f"deberts-{exported['table']}.csv"
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == ["Deal", "Ann: points", "Ann: total", "Ben: points", "Ben: total", "Notes"]
    assert len(rows) == len(exported["scoresheet"]["rows"]) + 2
    assert rows[-1][2::2][:2] == [str(t) for t in exported["scoresheet"]["totals"]]


async def _show_the_deal(fake: FakeTelegram, group: FakeChat, users: list[FakeUser]) -> None:
    """Each result's button shows its own deal, numbered as the result is; the review
    steps through the game deal by deal in place; /history replays a game from deal 1."""
    results = _results(fake, group)
    game_two = [m for m in results if _review(m)[0] == _review(results[-1])[0]]
    for message in game_two:
        assert _review(message)[1] == int(message.text.split()[1])  # "Deal N is over."
    second = game_two[1]
    before = len(fake.messages(group, from_bot=True))
    answer = await (await users[1].press(second, "🃏 Show the deal")).answer()
    assert not answer.show_alert
    shown = await fake.wait_for(
        lambda: (
            fake.messages(group, from_bot=True)[-1]
            if len(fake.messages(group, from_bot=True)) > before
            else None
        ),
        timeout=30,
    )
    lines = shown.text.split("\n")
    assert lines[0] == "Deal 2" and lines[1].startswith("Dealer: ")
    hands = [line for line in lines if line.startswith(("Ann: ", "Ben: "))]
    assert len(hands) == 2 and all(len(h.split()) == 10 for h in hands)  # nine cards each
    assert any(line.startswith("Open card: ") for line in lines)
    assert "9. " in shown.text  # its nine tricks
    assert [b.text for b in shown.buttons] == ["« Deal 1", "Deal 3 »"]
    answer = await (await users[0].press(shown, "« Deal 1")).answer()
    assert not answer.show_alert
    await fake.wait_for(lambda: shown.text.startswith("Deal 1\n") or None, timeout=30)
    assert [b.text for b in shown.buttons] == ["Deal 2 »"]
    history = [m for m in fake.messages(group, from_bot=True) if m.text.startswith("Recent games")][
        -1
    ]
    assert len(history.buttons) == 2 and history.buttons[0].text.startswith("▶ Deberts #")
    # the latest game first: its replay starts at deal 1 as a new message
    before = len(fake.messages(group, from_bot=True))
    await (await users[0].press(history, history.buttons[0].text)).answer()
    replay = await fake.wait_for(
        lambda: (
            fake.messages(group, from_bot=True)[-1]
            if len(fake.messages(group, from_bot=True)) > before
            else None
        ),
        timeout=30,
    )
    assert replay.text == shown.text and replay.message_id != shown.message_id
