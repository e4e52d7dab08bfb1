"""The shuffled deck of every deal, and stacking a deck so that a deal gives chosen hands."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from bot.engine.cards import CARDS, codes_to_mask, parse_index

__all__ = ["shuffled_deck", "stacked_deck"]


def _swap_steps() -> tuple[tuple[int, int, int, tuple[tuple[int, int], ...]], ...]:
    """The two-at-a-time Fisher-Yates steps of :func:`bot.engine.tricks.shuffled` for 32 cards.

    Each step is (position, the position below it, the product of their radices, both
    swap targets for every remainder); a last single step for position 1 follows.
    """
    steps = []
    for i in range(31, 1, -2):
        high, low = i + 1, i
        swaps = tuple((r % high, r // high) for r in range(high * low))
        steps.append((i, i - 1, high * low, swaps))
    return tuple(steps)


_STEPS = _swap_steps()


def shuffled_deck(seed: int) -> list[int]:
    """``tricks.shuffled(DECK_32, seed)``: the same order, with its plan bound once.

    Every deal of every game starts here, so the per-call cache look-ups and
    arithmetic of the general function are worth saving.
    """
    cards = list(range(32))
    digest = hashlib.blake2b(str(seed).encode(), digest_size=32).digest()
    entropy = int.from_bytes(digest, "little")
    for i, below, radix, swaps in _STEPS:
        entropy, r = divmod(entropy, radix)
        j, k = swaps[r]
        cards[i], cards[j] = cards[j], cards[i]
        cards[below], cards[k] = cards[k], cards[below]
    j = entropy & 1
    cards[1], cards[j] = cards[j], cards[1]
    return cards


def stacked_deck(
    dealer: int,
    first: Sequence[Sequence[str]],
    open_card: str,
    second: Sequence[Sequence[str]] | None = None,
    bottom: str | None = None,
) -> list[str]:
    """A deck order (top first) for :meth:`Deberts.from_decks`.

    ``first[seat]`` are the 6 cards dealt before the auction, ``second[seat]`` the 3
    dealt after the order; unnamed cards fill the rest of the stock in suit/rank order.
    """
    seats = len(first)
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    deck: list[str] = []
    for half in (0, 3):
        for seat in order:
            deck.extend(first[seat][half : half + 3])
    deck.append(open_card)
    if second is not None:
        for seat in order:
            deck.extend(second[seat])
    named = codes_to_mask([*deck, *([bottom] if bottom else [])])
    rest = [card.code for card in CARDS if not named >> card.index & 1]
    if second is None:
        deck.extend(rest[: 3 * seats])
        rest = rest[3 * seats :]
    deck.extend(rest)
    if bottom is not None:
        deck.append(bottom)
    if len(deck) != 32 or any(len(first[s]) != 6 for s in range(seats)):
        raise ValueError("each seat needs 6 first cards and the deck 32 distinct cards")
    parse_index(deck[-1])
    return deck
