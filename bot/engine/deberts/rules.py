"""Deberts card order, card points, combinations and the action code tables.

Combinations work on one suit byte at a time (bit ``r`` = rank ``7 + r``), so the
runs of a whole hand come from four table look-ups.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from bot.engine.cards import CARDS, RANK_MASKS, SUIT_MASKS, Rank, Suit, mask_to_codes
from bot.engine.tricks import Obligations, Ranking

__all__ = [
    "ACTION_CODES",
    "BELLA_MASKS",
    "BELLA_POINTS",
    "BERZ",
    "CARD_CODES",
    "COMBO_POINTS",
    "DUTY",
    "LAST_TRICK_POINTS",
    "ONE_SUIT_CODES",
    "PLAY_CODES",
    "POINTS",
    "RANKING",
    "SEVENS",
    "SUIT_BYTE_CODES",
    "SUIT_CODES",
    "TERZ",
    "WIN_KEYS",
    "Combination",
    "bella_mask",
    "best_key",
    "card_codes",
    "combinations",
    "legal_mask",
    "mask_codes",
    "seven_of",
    "winning_position",
]

RANKING = Ranking.build(
    "ATKQJ987",
    "J9ATKQ87",
    {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2},
    {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3},
)
DUTY = Obligations(follow_suit=True, must_trump=True, overtrump_on_trump_lead=True)
LAST_TRICK_POINTS = 10
BELLA_POINTS = 20
TERZ: Final = "terz"
BERZ: Final = "berz"
COMBO_POINTS = {TERZ: 20, BERZ: 50}
SEVENS = RANK_MASKS[Rank.SEVEN]
SUIT_CODES = "SCDH"

CARD_CODES: tuple[str, ...] = tuple(card.code for card in CARDS)
PLAY_CODES: dict[str, int] = {"c" + code: index for index, code in enumerate(CARD_CODES)}
ACTION_CODES: frozenset[str] = frozenset(
    {"play", "pass", "swap7", "sevens", *(f"t{s}" for s in SUIT_CODES), *PLAY_CODES}
)

# POINTS[trump][card]: a card's points with that trump suit.
POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANKING.points(card, trump) for card in range(32)) for trump in range(4)
)
# WIN_KEYS[trump][led][card]: how strongly a card bids for the trick; trumps above
# the led suit, every other suit 0.
WIN_KEYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            16 + RANKING.trump_strength[card]
            if card >> 3 == trump
            else RANKING.plain_strength[card]
            if card >> 3 == led
            else 0
            for card in range(32)
        )
        for led in range(4)
    )
    for trump in range(4)
)

# The play codes of every subset of one suit, so a legal mask becomes a list of
# codes by at most four look-ups.
SUIT_BYTE_CODES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(
        tuple("c" + CARD_CODES[suit * 8 + r] for r in range(8) if byte >> r & 1)
        for byte in range(256)
    )
    for suit in range(4)
)


# Card codes (no play prefix) of every subset of one suit: a mask's codes by four look-ups
# instead of building each code from its rank and suit.
_SUIT_BYTE_CARD_CODES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(CARD_CODES[suit * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)


def card_codes(mask: int) -> list[str]:
    """:func:`bot.engine.cards.mask_to_codes` by table: the codes in ascending card order."""
    spades, clubs, diamonds, hearts = _SUIT_BYTE_CARD_CODES
    return [
        *spades[mask & 0xFF],
        *clubs[mask >> 8 & 0xFF],
        *diamonds[mask >> 16 & 0xFF],
        *hearts[mask >> 24],
    ]


# The same codes keyed by the mask for sets within one suit, the usual legal set when
# following: one dictionary look-up instead of four.
ONE_SUIT_CODES: dict[int, tuple[str, ...]] = {
    byte << (8 * suit): SUIT_BYTE_CODES[suit][byte] for suit in range(4) for byte in range(1, 256)
}


def mask_codes(mask: int) -> list[str]:
    """Play codes of the cards in ``mask``, sorted by suit then rank."""
    one_suit = ONE_SUIT_CODES.get(mask)
    if one_suit is not None:
        return list(one_suit)
    spades, clubs, diamonds, hearts = SUIT_BYTE_CODES
    return [
        *spades[mask & 0xFF],
        *clubs[mask >> 8 & 0xFF],
        *diamonds[mask >> 16 & 0xFF],
        *hearts[mask >> 24],
    ]


def legal_mask(hand: int, trick: list[int], trump: int) -> int:
    """:func:`bot.engine.tricks.legal_plays` with the Deberts duties, unrolled for speed."""
    if not trick:
        return hand
    led = trick[0] >> 3
    in_suit = hand & SUIT_MASKS[led]
    if in_suit:
        if led != trump:
            return in_suit
        keys = WIN_KEYS[trump][led]
        top = trick[0]
        for card in trick[1:]:
            if keys[card] > keys[top]:
                top = card
        return in_suit & RANKING.trump_stronger[top] or in_suit
    return hand & SUIT_MASKS[trump] or hand


def winning_position(trick: list[int], trump: int) -> int:
    """:func:`bot.engine.tricks.trick_winner` by one table look-up per card."""
    keys = WIN_KEYS[trump][trick[0] >> 3]
    best = 0
    best_key = keys[trick[0]]
    for position in range(1, len(trick)):
        key = keys[trick[position]]
        if key > best_key:
            best, best_key = position, key
    return best


def seven_of(suit: int) -> int:
    return suit * 8


def bella_mask(trump: int) -> int:
    return BELLA_MASKS[trump]


BELLA_MASKS: tuple[int, ...] = tuple(
    (1 << (t * 8 + Rank.KING - 7)) | (1 << (t * 8 + Rank.QUEEN - 7)) for t in range(4)
)


class Combination(NamedTuple):
    """A terz or berz: ``top`` is the rank offset (0 = seven .. 7 = ace) of its highest card."""

    kind: Literal["terz", "berz"]
    suit: int
    top: int
    mask: int

    @property
    def points(self) -> int:
        return COMBO_POINTS[self.kind]

    def codes(self) -> list[str]:
        return mask_to_codes(self.mask)

    def __str__(self) -> str:
        return f"{self.kind} {Rank(self.top + 7).code}{Suit(self.suit).code}"


def _split_runs(byte: int) -> tuple[tuple[int, int, int], ...]:
    """(length, top, byte mask) of each combination in one suit, runs split from the top.

    Taking berz first from the top gives the most points and the highest top card:
    5 or 6 in a row make one berz, 7 a berz and a terz, 8 two berz.
    """
    found: list[tuple[int, int, int]] = []
    r = 7
    while r >= 0:
        if not byte >> r & 1:
            r -= 1
            continue
        low = r
        while low > 0 and byte >> (low - 1) & 1:
            low -= 1
        top, length = r, r - low + 1
        while length >= 3:
            size = 4 if length >= 4 else 3
            found.append((size, top, ((1 << size) - 1) << (top - size + 1)))
            top -= size
            length -= size
        r = low - 1
    return tuple(found)


_RUNS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(_split_runs(b) for b in range(256))


# The combinations of every subset of one suit, built once: a hand's come from four look-ups.
_SUIT_COMBOS: tuple[tuple[tuple[Combination, ...], ...], ...] = tuple(
    tuple(
        tuple(
            Combination(BERZ if size == 4 else TERZ, suit, top, byte << (suit * 8))
            for size, top, byte in _RUNS[held]
        )
        for held in range(256)
    )
    for suit in range(4)
)


def combinations(hand: int) -> list[Combination]:
    """Every terz and berz of ``hand``, no card in two of them."""
    spades, clubs, diamonds, hearts = _SUIT_COMBOS
    return [
        *spades[hand & 0xFF],
        *clubs[hand >> 8 & 0xFF],
        *diamonds[hand >> 16 & 0xFF],
        *hearts[hand >> 24 & 0xFF],
    ]


def best_key(combos: list[Combination], trump: int, moscow: bool) -> tuple[int, int, int] | None:
    """How strong a player's best combination is: berz over terz, top card, then trump (Moscow)."""
    best: tuple[int, int, int] | None = None
    for combo in combos:
        key = (
            1 if combo.kind == BERZ else 0,
            combo.top,
            1 if moscow and combo.suit == trump else 0,
        )
        if best is None or key > best:
            best = key
    return best
