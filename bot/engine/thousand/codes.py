"""Short action codes: their tables and parsing (``"b105"``, ``"cTH"``, ``"gTH2"``...)."""

from __future__ import annotations

from bot.engine.cards import CARDS
from bot.engine.thousand.rules import ACE_MARRIAGE_POINTS, MARRIAGE_POINTS, MAX_CARD_POINTS

__all__ = [
    "BID_CODES",
    "BID_VALUES",
    "CARD_CODES",
    "CARD_INDEX",
    "CONTRACT_CODES",
    "CONTRACT_VALUES",
    "GIVE_INDEX",
    "PLAY_BY_BYTE",
    "PLAY_CODES",
    "PLAY_INDEX",
    "card_of",
    "give_codes",
    "number_of",
    "play_codes",
]

CARD_CODES: tuple[str, ...] = tuple(card.code for card in CARDS)
PLAY_CODES: tuple[str, ...] = tuple("c" + code for code in CARD_CODES)
# The most ``bid_limit`` can give: 120 plus every marriage and the ace marriage, 600.
_MAX_NUMBER = MAX_CARD_POINTS + sum(MARRIAGE_POINTS) + ACE_MARRIAGE_POINTS
BID_CODES: tuple[str, ...] = tuple(f"b{n}" for n in range(_MAX_NUMBER + 1))
CONTRACT_CODES: tuple[str, ...] = tuple(f"k{n}" for n in range(_MAX_NUMBER + 1))
BID_VALUES: dict[str, int] = {code: n for n, code in enumerate(BID_CODES)}
CONTRACT_VALUES: dict[str, int] = {code: n for n, code in enumerate(CONTRACT_CODES)}
CARD_INDEX: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}
PLAY_INDEX: dict[str, int] = {code: i for i, code in enumerate(PLAY_CODES)}


# The codes of every subset of one suit, so a hand becomes its codes by four look-ups.
PLAY_BY_BYTE: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(PLAY_CODES[suit * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)
_GIVE_BY_BYTE: tuple[tuple[tuple[tuple[str, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(f"g{CARD_CODES[suit * 8 + r]}{seat}" for r in range(8) if byte >> r & 1)
            for byte in range(256)
        )
        for suit in range(4)
    )
    for seat in range(4)
)

# Each give-away code's card and receiving seat, so applying one parses nothing.
GIVE_INDEX: dict[str, tuple[int, int]] = {
    code: (suit * 8 + r, seat)
    for seat in range(4)
    for suit in range(4)
    for r in range(8)
    for code in _GIVE_BY_BYTE[seat][suit][1 << r]
}


def give_codes(mask: int, seat: int) -> tuple[str, ...]:
    """``"g<card><seat>"`` codes giving each card of ``mask`` to ``seat``, in card order."""
    spades, clubs, diamonds, hearts = _GIVE_BY_BYTE[seat]
    return (
        spades[mask & 0xFF]
        + clubs[mask >> 8 & 0xFF]
        + diamonds[mask >> 16 & 0xFF]
        + hearts[mask >> 24 & 0xFF]
    )


def play_codes(mask: int) -> tuple[str, ...]:
    """``"c<card>"`` codes of the cards in ``mask``, in card order."""
    spades, clubs, diamonds, hearts = PLAY_BY_BYTE
    return (
        spades[mask & 0xFF]
        + clubs[mask >> 8 & 0xFF]
        + diamonds[mask >> 16 & 0xFF]
        + hearts[mask >> 24 & 0xFF]
    )


def card_of(text: str) -> int | None:
    """Card index of a two-character code (case-insensitive), or ``None``."""
    index = CARD_INDEX.get(text)
    if index is None and len(text) == 2:
        index = CARD_INDEX.get(text.upper())
    return index


def number_of(text: str) -> int | None:
    """The non-negative number a bid or contract code carries, or ``None``."""
    if not text.isdigit() or len(text) > 3 or (len(text) > 1 and text[0] == "0"):
        return None
    return int(text)
