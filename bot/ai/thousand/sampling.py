"""Dealing the cards a seat cannot see, consistently with what it knows.

Every hidden card goes to a seat that may hold it (not void in its suit, room
left in the hand) or stays out of play (a talon nobody took, or one not yet
taken while the auction runs). Cards known to be in a hand stay there; the
seat's own cards and the cards seen played are never dealt.
"""

from __future__ import annotations

import random

from bot.ai.thousand.cards import SUIT
from bot.ai.thousand.knowledge import Knowledge
from bot.engine.cards import iter_mask

__all__ = ["sample_hands"]


def _void_mask(voids: int) -> int:
    mask = 0
    for suit in range(4):
        if voids >> suit & 1:
            mask |= SUIT[suit]
    return mask


def sample_hands(know: Knowledge, rng: random.Random, sizes: list[int] | None = None) -> list[int]:
    """One deal of the hidden cards: a hand per seat (the seat's own as it is).

    ``sizes`` overrides how many cards each other seat holds (``hand_sizes`` by
    default). Cards left over are out of play; the caller may use them as a talon.
    """
    n = know.seats
    me = know.me
    sizes = list(know.hand_sizes) if sizes is None else sizes
    known_all = 0
    for s in range(n):
        if s != me:
            known_all |= know.known[s]
    pool = know.unseen & ~known_all
    cards = list(iter_mask(pool))
    others = [s for s in range(n) if s != me]
    need = {s: max(0, sizes[s] - know.known[s].bit_count()) for s in others}
    allowed = {s: pool & ~_void_mask(know.voids[s]) for s in others}
    constrained = any(allowed[s] != pool for s in others)
    for attempt in range(24):
        use_voids = constrained and attempt < 20
        result = _try(cards, others, need, allowed if use_voids else None, rng)
        if result is not None:
            hands = [0] * n
            hands[me] = know.hand
            for s in others:
                hands[s] = result[s] | know.known[s]
            return hands
    raise ValueError("no deal of the hidden cards fits what the seat knows")


def _try(
    cards: list[int],
    others: list[int],
    need: dict[int, int],
    allowed: dict[int, int] | None,
    rng: random.Random,
) -> dict[int, int] | None:
    order = cards[:]
    rng.shuffle(order)
    if allowed is not None:
        # the most constrained cards first
        order.sort(key=lambda c: sum(1 for s in others if allowed[s] >> c & 1))
    left = dict(need)
    out_left = len(order) - sum(left.values())
    if out_left < 0:
        return None
    hands = dict.fromkeys(others, 0)
    for c in order:
        seats = [s for s in others if left[s] and (allowed is None or allowed[s] >> c & 1)]
        weights = [left[s] for s in seats]
        total = sum(weights) + out_left
        if total <= 0:
            return None
        pick = rng.randrange(total)
        chosen = -1
        for s, w in zip(seats, weights, strict=True):
            if pick < w:
                chosen = s
                break
            pick -= w
        if chosen < 0:
            out_left -= 1
            continue
        hands[chosen] |= 1 << c
        left[chosen] -= 1
    if any(left.values()):
        return None
    return hands
