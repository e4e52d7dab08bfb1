"""The 24 cards in a deal's order: :func:`bot.engine.tricks.shuffled`, made cheaper.

The same digest and the same Fisher-Yates swaps, so every seed deals exactly the
cards it always has. The swaps only read the digest modulo 24!, so it is cut into
three parts below 2**30 once, and each swap divides a one-digit integer instead
of the 256-bit one. The cards are shuffled as their bits, so a hand's mask is
the plain sum of its slice.
"""

from __future__ import annotations

from hashlib import blake2b
from math import factorial

from bot.engine.cards import iter_mask
from bot.engine.thousand.rules import DECK

__all__ = ["deal_bits"]

_CARDS: tuple[int, ...] = tuple(1 << card for card in iter_mask(DECK))


def _radix_groups() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Runs of the swap radices (24, 23, ..., 2) whose products stay below 2**30."""
    groups = []
    radix = len(_CARDS)
    while radix > 1:
        run: list[int] = []
        product = 1
        while radix > 1 and product * radix < 1 << 30:
            run.append(radix)
            product *= radix
            radix -= 1
        groups.append((product, tuple(run)))
    return tuple(groups)


_GROUPS = _radix_groups()
_ORDERS = factorial(len(_CARDS))


def deal_bits(seed: int) -> list[int]:
    """The deck as ``shuffled(DECK, seed)`` orders it, each card as its bit ``1 << index``."""
    cards = list(_CARDS)
    digest = blake2b(str(seed).encode(), digest_size=32).digest()
    entropy = int.from_bytes(digest, "little") % _ORDERS
    for product, radices in _GROUPS:
        entropy, part = divmod(entropy, product)
        for radix in radices:
            j = part % radix
            part //= radix
            i = radix - 1
            cards[i], cards[j] = cards[j], cards[i]
    return cards
