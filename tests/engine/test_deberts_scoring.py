"""Deal scoring arithmetic (rule 8), the next dealer (rule 9), game end (rule 10), seed 004."""

from __future__ import annotations

import pytest

from bot.engine.deberts import from_decks
from bot.engine.deberts.scoring import game_winner, mars, next_dealer, settle


def s(points: list[int], bidder: int, dealer: int = 0, hanging: tuple[int, ...] = (), **kw: bool):
    return settle(
        points,
        bidder,
        dealer,
        hanging,
        winner_takes_all=kw.get("wta", False),
        hanging_separately=kw.get("separately", False),
    )


def test_made_two_players_each_writes_own() -> None:
    result = s([40, 80], bidder=1)
    assert (result.outcome, result.written, result.mark) == ("made", (40, 80), None)


def test_made_winner_takes_all_two_and_three_players() -> None:
    assert s([40, 80], bidder=1, wta=True).written == (0, 120)
    assert s([30, 70, 20], bidder=1, wta=True).written == (0, 120, 0)


def test_bait_two_players_opponent_writes_the_total() -> None:
    result = s([81, 36], bidder=1)
    assert (result.outcome, result.written, result.mark) == ("bait", (117, 0), "БТ")


def test_bait_three_players_half_of_the_bid_odd_point_to_the_earlier_whistler() -> None:
    result = s([40, 45, 60], bidder=1, dealer=1)
    assert result.written == (40 + 22, 0, 60 + 23)
    assert s([40, 45, 60], bidder=1, dealer=2).written == (40 + 23, 0, 60 + 22)


def test_bait_is_not_changed_by_winner_takes_all() -> None:
    assert s([40, 45, 60], bidder=1, dealer=1, wta=True).written == (62, 0, 83)


def test_hanging_whistlers_write_own_and_the_bid_hangs() -> None:
    result = s([51, 51], bidder=1)
    assert (result.outcome, result.written, result.mark) == ("hanging", (51, 0), "vs(51)")
    assert result.hanging == (51,)
    three = s([30, 50, 20], bidder=1)
    assert (three.written, three.hanging) == ((30, 0, 20), (50,))


def test_hanging_goes_to_the_bidder_who_makes_the_next_deal() -> None:
    result = s([40, 80], bidder=1, hanging=(51,))
    assert result.written == (40, 131) and result.hanging_paid == (0, 51)
    assert result.hanging == ()


def test_hanging_after_bait_splits_between_whistlers() -> None:
    two = s([80, 40], bidder=1, hanging=(51,))
    assert two.written == (120 + 51, 0)
    three = s([40, 45, 60], bidder=1, dealer=1, hanging=(31,))
    assert three.hanging_paid == (15, 0, 16)


def test_hanging_tie_keeps_it_hanging() -> None:
    result = s([50, 50], bidder=0, hanging=(20,))
    assert result.written == (0, 50) and result.hanging_paid == (0, 0)


@pytest.mark.parametrize(("separately", "queue"), [(False, (70,)), (True, (20, 50))])
def test_convention_hanging_separately_sums_or_queues(separately: bool, queue: tuple) -> None:
    result = s([50, 50], bidder=0, hanging=(20,), separately=separately)
    assert result.hanging == queue


def test_queued_hanging_amounts_are_played_one_per_deal() -> None:
    result = s([40, 80], bidder=1, hanging=(20, 50), separately=True)
    assert result.hanging_paid == (0, 20) and result.hanging == (50,)


def test_rule9_next_dealer() -> None:
    assert next_dealer((40, 80), "made", bidder=1, dealer=0) == 1
    assert next_dealer((51, 0), "hanging", bidder=1, dealer=0) == 0
    assert next_dealer((30, 0, 30), "hanging", bidder=1, dealer=1) == 2
    assert next_dealer((30, 30, 0), "made", bidder=2, dealer=2) == 0
    assert next_dealer((0, 0, 0), "hanging", bidder=0, dealer=2) == 1


def test_rule10_game_end_and_mars() -> None:
    assert game_winner((400, 500), 501, 0, 0) is None
    assert game_winner((510, 505), 501, 1, 0) == 0
    assert game_winner((510, 510), 501, 1, 0) == 1
    assert game_winner((510, 510, 3), 501, 2, 1) == 0
    assert mars((100, 505, 260), 1, 501) == [0]
    assert mars((140, 301, 151), 1, 301) == [0]


# Three deals chosen so that playing the first legal card every time scores them
# exactly as the scoresheet in seed 004 (player A = seat 0, player B = seat 1).
DEAL_1 = (
    "AC JC JS AH JH KH 7S 8C TD 7C KD KS QC 9C 7D AS "
    "QS TS JD 9D QD QH 8H 8D 9S 7H TH 8S TC 9H AD KC"
)
DEAL_2 = (
    "JC 9C JS KD 7C 9H 7H JH AC TS 8H QH TD KC QC 7S "
    "8D 8S QD JD TC 7D 8C 9S KH AH AS TH AD 9D QS KS"
)
DEAL_3 = (
    "9D 9H 8C 8D QC QS 7H 9S TS QH AC KH 7D TH 9C KD "
    "JD 7S TD JC AH JS 7C KS 8S 8H AS AD TC KC JH QD"
)


def test_seed_004_scoresheet_is_reproduced() -> None:
    game = from_decks(2, [d.split() for d in (DEAL_1, DEAL_2, DEAL_3)], dealer=0)
    for bids in (["play"], ["pass", "play"], ["play"]):
        deal = game.deal_no
        for bid in bids:
            game.apply(game.current_seat() or 0, bid)
        while game.deal_no == deal:
            seat = game.current_seat()
            assert seat is not None
            game.apply(seat, game.legal_actions(seat)[0])
    sheet = game.scoresheet()
    assert [row.cells for row in sheet.rows] == [("15", "103"), ("139", "БТ"), ("190", "vs(51)")]
    assert [row.notes["bidder"] for row in sheet.rows] == [1, 1, 1]
    assert [row.notes["bait"] for row in sheet.rows] == [False, True, False]
    assert [row.notes["hanging"] for row in sheet.rows] == [False, False, True]
    assert sheet.totals == (190, 103)
    assert game.view(None)["hanging"] == [51]
