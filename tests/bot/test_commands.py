"""Each command and lobby button, through the real Dispatcher and the fake Bot API."""

from __future__ import annotations

import random

import pytest

from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.models import FakeChat, FakeMessage, FakeUser
from bot.render.keyboards.callbacks import Lobby
from bot.telegram.sender import _MAX_ATTEMPTS as _SENDER_ATTEMPTS
from tests.bot.chats import group_of, person, private_menu
from tests.bot.test_timer import open_table, press_any, seat_to_act, start
from tests.e2e.harness import BotProcess, Players, hand_message, live_table, texts


async def lobby_with(
    fake: FakeTelegram, group: FakeChat, host: FakeUser, *others: FakeUser, game: str = "deberts"
) -> FakeMessage:
    """The lobby ``host`` opens in ``group`` for ``game``, once ``others`` joined it."""
    await host.send(group, f"/new {game}")
    lobby = await fake.wait_for_message(group)
    for user in others:
        await (await user.press(lobby, "Join")).answer()
    return lobby


async def started(
    fake: FakeTelegram, group: FakeChat, host: FakeUser, *others: FakeUser
) -> FakeMessage:
    """A Deberts table in ``group``: the host, ``others`` and a bot if needed; the table message."""
    lobby = await lobby_with(fake, group, host, *others)
    if not others:
        await (await host.press(lobby, "+ Hard bot")).answer()
    await (await host.press(lobby, "Start")).answer()
    await fake.wait_for(lambda: hand_message(fake, host))
    return lobby


async def solo(fake: FakeTelegram, bots: str = "One bot") -> FakeUser:
    """Ann, in a private Deberts game against ``bots`` ("One bot", "Two bots") at random."""
    ann = await person(fake, "Ann")
    ask = await private_menu(fake, ann, "/new deberts")
    await (await ann.press(ask, bots)).answer()
    await (await ann.press(ask, "Easy")).answer()
    return ann


async def test_start_in_private_explains_how_to_play(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    ann = fake_telegram.add_user("Ann", language_code="ru")
    await ann.start_private()
    reply = await fake_telegram.wait_for_message(ann)
    assert "Деберц и Тысяча" in reply.text
    bob = fake_telegram.add_user("Bob", language_code="en")
    await bob.start_private()
    assert "Deberts and Thousand" in (await fake_telegram.wait_for_message(bob)).text


async def test_commands_are_registered_for_private_chats_and_groups_in_both_languages(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    private = {"type": "all_private_chats"}
    groups = {"type": "all_group_chats"}
    ru = [c["command"] for c in fake_telegram.commands(scope=groups, language_code="ru")]
    assert "new" in ru and "score" in ru and "lang" in ru
    en = fake_telegram.commands(scope=private, language_code="en")
    assert any(c["description"] == "Start a game against bots" for c in en)
    assert fake_telegram.commands(scope=groups)


async def test_plain_new_offers_both_games_and_a_second_new_points_to_the_open_table(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, _) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/new")
    offer = await fake.wait_for_message(group)
    assert [b.text for b in offer.buttons] == ["Deberts", "Thousand"]
    mark = fake.mark()
    await (await ann.press(offer, "Thousand")).answer()
    lobby = await fake.wait_for_message(group, since=mark)
    assert lobby.text.startswith("Thousand — a new table")
    assert "Bid step: any multiple of 5" in lobby.text
    await ann.send(group, "/new deberts")
    pointer = await fake.wait_for_message(group, lambda m: not m.buttons)
    assert pointer.text == "There is already a table in this chat: Thousand."
    # the lobby comes again below, in case its message was lost, and the pointer answers it
    assert pointer.reply_to is not None and pointer.reply_to.find_buttons("Join")
    assert lobby.deleted


async def test_only_the_host_or_an_admin_manages_the_lobby(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ben.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    await (await ann.press(lobby, "Join")).answer()
    # Ann owns the group (its first member), so she counts as an admin
    carl = fake.add_user("Carl")
    fake.add_member(group, carl)
    denied = await (await carl.press(lobby, "+ Hard bot")).answer()
    assert denied.show_alert and denied.text == "Only the host or a chat admin can do that."
    assert "Bot 1" not in lobby.text
    await (await ann.press(lobby, "+ Hard bot")).answer()
    assert "3. Bot 1" in lobby.text
    # a full table offers no seat; a press from a keyboard not yet redrawn is refused
    assert not lobby.find_buttons("Join") and not lobby.find_buttons("+ Hard bot")
    leave = Lobby.unpack(lobby.button("Leave").callback_data or "")
    join = Lobby(table_id=leave.table_id, version=leave.version, action="join").pack()
    full = await (await carl.press_data(lobby, join)).answer()
    assert full.text == "The table is full."


async def test_settings_cycle_every_convention_and_the_turn_timer(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,) = await group_of(fake, "Ann")
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    await (await ann.press(lobby, "Settings")).answer()
    labels = [b.text for b in lobby.buttons]
    assert labels[:2] == ["Target: 501", "Winner takes all: no"]
    # open, the settings say what each convention means, and only that: with the
    # players and the lobby's instructions it would not fit on a phone's screen
    assert (
        "when the open card's suit is trump, its seven may be swapped for the open card"
        in lobby.text
    )
    assert "Players (" not in lobby.text and "Join, then" not in lobby.text
    assert "Turn timer: off" in labels
    await (await ann.press(lobby, "Trump in combinations: Moscow")).answer()
    await (await ann.press(lobby, "Turn timer: off")).answer()
    assert lobby.button("Trump in combinations: Kharkov")
    assert lobby.button("Turn timer: 30 s")
    await (await ann.press(lobby, "« Back")).answer()
    assert "• Trump in combinations: Kharkov" in lobby.text
    assert "its seven may be swapped" not in lobby.text
    assert "Players (1 of 2–3):" in lobby.text
    assert "• Turn timer: 30 s" in lobby.text


async def test_a_stale_lobby_button_changes_nothing(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,) = await group_of(fake, "Ann")
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    old_data = lobby.button("+ Hard bot").callback_data
    await (await ann.press(lobby, "+ Hard bot")).answer()
    again = await (await ann.press_data(lobby, old_data or "")).answer()
    assert again.text == "This button is out of date."
    assert lobby.text.count("Bot ") == 1
    # a setting tapped twice changes once, and the settings stay in view
    await (await ann.press(lobby, "Settings")).answer()
    old_data = lobby.button("Target: 501").callback_data
    await (await ann.press(lobby, "Target: 501")).answer()
    again = await (await ann.press_data(lobby, old_data or "")).answer()
    assert again.text == "This button is out of date."
    assert lobby.button("Target: 301")


async def test_a_lobby_whose_edit_was_lost_is_shown_again_by_a_stale_press(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    lobby = await lobby_with(fake, group, ann)
    # Ben's join is saved, but Telegram stays out of reach for the lobby's edit
    fake.fail_next("editMessageText", 502, count=_SENDER_ATTEMPTS + 1)
    await (await ben.press(lobby, "Join")).answer()
    assert "Ben" not in lobby.text
    stale = await (await ann.press(lobby, "Start")).answer()
    assert stale.text == "This button is out of date."
    await fake.wait_for(lambda: "2. Ben" in lobby.text)
    started = await (await ann.press(lobby, "Start")).answer()
    assert started.text == "The game has started."


async def test_start_needs_two_players_then_deals_private_hands(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    refused = await (await ann.press(lobby, "Start")).answer()
    assert refused.show_alert and refused.text == "A table needs 2 or 3 players."
    await (await ben.press(lobby, "Join")).answer()
    await (await ann.press(lobby, "Start")).answer()
    assert lobby.text.startswith("Deberts · deal 1 · dealer")
    assert [b.text for b in lobby.buttons] == [
        "🂠 My hand",
        "Last trick",
        "💬 My cards in private chat",
    ]
    for user in (ann, ben):
        hand = hand_message(fake, user)
        assert hand is not None
        cards = [
            b
            for b in hand.buttons
            if len(b.callback_data or "") and ":c" in (b.callback_data or "")
        ]
        assert len(cards) == 6


async def test_a_lobby_of_bots_alone_does_not_start(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,) = await group_of(fake, "Ann", started=False)  # so she gets no seat
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    for _ in range(2):
        await (await ann.press(lobby, "+ Hard bot")).answer()
    assert "Players (2 of 2–3)" in lobby.text and "Ann" not in lobby.text.split("Players")[1]
    mark = fake.mark()
    refused = await (await ann.press(lobby, "Start")).answer()
    # bots alone would play the whole game inside this press, every result posted at once
    assert refused.show_alert and refused.text == "Someone has to join the table first."
    assert "Settings" in [b.text for b in lobby.buttons]
    assert not fake.calls("sendMessage", since=mark)


async def test_my_hand_answers_only_the_presser_and_last_trick(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann, ben)
    mine = await (await ann.press(table, "🂠 My hand")).answer()
    assert mine.show_alert and mine.text and mine.text.startswith("Your cards: ")
    assert len(mine.text.removeprefix("Your cards: ").split()) == 6
    stranger = fake.add_user("Zed")
    fake.add_member(group, stranger)
    told = await (await stranger.press(table, "🂠 My hand")).answer()
    assert told.text == "You are not at this table."
    last = await (await stranger.press(table, "Last trick")).answer()
    assert last.text == "No trick has been played yet in this deal."


def _label(code: str) -> str:
    rank, suit = code[:-1], code[-1]
    return ("10" if rank == "T" else rank) + {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[suit]


LONG = [("Александра-Мария " * 4).strip(), ("Bartholomew " * 5).strip(), "K" * 64]


@pytest.mark.parametrize("names", [["Ann", "Ben", "Cid"], LONG])
async def test_last_trick_shows_the_trick_taken_last_while_the_next_is_played(
    fake_telegram: FakeTelegram, running: BotProcess, names: list[str]
) -> None:
    fake = fake_telegram
    group, users = await group_of(fake, *names)
    table = await lobby_with(fake, group, *users, game="thousand")
    await (await users[0].press(table, "Start")).answer()
    assert running.app is not None
    store = running.app.tables.store
    table_id = int((table.button("Last trick").callback_data or "").split(":")[1])
    players = Players(fake, users, random.Random(3))
    while True:  # until a trick was taken and the next one has begun
        record = await store.repo.get(table_id)
        assert record is not None
        view = store.peek(record).view(None)
        if view["last_trick"] and view["trick"]:
            break
        assert await players.play(until=1) == 1
    # a long name is cut: an alert holds 200 characters
    shown_names = [n if len(n) <= 24 else n[:23] + "…" for n in (u.first_name for u in users)]
    last = view["last_trick"]
    cards = ", ".join(f"{shown_names[p['seat']]} {_label(p['card'])}" for p in last["cards"])
    assert len(last["cards"]) == 3
    shown = await (await users[1].press(table, "Last trick")).answer()
    assert shown.show_alert and shown.text is not None and len(shown.text) <= 200
    assert shown.text == f"Last trick: {cards}. Taken by {shown_names[last['winner']]}."
    # the trick under way is not it
    assert all(p["card"] not in {c["card"] for c in last["cards"]} for p in view["trick"])


async def test_a_deals_final_trick_is_in_its_result_and_behind_last_trick_until_the_next(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, users = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, *users)
    assert running.app is not None
    store = running.app.tables.store
    table_id = int((table.button("Last trick").callback_data or "").split(":")[1])
    players = Players(fake, users, random.Random(5))
    while True:  # until the first deal is scored
        record = await store.repo.get(table_id)
        assert record is not None
        game = store.peek(record)
        if game.rows_scored:
            break
        assert await players.play(until=1) == 1
    final = game.view(None)["last_deal"]["last_trick"]
    names = [u.first_name for u in users]
    played = [(names[p["seat"]], _label(p["card"])) for p in final["cards"]]
    taker = names[final["winner"]]
    assert len(played) == 2
    result = next(m for m in fake.messages(group) if m.text.startswith("Deal 1 is over."))
    trick = " · ".join(f"{name} {card}" for name, card in played)
    assert f"Last trick: {trick} → {taker}" in result.text.splitlines()
    # the next deal has no trick of its own yet: the button shows the one no table showed
    assert not game.view(None)["last_trick"]
    # the table came anew for the deal, below the result
    live = await fake.wait_for(lambda: live_table(fake, group))
    assert table.deleted and live is not table
    shown = await (await users[0].press(live, "Last trick")).answer()
    trick = ", ".join(f"{name} {card}" for name, card in played)
    assert shown.text == f"Last trick of the deal before: {trick}. Taken by {taker}."


async def test_an_illegal_card_is_refused_with_the_reason(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await lobby_with(fake, group, ann, ben)
    await (await ann.press(table, "Start")).answer()
    # during the bidding no card may be played; a card button says why and changes nothing
    for user in (ann, ben):
        hand = hand_message(fake, user)
        assert hand is not None
        if hand.find_buttons("Pass"):
            card = next(b for b in hand.buttons if ":c" in (b.callback_data or ""))
            mark = fake.mark()
            answer = await (await user.press(hand, card.text)).answer()
            assert answer.show_alert and answer.text
            assert not fake.calls("editMessageText", since=mark)
            return
    raise AssertionError("nobody was asked to bid")


async def test_cancel_by_the_host_closes_the_table(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    await ben.send(group, "/cancel")
    denied = await fake.wait_for_message(group)
    assert denied.text == "Only the host or a chat admin can do that."
    await (await ann.press(lobby, "Cancel")).answer()
    assert lobby.text == "The table was cancelled."
    await ann.send(group, "/new thousand")
    assert (await fake.wait_for_message(group)).text.startswith("Thousand — a new table")


async def test_rules_help_and_score(fake_telegram: FakeTelegram, running: BotProcess) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/score")
    assert (await fake.wait_for_message(group)).text == "No game has been played in this chat yet."
    # in a group, a few lines and a button to the whole text in the private chat
    await ann.send(group, "/rules thousand")
    rules = await fake.wait_for_message(group)
    assert rules.text.startswith("Thousand — 2–4 players") and "barrel" not in rules.text
    await ann.send(group, "/help")
    short = await fake.wait_for_message(group)
    assert "/new deberts" in short.text and "/export" not in short.text
    assert [b.start_payload for b in short.buttons] == ["help"]
    await ann.send(group, "/new deberts")
    table = await fake.wait_for_message(group)
    await ann.send(group, "/rules")
    rules = await fake.wait_for_message(group)
    assert rules.text.startswith("Deberts — 2 or 3") and "This table (Deberts):" in rules.text
    assert "Seven swap: yes" in rules.text and "bait" not in rules.text
    # the button opens the private chat, where the whole text comes
    mark = fake.mark()
    await ben.follow(rules.button("📖 The whole rules"))
    whole = await fake.wait_for_message(ben, since=mark)
    assert "bait (БТ)" in whole.text and "Thousand" not in whole.text
    mark = fake.mark()
    await ben.follow(short.button("📖 The whole help"))
    whole = await fake.wait_for_message(ben, since=mark)
    assert "/export [csv] — the last game as a file" in whole.text
    await (await ben.press(table, "Join")).answer()
    await (await ann.press(table, "Start")).answer()
    await ann.send(group, "/score")
    sheet = await fake.wait_for_message(group)
    assert "Scoresheet — Deberts" in sheet.text and "Ann" in sheet.text
    assert "cancelled" not in sheet.text
    # a lobby opened after it has no scores: /score still shows the game played, and
    # that it was called off
    await ann.send(group, "/cancel")
    await fake.wait_for_message(group, lambda m: m.text == "The table was cancelled.")
    await ann.send(group, "/new thousand")
    await fake.wait_for_message(group, lambda m: m.text.startswith("Thousand — a new table"))
    await ann.send(group, "/score")
    sheet = await fake.wait_for_message(group)
    assert "Scoresheet — Deberts" in sheet.text and "Ann" in sheet.text
    assert sheet.text.endswith("\n\nThe table was cancelled.")


async def test_lang_switches_a_group_to_russian(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/lang ru")
    assert (await fake.wait_for_message(group)).text == "Язык: русский."
    await ann.send(group, "/new deberts")
    lobby = await fake.wait_for_message(group)
    assert lobby.text.startswith("Деберц — новый стол")
    assert lobby.button("Сесть")
    # Ben's private chat still speaks his Telegram language
    await (await ben.press(lobby, "Сесть")).answer()
    await (await ann.press(lobby, "Начать")).answer()
    hand = hand_message(fake, ben)
    assert hand is not None and "your hand, Ben" in hand.text
    assert "сдаёт" in lobby.text


async def test_the_group_language_picker_stays_when_a_member_may_not_choose(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")  # Ann administers the group
    await ben.send(group, "/lang")
    picker = await fake.wait_for_message(group)
    refused = await (await ben.press(picker, "Русский")).answer()
    assert refused.show_alert and refused.text == "Only the host or a chat admin can do that."
    assert picker.text == "Choose the language:" and picker.button("Русский")
    await (await ann.press(picker, "Русский")).answer()
    await fake.wait_for(lambda: picker.text == "Язык: русский.")


async def test_lang_in_private_with_buttons(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    ann = await person(fake, "Ann", language_code="en")
    ask = await private_menu(fake, ann, "/lang")
    await (await ann.press(ask, "Русский")).answer()
    await ann.send(ann.id, "/help")
    assert "Деберц и Тысяча" in (await fake.wait_for_message(ann)).text


async def test_leaving_mid_game_hands_the_seat_to_a_bot(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben, cid) = await group_of(fake, "Ann", "Ben", "Cid")
    table = await lobby_with(fake, group, ann, ben, cid)
    await (await ann.press(table, "Start")).answer()
    await cid.send(group, "/leave")
    notice = await fake.wait_for_message(group, lambda m: "left the table" in m.text)
    assert notice.text == "Cid left the table; a bot plays for them now."
    hand = hand_message(fake, cid)
    assert hand is None
    # the table goes on: somebody still has a move
    assert any(hand_message(fake, u) is not None for u in (ann, ben))


async def test_blocked_player_does_not_break_the_table(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/new deberts")
    table = await fake.wait_for_message(group)
    await (await ben.press(table, "Join")).answer()
    ben.block_bot()
    answer = await (await ann.press(table, "Start")).answer()
    assert answer.text == "The game has started."
    live = await fake.wait_for(lambda: live_table(fake, group))
    assert live.text.startswith("Deberts · deal 1")
    assert hand_message(fake, ann) is not None


async def test_a_player_who_blocks_the_bot_mid_game_is_named_in_the_group(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben), lobby, table_id = await open_table(fake, "Ann", "Ben")
    await start(fake, lobby, ann)
    # Ben has had a turn, so his next one edits his hand message rather than send one
    turns = []
    while turns[-2:] != [1, 0]:
        seat = await seat_to_act(running, table_id)
        assert seat is not None
        turns.append(seat)
        await press_any(fake, (ann, ben)[seat])
    ben.block_bot()
    while await seat_to_act(running, table_id) == 0:
        await press_any(fake, ann)
    await fake.wait_handled()
    assert [c.status for c in fake.calls("editMessageText") if c.params["chat_id"] == ben.id][
        -1
    ] == 403
    told = [t for t in texts(fake, group) if t.startswith("Ben, I cannot send you your cards")]
    assert len(told) == 1


async def test_a_private_hand_leaves_the_deal_to_the_table_message_right_above(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    ann = await solo(fake)
    hand = await fake.wait_for(lambda: hand_message(fake, ann))
    table, below = fake.messages(ann, from_bot=True)[-2:]
    assert below is hand and table.text.startswith("Deberts · deal 1 · dealer")
    # the open card, the auction and the turn are said once, by the table message
    assert "Open card: " in table.text and "Open card: " not in hand.text
    assert hand.text.startswith("Deberts · deal 1 · your hand, Ann")
    # in a group the hand must say them itself: the table is in another chat
    group, (cid, dan) = await group_of(fake, "Cid", "Dan")
    await started(fake, group, cid, dan)
    to_act = next(
        h
        for h in (hand_message(fake, u) for u in (cid, dan))
        if h and h.find_buttons(lambda b: b.text.startswith("Play "))
    )
    assert "Open card: " in to_act.text


async def test_a_group_table_opens_the_private_chat_where_the_cards_are(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann, ben)
    bot = fake.bot_username
    assert f"Your cards are in the private chat with @{bot}." in table.text.splitlines()
    link = table.button("💬 My cards in private chat")
    assert link.url == f"https://t.me/{bot}" and link.callback_data is None
    assert table.button("🂠 My hand").callback_data
    # a private game's table sits in that chat already
    cid = await solo(fake)
    hand = await fake.wait_for(lambda: hand_message(fake, cid))
    solo_table, below = fake.messages(cid, from_bot=True)[-2:]
    assert below is hand and solo_table.text.startswith("Deberts · deal 1")
    assert "private chat" not in solo_table.text
    assert all(b.url is None for b in solo_table.buttons)


async def test_table_brings_the_table_message_below_what_came_after_it(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    old = await started(fake, group, ann, ben)
    await ben.send(group, "/score")
    await fake.wait_for(lambda: fake.messages(group, from_bot=True)[-1] is not old)
    mark = fake.mark()
    await ann.send(group, "/table")
    await fake.wait_handled()
    new = fake.messages(group, from_bot=True)[-1]
    assert new.text == old.text and new.buttons == old.buttons
    assert old.deleted and len(fake.calls("sendMessage", since=mark)) == 1
    # it is the last already: nothing is sent again
    mark = fake.mark()
    await ben.send(group, "/table")
    await fake.wait_handled()
    assert not fake.calls("sendMessage", since=mark) and not new.deleted


@pytest.mark.parametrize("command", ["/leave", "/cancel"])
async def test_a_private_game_ended_by_its_player_sends_no_second_notice(
    fake_telegram: FakeTelegram, running: BotProcess, command: str
) -> None:
    fake = fake_telegram
    ann = await solo(fake)
    await fake.wait_for(lambda: hand_message(fake, ann))
    mark = fake.mark()
    await ann.send(ann.id, command)
    await fake.wait_handled()
    # the table message says it, and no message is sent to say it again
    ended = [t for t in texts(fake, ann.id) if t.endswith("\n\nThe table was cancelled.")]
    assert ended
    # the table as it was left, but with nobody to move
    assert all("Score: Ann" in t and "Turn:" not in t for t in ended)
    assert not fake.calls("sendMessage", since=mark)


async def test_two_new_at_once_open_one_table(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ann.send(group, "/new deberts")
    await ben.send(group, "/new thousand")
    await fake.wait_for_message(group, lambda m: m.text.startswith("There is already"), since=0)
    await fake.wait_idle()
    texts = [m.text for m in fake.messages(group, from_bot=True)]
    assert len([t for t in texts if "— a new table" in t]) == 1
    assert len([t for t in texts if t.startswith("There is already a table")]) == 1


async def test_leaving_a_lobby_frees_the_seat_by_button_or_command(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben, cid) = await group_of(fake, "Ann", "Ben", "Cid")
    lobby = await lobby_with(fake, group, ann, ben, cid)
    assert "Players (3 of 2–3)" in lobby.text

    answer = await (await cid.press(lobby, "Leave")).answer()
    assert answer.text == "You left the table."
    assert "Players (2 of 2–3)" in lobby.text and "Cid" not in lobby.text
    answer = await (await cid.press(lobby, "Leave")).answer()
    assert answer.text == "You are not at this table."

    await ben.send(group, "/leave")
    await fake.wait_for(lambda: "Ben" not in lobby.text)
    assert "Players (1 of 2–3)" in lobby.text
    await cid.send(group, "/leave")
    refusal = await fake.wait_for_message(group, lambda m: m.text == "You are not at this table.")
    assert refusal.text == "You are not at this table."
    # the seats freed are there to take again
    await (await cid.press(lobby, "Join")).answer()
    assert "Players (2 of 2–3)" in lobby.text and "Cid" in lobby.text


async def test_the_last_person_leaving_a_game_closes_it_rather_than_leave_bots_playing(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    table = await started(fake, group, ann)
    hand = hand_message(fake, ann)
    assert hand is not None
    await ben.send(group, "/leave")
    await fake.wait_for_message(group, lambda m: m.text == "You are not at this table.")
    assert table.buttons
    await ann.send(group, "/leave")
    await fake.wait_for_message(group, lambda m: m.text == "The table was cancelled.")
    await fake.wait_for(lambda: "The table was cancelled." in table.text)
    await fake.wait_handled()
    assert texts(fake, group).count("The table was cancelled.") == 1  # said once
    assert not table.buttons
    assert not hand.buttons
    # the chat is free for a new table
    await ann.send(group, "/new thousand")
    fresh = await fake.wait_for_message(group, lambda m: "— a new table" in m.text)
    assert fresh.text.startswith("Thousand — a new table")


async def players_of(fake: FakeTelegram, *names: str) -> tuple[FakeChat, list[FakeUser]]:
    """A group owned by someone who does not play (so no player is an admin), and its players."""
    return await group_of(fake, *names, admins=(fake.add_user("Owner"),))


async def test_a_host_who_leaves_the_lobby_hands_it_to_the_player_seated_longest(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben, cid) = await players_of(fake, "Ann", "Ben", "Cid")
    lobby = await lobby_with(fake, group, ann, ben, cid)
    assert "1. Ann (host)\n2. Ben\n3. Cid\n" in lobby.text

    await (await ann.press(lobby, "Leave")).answer()
    assert "1. Ben (host)\n2. Cid\n" in lobby.text
    refused = await (await ann.press(lobby, "Start")).answer()
    assert refused.text == "Only the host or a chat admin can do that."
    started = await (await ben.press(lobby, "Start")).answer()
    assert started.text == "The game has started."
    await fake.wait_for(lambda: hand_message(fake, cid))


async def test_a_host_leaving_a_lobby_nobody_else_sits_at_closes_it(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await players_of(fake, "Ann", "Ben")
    lobby = await lobby_with(fake, group, ann)
    await (await ann.press(lobby, "+ Hard bot")).answer()
    left = await (await ann.press(lobby, "Leave")).answer()
    assert left.text == "You left the table."
    assert lobby.text == "The table was cancelled." and not lobby.buttons
    # the chat is free for the next table
    await ben.send(group, "/new thousand")
    fresh = await fake.wait_for_message(group, lambda m: "— a new table" in m.text)
    assert "1. Ben (host)" in fresh.text


async def test_a_host_who_leaves_the_game_may_not_cancel_it_and_the_next_player_may(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben, cid) = await players_of(fake, "Ann", "Ben", "Cid")
    table = await started(fake, group, ann, ben, cid)
    await ann.send(group, "/leave")
    await fake.wait_for_message(group, lambda m: m.text.startswith("Ann left the table"))
    await ann.send(group, "/cancel")
    refused = await fake.wait_for_message(group, lambda m: m.text.startswith("Only the host"))
    assert refused.text == "Only the host or a chat admin can do that."
    assert table.buttons
    await ben.send(group, "/cancel")
    await fake.wait_for(lambda: "The table was cancelled." in table.text)


async def test_a_game_may_be_named_in_russian_and_an_unknown_one_is_said_to_be(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,) = await group_of(fake, "Ann")
    await ann.send(group, "/rules Тысяча")
    rules = await fake.wait_for_message(group)
    assert rules.text.startswith("Thousand") and "Deberts" not in rules.text
    await ann.send(group, "/rules <chess>")
    unknown = await fake.wait_for_message(group)
    assert unknown.text == "I know no game called “<chess>”: /rules deberts or /rules thousand."
    await ann.send(group, "/new деберц")
    lobby = await fake.wait_for_message(group)
    assert lobby.text.startswith("Deberts — a new table")
    await ann.send(ann.id, "/new 1000")
    ask = await fake.wait_for_message(ann)
    assert ask.text == "How many bot opponents?"


async def test_words_to_the_bot_in_private_get_a_pointer_and_in_a_group_nothing(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann, ben) = await group_of(fake, "Ann", "Ben")
    await ann.send(ann.id, "hello, how do I play?")
    pointer = await fake.wait_for_message(ann)
    assert pointer.text == "I follow commands and buttons: /new starts a game, /help says more."
    mark = fake.mark()
    await ben.send(group, "hello Ann")
    await fake.wait_handled()
    assert not fake.calls("sendMessage", since=mark)


async def test_a_thousand_table_seats_four_and_bots_fill_it_up_to_four(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,) = await group_of(fake, "Ann")
    await ann.send(group, "/new thousand")
    lobby = await fake.wait_for_message(group)
    assert "Players (1 of 2–4)" in lobby.text
    refused = await (await ann.press(lobby, "Start")).answer()
    assert refused.show_alert and refused.text == "A table needs 2 to 4 players."
    for seated in (2, 3, 4):
        await (await ann.press(lobby, "+ Hard bot")).answer()
        assert f"Players ({seated} of 2–4)" in lobby.text
    assert "4. Bot 3" in lobby.text and "+ Hard bot" not in [b.text for b in lobby.buttons]
    await (await ann.press(lobby, "Start")).answer()
    # with Ann dealing, the bots play the first deal at once
    table = await fake.wait_for(lambda: live_table(fake, group))
    assert table.text.startswith("Thousand · deal ")
    dealer = table.text.split("\n")[0].split(" · dealer ")[1]
    assert f"Sits out on the talon: {dealer}\n" in table.text


async def test_a_deberts_table_still_seats_three(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    group, (ann,) = await group_of(fake, "Ann")
    lobby = await lobby_with(fake, group, ann)
    for _ in range(2):
        await (await ann.press(lobby, "+ Hard bot")).answer()
    assert "Players (3 of 2–3)" in lobby.text
    assert "+ Hard bot" not in [b.text for b in lobby.buttons]


async def test_the_private_menu_offers_three_bots_for_thousand_only(
    fake_telegram: FakeTelegram, running: BotProcess
) -> None:
    fake = fake_telegram
    ann = await person(fake, "Ann")
    for game, offered in (
        ("thousand", ["One bot", "Two bots", "Three bots"]),
        ("deberts", ["One bot", "Two bots"]),
    ):
        ask = await private_menu(fake, ann, f"/new {game}")
        assert [b.text for b in ask.buttons] == offered
    # a forged press for three Deberts bots is refused
    forged = await fake.callback_query(ann, ask, "s:deberts:3:").answer()
    assert forged.text == "That is not possible now."
