"""Hand evaluation: the points a hand may expect to take as the bidder.

Plain counting, used by the easy level for the auction, the give-away and the
contract, and by the hard level to prune its candidates.
"""

from __future__ import annotations

from bot.ai.thousand.cards import (
    ACE,
    MARRIAGE,
    MARRIAGE_MASKS,
    POINTS,
    STRENGTH,
    SUIT,
    partner,
)
from bot.engine.cards import iter_mask

__all__ = ["bid_value", "give_card", "play_value"]

# ranks in a suit by strength, as offsets within the suit's 8 slots: A T K Q J 9
_ORDER = (7, 3, 6, 5, 4, 2)


def _capture(seats: int) -> float:
    """Points the other hands add, on average, to a trick we win."""
    return 4.5 if seats == 2 else 8.0


def play_value(hand: int, seats: int) -> float:
    """Expected deal points of ``hand`` as the bidder about to lead (talon taken, cards given)."""
    total = 0.0
    capture = _capture(seats)
    has_entry = False
    for suit in range(4):
        cards = hand & SUIT[suit]
        length = cards.bit_count()
        if not length:
            continue
        base = suit * 8
        run = 0
        for offset in _ORDER:
            if cards >> (base + offset) & 1:
                run += 1
            else:
                break
        # the top run wins as long as the others follow; a long suit keeps winning
        others = 6 - length
        sure = min(run, length)
        lost_to_ruff = 0 if seats == 2 else max(0, sure - max(1, others // 2))
        for i in range(sure):
            card = base + _ORDER[i]
            weight = 1.0 if i < 2 else 0.8
            if i >= sure - lost_to_ruff:
                weight *= 0.5
            total += weight * (POINTS[card] + capture)
        if run:
            has_entry = True
        # a ten guarded by length, without its ace: wins half the time
        ten = base + 3
        if not cards >> (base + 7) & 1 and cards >> ten & 1 and length >= 3:
            total += 0.45 * (POINTS[ten] + capture)
    marriages = sorted(
        (MARRIAGE[s] for s in range(4) if hand & MARRIAGE_MASKS[s] == MARRIAGE_MASKS[s]),
        reverse=True,
    )
    for i, value in enumerate(marriages):
        chance = (0.92 if has_entry else 0.75) if i == 0 else 0.6
        total += chance * value
        suit = MARRIAGE.index(value)
        length = (hand & SUIT[suit]).bit_count()
        # long trumps take the others' small cards late in the deal
        total += max(0, length - 3) * (6.0 if seats == 2 else 8.0) * chance
        # the marriage cards themselves often win once trump
        total += 0.5 * (4 + 3)
    return total


def bid_value(hand: int, seats: int) -> float:
    """Expected deal points of ``hand`` before the talon, as the future bidder."""
    value = play_value(hand, seats)
    unseen = 24 - hand.bit_count()
    # chance the talon completes a marriage: 3 of 17 cards (3 players); one blind talon of
    # two out of 14 cards (2 players)
    p = 3 / unseen if seats == 3 else 2 / unseen
    for suit in range(4):
        mask = MARRIAGE_MASKS[suit]
        if hand & mask and hand & mask != mask:
            value += p * MARRIAGE[suit] * 0.8
    # the talon's own cards and the give-away of the weakest cards
    value += 10.0 if seats == 3 else 6.0
    return value


def give_card(hand: int, seats: int) -> int:
    """The card to give to an opponent: cheap, from a short suit, never a marriage or an ace."""
    best = -1
    key = 1 << 30
    for c in iter_mask(hand):
        suit = c >> 3
        length = (hand & SUIT[suit]).bit_count()
        cost = POINTS[c] * 6 + STRENGTH[c] * 2
        mate = partner(c)
        if mate >= 0 and hand >> mate & 1:
            cost += 1000
        if c == ACE[suit]:
            cost += 500
        # a ten without its ace is likely lost anyway, but gives the opponent 10
        if length == 1:
            cost -= 12  # voiding a suit lets us trump it
        elif length == 2:
            cost -= 4
        # keep length in a marriage suit (future trumps)
        if hand & MARRIAGE_MASKS[suit] == MARRIAGE_MASKS[suit]:
            cost += 40
        if cost < key:
            best, key = c, cost
    return best
