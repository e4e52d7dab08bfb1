"""Thousand's hard level: positions from played games where a sound player's choice is clear."""

from __future__ import annotations

from bot.ai.players import choose
from bot.ai.thousand import hard
from bot.ai.thousand.cards import mask_of_codes
from bot.ai.thousand.solver import Endgame
from bot.engine.thousand import ThousandGame


def test_hard_leads_the_only_card_that_can_still_make_the_contract() -> None:
    # Seat 1 bid 100, took the talon AC 9D, gave QD away and named 250. With 236
    # points and J♠ 9♦ 10♦ left, leading 9♦ fails in every layout it cannot tell
    # apart, J♠ makes the contract in some of them.
    hands = [
        ["9S", "TS", "KS", "9C", "JC", "JD", "KD", "AD", "9H", "JH"],
        ["JS", "TC", "QC", "KC", "TD", "QD", "TH", "QH", "KH", "AH"],
    ]
    game = ThousandGame.from_hands(
        hands, [["AC", "9D"], ["QS", "AS"]], dealer=0, totals=[-135, 200]
    )
    moves = "b100 pass t0 gQD0 k250 cTC c9C cQC cJC cQH c9H cKH cJH cTH c9S cAC cJD cAH cKS cKC cTS"
    for move in moves.split():
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, move)
    view = game.view(1)
    assert view["hand"] == ["JS", "9D", "TD"] and view["points"][1] == 236
    assert [choose(game, 1, "hard", seed=seed) for seed in range(3)] == ["cJS"] * 3


def test_endgame_counts_a_marriage_led_and_plays_the_defence_best() -> None:
    # Seat 0 (bidder) leads; K♥ Q♥ in hand: leading either declares hearts (100).
    hands = [mask_of_codes(["KH", "QH", "9S"]), mask_of_codes(["AS", "TS", "9H"])]
    endgame = Endgame(2, 0)
    king = mask_of_codes(["KH"]).bit_length() - 1
    nine = mask_of_codes(["9S"]).bit_length() - 1
    # K♥ declares 100 and takes the 9♥ (4). Q♥ next draws the defender's cheaper
    # spade (3 + 10), the 9♠ last loses; 9♠ next instead, the defender takes it with
    # the ace and leads the ten into the trump queen (3 + 10): 117 either way.
    assert endgame.after(hands, 0, -1, [], king) == 100 + 4 + 13
    # 9♠ first: the defender wins it and leads a spade before the bidder can declare;
    # hearts never become trump, and the bidder takes only the last trick (K♥ 9♥).
    assert endgame.after(hands, 0, -1, [], nine) == 4


def test_endgame_counts_a_marriage_a_defender_declares_against_the_bidder() -> None:
    # The defender (seat 1) leads K♥ Q♥ against the bidder's small spade and club: it
    # declares hearts (100) and takes both tricks. Its marriage is written to its side as
    # surely as the bidder's would be to the bidder: -100 (the old value said 0).
    hands = [mask_of_codes(["9S", "9C"]), mask_of_codes(["KH", "QH"])]
    king = mask_of_codes(["KH"]).bit_length() - 1
    assert Endgame(2, 0).after(hands, 1, -1, [], king) == -100
    # Against a contract of 120 with 119 taken: lost, for each other seat, less the 100.
    assert Endgame(2, 0, contract=120).after(hands, 1, -1, [], king, need=1) == -220


def test_hard_names_no_more_than_its_hand_can_take() -> None:
    # Seat 0 bid 100 and took K♣ 10♦; after giving 9♦ away it holds the marriages of
    # diamonds (80) and hearts (100), but against a sound defence takes about 110-135:
    # naming 220 (as it once did) loses 220 where 100 would have won 100.
    hands = [
        ["TS", "9C", "TC", "JC", "9D", "QD", "KD", "AD", "QH", "KH"],
        ["9S", "JS", "KS", "AS", "QC", "AC", "9H", "TH", "JH", "AH"],
    ]
    game = ThousandGame.from_hands(hands, [["KC", "TD"], ["QS", "JD"]], dealer=1, totals=[195, 25])
    for move in ("b100", "pass", "t0", "g9D1"):
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, move)
    assert game.view(0)["phase"] == "contract"
    for seed in range(3):
        action = choose(game, 0, "hard", seed=seed)
        assert action.startswith("k") and int(action[1:]) <= 130, action


def test_hard_bids_the_hand_only_as_far_as_its_contract_would_go() -> None:
    # The hand above before the talon: worth about 110-135 against a sound defence.
    # It once bid on to 165 and beyond (its plain rollouts let the defence hand it
    # the lead for both marriages); valued as the contract is, it stops short of 135.
    hands = [
        ["TS", "9C", "TC", "JC", "9D", "QD", "KD", "AD", "QH", "KH"],
        ["QS", "JS", "KS", "AS", "QC", "AC", "9H", "TH", "JH", "AH"],
    ]

    def after(bid: int) -> ThousandGame:
        game = ThousandGame.from_hands(
            hands, [["KC", "TD"], ["9S", "JD"]], dealer=1, totals=[195, 25]
        )
        game.apply(0, "b100")
        game.apply(1, f"b{bid}")
        return game

    assert [choose(after(105), 0, "hard", seed=seed) for seed in range(2)] == ["b110"] * 2
    assert [choose(after(140), 0, "hard", seed=seed) for seed in range(2)] == ["pass"] * 2
    # the layouts kept from the first decision change no decision: dealt afresh, the same
    hard._auction_cache.clear()
    assert choose(after(140), 0, "hard", seed=5) == "pass"
    assert choose(after(105), 0, "hard", seed=5) == "b110"


def _forced_hundred(
    hand: list[str], other: list[str], talons: list[list[str]], gift: str, **tallies: list[int]
) -> ThousandGame:
    """Seat 0's compulsory 100 that seat 1 let stand, the first talon taken, ``gift`` given."""
    game = ThousandGame.from_hands([hand, other], talons, dealer=1, **tallies)
    for move in ("b100", "pass", "t0", f"g{gift}1"):
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, move)
    assert game.view(0)["phase"] == "contract" and "concede" in game.view(0)["legal"]
    return game


def test_hard_concedes_a_hopeless_forced_hundred_unless_the_bolt_costs_more() -> None:
    # The first hand's 100, nobody outbidding: no marriage and about 30 of the 100
    # points against a sound defence. Conceding costs a bolt and 50 to the other
    # (about 90 in all), playing about 100 and what the other takes: it concedes.
    # With two bolts already, this one costs 120 at once, more than playing loses.
    hand = ["QD", "9S", "AD", "JC", "9C", "AC", "TH", "KH", "TC", "TS"]
    other = ["QS", "QH", "KS", "JH", "AS", "9H", "KC", "AH", "KD", "TD"]
    talons = [["QC", "JS"], ["JD", "9D"]]
    for seed in range(2):
        assert choose(_forced_hundred(hand, other, talons, "9S"), 0, "hard", seed=seed) == (
            "concede"
        )
        game = _forced_hundred(hand, other, talons, "9S", bolts=[2, 0])
        assert choose(game, 0, "hard", seed=seed) == "k100"


def test_hard_plays_a_hopeless_forced_hundred_that_would_seat_the_other_on_the_barrel() -> None:
    # Again no making 100; but the other stands at 830, and half of the 100 would seat
    # it on the barrel for sure, where playing leaves it about 40 points short.
    hand = ["QC", "9H", "AD", "KD", "AS", "9S", "9D", "AH", "JD", "QH"]
    other = ["9C", "TS", "KC", "JC", "TC", "KS", "QD", "AC", "JS", "TD"]
    talons = [["TH", "QS"], ["JH", "KH"]]
    for seed in range(2):
        game = _forced_hundred(hand, other, talons, "9S", totals=[100, 100])
        assert choose(game, 0, "hard", seed=seed) == "concede"
        game = _forced_hundred(hand, other, talons, "9S", totals=[100, 830])
        assert choose(game, 0, "hard", seed=seed) == "k100"


def test_hard_never_gives_away_the_half_of_a_marriage_the_other_may_hold() -> None:
    # Seat 0's compulsory 100 with the talon K♠ A♠: its cheapest cards are 9♠, J♦ and
    # Q♥, and K♥ is somewhere it cannot see (seat 1 holds it). Q♥ given, seat 1 would
    # declare hearts (100) the first time it leads; hard once gave it every time.
    hands = [
        ["9S", "QS", "QC", "AC", "9D", "TD", "JD", "KD", "QH", "AH"],
        ["TS", "JS", "9C", "TC", "QD", "AD", "9H", "TH", "JH", "KH"],
    ]
    game = ThousandGame.from_hands(hands, [["KS", "AS"], ["JC", "KC"]], dealer=1, totals=[0, 0])
    for move in ("b100", "pass", "t0"):
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, move)
    assert game.view(0)["phase"] == "give"
    gifts = {choose(game, 0, "hard", seed=seed) for seed in range(4)}
    assert gifts and not gifts & {"gQH1", "gQC1", "gKD1", "gQS1"}, gifts
