"""Cards, suits, ranks and bitmask card sets shared by every game.

A card is identified by a small integer index ``suit * 8 + (rank - 7)``; a set of
cards is an ``int`` bitmask over those indices. Bitmasks keep legal-move
generation and bot search cheap, while :class:`Card` is the readable value type
whose two-character code round-trips::

    >>> Card.parse("TH")
    Card(rank=<Rank.TEN: 10>, suit=<Suit.HEARTS: 3>)
    >>> Card.parse("TH").code
    'TH'
    >>> mask_to_codes(codes_to_mask(["7S", "AD"]))
    ['7S', 'AD']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum

__all__ = [
    "ALL_CARDS",
    "CARDS",
    "DECK_24",
    "DECK_32",
    "RANK_MASKS",
    "SUIT_MASKS",
    "Card",
    "Rank",
    "Suit",
    "card_index",
    "codes_to_mask",
    "iter_mask",
    "mask_of",
    "mask_to_cards",
    "mask_to_codes",
    "popcount",
]


class Suit(IntEnum):
    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def code(self) -> str:
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        return "♠♣♦♥"[self]

    @classmethod
    def parse(cls, code: str) -> Suit:
        index = "SCDH".find(code.upper()) if len(code) == 1 else -1
        if index < 0:
            raise ValueError(f"unknown suit code {code!r}")
        return cls(index)


class Rank(IntEnum):
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        return "789TJQKA"[self - 7]

    @classmethod
    def parse(cls, code: str) -> Rank:
        index = "789TJQKA".find(code.upper()) if len(code) == 1 else -1
        if index < 0:
            raise ValueError(f"unknown rank code {code!r}")
        return cls(index + 7)


def card_index(rank: Rank, suit: Suit) -> int:
    return int(suit) * 8 + int(rank) - 7


@dataclass(frozen=True, slots=True)
class Card:
    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        return card_index(self.rank, self.suit)

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def code(self) -> str:
        return self.rank.code + self.suit.code

    @classmethod
    def parse(cls, code: str) -> Card:
        if len(code) != 2:
            raise ValueError(f"a card code has two characters, got {code!r}")
        return cls(Rank.parse(code[0]), Suit.parse(code[1]))

    @classmethod
    def from_index(cls, index: int) -> Card:
        return CARDS[index]

    def __str__(self) -> str:
        return self.code


CARDS: tuple[Card, ...] = tuple(Card(Rank(i % 8 + 7), Suit(i // 8)) for i in range(32))
_CODE_TO_INDEX: dict[str, int] = {card.code: card.index for card in CARDS}

SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
RANK_MASKS: dict[Rank, int] = {
    rank: sum(1 << card_index(rank, suit) for suit in Suit) for rank in Rank
}
DECK_32: int = (1 << 32) - 1
DECK_24: int = DECK_32 & ~(RANK_MASKS[Rank.SEVEN] | RANK_MASKS[Rank.EIGHT])
ALL_CARDS = CARDS


def popcount(mask: int) -> int:
    return mask.bit_count()


def iter_mask(mask: int) -> Iterator[int]:
    """Card indices of ``mask`` in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# The card indices of every subset of one suit, so a mask becomes its cards by four look-ups.
SUIT_BYTE_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(suit * 8 + r for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)


def mask_cards(mask: int) -> tuple[int, ...]:
    """Card indices of ``mask`` in ascending order; the fast path for hot loops."""
    spades, clubs, diamonds, hearts = SUIT_BYTE_CARDS
    return (
        spades[mask & 0xFF]
        + clubs[mask >> 8 & 0xFF]
        + diamonds[mask >> 16 & 0xFF]
        + hearts[mask >> 24 & 0xFF]
    )


def mask_of(indices: Iterable[int]) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def mask_to_cards(mask: int) -> list[Card]:
    return [CARDS[i] for i in iter_mask(mask)]


def mask_to_codes(mask: int) -> list[str]:
    return [CARDS[i].code for i in iter_mask(mask)]


def codes_to_mask(codes: Iterable[str]) -> int:
    mask = 0
    for code in codes:
        index = _CODE_TO_INDEX.get(code.upper())
        if index is None:
            raise ValueError(f"unknown card code {code!r}")
        if mask >> index & 1:
            raise ValueError(f"card {code} listed twice")
        mask |= 1 << index
    return mask


def parse_index(code: str) -> int:
    """Card index of a two-character code, or ``ValueError``."""
    index = _CODE_TO_INDEX.get(code.upper()) if len(code) == 2 else None
    if index is None:
        raise ValueError(f"unknown card code {code!r}")
    return index


__all__ += ["SUIT_BYTE_CARDS", "mask_cards", "parse_index"]
