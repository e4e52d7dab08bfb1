"""A two-player Deberts deal valued against the game: the chance to win it leaves."""

from __future__ import annotations

import functools
import itertools

import pytest

from bot.ai.deberts.knowledge import Knowledge, read_view
from bot.ai.deberts.outlook import DEALS, STEPS, Stakes, chances, deal_values, margins, worth
from bot.ai.deberts.table import deal_result
from bot.engine.deberts import Deberts, DebertsConventions


@pytest.mark.parametrize("target", [501, 301])
def test_two_evenly_matched_players_chances_add_up_and_grow_with_the_total(target: int) -> None:
    chance = chances(2, target)
    totals = range(0, target, 17)
    for mine in totals:
        assert chance([mine, mine]) == pytest.approx(0.5)
        for theirs in totals:
            assert chance([mine, theirs]) + chance([theirs, mine]) == pytest.approx(1.0)
            assert chance([mine + 17, theirs]) >= chance([mine, theirs])
    assert chance([0, target - 20]) < 0.05 < 0.95 < chance([target - 20, 0])
    assert chance([target, target - 1]) == 1.0
    assert chance([target - 1, target]) == 0.0


def test_three_evenly_matched_players_chances_add_up_to_one() -> None:
    chance = chances(3, 501)
    assert chance([0, 0, 0]) == pytest.approx(1 / 3)
    for totals in ([100, 250, 400], [480, 470, 300], [0, 200, 350], [250, 250, 100]):
        a, b, c = totals
        together = chance([a, b, c]) + chance([b, a, c]) + chance([c, a, b])
        assert together == pytest.approx(1.0)
        assert chance([a, b, c]) == pytest.approx(chance([a, c, b]))
    assert chance([450, 200, 200]) > chance([350, 200, 200]) > chance([250, 200, 200])
    assert chance([500, 510, 200]) == 0.0


@pytest.mark.parametrize(("seats", "target"), [(2, 301), (3, 181)])
def test_the_table_of_chances_is_the_next_deal_averaged_cell_by_cell(
    seats: int, target: int
) -> None:
    """Every cell below the target: the chance is the mean, over the deals :data:`DEALS`
    holds (each amount to any player alike), of the chance from where the deal leaves the
    totals; where a total reaches the target the game is over (the top shares it)."""
    step = STEPS[seats]
    count = sum(deal[-1] for deal in DEALS[seats])
    moves = [
        (order, deal[-1] / count / len(orders))
        for deal in DEALS[seats]
        for orders in [set(itertools.permutations(deal[:-1]))]
        for order in orders
    ]

    @functools.cache
    def expected(cell: tuple[int, ...]) -> float:
        if max(cell) * step >= target:
            top = max(cell)
            return 1 / cell.count(top) if cell[0] == top else 0.0
        return sum(p * expected(tuple(map(sum, zip(cell, m, strict=True)))) for m, p in moves)

    chance = chances(seats, target)
    below = -(-target // step)
    for cell in itertools.product(range(below), repeat=seats):
        totals = [c * step for c in cell]
        assert chance(totals) == pytest.approx(expected(cell), rel=1e-12, abs=1e-15)


def test_early_in_the_game_a_deal_is_worth_about_its_margin() -> None:
    stakes = Stakes(0, [40, 60], 501)
    for points in ([80, 40], [70, 60], [100, 20]):
        margin = deal_result(points, 0, 0)
        assert stakes.value(points, 0) == pytest.approx(margin, rel=0.25)
    assert stakes.value([40, 80], 0) < stakes.value([60, 60], 0) < stakes.value([80, 40], 0)


def test_a_deal_that_hands_the_other_player_the_game_is_worth_less_than_its_margin() -> None:
    # The other needs 51. Bidding and making 100 to 52 ends the game, lost (380 to 502);
    # a hanging deal that writes 50 to nothing, a smaller margin, leaves it open.
    stakes = Stakes(0, [280, 450], 501)
    lost = stakes.value([100, 52], 0)
    hanging = stakes.value([50, 50], 1)
    assert deal_result([100, 52], 0, 0) < 50
    assert hanging > lost + 50
    # Reaching the target first wins whatever the margin: the margin only breaks ties.
    won = Stakes(0, [460, 300], 501)
    assert 0 < won.value([150, 10], 0) - won.value([60, 50], 0) < 0.1 * (140 - 10)
    assert won.value([60, 50], 0) > won.value([30, 10], 0)


def test_the_amount_hanging_goes_with_the_deal_to_who_takes_it() -> None:
    bare = Stakes(0, [100, 100], 501)
    hanging = Stakes(0, [100, 100], 501, dealer=1, at_stake=60)
    assert bare.written([90, 40], 0) == (90, 40)
    assert hanging.written([90, 40], 0) == (150, 40)
    assert hanging.written([40, 90], 0) == (0, 190)
    assert hanging.written([60, 60], 0) == (0, 60)
    assert hanging.value([90, 40], 0) > bare.value([90, 40], 0) + 40
    everything = Stakes(0, [100, 100], 501, winner_takes_all=True)
    assert everything.written([90, 40], 0) == (130, 0)
    # Three players, a bait: the whistlers share the bidder's points and the amount
    # hanging, an odd point to the one earlier from the dealer's left.
    three = Stakes(0, [100, 100, 100], 501, dealer=0, at_stake=31)
    assert three.written([41, 50, 30], 0) == (0, 50 + 21 + 16, 30 + 20 + 15)


def _view_with_totals(seats: int, totals: list[int]) -> Knowledge:
    game = Deberts.new(seats, DebertsConventions(target=301), seed=5)
    view = game.view(0)
    view["totals"] = totals
    return read_view(view)


def test_a_seat_values_its_deal_against_the_game_and_models_the_others() -> None:
    two = _view_with_totals(2, [250, 270])
    points = [70, 50]
    mine = worth(two)(points, 1)
    assert deal_values(two)(points, 1) == [mine, -mine]
    assert mine == Stakes(0, [250, 270], 301, dealer=two.dealer).value(points, 1)
    assert mine != deal_result(points, 1, 0)
    three = _view_with_totals(3, [100, 90, 280])
    points = [70, 50, 20]
    values = deal_values(three)(points, 1)
    assert values[0] == worth(three)(points, 1) != deal_result(points, 1, 0)
    assert values[1:] == margins(points, 1)[1:]
