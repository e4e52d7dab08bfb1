"""Hand evaluation for the auction and the combinations a hand will declare."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.deberts.rules import best_key, combinations

__all__ = [
    "BID_THRESHOLD",
    "bid_strength",
    "combo_points",
    "easy_order",
    "resolve_combinations",
    "seat_order",
    "with_swap",
]

# Weights by rank offset (0 = seven .. 7 = ace).
_TRUMP_WEIGHT = (3, 3, 20, 11, 28, 5, 6, 13)
_SIDE_ACE = 11
_SIDE_TEN_WITH_ACE = 9
_SIDE_TEN_GUARDED = 4
# Bid when bid_strength() reaches this (6 cards in hand, by number of seats).
BID_THRESHOLD = {2: 48.0, 3: 57.0}


def seat_order(dealer: int, n: int) -> list[int]:
    return [(dealer + 1 + i) % n for i in range(n)]


def combo_points(hand: int) -> int:
    return sum(c.points for c in combinations(hand))


def bid_strength(hand: int, trump: int) -> float:
    """Rough points the hand is worth as the bidder with ``trump``."""
    value = 0.0
    trumps = hand >> (trump * 8) & 0xFF
    count = 0
    for r in range(8):
        if trumps >> r & 1:
            value += _TRUMP_WEIGHT[r]
            count += 1
    if count >= 3:
        value += 6 * (count - 2)
    if trumps >> 5 & 1 and trumps >> 6 & 1:
        value += 20  # bella
    for suit in range(4):
        if suit == trump:
            continue
        byte = hand >> (suit * 8) & 0xFF
        if not byte:
            if count >= 2:
                value += 5  # a void to ruff with
            continue
        ace = byte >> 7 & 1
        ten = byte >> 3 & 1
        if ace:
            value += _SIDE_ACE
        if ten:
            value += _SIDE_TEN_WITH_ACE if ace else (_SIDE_TEN_GUARDED if byte & ~0x08 else 0)
    combos = combinations(hand)
    for combo in combos:
        value += combo.points * (0.8 if combo.kind == "berz" else 0.55)
    return value


def with_swap(hand: int, open_card: int, trump: int) -> int:
    """The hand after swapping the trump seven for the open card, when it holds the seven."""
    seven = trump * 8
    if open_card >= 0 and open_card >> 3 == trump and hand >> seven & 1:
        return hand ^ (1 << seven | 1 << open_card)
    return hand


def easy_order(hand: int, open_card: int, n: int, second_round: bool, may_pass: bool) -> int:
    """The suit the easy rule orders on a 6-card hand, or -1 to pass."""
    threshold = BID_THRESHOLD[n]
    open_suit = open_card >> 3
    if not second_round:
        strength = bid_strength(with_swap(hand, open_card, open_suit), open_suit)
        return open_suit if strength >= threshold else -1
    best = max((t for t in range(4) if t != open_suit), key=lambda t: (bid_strength(hand, t), -t))
    if not may_pass or bid_strength(hand, best) >= threshold:
        return best
    return -1


def resolve_combinations(
    start_hands: Sequence[int], trump: int, dealer: int, moscow: bool
) -> tuple[int, int]:
    """(seat, points) of the one player whose terz/berz count, or (-1, 0)."""
    best: tuple[int, int, int, int] | None = None
    winner = -1
    winner_points = 0
    n = len(start_hands)
    for position, seat in enumerate(seat_order(dealer, n)):
        combos = combinations(start_hands[seat])
        key = best_key(combos, trump, moscow)
        if key is not None and (best is None or (*key, -position) > best):
            best = (*key, -position)
            winner = seat
            winner_points = sum(c.points for c in combos)
    return winner, winner_points
