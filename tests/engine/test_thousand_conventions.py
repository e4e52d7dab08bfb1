"""Thousand: one test (or more) per table convention."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.base import IllegalAction
from bot.engine.thousand import (
    ThousandConventions,
    ThousandGame,
    complete_deal,
    from_hands,
    from_play,
)
from bot.engine.thousand.scoring import DealOutcome, settle

HANDS, TALONS = complete_deal(3, {})


def act(game: ThousandGame, *actions: str) -> None:
    for action in actions:
        seat = game.current_seat()
        assert seat is not None
        game.apply(seat, action)


def test_conventions_defaults_follow_the_rulings() -> None:
    c = ThousandConventions()
    assert (c.redeal, c.barrel_trading, c.ace_marriage, c.minus_limit) == (True, False, False, -300)
    assert (c.show_talon_on_hundred, c.concede, c.concede_penalty) == (True, True, False)
    assert (c.dump_truck, c.golden_round, c.bid_step) == (True, False, "any5")
    assert ThousandConventions.options()["minus_limit"] == (-100, -200, -300, -1000)
    assert ThousandConventions.options()["bid_step"] == ("any5", "plus5")
    assert ThousandConventions.from_json(c.to_json()) == c


def test_conventions_reject_unknown_values() -> None:
    with pytest.raises(ValueError):
        ThousandConventions.from_json({"minus_limit": -400})


@pytest.mark.parametrize("limit", [-100, -200, -300, -1000])
def test_convention_minus_limit_auto_passes_below_it(limit: int) -> None:
    below = from_hands(
        HANDS,
        TALONS,
        dealer=0,
        totals=[0, 0, limit - 5],
        conventions=ThousandConventions(minus_limit=limit),
    )
    act(below, "b100")
    assert below.current_seat() == 0
    assert below.view(None)["auto_passed"] == [2]
    at = from_hands(
        HANDS,
        TALONS,
        dealer=0,
        totals=[0, 0, limit],
        conventions=ThousandConventions(minus_limit=limit),
    )
    act(at, "b100")
    assert at.current_seat() == 2


def test_convention_bid_step_plus5_offers_only_the_next_bid() -> None:
    game = from_hands(HANDS, TALONS, dealer=0, conventions=ThousandConventions(bid_step="plus5"))
    assert game.legal_actions(1) == ["b100"]
    act(game, "b100")
    assert game.legal_actions(2) == ["pass", "b105"]
    with pytest.raises(IllegalAction) as info:
        game.apply(2, "b110")
    assert info.value.code == "bid_step_plus5"
    act(game, "b105")
    assert game.legal_actions(0) == ["pass", "b110"]


def test_convention_bid_step_any5_offers_every_multiple_up_to_the_limit() -> None:
    game = from_hands(HANDS, TALONS, dealer=0)
    assert {"QC", "KC"} <= set(HANDS[1])  # the clubs marriage: limit 180
    assert game.legal_actions(1) == [f"b{n}" for n in range(100, 181, 5)]
    act(game, "b150")
    assert game.legal_actions(2)[:3] == ["pass", "b155", "b160"]


def _golden(**kw: Any) -> Any:
    outcome = DealOutcome(
        bidder=0,
        contract=100,
        conceded=False,
        points=(110, 7, 3),
        tricks=(6, 2, 0),
        golden=kw.pop("golden"),
    )
    return settle(outcome, ThousandConventions(golden_round=True), [0, 0, 0], [0, 0, 2], None, 0)


def test_convention_golden_round_doubles_the_deals_points_not_bolt_penalties() -> None:
    gold = _golden(golden=True)
    assert gold.deltas == [200, 10, -120 + 10]
    assert gold.notes["golden"] is True
    plain = _golden(golden=False)
    assert plain.deltas == [100, 5, -120 + 5]


@pytest.mark.parametrize(("earlier", "golden"), [(0, True), (2, True), (3, False)])
def test_convention_golden_round_covers_the_first_three_deals(earlier: int, golden: bool) -> None:
    game = from_play(
        [["AS", "9C"], ["TS", "AC"], ["9D", "TH"]],
        bidder=1,
        contract=100,
        leader=0,
        scored_deals=earlier,
        conventions=ThousandConventions(golden_round=True),
    )
    assert game.view(None)["golden"] is golden
    act(game, "cAS", "cTS", "c9D", "c9C", "cAC", "cTH")
    row = game.scoresheet().rows[-1]
    factor = 2 if golden else 1
    assert row.deltas == (20 * factor, -100 * factor, 0)
    assert row.notes["golden"] is golden


def test_convention_golden_round_off_never_doubles() -> None:
    game = from_play([["AS", "9C"], ["TS", "AC"], ["9D", "TH"]], bidder=1, contract=100, leader=0)
    assert game.view(None)["golden"] is False
    act(game, "cAS", "cTS", "c9D", "c9C", "cAC", "cTH")
    assert game.scoresheet().rows[-1].deltas == (20, -100, 0)


def test_convention_golden_round_counts_scored_deals_not_redeals() -> None:
    hands = [
        ["AS", "TS", "KS", "AC", "TC", "KC", "JS"],
        ["AD", "TD", "KD", "AH", "TH", "KH", "JC"],
        ["9S", "9C", "9D", "9H", "QS", "QC", "QD"],
    ]
    game = from_hands(
        hands,
        [["JD", "JH", "QH"]],
        dealer=0,
        conventions=ThousandConventions(golden_round=True),
        scored_deals=2,
    )
    act(game, "b100", "pass", "pass", "gJD0", "gJH2", "redeal")
    assert game.view(None)["golden"] is True
