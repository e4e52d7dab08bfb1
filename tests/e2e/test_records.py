"""Players' records through Telegram: two finished games in a group, then /stats, /top,
/history, /deal, the picture of the score posted with each final result and /export."""

from __future__ import annotations

import json
import random
import struct

from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeMessage, FakeUser
from bot.history import chart
from tests.e2e.fixtures import Launch
from tests.e2e.harness import Players, texts

MAX_PRESSES = 3000


async def _game(fake: FakeTelegram, group: FakeChat, users: list[FakeUser], seed: int) -> None:
    """One Deberts game to 301 in ``group``, opened by the first user."""
    await users[0].send(group, "/new deberts")
    lobby = await fake.wait_for_message(group, lambda m: "Players (1 of 2–3)" in m.text)
    for user in users[1:]:
        await (await user.press(lobby, "Join")).answer()
    await (await users[0].press(lobby, "Settings")).answer()
    await (await users[0].press(lobby, "Target: 501")).answer()
    await (await users[0].press(lobby, "« Back")).answer()
    await (await users[0].press(lobby, "Start")).answer()
    players = Players(fake, users, random.Random(seed))
    await players.play(until=MAX_PRESSES)
    assert players.to_act() is None


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
    for seed in (3, 4):
        await _game(fake, group, users, seed)
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
    export = await _reply(fake, group, users[0], "/export")
    assert export.attachment is not None
    kind, name, data = export.attachment
    assert kind == "document" and name.endswith(".json")
    exported = json.loads(data)
    assert exported["players"] == ["Ann", "Ben"]
    assert exported["scoresheet"]["winner"] is not None
    assert [d["deal_no"] for d in exported["deals"]] == list(range(1, len(exported["deals"]) + 1))
