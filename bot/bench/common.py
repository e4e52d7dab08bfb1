"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from bot.engine.base import Game

__all__ = ["random_whole_deals_per_s", "rate"]


def rate(run_one: Callable[[int], int], seconds: float, warmup: float, repeat: int = 3) -> float:
    """Units per CPU second of ``run_one(i)`` (which returns units done) after a warm-up.

    The clock is this process's CPU time, so other load on the machine does not
    count against the figure: it is the rate of one fully available core. The time
    is split into ``repeat`` windows and the median window's rate is the figure: on a
    shared machine a core is sometimes slower for a while, and one such stretch
    should not decide the result (nor should one lucky stretch).
    """
    deadline = time.process_time() + warmup
    i = 0
    while time.process_time() < deadline:
        run_one(i)
        i += 1
    rates = []
    for _ in range(max(1, repeat)):
        done = 0
        start = time.process_time()
        deadline = start + seconds / max(1, repeat)
        while True:
            done += run_one(i)
            i += 1
            now = time.process_time()
            if now >= deadline:
                rates.append(done / (now - start))
                break
    return statistics.median(rates)


def random_whole_deals_per_s(
    make_game: Callable[[int], Game], seconds: float, warmup: float
) -> float:
    """Whole deals (auction, play, scoring) per second, random legal actions, public API.

    Deals follow each other within a game, as at a real table; a finished game is
    replaced by a new one with the next seed.
    """
    games = [make_game(0)]
    # random() is several times cheaper than randrange(); the harness should not
    # weigh more than the engine it measures.
    draw = random.Random(0).random

    def one_deal(i: int) -> int:
        game = games[0]
        if game.is_over:
            game = games[0] = make_game(i)
        start_deal = game.deal_no
        # current_seat() is None once the game is over: one call instead of also asking is_over.
        seat = game.current_seat()
        while seat is not None and game.deal_no == start_deal:
            actions = game.legal_actions(seat)
            game.apply(seat, actions[int(draw() * len(actions))])
            seat = game.current_seat()
        return 1

    return rate(one_deal, seconds, warmup)
