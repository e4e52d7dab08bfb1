"""Deberts figures for ``python -m bot.bench engine``.

``play_deals_per_s``: the card play of random deals (9 cards a hand, random legal
cards) through :func:`bot.engine.deberts.playout.random_playout`, from a pool of
deals shuffled before timing. ``deals_per_s``: random whole deals (auction,
play, scoring) through the public ``legal_actions``/``apply`` API.
"""

from __future__ import annotations

import random

from bot.bench.common import random_whole_deals_per_s, rate
from bot.engine.cards import DECK_32
from bot.engine.deberts import Deberts
from bot.engine.deberts.playout import random_playout
from bot.engine.tricks import shuffled

__all__ = ["PLAYERS", "measure"]

PLAYERS = (2, 3)

_POOL = 1024


def _deal_pool(players: int) -> list[tuple[list[int], int, int]]:
    pool = []
    for i in range(_POOL):
        deck = shuffled(DECK_32, i)
        hands = [0] * players
        for position, card in enumerate(deck[: 9 * players]):
            hands[position % players] |= 1 << card
        pool.append((hands, deck[31] >> 3, i % players))
    return pool


def measure(players: int, seconds: float, warmup: float) -> dict[str, float]:
    pool = _deal_pool(players)
    rng = random.Random(players)
    draw = rng.random

    def play_one(i: int) -> int:
        hands, trump, leader = pool[i % _POOL]
        random_playout(hands, trump, leader, draw)
        return 1

    return {
        "play_deals_per_s": rate(play_one, seconds, warmup),
        "deals_per_s": random_whole_deals_per_s(
            lambda i: Deberts.new(players, seed=i), seconds, warmup
        ),
    }
