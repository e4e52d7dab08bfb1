"""Thousand for four (RULINGS.md Thousand 10): the dealer sits out on the talon.

One test per point of the ruling, in its order.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.base import IllegalAction
from bot.engine.thousand import (
    GAME,
    ThousandConventions,
    ThousandGame,
    complete_deal,
    from_hands,
    from_play,
)
from bot.engine.thousand.deal import deal_bits
from bot.engine.tricks import deal_seed

# Dealer 0 sits out; seats 1..3 hold no marriage; the talon holds the hearts marriage.
HANDS = [
    [],
    ["9S", "TS", "JS", "QS", "9C", "TC", "JC"],
    ["KS", "AS", "QC", "KD", "9D", "TD", "9H"],
    ["KC", "AC", "JD", "QD", "AD", "TH", "JH"],
]
TALON = [["QH", "KH", "AH"]]  # 3 + 4 + 11 card points and the hearts marriage, 100


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


def play_out(game: ThousandGame) -> None:
    """The first legal action for whoever acts, to the end of the deal under way."""
    deal = game.deal_no
    while game.deal_no == deal and (seat := game.current_seat()) is not None:
        game.apply(seat, game.legal_actions(seat)[0])


def deal_of_four(**options: Any) -> ThousandGame:
    return from_hands(HANDS, TALON, dealer=0, conventions=ThousandConventions(**options))


def test_the_dealer_sits_on_the_talon_and_does_not_play_the_deal() -> None:
    game = GAME.new(4, seed=11)
    dealer = game.dealer
    assert game.view(None)["sitting_out"] == dealer
    seen = set()
    while game.deal_no == 1:
        seat = game.current_seat()
        assert seat is not None and seat != dealer
        assert game.legal_actions(dealer) == []
        seen.add(seat)
        game.apply(seat, game.legal_actions(seat)[0])
    assert seen == {0, 1, 2, 3} - {dealer}
    row = game.scoresheet().rows[-1]
    assert row.notes["sitting_out"] == dealer
    assert row.notes["points"][dealer] == 0


def test_seven_cards_to_each_of_the_other_three_and_three_to_the_talon_the_last_card_to_it() -> (
    None
):
    game = GAME.new(4, seed=3)
    state = game.to_json()
    dealer = game.dealer
    assert [bin(h).count("1") for h in state["hands"]] == [
        0 if seat == dealer else 7 for seat in range(4)
    ]
    assert [bin(t).count("1") for t in state["talons"]] == [3]
    bits = deal_bits(deal_seed(3, 1))
    assert state["talons"][0] & bits[-1]  # the deck's last card is in the talon
    everything = 0
    for mask in [*state["hands"], *state["talons"]]:
        assert not everything & mask
        everything |= mask
    assert everything == sum(bits)


def test_the_three_others_bid_from_left_of_the_dealer_and_the_dealer_never_speaks() -> None:
    game = from_hands(HANDS[-1:] + HANDS[:-1], TALON, dealer=1)  # dealer 1 holds nothing
    assert game.current_seat() == 2
    assert refused(game, 2, "pass") == "must_open"
    act(game, "b100")
    assert game.current_seat() == 3
    act(game, "pass")
    assert game.current_seat() == 0  # round the table past seat 3, skipping no one yet
    act(game, "b105")
    assert game.current_seat() == 2  # seat 1, the dealer, is skipped
    act(game, "pass")
    view = game.view(None)
    assert (view["bidder"], view["bid"]) == (0, 105)
    assert all(entry["seat"] != 1 for entry in view["auction"])


def test_the_bidder_takes_the_talon_and_gives_one_card_to_each_other_active_player() -> None:
    game = deal_of_four()
    act(game, "b100", "pass", "pass")
    assert game.phase == "give"
    assert game.current_seat() == 1
    assert len(game.hand(1)) == 10
    legal = game.legal_actions(1)
    assert {code[-1] for code in legal} == {"2", "3"}
    assert game.view(None)["to_receive"] == [2, 3]
    assert refused(game, 1, "g9S0") == "not_an_opponent"
    act(game, "g9S2")
    assert game.phase == "give"
    act(game, "gTS3")
    assert game.phase == "contract"
    assert [len(game.hand(s)) for s in range(4)] == [0, 8, 8, 8]


def test_the_play_is_three_cards_a_trick_in_order_past_the_dealer() -> None:
    game = from_play(
        [["9S", "TS"], [], ["AS", "9C"], ["KS", "TC"]],
        bidder=3,
        contract=100,
        dealer=1,
    )
    act(game, "cKS")
    assert game.current_seat() == 0
    act(game, "c9S")
    assert game.current_seat() == 2
    act(game, "cAS")
    assert game.view(None)["trick"] == []
    assert game.view(None)["last_trick"]["winner"] == 2
    assert game.current_seat() == 2


def test_the_dealer_scores_the_talon_rounded_plus_its_marriage_and_no_bolt() -> None:
    game = deal_of_four()
    act(game, "b100", "pass", "pass", "g9S2", "gTS3", "k100")
    play_out(game)
    row = game.scoresheet().rows[0]
    # 18 card points and the hearts marriage: 118, rounded to 120, though the bidder
    # took those cards and declared that marriage
    assert row.notes["talon_points"] == 118
    assert row.deltas[0] == 120
    assert row.notes["marks"][0] == "talon"
    assert row.notes["bolts"][0] == 0
    assert game.scoresheet().notes["bolts"][0] == 0
    # without a marriage the talon is its card points, rounded as a whistler's
    plain = from_hands(
        [[], HANDS[1], ["QH", *HANDS[2][1:]], HANDS[3]],
        [["KS", "KH", "AH"]],
        dealer=0,
    )
    act(plain, "b100", "pass", "pass")
    play_out(plain)
    assert plain.scoresheet().rows[0].notes["talon_points"] == 19
    assert plain.scoresheet().rows[0].deltas[0] == 20


def test_the_sitting_out_dealer_sees_only_what_the_table_shows_everyone() -> None:
    game = deal_of_four(show_talon_on_hundred=False)
    checked = 0
    while game.deal_no == 1:
        dealer = game.view(0)
        public = game.view(None)
        assert {**dealer, "seat": None} == public
        assert dealer["hand"] == [] and dealer["legal"] == []
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[-1 if game.phase == "auction" else 0])
        checked += 1
    assert checked > 20
    # the taker of a face-down talon sees it; the dealer, who dealt it, is told nothing
    face_down = deal_of_four(show_talon_on_hundred=False)
    act(face_down, "b100", "pass", "pass")
    assert face_down.view(0)["talons"] == [{"count": 3, "cards": None, "taken_by": 1}]
    assert face_down.view(1)["talons"][0]["seen"] == ["QH", "KH", "AH"]


def test_a_dealer_on_the_barrel_sits_out_without_an_attempt_and_scores_nothing() -> None:
    game = from_hands(
        HANDS, TALON, dealer=0, totals=[880, 100, 100, 100], barrel=(0, 1), bolts=[2, 0, 0, 0]
    )
    # an ordinary auction: no 121 opened in the dealer's name
    assert game.view(None)["auction"] == []
    assert game.view(None)["barrel_opening"] is False
    assert game.current_seat() == 1
    act(game, "b100", "pass", "pass")
    play_out(game)
    row = game.scoresheet().rows[0]
    assert row.deltas[0] == 0
    assert row.notes["stood_still"][0] is True
    assert row.notes["barrel"] == {"seat": 0, "attempts": 1}
    assert game.view(None)["barrel"][0] == {"on": True, "attempts": 1}
    assert game.scoresheet().notes["bolts"][0] == 2


def test_a_barrel_played_by_another_leaves_the_sitting_out_dealer_standing_still() -> None:
    game = from_hands(HANDS, TALON, dealer=0, totals=[100, 880, 100, 100], barrel=(1, 0))
    assert game.phase == "give"  # the barrel player takes the talon at 121
    play_out(game)
    row = game.scoresheet().rows[0]
    assert row.notes["stood_still"] == [True, False, True, True]
    assert row.deltas[0] == 0


def test_the_rest_is_as_with_three_golden_round_and_dump_truck_on_the_talon_points() -> None:
    golden = from_hands(HANDS, TALON, dealer=0, conventions=ThousandConventions(golden_round=True))
    act(golden, "b100", "pass", "pass")
    play_out(golden)
    assert golden.scoresheet().rows[0].deltas[0] == 240
    trucked = from_hands(HANDS, TALON, dealer=0, totals=[435, 0, 0, 0])
    act(trucked, "b100", "pass", "pass")
    play_out(trucked)
    assert trucked.totals[0] == 0
    assert trucked.scoresheet().rows[0].notes["dump_truck"][0] == 555


def test_the_rest_is_as_with_three_redeal_among_the_three_and_no_score() -> None:
    # seat 2 holds the four nines; the dealer (no cards, no points) is never asked
    hands, talons = complete_deal(
        4, {2: ["9S", "9C", "9D", "9H", "JS", "JC", "JD"]}, [["AS", "AC", "AD"]], dealer=0
    )
    game = from_hands(hands, talons, dealer=0)
    act(game, "b100", "pass", "pass", "gAS2", "gAC3")
    assert game.phase == "redeal"
    assert game.view(None)["redeal_askers"] == [2]
    act(game, "redeal")
    assert game.deal_no == 2 and game.dealer == 0
    assert game.totals == [0, 0, 0, 0]


def test_the_deal_passes_clockwise_over_all_four_seats() -> None:
    game = GAME.new(4, seed=21)
    dealers = [game.dealer]
    while len(dealers) < 5:
        play_out(game)
        dealers.append(game.dealer)
    first = dealers[0]
    assert dealers == [(first + k) % 4 for k in range(5)]


def test_four_player_games_are_seeded_and_round_trip_as_json() -> None:
    a, b = GAME.new(4, seed=99), GAME.new(4, seed=99)
    for _ in range(300):
        seat = a.current_seat()
        assert seat is not None and seat == b.current_seat()
        action = a.legal_actions(seat)[len(a.legal_actions(seat)) // 2]
        a.apply(seat, action)
        b.apply(seat, action)
        state = a.to_json()
        assert b.to_json() == state
        assert ThousandGame.from_json(json.loads(json.dumps(state))).to_json() == state
    assert a.deal_no > 2


def test_the_talons_points_are_in_every_view_once_the_talon_is_shown_and_not_before() -> None:
    game = deal_of_four()
    assert game.view(None)["talon_points"] is None  # face down during the auction
    act(game, "b100", "pass", "pass")
    # shown to all: its card points and the marriage in it, what the dealer writes
    assert [game.view(s)["talon_points"] for s in (None, 0, 1, 2)] == [118] * 4
    face_down = deal_of_four(show_talon_on_hundred=False)
    act(face_down, "b100", "pass", "pass")
    assert face_down.view(None)["talon_points"] is None
    assert face_down.view(0)["talon_points"] is None
    three = from_hands(HANDS[1:], TALON, dealer=2)
    act(three, "b100", "pass", "pass")
    assert three.view(None)["talon_points"] is None  # nobody sits out
