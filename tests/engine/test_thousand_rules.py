"""Thousand: one test (or a few) per numbered ruling, named after the rule."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.base import IllegalAction
from bot.engine.cards import codes_to_mask
from bot.engine.thousand import (
    GAME,
    ThousandConventions,
    ThousandGame,
    complete_deal,
    from_hands,
    from_play,
)
from bot.engine.thousand.codes import BID_CODES, CONTRACT_CODES
from bot.engine.thousand.rules import DECK, bid_limit, card_points, concede_share, round_whistler
from bot.engine.thousand.scoring import DealOutcome, settle

# Nobody holds a marriage; the hearts marriage waits in the talon.
PLAIN_HANDS = [
    ["9S", "TS", "JS", "QS", "9C", "TC", "JC"],
    ["KS", "AS", "QC", "KD", "9D", "TD", "9H"],
    ["KC", "AC", "JD", "QD", "AD", "TH", "JH"],
]
PLAIN_TALON = [["QH", "KH", "AH"]]

# Seat 1 holds the hearts (100) and spades (40) marriages.
MARRIED_HANDS = [
    ["9S", "TS", "JS", "AS", "9C", "TC", "JC"],
    ["KH", "QH", "KS", "QS", "9D", "TD", "9H"],
    ["KC", "AC", "JD", "QD", "AD", "TH", "JH"],
]
MARRIED_TALON = [["QC", "KD", "AH"]]


def conv(**options: Any) -> ThousandConventions:
    return ThousandConventions(**options)


def act(game: ThousandGame, *actions: str) -> None:
    for action in actions:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, action)


def refused(game: ThousandGame, seat: int, action: str) -> str:
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert game.to_json() == before
    return info.value.code


def give_away(game: ThousandGame) -> None:
    while game.phase == "give":
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])


def plain_game(**options: Any) -> ThousandGame:
    return from_hands(PLAIN_HANDS, PLAIN_TALON, dealer=0, conventions=conv(**options))


def outcome(points: list[int], tricks: list[int] | None = None, **kw: Any) -> DealOutcome:
    values: dict[str, Any] = {
        "bidder": 0,
        "contract": 100,
        "conceded": False,
        "points": tuple(points),
        "tricks": tuple(tricks or [1] * len(points)),
        "golden": False,
    }
    values.update(kw)
    return DealOutcome(**values)


def settle_simple(o: DealOutcome, totals: list[int] | None = None, **kw: Any):
    seats = len(o.points)
    return settle(
        o,
        kw.pop("conventions", ThousandConventions()),
        totals or [0] * seats,
        kw.pop("bolts", [0] * seats),
        kw.pop("barrel_seat", None),
        kw.pop("barrel_attempts", 0),
    )


# ---------------------------------------------------------------- 1. the deal


def test_rule1_three_players_get_seven_cards_and_a_talon_of_three() -> None:
    game = GAME.new(3, seed=5)
    view = game.view(None)
    assert view["hand_sizes"] == [7, 7, 7]
    assert [t["count"] for t in view["talons"]] == [3]
    cards = set()
    for seat in range(3):
        cards |= set(game.view(seat)["hand"])
    assert len(cards) == 21


def test_rule1_two_players_get_ten_cards_and_two_talons_of_two() -> None:
    game = GAME.new(2, seed=5)
    view = game.view(None)
    assert view["hand_sizes"] == [10, 10]
    assert [t["count"] for t in view["talons"]] == [2, 2]


def test_rule1_dealer_is_drawn_by_lot_and_rotates_clockwise() -> None:
    dealers = {GAME.new(3, seed=s).dealer for s in range(30)}
    assert dealers == {0, 1, 2}
    game = GAME.new(3, seed=11)
    first = game.dealer
    while game.deal_no == 1:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    if game.view(None)["last_deal"]["redeal"]:
        assert game.dealer == first
    else:
        assert game.dealer == (first + 1) % 3


def test_rule1_same_seed_same_deal() -> None:
    assert GAME.new(3, seed=9).to_json() == GAME.new(3, seed=9).to_json()
    assert GAME.new(3, seed=9).to_json() != GAME.new(3, seed=10).to_json()


# ------------------------------------------------------------- 2. the auction


def test_rule2_first_hand_must_open_with_at_least_100() -> None:
    game = plain_game()
    assert game.current_seat() == 1
    legal = game.legal_actions(1)
    assert "pass" not in legal
    assert legal[0] == "b100"
    assert refused(game, 1, "pass") == "must_open"
    assert refused(game, 1, "b95") == "bid_too_low"


def test_rule2_bids_are_multiples_of_5_and_strictly_rising() -> None:
    game = plain_game()
    act(game, "b105")
    assert game.current_seat() == 2
    assert refused(game, 2, "b105") == "bid_too_low"
    assert refused(game, 2, "b112") == "bid_not_multiple_of_5"
    assert game.legal_actions(2) == ["pass", "b110", "b115", "b120"]
    act(game, "b110")
    assert game.view(None)["bid"] == 110
    assert game.view(None)["bidder"] == 2


def test_rule2_pass_is_final_for_the_deal() -> None:
    game = plain_game()
    act(game, "b100", "pass")
    assert game.current_seat() == 0
    act(game, "b105")
    # seat 2 passed: the auction goes back to seat 1 only
    assert game.current_seat() == 1
    act(game, "pass")
    assert game.phase == "give"
    assert game.view(None)["bidder"] == 0
    assert [a["action"] for a in game.view(None)["auction"]] == ["b100", "pass", "b105", "pass"]


def test_rule2_bid_limit_without_marriage_is_120() -> None:
    game = plain_game()
    assert game.legal_actions(1)[-1] == "b120"
    assert refused(game, 1, "b125") == "bid_above_limit"
    assert bid_limit(codes_to_mask(PLAIN_HANDS[1]), False) == 120


def test_rule2_bid_limit_counts_every_marriage_in_hand() -> None:
    game = from_hands(MARRIED_HANDS, MARRIED_TALON, dealer=0)
    assert game.legal_actions(1)[-1] == "b260"
    act(game, "b260")
    assert game.view(None)["bid"] == 260
    assert refused(from_hands(MARRIED_HANDS, MARRIED_TALON, dealer=0), 1, "b265") == (
        "bid_above_limit"
    )


def test_rule2_ace_marriage_raises_the_limit_only_when_enabled() -> None:
    hands = [
        ["AS", "AC", "AD", "AH", "9S", "TS", "JS"],
        ["KS", "QC", "9C", "TC", "JC", "9D", "TD"],
        ["QS", "KC", "JD", "QD", "KH", "9H", "TH"],
    ]
    talon = [["KD", "JH", "QH"]]
    off = from_hands(hands, talon, dealer=2)
    on = from_hands(hands, talon, dealer=2, conventions=conv(ace_marriage=True))
    assert off.legal_actions(0)[-1] == "b120"
    assert on.legal_actions(0)[-1] == "b320"


# Two players: seat 0 holds the four aces and three marriages, 560 with the ace
# marriage on; the spades marriage waits in the first talon.
ACES_TWO_HANDS = [
    ["AS", "AC", "AD", "AH", "KH", "QH", "KD", "QD", "KC", "QC"],
    ["TS", "TC", "TD", "TH", "JS", "JC", "JD", "JH", "9S", "9C"],
]
ACES_TWO_TALONS = [["KS", "QS"], ["9D", "9H"]]


def test_rule2_ace_marriage_bids_go_past_400_with_two_players() -> None:
    game = from_hands(
        ACES_TWO_HANDS, ACES_TWO_TALONS, dealer=1, conventions=conv(ace_marriage=True)
    )
    assert game.legal_actions(0) == [f"b{n}" for n in range(100, 561, 5)]
    assert refused(game, 0, "b565") == "bid_above_limit"
    act(game, "b560", "pass")
    assert game.view(None)["bid"] == 560


def test_rule2_the_codes_reach_the_highest_limit_any_hand_allows() -> None:
    top = bid_limit(DECK, True)  # every marriage and the four aces: 120 + 280 + 200
    assert top == 600
    assert (BID_CODES[-1], CONTRACT_CODES[-1]) == (f"b{top}", f"k{top}")


def test_rule2_ace_marriage_bids_go_past_400_with_three_players() -> None:
    hands, talons = complete_deal(3, {0: ["AS", "AC", "AD", "AH", "KH", "QH"]})
    game = from_hands(hands, talons, dealer=2, conventions=conv(ace_marriage=True))
    assert game.legal_actions(0)[-1] == "b420"
    act(game, "b420", "pass", "pass")
    assert game.view(None)["bid"] == 420


def test_rule2_player_below_minus_limit_passes_automatically() -> None:
    game = from_hands(PLAIN_HANDS, PLAIN_TALON, dealer=0, totals=[0, 0, -350])
    act(game, "b100")
    # seat 2 is below -300: passed without being asked
    assert game.current_seat() == 0
    view = game.view(None)
    assert view["auction"][-1] == {"seat": 2, "action": "pass"}
    assert view["auto_passed"] == [2]


def test_rule2_minus_limit_is_exclusive() -> None:
    game = from_hands(PLAIN_HANDS, PLAIN_TALON, dealer=0, totals=[0, 0, -300])
    act(game, "b100")
    assert game.current_seat() == 2


def test_rule2_if_everyone_passes_in_the_minus_first_hand_plays_100() -> None:
    game = from_hands(PLAIN_HANDS, PLAIN_TALON, dealer=0, totals=[-400, -400, 0])
    # seat 1 (first hand) and seat 0 are auto-passed; seat 2 may still pass
    assert game.current_seat() == 2
    assert "pass" in game.legal_actions(2)
    act(game, "pass")
    view = game.view(None)
    assert view["bidder"] == 1
    assert view["bid"] == 100
    assert game.phase == "give"


# ---------------------------------------------------------------- 3. the talon


def test_rule3_winner_takes_the_talon_and_everyone_sees_it() -> None:
    game = plain_game()
    act(game, "b105", "pass", "pass")
    assert game.view(1)["hand_sizes"] == [7, 10, 7]
    for seat in (None, 0, 2):
        assert game.view(seat)["talons"][0]["cards"] == ["QH", "KH", "AH"]


def test_rule3_talon_shown_when_sitting_on_a_hundred_by_default() -> None:
    game = plain_game()
    act(game, "b100", "pass", "pass")
    assert game.view(0)["talons"][0]["cards"] == ["QH", "KH", "AH"]


def test_rule3_talon_hidden_when_sitting_on_a_hundred_and_show_talon_off() -> None:
    game = plain_game(show_talon_on_hundred=False)
    act(game, "b100", "pass", "pass")
    for seat in (None, 0, 2):
        assert game.view(seat)["talons"][0]["cards"] is None
        assert game.view(seat)["talons"][0]["taken_by"] == 1
        assert "seen" not in game.view(seat)["talons"][0]
    assert {"QH", "KH", "AH"} <= set(game.view(1)["hand"])
    # the bidder picked them up: their view tells which cards those were, face down or not
    assert game.view(1)["talons"][0]["cards"] is None
    assert game.view(1)["talons"][0]["seen"] == ["QH", "KH", "AH"]


def test_rule3_talon_shown_with_show_talon_off_when_the_bid_was_raised() -> None:
    game = plain_game(show_talon_on_hundred=False)
    act(game, "b100", "b105", "pass", "pass")
    assert game.view(0)["talons"][0]["cards"] == ["QH", "KH", "AH"]


def test_rule3_two_players_choose_a_talon_and_the_other_stays_out() -> None:
    hands, talons = complete_deal(2, {}, [["AH", "TH"], ["9S", "9C"]])
    game = from_hands(hands, talons, dealer=1)
    act(game, "b100", "pass")
    assert game.phase == "talon"
    assert game.legal_actions(0) == ["t0", "t1"]
    assert refused(game, 0, "t2") == "unknown_action"
    act(game, "t1")
    view = game.view(1)
    assert view["talons"][0] == {"count": 2, "cards": None, "taken_by": None}
    assert view["talons"][1]["cards"] == ["9S", "9C"]
    assert view["hand_sizes"] == [12, 10]


def test_rule3_give_away_leaves_eight_cards_each_with_three_players() -> None:
    game = plain_game(redeal=False)
    act(game, "b100", "pass", "pass")
    legal = game.legal_actions(1)
    assert len(legal) == 20
    assert legal[0] == "gKS0" and "gKS2" in legal
    act(game, "gKS0")
    assert refused(game, 1, "gAS0") == "already_given"
    assert refused(game, 1, "gAS1") == "not_an_opponent"
    assert refused(game, 1, "g9S2") == "card_not_in_hand"
    act(game, "gAS2")
    assert game.view(None)["hand_sizes"] == [8, 8, 8]
    assert "KS" in game.view(0)["hand"]
    assert "AS" in game.view(2)["hand"]
    assert game.phase == "contract"
    # The bidder remembers both gifts; each receiver knows only its own; nobody else any.
    assert game.view(1)["gifts"] == [{"seat": 0, "card": "KS"}, {"seat": 2, "card": "AS"}]
    assert game.view(0)["gifts"] == [{"seat": 0, "card": "KS"}]
    assert game.view(2)["gifts"] == [{"seat": 2, "card": "AS"}]
    assert game.view(None)["gifts"] == []


def test_rule3_give_away_leaves_eleven_cards_each_with_two_players() -> None:
    hands, talons = complete_deal(2, {})
    game = from_hands(hands, talons, dealer=1, conventions=conv(redeal=False))
    act(game, "b100", "pass", "t0")
    give_away(game)
    assert game.view(None)["hand_sizes"] == [11, 11]


# ----------------------------------------------------------------- 4. redeal


def _redeal_game(hands: list[list[str]], talon: list[str], **options: Any) -> ThousandGame:
    game = from_hands(hands, [talon], dealer=0, conventions=conv(**options))
    act(game, "b100", "pass", "pass")
    return game


# seat 2 holds four nines; every other hand is rich
FOUR_NINES = [
    ["AS", "TS", "KS", "AC", "TC", "KC", "JS"],
    ["AD", "TD", "KD", "AH", "TH", "KH", "JC"],
    ["9S", "9C", "9D", "9H", "QS", "QC", "QD"],
]
FOUR_NINES_TALON = ["JD", "JH", "QH"]


def test_rule4_four_nines_may_ask_for_a_redeal() -> None:
    game = _redeal_game(FOUR_NINES, FOUR_NINES_TALON)
    act(game, "gJD0", "gJH2")
    assert game.phase == "redeal"
    assert game.view(None)["redeal_askers"] == [2]
    assert game.legal_actions(2) == ["redeal", "keep"]
    act(game, "redeal")
    assert game.deal_no == 2
    assert game.dealer == 0
    assert game.phase == "auction"
    assert game.scoresheet().rows == ()
    assert game.view(None)["last_deal"]["redeal"] is True


def test_rule4_keeping_the_cards_goes_on_to_the_contract() -> None:
    game = _redeal_game(FOUR_NINES, FOUR_NINES_TALON)
    act(game, "gJD0", "gJH2", "keep")
    assert game.phase == "contract"
    assert game.current_seat() == 1


def test_rule4_under_14_points_may_ask_for_a_redeal() -> None:
    hands = [
        ["AS", "TS", "KS", "AC", "TC", "KC", "9H"],
        ["AD", "TD", "KD", "AH", "TH", "KH", "9C"],
        ["9S", "JS", "QS", "JC", "QC", "9D", "JD"],
    ]
    talon = ["QD", "JH", "QH"]
    game = _redeal_game(hands, talon)
    act(game, "gJH0", "g9C2")
    assert card_points(codes_to_mask(game.hand(2))) == 12
    assert game.view(None)["redeal_askers"] == [2]


def test_rule4_a_talon_of_nines_lets_everyone_ask() -> None:
    hands = [
        ["AS", "TS", "KS", "AC", "TC", "KC", "JS"],
        ["AD", "TD", "KD", "AH", "TH", "KH", "JC"],
        ["QS", "QC", "QD", "QH", "JD", "JH", "9H"],
    ]
    game = _redeal_game(hands, ["9S", "9C", "9D"])
    act(game, "g9S0", "g9C2")
    assert game.view(None)["redeal_askers"] == [1, 2, 0]
    act(game, "keep", "keep", "keep")
    assert game.phase == "contract"


def test_rule4_no_redeal_window_when_the_convention_is_off() -> None:
    game = _redeal_game(FOUR_NINES, FOUR_NINES_TALON, redeal=False)
    act(game, "gJD0", "gJH2")
    assert game.phase == "contract"


# --------------------------------------------------------------- 5. contract


def _contract_game(**options: Any) -> ThousandGame:
    game = from_hands(MARRIED_HANDS, MARRIED_TALON, dealer=0, conventions=conv(**options))
    act(game, "b150", "pass", "pass", "g9D0", "gTD2")
    assert game.phase == "contract"
    return game


def test_rule5_contract_ranges_from_the_bid_to_the_limit_in_fives() -> None:
    game = _contract_game()
    legal = game.legal_actions(1)
    contracts = [int(code[1:]) for code in legal if code.startswith("k")]
    assert contracts == list(range(150, 261, 5))
    assert "concede" in legal
    assert refused(game, 1, "k145") == "contract_below_bid"
    assert refused(game, 1, "k265") == "contract_above_limit"
    assert refused(game, 1, "k152") == "contract_not_multiple_of_5"
    act(game, "k200")
    assert game.phase == "play"
    assert game.view(None)["contract"] == 200
    assert game.current_seat() == 1


def test_rule5_contract_limit_follows_the_hand_after_the_give_away() -> None:
    game = from_hands(MARRIED_HANDS, MARRIED_TALON, dealer=0)
    act(game, "b150", "pass", "pass", "gQS0", "gTD2")
    contracts = [int(c[1:]) for c in game.legal_actions(1) if c.startswith("k")]
    assert contracts[-1] == 220  # the hearts marriage only; clubs and diamonds came in the talon


def test_rule5_ace_marriage_contracts_go_past_400() -> None:
    game = from_hands(
        ACES_TWO_HANDS,
        ACES_TWO_TALONS,
        dealer=1,
        conventions=conv(ace_marriage=True, redeal=False),
    )
    # The talon completes the spades marriage (600 in twelve cards); one queen goes back.
    act(game, "b100", "pass", "t0", "gQS1")
    legal = game.legal_actions(0)
    assert [c for c in legal if c.startswith("k")] == [f"k{n}" for n in range(100, 561, 5)]
    assert refused(game, 0, "k565") == "contract_above_limit"
    act(game, "k560")
    assert game.phase == "play"
    assert game.view(None)["contract"] == 560


def test_rule5_concede_without_penalty_gives_a_bolt_and_half_to_each_opponent() -> None:
    game = _contract_game()
    act(game, "concede")
    row = game.scoresheet().rows[-1]
    assert row.deltas == (75, 0, 75)
    assert row.notes["result"] == "conceded"
    assert row.notes["bolts"] == [0, 1, 0]
    assert game.deal_no == 2


def test_rule5_concede_with_penalty_costs_the_contract() -> None:
    game = _contract_game(concede_penalty=True)
    act(game, "concede")
    row = game.scoresheet().rows[-1]
    assert row.deltas == (75, -150, 75)
    assert row.notes["bolts"] == [0, 0, 0]


def test_rule5_concede_share_rounds_half_up_to_a_multiple_of_5() -> None:
    assert concede_share(100) == 50
    assert concede_share(105) == 55
    assert concede_share(110) == 55
    assert concede_share(125) == 65


def test_rule5_no_concede_when_the_convention_is_off() -> None:
    game = _contract_game(concede=False)
    assert "concede" not in game.legal_actions(1)
    assert refused(game, 1, "concede") == "concede_not_allowed"


# -------------------------------------------------------------------- 6. play


def test_rule6_bidder_leads_the_first_trick() -> None:
    game = _contract_game()
    act(game, "k150")
    assert game.current_seat() == 1
    assert game.view(None)["to_act"] == 1


def test_rule6_must_follow_suit() -> None:
    game = from_play([["AS", "9H"], ["JS", "AC"], ["9D", "TD"]], bidder=0, contract=100)
    act(game, "cAS")
    assert game.legal_actions(1) == ["cJS"]
    assert refused(game, 1, "cAC") == "must_follow_suit"


def test_rule6_must_trump_when_void() -> None:
    game = from_play([["AS", "9C"], ["9H", "AC"], ["9D", "TD"]], bidder=0, contract=100, trump="H")
    act(game, "cAS")
    assert game.legal_actions(1) == ["c9H"]
    assert refused(game, 1, "cAC") == "must_trump"
    act(game, "c9H")
    assert game.legal_actions(2) == ["c9D", "cTD"]


def test_rule6_no_trump_before_a_marriage() -> None:
    game = from_play([["AS", "9C"], ["9H", "AC"], ["9D", "TD"]], bidder=0, contract=100)
    assert game.view(None)["trump"] is None
    act(game, "cAS")
    assert game.legal_actions(1) == ["cAC", "c9H"]
    act(game, "c9H", "c9D")
    assert game.view(None)["last_trick"]["winner"] == 0


def test_view_keeps_every_trick_of_the_deal_and_the_first_lead() -> None:
    game = from_play([["AS", "9C"], ["9H", "AC"], ["9D", "TD"]], bidder=0, contract=100)
    assert game.view(1)["first_lead_done"] is False
    act(game, "cAS")
    assert game.view(1)["first_lead_done"] is True
    act(game, "c9H", "c9D")
    played = [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "9H"}, {"seat": 2, "card": "9D"}]
    assert game.view(2)["played"] == [{"cards": played, "winner": 0}]


def test_rule6_highest_trump_wins_else_highest_of_the_suit_led() -> None:
    game = from_play([["AS", "KC"], ["9H", "TS"], ["TH", "QC"]], bidder=0, contract=100, trump="H")
    act(game, "cAS", "cTS", "cTH")
    assert game.view(None)["last_trick"]["winner"] == 2
    game = from_play([["KS", "9C"], ["TS", "9H"], ["AD", "QC"]], bidder=0, contract=100)
    act(game, "cKS", "cTS", "cAD")
    assert game.view(None)["last_trick"]["winner"] == 1


def test_rule6_ten_ranks_between_ace_and_king() -> None:
    game = from_play([["KS", "9C"], ["TS", "9H"], ["AS", "9D"]], bidder=0, contract=100)
    act(game, "cKS", "cTS", "cAS")
    assert game.view(None)["last_trick"]["winner"] == 2
    game = from_play([["KS", "9C"], ["TS", "9H"], ["JS", "9D"]], bidder=0, contract=100)
    act(game, "cKS", "cTS", "cJS")
    assert game.view(None)["last_trick"]["winner"] == 1


def test_rule6_no_marriage_on_the_first_lead_of_the_deal() -> None:
    game = from_play([["KH", "QH"], ["9S", "TS"], ["9D", "TD"]], bidder=0, contract=100)
    act(game, "cKH")
    view = game.view(None)
    assert view["announcements"] == []
    assert view["trump"] is None


def test_rule6_marriage_sets_trump_and_scores_its_value() -> None:
    game = from_play(
        [["QH", "KH", "9C"], ["9S", "TS", "JS"], ["9D", "TD", "JD"]],
        bidder=0,
        contract=100,
        first_lead_done=True,
    )
    act(game, "cQH")
    view = game.view(None)
    assert view["trump"] == "H"
    assert view["announcements"] == [
        {"seat": 0, "kind": "marriage", "cards": ["KH", "QH"], "points": 100, "suit": "H"}
    ]
    act(game, "c9S", "c9D")
    assert game.view(None)["points"] == [103, 0, 0]


@pytest.mark.parametrize(("suit", "value"), [("S", 40), ("C", 60), ("D", 80), ("H", 100)])
def test_rule6_marriage_values_by_suit(suit: str, value: int) -> None:
    others = [r + s for s in "SCDH" if s != suit for r in "9J"]
    game = from_play(
        [["K" + suit, "Q" + suit], others[:2], others[2:4]],
        bidder=0,
        contract=100,
        first_lead_done=True,
    )
    act(game, "cK" + suit)
    assert game.view(None)["announcements"][0]["points"] == value
    assert game.view(None)["trump"] == suit


def test_rule6_a_later_marriage_changes_trump_again() -> None:
    game = from_play(
        [["KH", "QH", "KS", "QS"], ["9C", "TC", "JC", "AC"], ["9D", "TD", "JD", "AD"]],
        bidder=0,
        contract=100,
        first_lead_done=True,
    )
    act(game, "cKH", "c9C", "c9D")
    assert game.view(None)["trump"] == "H"
    act(game, "cQS")
    view = game.view(None)
    assert view["trump"] == "S"
    assert [a["points"] for a in view["announcements"]] == [100, 40]


def test_rule6_leading_a_marriage_card_without_its_partner_declares_nothing() -> None:
    game = from_play(
        [["KH", "QS"], ["9C", "TC"], ["9D", "TD"]], bidder=0, contract=100, first_lead_done=True
    )
    act(game, "cKH")
    assert game.view(None)["trump"] is None


def test_rule6_a_follower_declares_nothing() -> None:
    game = from_play(
        [["AH", "9C"], ["KH", "QH"], ["9D", "TD"]], bidder=0, contract=100, first_lead_done=True
    )
    act(game, "cAH", "cKH")
    assert game.view(None)["announcements"] == []


def test_rule6_ace_marriage_scores_200_and_keeps_trump() -> None:
    hands = [["AS", "AC", "AD", "AH"], ["9S", "TS", "JS", "QS"], ["9C", "TC", "JC", "QC"]]
    game = from_play(
        hands,
        bidder=0,
        contract=100,
        trump="D",
        first_lead_done=True,
        conventions=conv(ace_marriage=True),
    )
    act(game, "cAS")
    view = game.view(None)
    assert view["announcements"][0]["kind"] == "ace_marriage"
    assert view["announcements"][0]["points"] == 200
    assert view["trump"] == "D"
    off = from_play(hands, bidder=0, contract=100, first_lead_done=True)
    act(off, "cAS")
    assert off.view(None)["announcements"] == []


def test_rule6_ace_marriage_not_on_the_first_lead() -> None:
    hands = [["AS", "AC", "AD", "AH"], ["9S", "TS", "JS", "QS"], ["9C", "TC", "JC", "QC"]]
    game = from_play(hands, bidder=0, contract=100, conventions=conv(ace_marriage=True))
    act(game, "cAS")
    assert game.view(None)["announcements"] == []


# ------------------------------------------------------------------- 7. score


@pytest.mark.parametrize(
    ("points", "rounded"),
    [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 5),
        (4, 5),
        (5, 5),
        (6, 5),
        (7, 5),
        (8, 10),
        (9, 10),
        (10, 10),
        (41, 40),
        (42, 40),
        (43, 45),
        (44, 45),
        (46, 45),
        (47, 45),
        (48, 50),
        (49, 50),
        (120, 120),
    ],
)
def test_rule7_whistlers_round_to_5_ends_1267_down_3489_up(points: int, rounded: int) -> None:
    assert round_whistler(points) == rounded
    result = settle_simple(outcome([120 - points, points, 0]))
    assert result.deltas[1] == rounded


def test_rule7_bidder_is_never_rounded() -> None:
    failed = settle_simple(outcome([99, 21, 0], contract=100))
    assert failed.deltas[0] == -100
    made = settle_simple(outcome([100, 20, 0], contract=100))
    assert made.deltas[0] == 100
    assert made.notes["marks"][0] == "+100"
    assert failed.notes["marks"][0] == "-100"


def test_rule7_bidder_counts_marriages_towards_the_contract() -> None:
    game = from_play(
        [["QH", "KH", "9C"], ["9S", "TS", "JS"], ["9D", "TD", "JD"]],
        bidder=0,
        contract=110,
        first_lead_done=True,
    )
    act(game, "cQH", "c9S", "c9D", "cKH", "cTS", "cTD", "c9C", "cJS", "cJD")
    row = game.scoresheet().rows[-1]
    # 100 (marriage) + 3 + 4 + 10 + 10 + 2 + 2 = 131 without the last trick's winner known
    assert row.notes["points"][0] >= 110
    assert row.deltas[0] == 110
    assert row.notes["result"] == "made"


def test_rule7_whole_deal_scores_through_the_game() -> None:
    game = from_play([["AS", "9C"], ["TS", "AC"], ["9D", "TH"]], bidder=0, contract=100)
    act(game, "cAS", "cTS", "c9D", "c9C", "cAC", "cTH")
    row = game.scoresheet().rows[-1]
    assert row.notes["points"] == [21, 21, 0]
    assert row.deltas == (-100, 20, 0)
    assert row.notes["bolts"] == [0, 0, 1]


def test_rule7_a_player_with_no_trick_gets_a_bolt() -> None:
    result = settle_simple(outcome([120, 0, 0], tricks=[8, 0, 0]))
    assert result.notes["bolts"] == [0, 1, 1]
    assert result.bolts == [0, 1, 1]
    assert result.deltas == [100, 0, 0]


def test_rule7_every_third_bolt_costs_120_and_restarts_the_count() -> None:
    result = settle_simple(outcome([120, 0, 0], tricks=[8, 0, 0]), bolts=[2, 2, 1])
    assert result.bolts == [2, 0, 2]
    assert result.deltas == [100, -120, 0]
    assert result.notes["bolt_penalties"] == [0, -120, 0]


def test_rule7_bidder_without_a_trick_gets_a_bolt_too() -> None:
    result = settle_simple(outcome([0, 60, 60], tricks=[0, 4, 4]), bolts=[2, 0, 0])
    assert result.deltas == [-100 - 120, 60, 60]


# ------------------------------------------------------------------ 8. barrel


def test_rule8_reaching_880_sets_the_total_to_880_on_the_barrel() -> None:
    result = settle_simple(outcome([120, 0, 0], contract=120), totals=[800, 0, 0])
    assert result.totals[0] == 880
    assert result.barrel_seat == 0
    assert result.deltas[0] == 80
    assert result.notes["on_barrel"] == [True, False, False]


def test_rule8_barrel_player_takes_the_talon_at_121_without_auction() -> None:
    game = from_hands(PLAIN_HANDS, PLAIN_TALON, dealer=0, totals=[0, 0, 880], barrel=(2, 0))
    assert game.phase == "give"
    view = game.view(None)
    assert view["bidder"] == 2
    assert view["bid"] == 121
    assert view["barrel"][2] == {"on": True, "attempts": 0}
    give_away(game)
    contracts = [c for c in game.legal_actions(2) if c.startswith("k")]
    assert contracts[0] == "k121"


def test_rule8_no_concede_on_the_barrel() -> None:
    game = from_hands(
        PLAIN_HANDS,
        PLAIN_TALON,
        dealer=0,
        totals=[0, 0, 880],
        barrel=(2, 0),
        conventions=conv(redeal=False),
    )
    give_away(game)
    assert "concede" not in game.legal_actions(2)
    assert refused(game, 2, "concede") == "concede_on_barrel"


def test_rule8_barrel_trading_opens_at_121_and_others_may_outbid() -> None:
    game = from_hands(
        MARRIED_HANDS,
        MARRIED_TALON,
        dealer=0,
        totals=[880, 0, 0],
        barrel=(0, 0),
        conventions=conv(barrel_trading=True),
    )
    assert game.phase == "auction"
    assert game.view(None)["auction"][0] == {"seat": 0, "action": "b121"}
    assert game.current_seat() == 1
    assert game.legal_actions(1)[:2] == ["pass", "b125"]
    act(game, "b125")
    assert game.current_seat() == 2
    act(game, "pass")
    assert game.current_seat() == 0  # the barrel player may raise or pass
    act(game, "pass")
    assert game.view(None)["bidder"] == 1


def test_rule8_barrel_trading_barrel_wins_when_all_pass() -> None:
    game = from_hands(
        PLAIN_HANDS,
        PLAIN_TALON,
        dealer=0,
        totals=[0, 880, 0],
        barrel=(1, 0),
        conventions=conv(barrel_trading=True),
    )
    assert game.current_seat() == 2  # the barrel player is first hand and has opened
    act(game, "pass", "pass")
    assert game.view(None)["bidder"] == 1
    assert game.view(None)["bid"] == 121


def test_rule8_failed_attempts_cost_nothing_until_the_third() -> None:
    first = settle_simple(
        outcome([100, 10, 10], bidder=0, contract=121), totals=[880, 300, 300], barrel_seat=0
    )
    assert first.totals == [880, 300, 300]
    assert first.barrel_seat == 0
    assert first.barrel_attempts == 1
    assert first.notes["marks"][0] == "attempt failed"
    third = settle_simple(
        outcome([100, 10, 10], bidder=0, contract=121),
        totals=[880, 300, 300],
        barrel_seat=0,
        barrel_attempts=2,
    )
    assert third.totals == [760, 300, 300]
    assert third.barrel_seat is None
    assert third.deltas == [-120, 0, 0]


def test_rule8_a_player_on_the_barrel_collects_no_bolts() -> None:
    # no trick on a failed attempt: no bolt, so no third bolt's 120 to drop them off
    first = settle_simple(
        outcome([0, 60, 60], tricks=[0, 4, 4], bidder=0, contract=121),
        totals=[880, 300, 300],
        bolts=[2, 0, 0],
        barrel_seat=0,
        barrel_attempts=0,
    )
    assert first.totals == [880, 300, 300]
    assert first.bolts == [2, 0, 0]
    assert first.notes["bolts"] == [0, 0, 0]
    assert (first.barrel_seat, first.barrel_attempts) == (0, 1)
    # the third attempt costs its 120 and nothing more
    third = settle_simple(
        outcome([0, 60, 60], tricks=[0, 4, 4], bidder=0, contract=121),
        totals=[880, 300, 300],
        bolts=[2, 0, 0],
        barrel_seat=0,
        barrel_attempts=2,
    )
    assert third.deltas == [-120, 0, 0]
    assert third.bolts == [2, 0, 0]
    assert third.barrel_seat is None


def test_rule8_raised_above_121_on_the_barrel_and_failed_loses_the_contract_and_the_barrel() -> (
    None
):
    hands = [["9S", "JS", "9C", "JC"], ["AS", "TS", "AC", "TC"], ["9D", "TD", "AD", "QD"]]
    game = from_play(
        hands,
        bidder=0,
        contract=140,
        totals=[880, 100, 100],
        barrel=(0, 1),
        conventions=conv(barrel_trading=True),
    )
    while (seat := game.current_seat()) is not None and game.deal_no == 1:
        game.apply(seat, game.legal_actions(seat)[0])
    row = game.scoresheet().rows[0]
    assert row.deltas[0] == -140
    assert row.notes["barrel"] == {"seat": None, "attempts": 0}
    assert {"seat": 0, "event": "raised_failed"} in row.notes["barrel_events"]
    assert row.notes["marks"][0] == "-140"
    assert game.totals[0] == 740
    # their 121 failing stays a free attempt, as does any contract without barrel trading
    for options, contract in ((conv(barrel_trading=True), 121), (conv(), 140)):
        free = from_play(
            hands,
            bidder=0,
            contract=contract,
            totals=[880, 100, 100],
            barrel=(0, 1),
            conventions=options,
        )
        while (seat := free.current_seat()) is not None and free.deal_no == 1:
            free.apply(seat, free.legal_actions(seat)[0])
        assert free.scoresheet().rows[0].deltas[0] == 0
        assert free.scoresheet().rows[0].notes["barrel"] == {"seat": 0, "attempts": 2}


def test_rule8_opponents_stand_still_while_the_barrel_is_played() -> None:
    result = settle_simple(
        outcome([100, 20, 0], tricks=[5, 3, 0], bidder=0, contract=121),
        totals=[880, 300, 300],
        barrel_seat=0,
        bolts=[0, 0, 2],
    )
    assert result.deltas == [0, 0, 0]
    assert result.bolts == [0, 0, 2]
    assert result.notes["stood_still"] == [False, True, True]
    assert result.notes["marks"][1] == "stood still"


def test_rule8_barrel_player_outbid_stands_still() -> None:
    result = settle_simple(
        outcome([0, 130, 0], tricks=[0, 8, 0], bidder=1, contract=125),
        totals=[880, 300, 300],
        barrel_seat=0,
        barrel_attempts=0,
    )
    assert result.deltas == [0, 125, 0]
    assert result.bolts == [0, 0, 1]
    assert result.barrel_attempts == 1


def test_rule8_another_player_reaching_the_barrel_knocks_the_sitter_off() -> None:
    result = settle_simple(
        outcome([10, 200, 0], bidder=1, contract=200), totals=[880, 700, 0], barrel_seat=0
    )
    assert result.totals == [760, 880, 0]
    assert result.barrel_seat == 1
    assert result.barrel_attempts == 0


def test_rule8_two_reaching_the_barrel_together_both_drop_off() -> None:
    result = settle_simple(outcome([100, 60, 60], bidder=0, contract=100), totals=[800, 850, 0])
    assert result.totals == [760, 760, 60]
    assert result.barrel_seat is None


def test_rule8_making_the_barrel_contract_wins_the_game() -> None:
    game = from_play(
        [["QH", "KH", "AS", "TS"], ["9S", "JS", "9C", "TC"], ["9D", "TD", "JD", "QD"]],
        bidder=0,
        contract=121,
        first_lead_done=True,
        totals=[880, 100, 100],
        barrel=(0, 1),
    )
    act(game, "cQH", "c9S", "c9D", "cKH", "cJS", "cTD", "cAS", "c9C", "cJD", "cTS", "cTC", "cQD")
    assert game.is_over
    assert game.phase == "game_over"
    assert game.current_seat() is None
    assert game.scoresheet().winner == 0
    assert game.view(None)["winner"] == 0
    assert game.scoresheet().totals == (1001, 100, 100)
    assert refused(game, 0, "cAS") == "game_over"


# -------------------------------------------------------------- 9. dump truck


def test_rule9_dump_truck_at_exactly_555() -> None:
    result = settle_simple(outcome([0, 100, 20], bidder=1, contract=100), totals=[0, 455, 0])
    assert result.totals == [0, 0, 20]
    assert result.deltas == [0, -455, 20]
    assert result.notes["dump_truck"] == [0, 555, 0]


def test_rule9_dump_truck_at_exactly_minus_555() -> None:
    result = settle_simple(outcome([0, 10, 110], bidder=1, contract=120), totals=[0, -435, 0])
    assert result.totals == [0, 0, 110]
    assert result.deltas == [0, 435, 110]
    assert result.notes["dump_truck"] == [0, -555, 0]


def test_rule9_dump_truck_off_keeps_555() -> None:
    result = settle_simple(
        outcome([0, 100, 20], bidder=1, contract=100),
        totals=[0, 455, 0],
        conventions=ThousandConventions(dump_truck=False),
    )
    assert result.totals[1] == 555


def test_rule9_no_dump_truck_next_to_555() -> None:
    result = settle_simple(outcome([0, 105, 15], bidder=1, contract=105), totals=[0, 455, 0])
    assert result.totals[1] == 560


def test_rule8_barrel_player_may_raise_in_barrel_trading() -> None:
    hands, talons = complete_deal(3, {0: ["KS", "QS"], 1: ["KH", "QH"]})
    game = from_hands(
        hands,
        talons,
        dealer=2,
        totals=[0, 880, 0],
        barrel=(1, 1),
        conventions=conv(barrel_trading=True),
    )
    assert game.current_seat() == 0
    act(game, "b125")
    assert game.current_seat() == 1
    assert game.legal_actions(1)[:2] == ["pass", "b130"]
    act(game, "b200", "pass")
    view = game.view(None)
    assert (view["bidder"], view["bid"]) == (1, 200)


# ----------------------------------------------------------- the state API


def test_api_view_has_the_shared_keys() -> None:
    game = GAME.new(3, seed=1)
    keys = {
        "game", "seats", "seat", "deal_no", "dealer", "phase", "to_act", "hand", "legal",
        "hand_sizes", "trump", "trick", "last_trick", "tricks_taken", "auction", "bidder",
        "totals", "announcements", "last_deal", "winner", "talons", "bid", "contract",
        "bolts", "barrel",
    }  # fmt: skip
    for seat in (None, 0, 1, 2):
        view = game.view(seat)
        assert keys <= set(view)
        assert view["game"] == "thousand"
        assert view["seat"] == seat
    to_act = game.current_seat()
    assert game.view(to_act)["legal"] == game.legal_actions(to_act)
    assert game.view(None)["legal"] == []
    assert game.view(None)["hand"] == []


def test_api_wrong_turn_and_unknown_codes_are_refused() -> None:
    game = plain_game()
    assert game.legal_actions(0) == []
    assert refused(game, 0, "b100") == "not_your_turn"
    for bogus in ("cAS", "hello", "b10x", "k100", "gAS0"):
        assert refused(game, 1, bogus) == "unknown_action"


def test_api_play_errors_name_the_rule() -> None:
    game = from_play([["AS", "9H"], ["JS", "AC"], ["9D", "TD"]], bidder=0, contract=100)
    assert refused(game, 0, "cKH") == "card_not_in_hand"
    assert refused(game, 0, "cXX") == "unknown_action"


def test_api_clone_is_independent_and_replays_identically() -> None:
    game = GAME.new(2, seed=4)
    copy = game.clone()
    assert copy.to_json() == game.to_json()
    seat = game.current_seat()
    assert seat is not None
    game.apply(seat, game.legal_actions(seat)[0])
    assert copy.to_json() != game.to_json()
    copy.apply(seat, copy.legal_actions(seat)[0])
    assert copy.to_json() == game.to_json()


def test_api_scoresheet_cells_show_running_totals() -> None:
    game = _contract_game()
    act(game, "concede")
    sheet = game.scoresheet()
    assert sheet.rows[0].cells == ("75", "0", "75")
    assert sheet.totals == (75, 0, 75)
    assert sheet.winner is None
    last = game.view(None)["last_deal"]
    assert last["marks"] == ["75", "conceded", "75"]
    assert last["written"] == [75, 0, 75]
