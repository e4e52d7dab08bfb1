"""Filling in a deal around chosen cards, for building positions by hand."""

from __future__ import annotations

from bot.engine.cards import mask_to_codes
from bot.engine.thousand.rules import DECK

__all__ = ["complete_deal"]


def complete_deal(
    seats: int,
    fixed: dict[int, list[str]],
    talons: list[list[str]] | None = None,
    *,
    dealer: int = 0,
) -> tuple[list[list[str]], list[list[str]]]:
    """Hands and talons holding the ``fixed`` cards, the rest of the deck dealt in order.

    With four seats the ``dealer`` sits out and gets no cards.

    >>> hands, talons = complete_deal(3, {0: ["AH", "TH"]})
    >>> hands[0]
    ['AH', 'TH', '9S', 'TS', 'JS', 'QS', 'KS']
    >>> talons
    [['JH', 'QH', 'KH']]
    """
    size, talon_sizes = (10, [2, 2]) if seats == 2 else (7, [3])
    used = {c for cards in fixed.values() for c in cards}
    if talons:
        used |= {c for t in talons for c in t}
    rest = [c for c in mask_to_codes(DECK) if c not in used]
    hands = []
    for seat in range(seats):
        hand = list(fixed.get(seat, []))
        while len(hand) < size and not (seats == 4 and seat == dealer):
            hand.append(rest.pop(0))
        hands.append(hand)
    if talons is None:
        talons = []
        for n in talon_sizes:
            talons.append(rest[:n])
            rest = rest[n:]
    return hands, talons
