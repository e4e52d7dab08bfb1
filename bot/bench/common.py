"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from bot.engine.base import Game

__all__ = ["random_whole_deals_per_s", "rate"]


def rate(run_one: Callable[[int], int], seconds: float, warmup: float) -> float:
    """Units per second of ``run_one(i)`` (which returns units done) after a warm-up."""
    deadline = time.perf_counter() + warmup
    i = 0
    while time.perf_counter() < deadline:
        run_one(i)
        i += 1
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        done += run_one(i)
        i += 1
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def random_whole_deals_per_s(
    make_game: Callable[[int], Game], seconds: float, warmup: float
) -> float:
    """Whole deals (auction, play, scoring) per second, random legal actions, public API."""

    def one_deal(i: int) -> int:
        game = make_game(i)
        rng = random.Random(i)
        start_deal = game.deal_no
        while not game.is_over and game.deal_no == start_deal:
            seat = game.current_seat()
            assert seat is not None
            actions = game.legal_actions(seat)
            game.apply(seat, actions[rng.randrange(len(actions))])
        return 1

    return rate(one_deal, seconds, warmup)
