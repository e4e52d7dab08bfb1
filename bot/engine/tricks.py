"""The trick-taking core both games share: seeded dealing, trick winners, legal plays.

Everything works on card indices and bitmasks (see :mod:`bot.engine.cards`). A
game describes its card order with a :class:`Ranking` and its duties when
following with :class:`Obligations`; the functions here know nothing else.
A trump of ``NO_TRUMP`` (-1) means no trump suit is in force.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import SUIT_MASKS, Rank, iter_mask

__all__ = [
    "NO_TRUMP",
    "Obligations",
    "Ranking",
    "deal_seed",
    "legal_plays",
    "shuffled",
    "trick_points",
    "trick_winner",
]

NO_TRUMP = -1


@dataclass(frozen=True, slots=True)
class Ranking:
    """Card strength and points in a plain suit and in the trump suit.

    Built from the orders strongest first, e.g. ``"AT KQJ987"`` minus spaces.
    ``plain_stronger[c]`` / ``trump_stronger[c]`` are the cards of ``c``'s suit
    that beat ``c``, precomputed so that "can this player beat the table?" is a
    single mask test.
    """

    plain_strength: tuple[int, ...]
    trump_strength: tuple[int, ...]
    plain_points: tuple[int, ...]
    trump_points: tuple[int, ...]
    plain_stronger: tuple[int, ...]
    trump_stronger: tuple[int, ...]

    @classmethod
    def build(
        cls,
        plain_order: str,
        trump_order: str,
        plain_points: dict[str, int],
        trump_points: dict[str, int],
    ) -> Ranking:
        def strengths(order: str) -> list[int]:
            table = [0] * 32
            for index in range(32):
                code = Rank(index % 8 + 7).code
                position = order.find(code)
                table[index] = len(order) - position if position >= 0 else 0
            return table

        def stronger(strength: list[int]) -> list[int]:
            table = [0] * 32
            for index in range(32):
                suit = index // 8
                for other in range(suit * 8, suit * 8 + 8):
                    if strength[other] > strength[index]:
                        table[index] |= 1 << other
            return table

        def points(values: dict[str, int]) -> tuple[int, ...]:
            return tuple(values.get(Rank(i % 8 + 7).code, 0) for i in range(32))

        plain = strengths(plain_order)
        trump = strengths(trump_order)
        return cls(
            plain_strength=tuple(plain),
            trump_strength=tuple(trump),
            plain_points=points(plain_points),
            trump_points=points(trump_points),
            plain_stronger=tuple(stronger(plain)),
            trump_stronger=tuple(stronger(trump)),
        )

    def points(self, card: int, trump: int) -> int:
        return self.trump_points[card] if card >> 3 == trump else self.plain_points[card]

    def strength(self, card: int, trump: int) -> int:
        return self.trump_strength[card] if card >> 3 == trump else self.plain_strength[card]


@dataclass(frozen=True, slots=True)
class Obligations:
    """What a player owes the trick when following.

    ``follow_suit``: play the led suit if you can. ``must_trump``: void in the led
    suit, play a trump if you hold one. ``overtrump_on_trump_lead``: when trump
    was led, beat the highest trump on the table if you can.
    """

    follow_suit: bool = True
    must_trump: bool = True
    overtrump_on_trump_lead: bool = False


def trick_winner(trick: Sequence[int], trump: int, ranking: Ranking) -> int:
    """Position (0 = leader) of the card that wins ``trick``."""
    best = 0
    best_card = trick[0]
    best_suit = best_card >> 3
    for position in range(1, len(trick)):
        card = trick[position]
        suit = card >> 3
        if suit == best_suit:
            if ranking.strength(card, trump) > ranking.strength(best_card, trump):
                best, best_card = position, card
        elif suit == trump:
            best, best_card, best_suit = position, card, suit
    return best


def legal_plays(
    hand: int, trick: Sequence[int], trump: int, ranking: Ranking, duty: Obligations
) -> int:
    """Mask of the cards of ``hand`` that may be played to ``trick``."""
    if not trick:
        return hand
    led = trick[0] >> 3
    if duty.follow_suit:
        in_suit = hand & SUIT_MASKS[led]
        if in_suit:
            if led == trump and duty.overtrump_on_trump_lead:
                top = trick[trick_winner(trick, trump, ranking)]
                higher = in_suit & ranking.trump_stronger[top]
                return higher or in_suit
            return in_suit
    if duty.must_trump and trump != NO_TRUMP:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def trick_points(cards: int, trump: int, ranking: Ranking) -> int:
    return sum(ranking.points(card, trump) for card in iter_mask(cards))


def deal_seed(seed: int, deal_no: int) -> int:
    """A per-deal seed, so any deal replays from the game seed alone."""
    return (seed * 1_000_003 + deal_no * 7_919 + 17) & 0xFFFF_FFFF_FFFF


def shuffled(deck: int, seed: int) -> list[int]:
    """The cards of ``deck`` in a seeded random order.

    A 256-bit digest of the seed, read as a mixed-radix number, picks the
    Fisher-Yates swaps: one hash call instead of seeding a Mersenne Twister,
    which dominated the cost of a whole deal. 256 bits against 32! (< 2**118)
    leave every order equally likely to within 2**-138.
    """
    cards = list(_deck_cards(deck))
    digest = hashlib.blake2b(str(seed).encode(), digest_size=32).digest()
    entropy = int.from_bytes(digest, "little")
    steps, last = _swap_plan(len(cards))
    for i, radix, swaps in steps:
        entropy, r = divmod(entropy, radix)
        j, k = swaps[r]
        cards[i], cards[j] = cards[j], cards[i]
        cards[i - 1], cards[k] = cards[k], cards[i - 1]
    if last:
        j = entropy % 2
        cards[1], cards[j] = cards[j], cards[1]
    return cards


@functools.cache
def _swap_plan(size: int) -> tuple[tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...], bool]:
    """The Fisher-Yates steps two at a time, with both swap targets of each remainder tabled.

    Position ``i`` takes radix ``i + 1`` and position ``i - 1`` radix ``i``; dividing once by
    their product and looking both digits up halves the big-number divisions of the
    one-step loop, and gives exactly its swaps.
    """
    steps = []
    i = size - 1
    while i > 1:
        high, low = i + 1, i
        swaps = tuple((r % high, r // high) for r in range(high * low))
        steps.append((i, high * low, swaps))
        i -= 2
    return tuple(steps), i == 1


@functools.cache
def _deck_cards(deck: int) -> tuple[int, ...]:
    return tuple(iter_mask(deck))
