"""Thousand's card tables on the shared bitmask layout, precomputed for the bot players.

Card index ``suit * 8 + rank - 7`` (see :mod:`bot.engine.cards`); the 24-card deck
holds ranks 9..A. Strength in a suit: A T K Q J 9; points: A 11, T 10, K 4, Q 3, J 2.
"""

from __future__ import annotations

from bot.engine.cards import DECK_24, SUIT_MASKS, Rank, Suit, card_index, iter_mask, parse_index

__all__ = [
    "ACES",
    "BEATEN_BY",
    "DECK",
    "KING",
    "MARRIAGE",
    "MARRIAGE_MASKS",
    "NO_TRUMP",
    "PARTNER",
    "POINTS",
    "QUEEN",
    "STRENGTH",
    "SUIT",
    "TENS",
    "card_code",
    "hand_points",
    "marriage_suits",
    "mask_of_codes",
    "partner",
]

NO_TRUMP = -1
DECK = DECK_24
SUIT = SUIT_MASKS
_STRENGTH = {Rank.NINE: 1, Rank.JACK: 2, Rank.QUEEN: 3, Rank.KING: 4, Rank.TEN: 5, Rank.ACE: 6}
_POINTS = {Rank.NINE: 0, Rank.JACK: 2, Rank.QUEEN: 3, Rank.KING: 4, Rank.TEN: 10, Rank.ACE: 11}

STRENGTH: tuple[int, ...] = tuple(_STRENGTH.get(Rank(i % 8 + 7), 0) for i in range(32))
POINTS: tuple[int, ...] = tuple(_POINTS.get(Rank(i % 8 + 7), 0) for i in range(32))
BEATEN_BY: tuple[int, ...] = tuple(
    sum(
        1 << j
        for j in range((i >> 3) * 8, (i >> 3) * 8 + 8)
        if DECK >> j & 1 and STRENGTH[j] > STRENGTH[i]
    )
    for i in range(32)
)
"""``BEATEN_BY[c]``: the cards of ``c``'s suit that beat it."""

KING: tuple[int, ...] = tuple(card_index(Rank.KING, s) for s in Suit)
QUEEN: tuple[int, ...] = tuple(card_index(Rank.QUEEN, s) for s in Suit)
ACE: tuple[int, ...] = tuple(card_index(Rank.ACE, s) for s in Suit)
TEN: tuple[int, ...] = tuple(card_index(Rank.TEN, s) for s in Suit)
ACES = sum(1 << c for c in ACE)
TENS = sum(1 << c for c in TEN)
MARRIAGE: tuple[int, ...] = (40, 60, 80, 100)
MARRIAGE_MASKS: tuple[int, ...] = tuple((1 << KING[s]) | (1 << QUEEN[s]) for s in range(4))


PARTNER: tuple[int, ...] = tuple(
    QUEEN[c >> 3] if c == KING[c >> 3] else KING[c >> 3] if c == QUEEN[c >> 3] else -1
    for c in range(32)
)
"""``PARTNER[c]``: the other half of a K or Q's marriage, or -1 for any other card."""


def partner(card: int) -> int:
    """The other half of a K or Q's marriage, or -1 for any other card."""
    return PARTNER[card]


def marriage_suits(hand: int) -> list[int]:
    return [s for s in range(4) if hand & MARRIAGE_MASKS[s] == MARRIAGE_MASKS[s]]


def hand_points(mask: int) -> int:
    return sum(POINTS[c] for c in iter_mask(mask))


def mask_of_codes(codes: list[str]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << parse_index(code)
    return mask


def card_code(card: int) -> str:
    return "789TJQKA"[card & 7] + "SCDH"[card >> 3]
