"""Stacking a deck so that a deal gives chosen hands: for tests, tutorials and replays."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import CARDS, codes_to_mask, parse_index

__all__ = ["stacked_deck"]


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
