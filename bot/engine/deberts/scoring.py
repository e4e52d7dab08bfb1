"""What each seat writes after a Deberts deal: made, bait (БТ) or hanging (vs), and the game end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = [
    "BAIT",
    "BAIT_MARK",
    "HANGING",
    "MADE",
    "SEAT_ORDERS",
    "Settlement",
    "game_winner",
    "hanging_mark",
    "mars",
    "next_dealer",
    "seat_order",
    "settle",
    "settle_fields",
]

MADE = "made"
BAIT = "bait"
HANGING = "hanging"
BAIT_MARK = "БТ"


def hanging_mark(points: int) -> str:
    return f"vs({points})"


def seat_order(dealer: int, seats: int) -> list[int]:
    """Seats from the dealer's left, clockwise, dealer last."""
    return [(dealer + 1 + i) % seats for i in range(seats)]


# seat_order for every table size and dealer, built once: scoring runs after every deal.
SEAT_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {
    seats: tuple(tuple(seat_order(dealer, seats)) for dealer in range(seats)) for seats in (2, 3)
}


def _order(dealer: int, seats: int) -> Sequence[int]:
    orders = SEAT_ORDERS.get(seats)
    return orders[dealer] if orders is not None else seat_order(dealer, seats)


class Settlement(NamedTuple):
    """``written`` includes any hanging points paid out (``hanging_paid``) this deal."""

    outcome: str
    written: tuple[int, ...]
    hanging_paid: tuple[int, ...]
    hanging: tuple[int, ...]
    mark: str | None


def _split(amount: int, whistlers: list[int], into: list[int]) -> None:
    """Share ``amount`` between the whistlers; an odd point goes to the earlier one."""
    if len(whistlers) == 1:
        into[whistlers[0]] += amount
        return
    first, second = whistlers
    into[first] += (amount + 1) // 2
    into[second] += amount // 2


def settle(
    points: Sequence[int],
    bidder: int,
    dealer: int,
    hanging: Sequence[int],
    *,
    winner_takes_all: bool,
    hanging_separately: bool,
) -> Settlement:
    """Apply rule 8 to the deal points of every seat.

    ``hanging`` is the queue of amounts still hanging before this deal; the one in
    play this deal is its first entry (the only one when amounts are summed).
    """
    return Settlement(
        *settle_fields(points, bidder, dealer, hanging, winner_takes_all, hanging_separately)
    )


def settle_fields(
    points: Sequence[int],
    bidder: int,
    dealer: int,
    hanging: Sequence[int],
    winner_takes_all: bool,
    hanging_separately: bool,
) -> tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...], str | None]:
    """:func:`settle` as a plain tuple in :class:`Settlement` order, for the engine's every deal."""
    seats = len(points)
    b = points[bidder]
    total = sum(points)
    w = total - b
    at_stake = hanging[0] if hanging else 0
    pending = list(hanging[1:]) if hanging else []
    if b > w:
        if winner_takes_all:
            written = [0] * seats
            written[bidder] = total + at_stake
        else:
            written = list(points)
            written[bidder] += at_stake
        paid = [0] * seats
        paid[bidder] = at_stake
        return MADE, tuple(written), tuple(paid), tuple(pending), None
    whistlers = [s for s in _order(dealer, seats) if s != bidder]
    written = [0] * seats
    if b < w:
        paid = [0] * seats
        if seats == 2:
            written[whistlers[0]] = total
        else:
            for s in whistlers:
                written[s] = points[s]
            _split(b, whistlers, written)
        if at_stake:
            _split(at_stake, whistlers, paid)
            _split(at_stake, whistlers, written)
        return BAIT, tuple(written), tuple(paid), tuple(pending), BAIT_MARK
    for s in whistlers:
        written[s] = points[s]
    if at_stake:
        pending.insert(0, at_stake)
    if pending and not hanging_separately:
        pending[0] += b
    else:
        pending.append(b)
    return HANGING, tuple(written), (0,) * seats, tuple(pending), hanging_mark(b)


def next_dealer(written: Sequence[int], outcome: str, bidder: int, dealer: int) -> int:
    """Rule 9: who wrote the most (after a hanging deal, among the whistlers); ties go earlier."""
    best = -1
    most = 0
    for seat in _order(dealer, len(written)):
        if (outcome != HANGING or seat != bidder) and (best < 0 or written[seat] > most):
            best, most = seat, written[seat]
    return best


def game_winner(
    totals: Sequence[int], target: int, last_trick_winner: int, dealer: int
) -> int | None:
    """Rule 10: once anyone reaches the target, the highest total; a tie goes to the last trick."""
    top = max(totals)
    if top < target:
        return None
    leaders = [s for s in _order(dealer, len(totals)) if totals[s] == top]
    if last_trick_winner in leaders:
        return last_trick_winner
    return leaders[0]


def mars(totals: Sequence[int], winner: int, target: int) -> list[int]:
    """Losers below half the target."""
    return [s for s, total in enumerate(totals) if s != winner and 2 * total < target]
