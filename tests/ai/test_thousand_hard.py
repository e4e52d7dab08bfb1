"""Thousand's hard level: positions from played games where a sound player's choice is clear."""

from __future__ import annotations

import pytest

from bot.ai.players import choose
from bot.ai.thousand import hard
from bot.ai.thousand.cards import mask_of_codes
from bot.ai.thousand.inference import plain_before
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


def _marriages_to_name() -> ThousandGame:
    """Seat 0 bid 100 and took K♣ 10♦; after giving 9♦ away it holds the marriages of
    diamonds (80) and hearts (100), and names its contract."""
    hands = [
        ["TS", "9C", "TC", "JC", "9D", "QD", "KD", "AD", "QH", "KH"],
        ["9S", "JS", "KS", "AS", "QC", "AC", "9H", "TH", "JH", "AH"],
    ]
    game = ThousandGame.from_hands(hands, [["KC", "TD"], ["QS", "JD"]], dealer=1, totals=[195, 25])
    for move in ("b100", "pass", "t0", "g9D1"):
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, move)
    return game


def test_hard_names_no_more_than_its_hand_can_take() -> None:
    # Against a sound defence seat 0 takes about 110-135: naming 220 (as it once did)
    # loses 220 where 100 would have won 100.
    game = _marriages_to_name()
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


def test_hard_gives_a_king_when_players_of_the_heuristic_make_it_the_best_gift(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seat 0's compulsory 100 with the talon J♥ K♥: no marriage, five hearts, and Q♠
    # somewhere it cannot see (seat 1 holds it). Once the others have shown that they
    # play by the heuristic, the give is valued by its play-outs: given K♠, the other
    # keeps the marriage while it throws its winners away on the hearts and clubs it
    # cannot follow, and never leads; given a cheap card, it keeps them and takes
    # about 50. Hard weighed only the four cheapest cards that were no half of a
    # marriage, so it gave 9♦.
    hands = [
        ["KS", "9C", "JC", "QC", "AC", "9D", "KD", "9H", "TH", "AH"],
        ["9S", "TS", "JS", "QS", "TC", "KC", "TD", "JD", "QD", "AD"],
    ]
    game = ThousandGame.from_hands(hands, [["JH", "KH"], ["AS", "QH"]], dealer=1)
    for move in ("b100", "pass", "t0"):
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, move)
    assert game.view(0)["phase"] == "give"
    monkeypatch.setattr(hard, "plain_before", lambda view: 1.0)
    gifts = {choose(game, 0, "hard", seed=seed) for seed in range(2)}
    assert gifts <= {"gKS1", "gKD1"}, gifts


def test_race_weighs_the_leaders_own_points_above_those_it_keeps_from_the_other() -> None:
    # Even totals: a point written and a point kept from the other are worth the same.
    assert hard.race([0, 0], 0) == [1.0, 1.0] and hard.race([300, 300, 300], 2) == [1.0] * 3
    # 600 to 100: 400 left against 900. The leader's own points bring the end nearer
    # (1 + 500 / 2600), the other's matter less to it (1 - 500 / 2600); the trailer
    # sees the same race from the other side.
    lead, trail = hard.race([600, 100], 0), hard.race([600, 100], 1)
    assert lead == pytest.approx([1 + 500 / 2600, 1 - 500 / 2600])
    assert trail == pytest.approx([1 + 500 / 2600, 1 - 500 / 2600])
    # From the barrel the game is one contract away, however far past 880 the total.
    assert hard.race([880, 500], 0) == hard.race([990, 500], 0)
    assert hard.race([880, 500], 0)[0] > hard.race([870, 500], 0)[0]
    # With three, each other seat is raced on its own; mine is the mean of the races.
    three = hard.race([600, 100, 600], 0)
    assert three == pytest.approx([(1 + 500 / 2600 + 1) / 2, 1 - 500 / 2600, 1.0])


def test_a_deal_is_worth_more_to_the_leader_by_its_own_points() -> None:
    # The bidder makes 120 and the other takes 40: valued alike at even totals, and
    # by the race when the bidder leads (its 120 weighs more, the other's 40 less).
    points, weights = [120, 40], hard.race([600, 100], 0)
    assert hard.outcome(points, 0, 120, 0) == pytest.approx(120 - 40 + 6)
    assert hard.outcome(points, 0, 120, 0, weights) == pytest.approx(
        weights[0] * 120 - weights[1] * 40 + 6
    )
    # Conceded, seen by the other (trailing): half the contract to it, a bolt to the
    # bidder, whose points (and bolt) weigh more in the trailer's race.
    trailing = hard.race([600, 100], 1)
    assert trailing[0] > 1 > trailing[1]
    assert hard.conceded(2, 0, 120, 1, trailing) == pytest.approx(
        trailing[1] * 60 + trailing[0] * hard.BOLT_COST
    )


STANDINGS = {"even": [0, 0], "level": [300, 300], "ahead": [700, 100], "behind": [100, 700]}
"""Totals to answer at, seat 0's first."""


def _answers_to_105(hand: list[str], other: list[str], talons: list[list[str]]) -> dict[str, str]:
    """Seat 0's answer to seat 1's 105 over its compulsory 100, by :data:`STANDINGS`."""
    answers = {}
    for standing, totals in STANDINGS.items():
        game = ThousandGame.from_hands([hand, other], talons, dealer=1, totals=totals)
        game.apply(0, "b100")
        game.apply(1, "b105")
        answers[standing] = choose(game, 0, "hard", seed=0)
    return answers


CLOSE_HANDS = [
    # The diamond marriage and two aces: at even totals 110 is worth no more than
    # letting the other play 105. 600 ahead, its own contract brings the end nearer:
    # it bids on; 600 behind, it lets the leader play rather than risk a contract.
    (
        ["AD", "QC", "KD", "9H", "AS", "KH", "JD", "TD", "QD", "9S"],
        ["KC", "TH", "QS", "JC", "QH", "AH", "JH", "JS", "TS", "9C"],
        [["KS", "9D"], ["AC", "TC"]],
        {"even": "pass", "level": "pass", "ahead": "b110", "behind": "pass"},
    ),
    # Three aces, no marriage: behind, it bids on to keep the leader from the contract
    # that would bring the leader near the end; ahead, it lets the other play.
    (
        ["JS", "AH", "9C", "AD", "TS", "TD", "AS", "JH", "KH", "QS"],
        ["QC", "JD", "KC", "9H", "TC", "TH", "9S", "9D", "KS", "AC"],
        [["KD", "QH"], ["JC", "QD"]],
        {"even": "pass", "level": "pass", "ahead": "pass", "behind": "b110"},
    ),
]


@pytest.mark.parametrize(("hand", "other", "talons", "answers"), CLOSE_HANDS)
def test_hard_bids_on_a_close_hand_as_the_race_to_the_target_stands(
    hand: list[str], other: list[str], talons: list[list[str]], answers: dict[str, str]
) -> None:
    assert _answers_to_105(hand, other, talons) == answers


def _named(action: str) -> int:
    """A contract decision as the points it stakes: a concession stakes none."""
    return 0 if action == "concede" else int(action[1:])


def test_hard_names_more_against_players_of_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    # Once the last deal shows the others play by the heuristic, hard plays its layouts
    # out by it; but it plays its own contract better than the heuristic does, and plays
    # to make what it names, so it takes more than those play-outs say, more surely than
    # a look ahead's spread allows, and names (or plays rather than concedes) more.
    named: list[tuple[int, int]] = []
    for seed in range(8):
        game = ThousandGame.new(2, seed=seed)
        step = 0
        while not game.is_over and len(named) < 10:
            seat = game.current_seat()
            assert seat is not None
            view = game.view(seat)
            choice = view["phase"] == "contract" and len(view["legal"]) > 1
            if choice and plain_before(view) >= hard.PLAIN_BIDDING:
                shifted = _named(choose(game, seat, "hard", seed=step))
                with monkeypatch.context() as patch:
                    patch.setattr(hard, "PLAIN_CALIBRATION", hard.CALIBRATION)
                    unshifted = _named(choose(game, seat, "hard", seed=step))
                named.append((unshifted, shifted))
            game.apply(seat, choose(game, seat, "easy", seed=step))
            step += 1
    assert len(named) == 10
    assert all(shifted >= unshifted for unshifted, shifted in named), named
    assert sum(shifted > unshifted for unshifted, shifted in named) >= 3, named


def test_hard_names_its_contract_from_no_more_layouts_past_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The contract's look-ahead play-outs are its slowest work: past its own budget a
    # faster machine (a larger budget) does not deal it more layouts.
    counts: list[int] = []
    real = hard._contract_outcomes

    def outcomes(know: object, rng: object, count: int, plain: bool) -> list[list[int]]:
        counts.append(count)
        return real(know, rng, count, plain)  # type: ignore[arg-type]

    monkeypatch.setattr(hard, "_contract_outcomes", outcomes)
    game = _marriages_to_name()
    top = hard.CONTRACT_BUDGET_MS
    actions = [choose(game, 0, "hard", 5, budget) for budget in (top / 2, top, 2 * top)]
    assert counts[0] < counts[1] == counts[2] == hard._layouts(top, False)
    assert actions[1] == actions[2]
