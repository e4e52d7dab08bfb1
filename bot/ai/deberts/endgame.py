"""Exact play of a Deberts deal's last tricks with every hand known (double dummy).

The seat deciding plays for its best deal result, every other seat against it
(in a three-player deal the two others are taken to play together, as the
bidder's opponents do): a minimax by alpha-beta over the cards left, each leaf
valued as :func:`~bot.ai.deberts.table.deal_result` settles the deal (card
points, bella, the last trick, the combinations that count). The hard level
solves each sampled layout this way once few cards remain, and plays the card
that does best over them.
"""

from __future__ import annotations

import functools

from bot.ai.deberts.table import POINTS, STRENGTH, Table, Worth, deal_result
from bot.engine.cards import mask_cards

__all__ = ["card_values"]

_INF = float("inf")
_ORDER = tuple(
    tuple(-(POINTS[trump][c] * 16 + STRENGTH[trump][c]) for c in range(len(POINTS[trump])))
    for trump in range(len(POINTS))
)
"""Per trump, each card's place in the solver's move order: rich and strong cards first."""


def card_values(
    table: Table, cards: list[int], worth: Worth | None = None
) -> tuple[list[float], int]:
    """The deal's value for the seat to act (``worth``, else its deal result) of each
    of ``cards`` under best play from there on, and the number of positions searched."""
    me = table.turn
    settle = worth or functools.partial(_result, me)
    counter = [0]
    values = []
    for card in cards:
        child = table.copy()
        child.play(card)
        values.append(_value(child, me, settle, -_INF, _INF, counter))
    return values, counter[0]


def _result(me: int, points: list[int], bidder: int) -> float:
    return deal_result(points, bidder, me)


def _value(
    table: Table, me: int, worth: Worth, alpha: float, beta: float, counter: list[int]
) -> float:
    counter[0] += 1
    seat = table.turn
    if not table.hands[seat]:
        return worth(table.deal_points(), table.bidder)
    maximise = seat == me
    best = -_INF if maximise else _INF
    for card in _ordered(table.legal(seat), table.trump):
        child = table.copy()
        child.play(card)
        value = _value(child, me, worth, alpha, beta, counter)
        if maximise:
            if value > best:
                best = value
                alpha = max(alpha, best)
        elif value < best:
            best = value
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


@functools.lru_cache(maxsize=40_000)
def _ordered(legal: int, trump: int) -> tuple[int, ...]:
    """Rich and strong cards first: the likeliest best moves, for earlier cut-offs. Kept
    for the legal sets met lately: the same ones come up again and again in one solve
    and in the next layout's."""
    return tuple(sorted(mask_cards(legal), key=_ORDER[trump].__getitem__))
