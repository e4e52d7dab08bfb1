"""Thousand figures for ``python -m bot.bench engine``.

Measured for 2, 3 and 4 players (with four the dealer sits each deal out).
``play_deals_per_s``: the card play of random deals (hands after the give-away,
random legal cards, marriages declared) through
:func:`bot.engine.thousand.playout.random_playout`, from a pool of deals shuffled
before timing. ``deals_per_s``: random whole deals (auction, talon, give-away,
contract, play, scoring) through the public ``legal_actions``/``apply`` API.
"""

from __future__ import annotations

import random

from bot.bench.common import random_whole_deals_per_s, rate
from bot.engine.thousand import ThousandGame
from bot.engine.thousand.playout import random_playout
from bot.engine.thousand.rules import DECK
from bot.engine.tricks import shuffled

__all__ = ["PLAYERS", "measure"]

PLAYERS = (2, 3, 4)

_POOL = 1024


def _deal_pool(players: int) -> list[tuple[list[int], int, int]]:
    """Hands as after the give-away: 8 cards each (3 players, or 3 of 4 with the dealer
    sitting out), 11 each (2 players); with the leader and the seat sitting out."""
    size = 11 if players == 2 else 8
    pool = []
    for i in range(_POOL):
        deck = shuffled(DECK, i)
        out = i % 4 if players == 4 else -1
        active = [s for s in range(players) if s != out]
        hands = [0] * players
        for position, card in enumerate(deck[: size * len(active)]):
            hands[active[position % len(active)]] |= 1 << card
        pool.append((hands, active[i % len(active)], out))
    return pool


def measure(players: int, seconds: float, warmup: float) -> dict[str, float]:
    pool = _deal_pool(players)
    draw = random.Random(players).random

    def play_one(i: int) -> int:
        hands, leader, out = pool[i % _POOL]
        random_playout(hands, leader, draw, sitting_out=out)
        return 1

    return {
        "play_deals_per_s": rate(play_one, seconds, warmup),
        "deals_per_s": random_whole_deals_per_s(
            lambda i: ThousandGame.new(players, seed=i), seconds, warmup
        ),
    }
