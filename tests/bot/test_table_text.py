"""What the table and hand messages say about the deal in progress."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine import new_game
from bot.engine.base import Conventions, Game
from bot.engine.deberts.state import DebertsConventions
from bot.engine.thousand.rules import ThousandConventions
from bot.i18n import Translator, make_i18n
from bot.render.cards import card_label, sort_codes
from bot.render.table import hand_keyboard, hand_text, last_trick_text, table_text

NAMES = ["Ann", "Ben", "Cid"]
EN = Translator(make_i18n("en"), "en")
RU = Translator(make_i18n("en"), "ru")


def _play_until(
    name: str, seats: int, found: Callable[[Game], bool], conventions: Conventions | None = None
) -> Game:
    """A game played at random from the first seed that gets to where ``found`` holds."""
    for seed in range(500):
        game = new_game(name, seats, conventions, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if found(game):
                return game
            if game.is_over:
                break
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no seed got there")


def _offers(code: str) -> Callable[[Game], bool]:
    """Whether the seat to act may play ``code``."""

    def offered(game: Game) -> bool:
        seat = game.current_seat()
        return seat is not None and code in game.legal_actions(seat)

    return offered


def test_a_seven_swap_says_which_cards_changed_hands() -> None:
    game = _play_until("deberts", 3, _offers("swap7"))
    seat = game.current_seat()
    assert seat is not None
    taken = game.view(None)["open_card"]
    game.apply(seat, "swap7")
    seven = "7" + taken[1]
    assert game.view(None)["open_card"] == seven  # the seven lies open in its place

    view = game.view(None, brief=True)
    name = NAMES[seat]
    en = table_text(view, NAMES, EN)
    assert (
        f"{name} swaps the {card_label(seven, 'en')} for the open card {card_label(taken, 'en')}"
        in en.splitlines()
    )
    ru = table_text(view, NAMES, RU)
    assert (
        f"{name} меняет {card_label(seven, 'ru')} на вскрышку {card_label(taken, 'ru')}"
        in ru.splitlines()
    )
    hand = hand_text(game.view(seat, brief=True), NAMES, EN)
    for text in (en, ru, hand):
        assert "swap7" not in text and "(0)" not in text


def _lines(game: Game, tr: Translator = EN) -> list[str]:
    return table_text(game.view(None, brief=True), NAMES, tr).splitlines()


def test_a_deberts_deal_everyone_passed_is_said_to_be_dealt_again() -> None:
    game = new_game("deberts", 3, seed=3)
    line = "Deal 1 was dealt again: everyone passed."
    while game.deal_no == 1:
        assert line not in _lines(game)
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, "pass")
    # the deal dealt again keeps its number: the redeal is a note on it
    assert _lines(game)[0].startswith("<b>Deberts</b> · deal 1 · ")
    assert line in _lines(game)
    assert "Сдача 1 пересдана: все спасовали." in _lines(game, RU)
    # it stays while the new deal is bid for, and goes once it has a trump
    seat = game.current_seat()
    assert seat is not None
    game.apply(seat, "play")
    assert not any("dealt again" in text for text in _lines(game))


def test_a_deberts_four_sevens_redeal_names_who_asked() -> None:
    conventions = DebertsConventions(four_sevens_redeal=True)

    def has_sevens(game: Game) -> bool:
        seat = game.current_seat()
        return seat is not None and "sevens" in game.legal_actions(seat)

    game = _play_until("deberts", 3, has_sevens, conventions)
    seat = game.current_seat()
    assert seat is not None
    deal_no = game.deal_played
    game.apply(seat, "sevens")
    assert game.deal_no == game.deal_played + 1 == deal_no + 1
    assert game.view(None)["deal_no"] == deal_no
    name = NAMES[seat]
    assert f"Deal {deal_no} was dealt again: {name} declared four sevens." in _lines(game)
    assert f"Сдача {deal_no} пересдана — четыре семёрки: {name}." in _lines(game, RU)


def test_a_thousand_redeal_names_who_asked_until_the_next_deal_is_scored() -> None:
    game = _play_until("thousand", 3, _offers("redeal"))
    seat = game.current_seat()
    assert seat is not None
    # the reason the asker was offered it, told to everyone once the cards are dealt anew
    reason = game.view(seat, brief=True)["redeal_reason"]
    why, ru = {
        "nines": ("all four nines", "все четыре девятки"),
        "points": ("cards worth under 14 points", "карты меньше чем на 14 очков"),
        "talon": ("a talon of nines", "в прикупе одни девятки"),
    }[reason]
    deal_no, rows = game.deal_played, game.rows_scored
    game.apply(seat, "redeal")
    assert game.deal_played == deal_no and game.view(None)["deal_no"] == deal_no
    assert game.rows_scored == rows  # nothing is scored, so no deal result tells of it
    line = f"Deal {deal_no} was dealt again: {NAMES[seat]} asked for a redeal ({why})."
    assert line in _lines(game)
    said = f"Сдача {deal_no} пересдана — просьба о пересдаче: {NAMES[seat]} ({ru})."
    assert said in _lines(game, RU)
    copied = type(game).from_json(game.to_json())  # a saved game keeps the reason
    assert line in _lines(copied)
    game.scoresheet()  # the summaries written out do not lose it
    assert line in _lines(game)
    rng = random.Random(0)
    while game.rows_scored == rows:
        assert line in _lines(game)
        to_act = game.current_seat()
        assert to_act is not None
        game.apply(to_act, rng.choice([a for a in game.legal_actions(to_act) if a != "redeal"]))
    assert not any("dealt again" in text for text in _lines(game))


def test_thousand_tells_the_highest_bid_from_the_bidder_and_the_contract() -> None:
    game = new_game("thousand", 3, seed=5)
    rng = random.Random(5)
    seen = set()
    while game.rows_scored == 0:
        view = game.view(None, brief=True)
        bidder, bid, contract = view["bidder"], view["bid"], view["contract"]
        en, ru = _lines(game), _lines(game, RU)
        if bidder is None:
            assert not any(line.startswith(("Bidder", "Highest bid")) for line in en)
        elif view["phase"] == "auction":
            # others may still outbid: nobody has won the auction yet
            assert f"Highest bid: {NAMES[bidder]} ({bid})" in en
            assert f"Старшая ставка: {NAMES[bidder]} ({bid})" in ru
            assert not any(line.startswith("Bidder") for line in en)
            seen.add("auction")
        elif contract is None:
            assert f"Bidder: {NAMES[bidder]} — bid {bid}" in en
            assert f"Играет: {NAMES[bidder]} — ставка {bid}" in ru
            seen.add("won")
        else:
            # named, the contract is played: the auction gives way to one line
            said = f"Bidder: {NAMES[bidder]} · contract {contract} · "
            assert any(line.startswith(said) for line in en)
            assert any(
                line.startswith(f"Играет: {NAMES[bidder]} · заказ {contract} · ") for line in ru
            )
            assert not any(line.startswith("Auction") for line in en)
            seen.add("contract")
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert seen == {"auction", "won", "contract"}


def test_a_waiting_hand_leaves_the_highest_bid_to_the_table_message() -> None:
    game = new_game("thousand", 3, seed=5)
    seat = game.current_seat()
    assert seat is not None
    game.apply(seat, next(a for a in game.legal_actions(seat) if a.startswith("b")))
    to_act = game.current_seat()
    assert to_act is not None
    # a waiting hand is not edited for every bid, so it would soon show a stale one
    waiting = hand_text(game.view(seat, brief=True), NAMES, EN)
    assert "Highest bid" not in waiting and "Bidder" not in waiting
    assert "Highest bid: " in hand_text(game.view(to_act, brief=True), NAMES, EN)


def test_the_trick_taken_last_stays_in_view_while_the_next_is_played() -> None:
    # two seats: the card that completes a trick is never "on the table" otherwise
    game = _play_until(
        "thousand", 2, lambda g: bool(g.view(None)["last_trick"] and g.view(None)["trick"])
    )
    view = game.view(None, brief=True)
    last = view["last_trick"]
    cards = " · ".join(f"{NAMES[p['seat']]} {card_label(p['card'], 'en')}" for p in last["cards"])
    line = f"Last trick: {cards} → {NAMES[last['winner']]}"
    assert line in table_text(view, NAMES, EN).splitlines()
    to_act = game.current_seat()
    assert to_act is not None
    assert line in hand_text(game.view(to_act, brief=True), NAMES, EN).splitlines()
    # a waiting hand is not edited for every card, so it does not show one
    assert "Last trick" not in hand_text(game.view(1 - to_act, brief=True), NAMES, EN)


def test_hanging_points_are_on_the_table_while_the_next_deal_is_played_for_them() -> None:
    for separately in (False, True):
        conventions = DebertsConventions(hanging_separately=separately)
        game = _play_until("deberts", 3, lambda g: bool(g.view(None)["hanging"]), conventions)
        view = game.view(None, brief=True)
        at_stake = view["hanging"][0]
        # RULINGS: whoever scores most takes them, so the bidder who makes the contract;
        # a bait shares them among the whistlers
        line = f"Hanging: {at_stake}, to the bidder if the contract is made, shared by the others"
        assert line in table_text(view, NAMES, EN)
        for seat in range(3):  # players bid knowing it
            assert line in hand_text(game.view(seat, brief=True), NAMES, EN)
    # hanging separately, amounts queue up: one is played a deal
    queued = {**view, "hanging": [83, 40, 12]}
    shown = table_text(queued, NAMES, EN)
    assert (
        "Hanging: 83, to the bidder if the contract is made, shared by the others on a bait"
        " (then 40, 12)" in shown
    )
    # with two players the one opponent takes them whole
    game = _play_until("deberts", 2, lambda g: bool(g.view(None)["hanging"]))
    view = game.view(None, brief=True)
    line = (
        f"Hanging: {view['hanging'][0]}, to the bidder if the contract is made,"
        " to the opponent on a bait"
    )
    assert line in table_text(view, NAMES[:2], EN).splitlines()


def _my_hand(game: Game) -> tuple[str, list[list[str]]]:
    """The hand message of the seat to act: its text and its buttons' labels."""
    seat = game.current_seat()
    assert seat is not None
    view = game.view(seat, brief=True)
    rows = hand_keyboard(1, 1, view, NAMES, EN).rows
    return hand_text(view, NAMES, EN), [[label for label, _ in row] for row in rows]


def _phase(name: str) -> Callable[[Game], bool]:
    return lambda game: game.phase == name


def test_a_contract_is_asked_for_and_its_buttons_are_bare_numbers() -> None:
    game = _play_until(
        "thousand",
        3,
        lambda g: len(g.legal_actions(g.current_seat() or 0)) > 3 and g.phase == "contract",
    )
    text, rows = _my_hand(game)
    seat = game.current_seat()
    assert seat is not None
    contracts = [int(c[1:]) for c in game.legal_actions(seat) if c.startswith("k")]
    asked = f"Name your contract, from {min(contracts)} to {max(contracts)}. Or concede."
    assert asked in text.splitlines()
    labels = [label for row in rows for label in row]
    assert [str(n) for n in contracts] + ["Concede"] == labels[-len(contracts) - 1 :]
    assert max(len(row) for row in rows) == 6


def test_a_give_away_is_asked_for_a_card_a_row_its_recipients_side_by_side() -> None:
    game = _play_until("thousand", 3, _phase("give"))
    text, rows = _my_hand(game)
    seat = game.current_seat()
    assert seat is not None
    others = [NAMES[s] for s in range(3) if s != seat]
    assert f"Give one card to each of: {', '.join(others)}." in text.splitlines()
    # once one of them has theirs, the other is named alone
    given = next(c for c in game.legal_actions(seat) if c.startswith("g"))
    after = game.clone()
    after.apply(seat, given)
    left = [NAMES[s] for s in range(3) if s not in (seat, int(given[3:]))]
    assert f"Give a card to {left[0]}." in _my_hand(after)[0].splitlines()
    hand = game.view(seat, brief=True)["hand"]
    assert len(rows) == len(hand)  # no row of plain cards above: the text lists them
    for row, code in zip(rows, sort_codes(hand), strict=True):
        card = card_label(code, "en")
        assert row == [f"{card} → {name}" for name in others]
    assert f"Your cards: {' '.join(card_label(c, 'en') for c in sort_codes(hand))}" in text


def _redeal_reason(view: dict[str, object], talon: list[str]) -> str:
    """The rule, worked out apart from the engine: four nines, under 14, a talon of nines."""
    hand = [str(card) for card in view["hand"]]  # type: ignore[attr-defined]
    worth = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    if sum(card[0] == "9" for card in hand) == 4:
        return "you hold all four nines"
    if sum(worth[card[0]] for card in hand) < 14:
        return "your cards are worth under 14 points"
    assert all(card[0] == "9" for card in talon)
    return "the talon was all nines"


def test_a_redeal_is_offered_with_its_reason() -> None:
    seen = set()
    for seed in range(3000):
        game = new_game("thousand", 3, ThousandConventions(), seed=seed)
        rng = random.Random(seed)
        while game.phase not in ("redeal", "contract", "play") and not game.is_over:
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.phase != "redeal":
            continue
        seat = game.current_seat()
        assert seat is not None
        view = game.view(seat, brief=True)
        talon = [c for t in game.view(None)["talons"] for c in t.get("cards") or []]
        reason = _redeal_reason(view, talon)
        text, rows = _my_hand(game)
        assert f"You may ask for a redeal: {reason}." in text.splitlines()
        assert rows[-1] == ["Redeal", "Play this deal"] or rows[-1] == ["Play this deal", "Redeal"]
        seen.add(reason)
        if len(seen) == 2:
            return
    raise AssertionError(f"only {seen} came up")


def test_the_dealer_who_must_name_a_trump_is_told_why_there_is_no_pass() -> None:
    conventions = DebertsConventions(order_obligatory=True)

    def must_name(game: Game) -> bool:
        seat = game.current_seat()
        legal = game.legal_actions(seat) if seat is not None else []
        return any(c[:1] == "t" for c in legal) and "pass" not in legal

    game = _play_until("deberts", 2, must_name, conventions)
    text, _ = _my_hand(game)
    assert "Everyone passed: the dealer must name a trump." in text.splitlines()


def test_a_golden_round_deal_says_its_points_count_double() -> None:
    line = "Golden round: the deal's points count double."
    game = new_game("thousand", 3, ThousandConventions(golden_round=True), seed=1)
    assert line in table_text(game.view(None, brief=True), NAMES, EN).splitlines()
    plain = new_game("thousand", 3, ThousandConventions(), seed=1)
    assert line not in table_text(plain.view(None, brief=True), NAMES, EN)


def test_a_closed_table_names_nobody_to_move() -> None:
    game = new_game("thousand", 3, seed=1)
    seat = game.current_seat()
    assert seat is not None
    view = game.view(None, brief=True)
    for tr, turn in ((EN, "Turn:"), (RU, "Ход:")):
        shown = table_text(view, NAMES, tr).splitlines()
        assert f"{turn} <b>{NAMES[seat]}</b>" in shown
        closed = table_text(view, NAMES, tr, closed=True).splitlines()
        # the rest of the table as it was left
        assert closed == [line for line in shown if not line.startswith(turn)]


def test_a_score_below_zero_has_the_minus_sign() -> None:
    view = dict(new_game("thousand", 3, seed=1).view(None, brief=True), totals=[-200, 0, 120])
    assert "Score: Ann −200 · Ben 0 · Cid 120" in table_text(view, NAMES, EN).splitlines()


def test_last_trick_names_the_deal_before_only_if_it_was_played_just_before() -> None:
    game = _play_until("deberts", 2, lambda g: g.rows_scored > 0 and not g.view(None)["trick"])
    view = game.view(None, brief=True)
    summary = game.view(None)["last_deal"]
    assert summary["deal_no"] == view["deal_no"] - 1 and not view["last_trick"]
    final = summary["last_trick"]
    cards = ", ".join(f"{NAMES[p['seat']]} {card_label(p['card'], 'en')}" for p in final["cards"])
    shown = last_trick_text(view, NAMES, EN, previous_deal=summary)
    assert shown == f"Last trick of the deal before: {cards}. Taken by {NAMES[final['winner']]}."
    # a summary of an older deal (one told of only by a redeal since) is not "before"
    passed_out = {**view, "deal_no": view["deal_no"] + 1}
    told = last_trick_text(passed_out, NAMES, EN, previous_deal=summary)
    assert told == "No trick has been played yet in this deal."


def test_a_long_name_is_cut_the_same_in_every_line_and_button() -> None:
    """A 129-character name, as Telegram allows, is cut to one length everywhere, the
    turn, the dealer, the bidder and the buttons that give it a card among them."""
    from html import escape

    from bot.render.common import LISTED_NAME, cut
    from bot.render.scores import deal_result_text, final_text
    from tests.bot.test_scoresheet_text import play_at_random
    from tests.bot.test_table_limits import NAMES as LONG

    shown = [escape(cut(name, LISTED_NAME)) for name in LONG]
    assert all(len(cut(name, LISTED_NAME)) == LISTED_NAME for name in LONG)

    def names_in(text: str) -> None:
        assert not any(escape(name) in text for name in LONG)
        assert any(name in text for name in shown)

    game = _play_until("thousand", 3, _phase("give"))
    seat = game.current_seat()
    assert seat is not None
    view = game.view(seat, brief=True)
    names_in(table_text(game.view(None, brief=True), LONG, EN))
    names_in(hand_text(view, LONG, EN))
    labels = [label for row in hand_keyboard(1, 1, view, LONG, EN).rows for label, _ in row]
    gives = [label.split(" → ")[1] for label in labels if " → " in label]
    assert gives and set(gives) <= {cut(name, LISTED_NAME) for name in LONG}

    sheet = play_at_random(game, 1, lambda g: g.rows_scored > 0).scoresheet()
    names_in(deal_result_text(sheet.rows[-1], sheet, LONG, EN))
    names_in(final_text(sheet, LONG, EN))


def test_a_player_passed_for_being_in_the_minus_is_told_so_and_so_is_the_table() -> None:
    from bot.engine.thousand import complete_deal, from_hands

    hands, talons = complete_deal(3, {})
    game = from_hands(hands, talons, dealer=0, totals=[0, 0, -305])
    game.apply(1, "b100")  # Cid, next, is below −300: the rules pass for him
    assert game.current_seat() == 0
    table = table_text(game.view(None, brief=True), NAMES, EN)
    assert "Auction: Ben: 100, Cid: Pass (in the minus)" in table.splitlines()
    cid = hand_text(game.view(2, brief=True), NAMES, EN).splitlines()
    assert "Your score is too far in the minus to bid: you pass this auction." in cid
    assert "Waiting for the others." not in cid
    # a pass of one's own is a plain pass
    game.apply(0, "pass")
    assert "Cid: Pass (in the minus), Ann: Pass\n" in table_text(
        game.view(None, brief=True), NAMES, EN
    )


def test_a_give_away_is_remembered_by_the_giver_and_each_receiver_for_the_deal() -> None:
    game = _play_until("thousand", 3, _phase("give"))
    bidder = game.current_seat()
    assert bidder is not None
    gifts = {}
    while game.phase == "give":
        code = next(c for c in game.legal_actions(bidder) if c.startswith("g"))
        gifts[int(code[3:])] = code[1:3]
        game.apply(bidder, code)
    game.apply(bidder, next(c for c in game.legal_actions(bidder) if c.startswith("k")))
    while not game.view(None)["trick"]:  # into the play: the lines stay all the deal
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    label = {seat: card_label(card, "en") for seat, card in gifts.items()}
    given = ", ".join(f"{label[s]} → {NAMES[s]}" for s in sorted(gifts, key=list(gifts).index))
    assert f"You gave: {given}" in hand_text(game.view(bidder, brief=True), NAMES, EN)
    for seat in gifts:
        text = hand_text(game.view(seat, brief=True), NAMES, EN)
        assert f"You got {label[seat]} from {NAMES[bidder]}." in text.splitlines()
        assert "You gave" not in text and text.count("You got") == 1  # their own card only
    assert "You g" not in table_text(game.view(None, brief=True), NAMES, EN)


def test_a_talon_taken_unseen_is_said_to_be_taken_face_down() -> None:
    from bot.engine.thousand import complete_deal, from_hands

    hands, talons = complete_deal(3, {})
    conventions = ThousandConventions(show_talon_on_hundred=False)
    game = from_hands(hands, talons, dealer=0, conventions=conventions)
    for seat, call in ((1, "b100"), (2, "pass"), (0, "pass")):
        game.apply(seat, call)
    table = table_text(game.view(None, brief=True), NAMES, EN)
    assert "Talon: face down → Ben" in table.splitlines()
    # the others' hands say the same; the bidder's own tells which cards it picked up
    for seat in (0, 2):
        assert "Talon: face down → Ben" in hand_text(game.view(seat, brief=True), NAMES, EN)
    own = hand_text(game.view(1, brief=True), NAMES, EN).splitlines()
    (line,) = [line for line in own if line.startswith("Talon: ")]
    cards, _, rest = line.removeprefix("Talon: ").partition(" → ")
    assert rest == "Ben (face down: only you saw it)"
    assert sorted(cards.split()) == sorted(card_label(card, "en") for card in talons[0])
    # in a private game the table message above says "face down"; the hand still tells
    below_table = hand_text(game.view(1, brief=True), NAMES, EN, table_above=True)
    assert line in below_table.splitlines()
    other = hand_text(game.view(0, brief=True), NAMES, EN, table_above=True)
    assert "Talon" not in other


def test_a_thousand_bidder_left_only_pass_is_told_why() -> None:
    game = _play_until(
        "thousand",
        3,
        lambda g: g.phase == "auction" and g.legal_actions(g.current_seat() or 0) == ["pass"],
    )
    text, rows = _my_hand(game)
    lines = text.splitlines()
    assert "<b>Your turn.</b>" in lines
    assert "No higher bid is open to you (120 plus the marriages you hold): only Pass." in lines
    assert rows[-1] == ["Pass"]
    # a bidder with bids to choose from is not told so
    other = _play_until(
        "thousand",
        3,
        lambda g: g.phase == "auction" and len(g.legal_actions(g.current_seat() or 0)) > 2,
    )
    assert "only Pass" not in _my_hand(other)[0]


def test_two_players_are_asked_to_choose_a_talon_and_told_the_other_stays_out() -> None:
    game = _play_until("thousand", 2, _phase("talon"))
    text, rows = _my_hand(game)
    assert "Choose a talon: the other stays face down, out of play." in text.splitlines()
    assert ["Talon 1", "Talon 2"] in rows


def test_a_dealer_made_to_name_a_trump_is_said_to_have_had_to() -> None:
    forced = DebertsConventions(order_obligatory=True)

    def named_by_force(game: Game) -> bool:
        seat = game.current_seat()
        return (
            seat is not None
            and game.phase == "bidding_2"
            and "pass" not in game.legal_actions(seat)
        )

    game = _play_until("deberts", 3, named_by_force, forced)
    dealer = game.current_seat()
    assert dealer is not None
    game.apply(dealer, game.legal_actions(dealer)[0])
    line = f"Bidder: {NAMES[dealer]} (the dealer had to name a trump) · trump "
    lines = table_text(game.view(None, brief=True), NAMES, EN).splitlines()
    assert any(shown.startswith(line) for shown in lines)
    # a bidder who chose, the dealer included, is a plain bidder
    chose = _play_until(
        "deberts",
        3,
        lambda g: g.view(None)["bidder"] is not None and not g.view(None)["forced_order"],
        forced,
    )
    text = table_text(chose.view(None, brief=True), NAMES, EN)
    assert f"Bidder: {NAMES[chose.view(None)['bidder']]} · trump " in text
    assert "had to" not in text


def test_the_121_a_player_on_the_barrel_starts_with_is_not_shown_as_their_bid() -> None:
    from bot.engine.thousand import complete_deal, from_hands

    hands, talons = complete_deal(3, {})
    for trading in (False, True):
        game = from_hands(
            hands,
            talons,
            dealer=0,
            totals=[100, 880, 200],
            barrel=(1, 0),
            conventions=ThousandConventions(barrel_trading=trading),
        )
        table = table_text(game.view(None, brief=True), NAMES, EN)
        assert "Ben: 121 (on the barrel)" in table
    # anyone else's 121 is a bid like any other
    game = from_hands(hands, talons, dealer=0, totals=[100, 500, 200])
    game.apply(1, "b120")
    game.apply(2, "b125")
    assert "(on the barrel)" not in table_text(game.view(None, brief=True), NAMES, EN)
