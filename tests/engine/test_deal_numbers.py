"""Deals are numbered as they are played: a redeal keeps the number of the deal it
replaced, so the scoresheet reads 1, 2, 3 and no deal seems lost."""

from __future__ import annotations

import random

import pytest

from bot.engine import new_game
from bot.engine.base import Game

_REDEALS = {"deberts": ("pass", "sevens"), "thousand": ("redeal",)}


def _play_with_redeals(name: str, seed: int) -> tuple[Game, int]:
    """A game played at random that asks for every redeal it may; the redeals seen."""
    game = new_game(name, 3, seed=seed)
    rng = random.Random(seed)
    redeals = 0
    while not game.is_over and game.rows_scored < 4:
        seat = game.current_seat()
        assert seat is not None
        legal = game.legal_actions(seat)
        # every redeal there is would deal on for ever: one per deal at most
        wanted = [a for a in legal if a in _REDEALS[name] and game.deal_played > redeals]
        started, scored = game.deal_no, game.rows_scored
        played = game.deal_played
        game.apply(seat, wanted[0] if wanted else rng.choice(legal))
        if game.deal_no != started and game.rows_scored == scored:
            redeals += 1
            # dealt again: the same number, in the view as in the count
            assert game.deal_played == played == game.view(None)["deal_no"]
        elif game.deal_no != started and not game.is_over:
            assert game.view(None)["deal_no"] == played + 1
    return game, redeals


@pytest.mark.parametrize("name", ["deberts", "thousand"])
def test_a_redeal_does_not_use_up_a_deal_number(name: str) -> None:
    game, redeals = next(
        (g, r) for g, r in (_play_with_redeals(name, seed) for seed in range(10)) if r
    )
    assert redeals > 0
    rows = game.scoresheet().rows
    assert [row.deal_no for row in rows] == list(range(1, len(rows) + 1))
    assert game.view(None)["last_deal"]["deal_no"] == len(rows)
    if not game.is_over:
        assert game.view(None)["deal_no"] == len(rows) + 1
    copied = type(game).from_json(game.to_json())  # a saved game numbers on the same
    assert copied.deal_played == game.deal_played
    assert copied.to_json() == game.to_json()
