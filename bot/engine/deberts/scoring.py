"""What each seat writes after a Deberts deal: made, bait (БТ) or hanging (vs), and the game end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "BAIT",
    "BAIT_MARK",
    "HANGING",
    "MADE",
    "Settlement",
    "game_winner",
    "hanging_mark",
    "mars",
    "next_dealer",
    "seat_order",
    "settle",
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


@dataclass(frozen=True)
class Settlement:
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
    seats = len(points)
    whistlers = [s for s in seat_order(dealer, seats) if s != bidder]
    b = points[bidder]
    w = sum(points[s] for s in whistlers)
    total = b + w
    written = [0] * seats
    paid = [0] * seats
    pending = list(hanging)
    at_stake = pending.pop(0) if pending else 0
    mark: str | None = None
    if b > w:
        outcome = MADE
        if winner_takes_all:
            written[bidder] = total
        else:
            written = list(points)
        paid[bidder] = at_stake
    elif b < w:
        outcome = BAIT
        mark = BAIT_MARK
        if seats == 2:
            written[whistlers[0]] = total
        else:
            for s in whistlers:
                written[s] = points[s]
            _split(b, whistlers, written)
        _split(at_stake, whistlers, paid)
    else:
        outcome = HANGING
        mark = hanging_mark(b)
        for s in whistlers:
            written[s] = points[s]
        if at_stake:
            pending.insert(0, at_stake)
        if pending and not hanging_separately:
            pending[0] += b
        else:
            pending.append(b)
    return Settlement(
        outcome=outcome,
        written=tuple(x + y for x, y in zip(written, paid, strict=True)),
        hanging_paid=tuple(paid),
        hanging=tuple(pending),
        mark=mark,
    )


def next_dealer(written: Sequence[int], outcome: str, bidder: int, dealer: int) -> int:
    """Rule 9: who wrote the most (after a hanging deal, among the whistlers); ties go earlier."""
    order = seat_order(dealer, len(written))
    candidates = [s for s in order if outcome != HANGING or s != bidder]
    return max(candidates, key=lambda s: (written[s], -order.index(s)))


def game_winner(
    totals: Sequence[int], target: int, last_trick_winner: int, dealer: int
) -> int | None:
    """Rule 10: once anyone reaches the target, the highest total; a tie goes to the last trick."""
    top = max(totals)
    if top < target:
        return None
    leaders = [s for s in seat_order(dealer, len(totals)) if totals[s] == top]
    if last_trick_winner in leaders:
        return last_trick_winner
    return leaders[0]


def mars(totals: Sequence[int], winner: int, target: int) -> list[int]:
    """Losers below half the target."""
    return [s for s, total in enumerate(totals) if s != winner and 2 * total < target]
