"""Judging how the others play: a player who plays by the heuristic tells where the cards
are, one who searches does not."""

from __future__ import annotations

import pytest

from bot.ai.opponents import LIKELIHOOD, PLAIN_PRIOR, judge


def test_a_player_who_always_made_the_heuristics_choice_is_taken_to_play_by_it() -> None:
    # Two layouts: under the first the other made the heuristic's choice in all four of
    # its plays, under the second in two of them.
    weights, odds = judge([(1.0, 0, 4), (1.0, 2, 4)], 0.5, mixed=True)
    assert odds > 0.8
    assert weights[0] > 50 * weights[1]


def test_a_player_who_seldom_made_it_is_taken_to_search_and_tells_nothing() -> None:
    weights, odds = judge([(1.0, 3, 4), (1.0, 2, 4)], 0.5, mixed=True)
    assert odds < 0.05
    assert weights[1] == pytest.approx(weights[0], rel=0.05)
    # Unmixed, each miss costs the same whoever plays.
    weights, _ = judge([(1.0, 3, 4), (1.0, 2, 4)], 0.5, mixed=False)
    assert weights[0] / weights[1] == pytest.approx(LIKELIHOOD)


def test_before_anyone_has_played_nothing_is_known() -> None:
    weights, odds = judge([(0.35, 0, 0), (1.0, 0, 0)], 0.5, mixed=True)
    assert odds == pytest.approx(PLAIN_PRIOR)
    assert weights[0] / weights[1] == pytest.approx(0.35)  # the auction's weights stand
