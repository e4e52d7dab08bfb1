"""Thousand bot players: tactical choices that a sound player makes."""

from __future__ import annotations

from bot.ai.players import choose
from bot.ai.thousand.cards import mask_of_codes
from bot.ai.thousand.evaluate import bid_value, give_card, play_value
from bot.ai.thousand.play import PlayState, heuristic_card
from bot.engine.thousand import ThousandGame

NO_TRUMP = -1


def _card(code: str) -> int:
    return mask_of_codes([code]).bit_length() - 1


def test_easy_takes_points_with_the_lowest_winning_card() -> None:
    hands = [["KS", "9C", "JC", "9D"], ["AS", "TS", "9S", "JD"]]
    game = ThousandGame.from_play(hands, bidder=0, contract=100)
    game.apply(0, "cKS")
    assert choose(game, 1, "easy", seed=1) == "cTS"


def test_easy_ducks_cheaply_when_it_cannot_win() -> None:
    hands = [["AS", "9C", "JC", "9D"], ["TS", "9S", "KH", "JD"]]
    game = ThousandGame.from_play(hands, bidder=0, contract=100)
    game.apply(0, "cAS")
    assert choose(game, 1, "easy", seed=1) == "c9S"


def test_easy_declares_its_marriage_when_on_lead() -> None:
    hands = [["KH", "QH", "9C", "JC"], ["AS", "TS", "9S", "JD"]]
    game = ThousandGame.from_play(hands, bidder=0, contract=100, first_lead_done=True)
    assert choose(game, 0, "easy", seed=1) in ("cQH", "cKH")


def test_no_marriage_on_the_first_lead_so_lead_a_winner() -> None:
    hand = mask_of_codes(["KH", "QH", "AC", "9S"])
    unseen = mask_of_codes(["TC", "9C", "AH", "TS"])
    card = heuristic_card(
        hand, [], NO_TRUMP, unseen, seats=2, me=0, leader=0, bidder=0, can_declare=False
    )
    assert card == _card("AC")


def test_defender_gives_points_to_the_partner_winning_last() -> None:
    # 3 players: seat 2 (defender) plays last; seat 1 (defender) is winning
    hand = mask_of_codes(["TC", "9C", "AH"])
    trick = [_card("9S"), _card("AS")]
    card = heuristic_card(
        hand,
        trick,
        NO_TRUMP,
        mask_of_codes(["KH", "AC"]),
        seats=3,
        me=2,
        leader=0,
        bidder=0,
        can_declare=True,
    )
    assert card == _card("TC")


def test_easy_passes_a_hopeless_hand() -> None:
    hands = [
        ["AS", "TS", "KS", "QS", "AH", "TH", "KH", "QH", "AD", "TD"],
        ["9S", "JS", "9C", "JC", "9D", "JD", "9H", "JH", "QC", "KD"],
    ]
    talons = [["AC", "TC"], ["KC", "QD"]]
    game = ThousandGame.from_hands(hands, talons, dealer=1)
    game.apply(0, "b100")
    assert choose(game, 1, "easy", seed=1) == "pass"
    assert choose(game, 1, "hard", seed=1, budget_ms=30) == "pass"


def test_easy_bids_a_strong_hand() -> None:
    hands = [
        ["9S", "JS", "9C", "JC", "9D", "JD", "9H", "JH", "QC", "KD"],
        ["AS", "TS", "KS", "QS", "AH", "TH", "KH", "QH", "AD", "TD"],
    ]
    talons = [["AC", "TC"], ["KC", "QD"]]
    game = ThousandGame.from_hands(hands, talons, dealer=1)
    game.apply(0, "b100")
    assert choose(game, 1, "easy", seed=1) == "b105"
    assert choose(game, 1, "hard", seed=1, budget_ms=30) == "b105"


def test_evaluation_orders_hands_sensibly() -> None:
    strong = mask_of_codes(["AS", "TS", "KH", "QH", "AH", "TH", "AC", "AD"])
    weak = mask_of_codes(["9S", "JS", "9C", "JC", "9D", "JD", "QH", "KS"])
    assert play_value(strong, 3) > 120 > play_value(weak, 3)
    assert bid_value(strong, 3) > bid_value(weak, 3)


def test_give_away_keeps_aces_and_marriages() -> None:
    hand = mask_of_codes(["AS", "KH", "QH", "AC", "9D", "TC", "JS", "AD", "TD", "9C"])
    given = give_card(hand, 3)
    assert given in (_card("9D"), _card("9C"), _card("JS"))


def test_hard_concedes_a_contract_it_cannot_make() -> None:
    # seat 0 is the bidder at 160 with a hand that cannot reach it
    hands = [
        ["9S", "JS", "9C", "JC", "9D", "KH", "QH", "9H"],
        ["AS", "TS", "KS", "AC", "TC", "KC", "AD", "TD"],
        ["QS", "QC", "JD", "QD", "KD", "AH", "TH", "JH"],
    ]
    game = ThousandGame.from_hands(
        [hands[0][:7], hands[1][:7], hands[2][:7]],
        [[hands[0][7], hands[1][7], hands[2][7]]],
        dealer=2,
    )
    game.apply(0, "b160")
    game.apply(1, "pass")
    game.apply(2, "pass")
    for seat_to_act in range(2):
        seat = game.current_seat()
        assert seat == 0, seat_to_act
        game.apply(0, choose(game, 0, "easy", seed=1))
    while game.phase == "redeal":
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, "keep")
    assert game.phase == "contract"
    assert choose(game, 0, "hard", seed=3, budget_ms=30) == "concede"


def test_playout_conserves_card_points() -> None:
    hands = [
        mask_of_codes(["AS", "TS", "KS", "QS", "AH", "TH", "KH", "QH"]),
        mask_of_codes(["JS", "9S", "AC", "TC", "KC", "QC", "JC", "9C"]),
        mask_of_codes(["AD", "TD", "KD", "QD", "JD", "9D", "JH", "9H"]),
    ]
    state = PlayState(seats=3, hands=hands, trump=NO_TRUMP, leader=0, bidder=0)
    state.rollout()
    marriages = state.points[0] + state.points[1] + state.points[2] - 120
    assert marriages in (0, 40, 60, 80, 100, 140, 160, 180, 200, 240)
    assert sum(state.tricks_won) == 8
