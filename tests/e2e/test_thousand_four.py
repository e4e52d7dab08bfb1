"""Thousand for four through Telegram: a group of four, each dealing a deal and sitting it
out on the talon, and a private game against three bots.

The players press only buttons the bot sent them; the check that no hidden card reaches
another chat reads the game the bot saved, as the other privacy tests do.
"""

from __future__ import annotations

import json
import random
import re

from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeMessage, FakeUser
from bot.engine.base import Game
from tests.bot.test_privacy import hidden_cards, leaks
from tests.e2e.fixtures import Launch
from tests.e2e.harness import (
    BotProcess,
    Players,
    cautious_policy,
    live_table,
    texts,
    version_of,
    wait_turn,
)

NAMES = ["Ann", "Ben", "Cid", "Dan"]
_RESULT = re.compile(r"^Deal (\d+) is over\.")
_SAT_OUT = re.compile(r"^(.+?) dealt and sat out: the talon's \d+ write \d+$", re.M)
SITTING_OUT = "You dealt: you sit this deal out, on the talon, and write its points."


def results(fake: FakeTelegram, chat: FakeChat | int) -> list[str]:
    return [t for t in texts(fake, chat) if _RESULT.match(t)]


async def press_one(players: Players) -> None:
    """One press of a button just received, as :meth:`Players.step` makes it; its answer
    waited for longer, as the whole table's messages go out first on a busy machine."""
    found = players.to_act()
    assert found is not None
    user, message, buttons = found
    button = players.policy(buttons, players.rng)
    players.version = version_of(button)
    answer = await (await user.press(message, button.text)).answer(timeout=15)
    assert not answer.show_alert, (button, answer)


async def saved_game(proc: BotProcess, chat_id: int) -> Game:
    assert proc.app is not None
    store = proc.app.tables.store
    record = await store.repo.open_in_chat(chat_id)
    assert record is not None
    return store.load(record)


async def four_in_a_lobby(fake: FakeTelegram) -> tuple[FakeChat, list[FakeUser], FakeMessage]:
    users = [fake.add_user(name) for name in NAMES]
    group = fake.add_group("Cards", members=users)
    for user in users:
        await user.start_private()
        await fake.wait_for_message(user)
    ann = users[0]
    await ann.send(group, "/new thousand")
    lobby = await fake.wait_for_message(group)
    assert "Players (1 of 2–4)" in lobby.text
    for user in users[1:3]:
        assert (await (await user.press(lobby, "Join")).answer()).text == "You joined the table."
    # three seated: a fourth seat is still open, to a person or a bot
    assert {"Join", "+ Hard bot"} <= {b.text for b in lobby.buttons}
    await (await users[3].press(lobby, "Join")).answer()
    assert "Players (4 of 2–4)" in lobby.text and "4. Dan" in lobby.text
    assert [b.text for b in lobby.buttons] == ["Leave", "Settings", "Start", "Cancel"]
    await (await ann.press(lobby, "Start")).answer()
    assert lobby.text.startswith("Thousand · deal 1 · dealer")
    return group, users, lobby


async def test_four_players_in_a_group_each_deal_once_and_see_no_hidden_card(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    fake = fake_telegram
    proc = await launch(seed=3)
    assert proc.app is not None
    group, users, _ = await four_in_a_lobby(fake)
    seat_of_chat = {user.id: seat for seat, user in enumerate(users)}
    players = Players(fake, users, random.Random(9), cautious_policy)
    sat_out: dict[int, str] = {}
    """Per deal, the sitting-out dealer's hand message as they last read it."""
    before: Game | None = None
    mark = 0
    checked = 0
    while len(results(fake, group)) < 4:
        await wait_turn(fake, users, players.version)
        await proc.app.publisher.throttle.settle()
        await fake.wait_handled()
        game = await saved_game(proc, group.id)
        for call in fake.calls(since=mark):
            if call.method not in ("sendMessage", "editMessageText"):
                continue
            chat = call.params["chat_id"]
            viewer = None if chat == group.id else seat_of_chat[chat]
            text = str(call.params.get("text", ""))
            if "is over.</b>" in text:
                # a result names the deal's final trick, whose cards are dealt anew since
                text = "\n".join(
                    line for line in text.split("\n") if not line.startswith("Last trick:")
                )
            blob = json.dumps({**call.params, "text": text}, ensure_ascii=False)
            # an edit held back during a move may still show the state before it
            hidden = hidden_cards(game, viewer) & hidden_cards(before or game, viewer)
            assert not leaks(blob, hidden), blob
            checked += 1
        view = game.view(None, brief=True)
        out = view["sitting_out"]
        assert isinstance(out, int) and out == view["dealer"]
        table = await fake.wait_for(
            lambda n=view["deal_no"]: (
                (t := live_table(fake, group)) and f"deal {n} " in t.text and t
            )
        )
        assert f"Sits out on the talon: {NAMES[out]}" in table.text
        dealer_hand = [m for m in fake.messages(users[out], from_bot=True) if SITTING_OUT in m.text]
        assert dealer_hand, f"{NAMES[out]} is told they sit deal {view['deal_no']} out"
        assert dealer_hand[-1].buttons == []  # no cards, nothing to press
        sat_out[view["deal_no"]] = dealer_hand[-1].text
        before, mark = game, fake.mark()
        await press_one(players)
    assert checked > 100
    posted = results(fake, group)[:4]
    dealers = [_SAT_OUT.search(text) for text in posted]
    assert sorted(m.group(1) for m in dealers if m) == sorted(NAMES)
    # the scoresheet under each result marks what the talon wrote
    assert all("* the dealer sat the deal out and wrote the talon" in t for t in posted)
    for deal in (1, 2, 3, 4):
        hand = sat_out[deal]
        assert f"deal {deal} · your hand" in hand
        # the dealer's hand holds what the table shows, never a card of a hand: it is
        # among the messages checked above, and has no card or action button
        assert "Your turn" not in hand and "Your cards" not in hand


async def test_a_private_game_against_three_bots_plays_deals_to_their_results(
    fake_telegram: FakeTelegram, launch: Launch
) -> None:
    fake = fake_telegram
    await launch(seed=5)
    ann = fake.add_user("Ann")
    await ann.start_private()
    await fake.wait_for_message(ann)
    await ann.send(ann.id, "/new thousand")
    ask = await fake.wait_for_message(ann)
    assert [b.text for b in ask.buttons] == ["One bot", "Two bots", "Three bots"]
    await (await ann.press(ask, "Three bots")).answer()
    await (await ann.press(ask, "Easy")).answer()
    table = await fake.wait_for(
        lambda: next((m for m in fake.messages(ann) if "Thousand · deal" in m.text), None)
    )
    assert "Score: Ann 0 · Bot 1 0 · Bot 2 0 · Bot 3 0" in table.text or results(fake, ann.id)
    players = Players(fake, [ann], random.Random(10), cautious_policy)
    while len(results(fake, ann.id)) < 4 and await players.step():
        pass
    await fake.wait_handled()
    posted = results(fake, ann.id)
    assert len(posted) >= 4
    # each deal scored: who bid, the outcome, and the dealer's talon
    for text in posted[:4]:
        assert "Bidder: " in text and "Outcome: " in text
    dealers = [m.group(1) for m in map(_SAT_OUT.search, posted[:4]) if m]
    assert "Ann" in dealers, dealers  # the three bots played the deal she dealt
    assert len(set(dealers)) == 4
