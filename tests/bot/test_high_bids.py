"""A Thousand bid above 400 (ace marriage on) through the real bot and the fake Telegram."""

from __future__ import annotations

from bot import jsonio
from bot.bench.fake_telegram import FakeTelegram
from bot.engine.thousand import GAME, ThousandConventions, from_hands
from tests.bot.chats import group_of
from tests.bot.test_commands import lobby_with
from tests.bot.test_hostile import record_of, table_id_of
from tests.e2e.harness import BotProcess, code_of, hand_message, legal_buttons
from tests.engine.test_thousand_rules import ACES_TWO_HANDS, ACES_TWO_TALONS

# The first hand holds the four aces and three marriages: bids from 100 to 560, with
# ten cards more than Telegram's 100 buttons in one keyboard.
ACES, OTHER = ACES_TWO_HANDS


async def test_a_player_reaches_and_presses_a_bid_above_400(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await lobby_with(fake, group, ann, ben, game="thousand")
    await (await ann.press(table, "Settings")).answer()
    await (await ann.press(table, "Ace marriage: no")).answer()
    await (await ann.press(table, "« Back")).answer()
    assert "• Ace marriage: yes" in table.text
    await (await ann.press(table, "Start")).answer()
    await fake.wait_for(lambda: hand_message(fake, ann))
    # The deal is set so that Ann opens the bidding holding the aces.
    assert running.app is not None
    record = await record_of(running, table_id_of(table))
    seat = record.seat_of(ann.id)
    assert seat is not None
    conventions = ThousandConventions.from_json(record.conventions)
    assert conventions.ace_marriage
    hands = [ACES, OTHER] if seat == 0 else [OTHER, ACES]
    game = from_hands(hands, ACES_TWO_TALONS, dealer=1 - seat, conventions=conventions)
    record.state = jsonio.dumps(game.to_json())
    record.version += 1
    await running.app.tables.store.repo.save(record)
    # At her turn "My hand" sends the hand message anew.
    await (await ann.press(table, "🂠 My hand")).answer()

    def offered() -> list[str]:
        hand = hand_message(fake, ann)
        return [code_of(b) for b in legal_buttons(hand)] if hand is not None else []

    await fake.wait_for(lambda: "b560" in offered(), what="a hand offering 560")
    assert offered() == [f"b{n}" for n in range(100, 561, 5)]
    hand = hand_message(fake, ann)
    assert hand is not None
    assert "Your cards: A♠" in hand.text  # no room for card buttons: the text lists them
    answer = await (await ann.press(hand, "560")).answer()
    assert not answer.show_alert
    saved = await record_of(running, record.id)
    assert saved.state is not None
    assert GAME.from_json(jsonio.loads(saved.state)).view(None)["bid"] == 560
    await fake.wait_for(lambda: "560" in table.text, what="the table showing the bid")
