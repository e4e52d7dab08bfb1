"""Deal the cards a seat cannot see, consistently with what it knows.

Hidden cards go to the other seats' hands (as many as each holds) or stay out
of play; a seat never receives a card it has shown to lack (a void, or a trump
it could not overtrump with), every card known to sit in a hand (the swapped
open card, announced combination and bella cards) stays there, and no card the
seat holds, has seen played, or has seen face up is dealt.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.deberts.evaluation import BID_THRESHOLD, bid_strength
from bot.ai.deberts.knowledge import Knowledge
from bot.engine.cards import mask_cards

__all__ = ["auction_weight", "sample_hands"]


def _pick(cards: Sequence[int], count: int, rng: random.Random) -> int:
    mask = 0
    for card in rng.sample(cards, count):
        mask |= 1 << card
    return mask


def sample_hands(know: Knowledge, rng: random.Random, tries: int = 20) -> list[int]:
    """Every seat's hand in one deal consistent with ``know`` (the seat's own as it is)."""
    n = know.seats
    pool = know.unseen
    others = [s for s in range(n) if s != know.seat]
    known = list(know.known)
    for s in others:
        if known[s].bit_count() > know.hand_sizes[s]:
            known[s] = 0
    need = {s: know.hand_sizes[s] - known[s].bit_count() for s in others}
    for s in others:
        pool &= ~known[s]
    for attempt in range(tries):
        respect_voids = attempt < tries - 1
        allowed = {s: pool & ~(know.voids[s] if respect_voids else 0) for s in others}
        order = sorted(others, key=lambda s: allowed[s].bit_count() - need[s])
        left = pool
        hands = [0] * n
        hands[know.seat] = know.hand
        ok = True
        for s in order:
            cards = mask_cards(allowed[s] & left)
            if len(cards) < need[s]:
                ok = False
                break
            chosen = _pick(cards, need[s], rng)
            hands[s] = chosen | known[s]
            left &= ~chosen
        if ok:
            return hands
    # Not reachable with a consistent view; deal without constraints.
    hands = [0] * n
    hands[know.seat] = know.hand
    free = list(mask_cards(pool))
    rng.shuffle(free)
    at = 0
    for s in others:
        hands[s] = known[s] | sum(1 << c for c in free[at : at + need[s]])
        at += need[s]
    return hands


def auction_weight(know: Knowledge, hands: list[int], played: list[int]) -> float:
    """How well a deal fits the auction: the bidder is strong in trump, passers were not."""
    if know.trump < 0 or know.bidder < 0:
        return 1.0
    weight = 1.0
    threshold = BID_THRESHOLD[know.seats]
    open_suit = know.open_card >> 3 if know.open_card >= 0 else -1
    for seat, action in know.auction:
        if seat == know.seat:
            continue
        # The nine cards held at the first card include the three dealt after the order.
        start = hands[seat] | played[seat]
        if action == "pass" and open_suit >= 0 and seat != know.bidder:
            if bid_strength(start, open_suit) > 1.5 * threshold:
                weight *= 0.35
        elif (
            seat == know.bidder and action != "pass" and bid_strength(start, know.trump) < threshold
        ):
            weight *= 0.35
    return weight
