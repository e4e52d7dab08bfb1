"""Thousand's cards, conventions and the small rule formulas the phases share."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.base import Conventions, choice
from bot.engine.cards import DECK_24, RANK_MASKS, Rank, Suit, card_index
from bot.engine.tricks import Obligations, Ranking

__all__ = [
    "ACES",
    "ACE_MARRIAGE_POINTS",
    "BARREL",
    "BARREL_CONTRACT",
    "BARREL_PENALTY",
    "BOLT_PENALTY",
    "CARD_POINTS",
    "DECK",
    "DUTY",
    "MARRIAGE_POINTS",
    "NINES",
    "RANKING",
    "ThousandConventions",
    "bid_limit",
    "card_points",
    "concede_share",
    "marriages_in",
    "round_whistler",
    "talon_points",
]

DECK = DECK_24
RANKING = Ranking.build(
    "ATKQJ9",
    "ATKQJ9",
    {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2},
    {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2},
)
DUTY = Obligations(follow_suit=True, must_trump=True, overtrump_on_trump_lead=False)
CARD_POINTS: tuple[int, ...] = RANKING.plain_points
MARRIAGE_POINTS: tuple[int, ...] = (40, 60, 80, 100)
ACE_MARRIAGE_POINTS = 200
ACES = RANK_MASKS[Rank.ACE]
NINES = RANK_MASKS[Rank.NINE]
KINGS = RANK_MASKS[Rank.KING]
QUEENS = RANK_MASKS[Rank.QUEEN]
PAIRS: tuple[int, ...] = tuple(
    (1 << card_index(Rank.KING, s)) | (1 << card_index(Rank.QUEEN, s)) for s in Suit
)

BARREL = 880
BARREL_CONTRACT = 121
BARREL_PENALTY = 120
BARREL_ATTEMPTS = 3
BOLT_PENALTY = 120
BOLTS_PER_PENALTY = 3
TARGET = 1000
OPENING_BID = 100
MAX_CARD_POINTS = 120
DUMP_TRUCK = 555
GOLDEN_DEALS = 3


@dataclass(frozen=True)
class ThousandConventions(Conventions):
    """Table options a host picks before the game (defaults as the rulings mark them)."""

    redeal: bool = choice(True, (True, False))
    barrel_trading: bool = choice(False, (False, True))
    ace_marriage: bool = choice(False, (False, True))
    minus_limit: int = choice(-300, (-100, -200, -300, -1000))
    show_talon_on_hundred: bool = choice(True, (True, False))
    concede: bool = choice(True, (True, False))
    concede_penalty: bool = choice(False, (False, True))
    dump_truck: bool = choice(True, (True, False))
    golden_round: bool = choice(False, (False, True))
    bid_step: str = choice("any5", ("any5", "plus5"))


_POINTS_BY_BYTE: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(CARD_POINTS[suit * 8 + r] for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)


def card_points(mask: int) -> int:
    spades, clubs, diamonds, hearts = _POINTS_BY_BYTE
    return (
        spades[mask & 0xFF]
        + clubs[mask >> 8 & 0xFF]
        + diamonds[mask >> 16 & 0xFF]
        + hearts[mask >> 24 & 0xFF]
    )


# A king sits one slot above its queen, so ``hand & hand >> 1 & QUEENS`` keeps the
# queens whose king is held too: one look-up then prices every marriage in a hand.
_MARRIAGES_BY_QUEENS: dict[int, int] = {
    sum(QUEENS & PAIRS[s] for s in range(4) if held >> s & 1): sum(
        MARRIAGE_POINTS[s] for s in range(4) if held >> s & 1
    )
    for held in range(16)
}


def marriages_in(hand: int, ace_marriage: bool) -> int:
    """Points of every marriage (and the ace marriage, if enabled) held in ``hand``."""
    total = _MARRIAGES_BY_QUEENS[hand & hand >> 1 & QUEENS]
    if ace_marriage and hand & ACES == ACES:
        total += ACE_MARRIAGE_POINTS
    return total


def talon_points(talon: int) -> int:
    """What a talon is worth to the dealer sitting out (four players): its card points
    and a marriage in it (the ace marriage needs four cards)."""
    return card_points(talon) + marriages_in(talon, False)


def bid_limit(hand: int, ace_marriage: bool) -> int:
    """The highest bid or contract ``hand`` allows: 120 plus its marriages."""
    return MAX_CARD_POINTS + marriages_in(hand, ace_marriage)


def round_whistler(points: int) -> int:
    """A non-bidder's points to a multiple of 5: ends 1, 2, 6, 7 down; 3, 4, 8, 9 up."""
    return (points + 2) // 5 * 5


def concede_share(contract: int) -> int:
    """What each opponent writes when the bidder concedes: half, up to a multiple of 5."""
    return -(-contract // 10) * 5


def next_bid_floor(high: int | None) -> int:
    """The lowest bid that beats ``high``: a multiple of 5 above it, at least 100."""
    if high is None:
        return OPENING_BID
    return (high // 5 + 1) * 5
