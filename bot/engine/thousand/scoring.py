"""Settling a deal: contract, whistlers, bolts, barrel, dump truck, golden round.

Pure arithmetic over one deal's outcome and the running tallies; the game state
calls :func:`settle` once per scored deal and records what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.thousand.rules import (
    BARREL,
    BARREL_ATTEMPTS,
    BARREL_PENALTY,
    BOLT_PENALTY,
    BOLTS_PER_PENALTY,
    DUMP_TRUCK,
    ThousandConventions,
    concede_share,
    round_whistler,
)

__all__ = ["DealOutcome", "Settlement", "settle"]


@dataclass(frozen=True)
class DealOutcome:
    """What happened at the table in one deal, before any bookkeeping."""

    bidder: int
    contract: int
    conceded: bool
    points: tuple[int, ...]
    """Card points in tricks plus declared marriages, per seat."""
    tricks: tuple[int, ...]
    golden: bool


@dataclass
class Settlement:
    totals: list[int]
    bolts: list[int]
    barrel_seat: int | None
    barrel_attempts: int
    winner: int | None
    deltas: list[int]
    notes: dict[str, Any] = field(default_factory=dict)


def settle(
    outcome: DealOutcome,
    conventions: ThousandConventions,
    totals: list[int],
    bolts: list[int],
    barrel_seat: int | None,
    barrel_attempts: int,
) -> Settlement:
    seats = len(totals)
    bidder, contract = outcome.bidder, outcome.contract
    factor = 2 if outcome.golden else 1
    still = _standing_still(seats, bidder, barrel_seat)
    on_barrel_play = barrel_seat is not None and bidder == barrel_seat
    made = not outcome.conceded and outcome.points[bidder] >= contract

    written = [0] * seats
    marks = [""] * seats
    for seat in range(seats):
        if seat in still:
            marks[seat] = "stood still"
        elif seat == bidder:
            if outcome.conceded:
                penalty = conventions.concede_penalty
                written[seat] = -contract * factor if penalty else 0
                marks[seat] = f"-{contract * factor}" if penalty else "conceded"
            elif made:
                written[seat] = contract * factor
                marks[seat] = f"+{written[seat]}"
            elif on_barrel_play:
                # A failed barrel attempt costs nothing; running out of attempts costs below.
                marks[seat] = f"-{contract}"
            else:
                written[seat] = -contract * factor
                marks[seat] = str(written[seat])
        else:
            base = (
                concede_share(contract)
                if outcome.conceded
                else round_whistler(outcome.points[seat])
            )
            written[seat] = base * factor
            marks[seat] = str(written[seat])

    new_totals = [t + w for t, w in zip(totals, written, strict=True)]
    new_bolts = list(bolts)
    bolted: list[int] = []
    bolt_penalties: list[int] = []
    for seat in range(seats):
        if seat in still:
            continue
        gets_bolt = (
            (seat == bidder and not conventions.concede_penalty)
            if outcome.conceded
            else outcome.tricks[seat] == 0
        )
        if gets_bolt:
            bolted.append(seat)
            new_bolts[seat] += 1
            if new_bolts[seat] >= BOLTS_PER_PENALTY:
                new_bolts[seat] = 0
                new_totals[seat] -= BOLT_PENALTY
                bolt_penalties.append(seat)

    winner: int | None = None
    events: list[dict[str, Any]] = []
    attempts = barrel_attempts
    seat_on = barrel_seat
    if seat_on is not None:
        attempts += 1
        if on_barrel_play and made:
            winner = seat_on
            events.append({"seat": seat_on, "event": "won"})
    if winner is None:
        seat_on, attempts = _barrel(new_totals, seat_on, attempts, events)

    trucked: list[int] = []
    if conventions.dump_truck and winner is None:
        for seat in range(seats):
            if new_totals[seat] in (DUMP_TRUCK, -DUMP_TRUCK):
                new_totals[seat] = 0
                trucked.append(seat)

    deltas = [n - t for n, t in zip(new_totals, totals, strict=True)]
    notes: dict[str, Any] = {
        "bidder": bidder,
        "contract": contract,
        "result": "conceded" if outcome.conceded else ("made" if made else "failed"),
        "outcome": "conceded" if outcome.conceded else ("made" if made else "failed"),
        "conceded": outcome.conceded,
        "points": list(outcome.points),
        "written": written,
        "marks": marks,
        "stood_still": [seat in still for seat in range(seats)],
        "bolts": [int(seat in bolted) for seat in range(seats)],
        "bolt_penalties": [-BOLT_PENALTY if seat in bolt_penalties else 0 for seat in range(seats)],
        "bolt_counts": list(new_bolts),
        "on_barrel": [seat == seat_on for seat in range(seats)],
        "barrel": {"seat": seat_on, "attempts": attempts},
        "barrel_seat": seat_on,
        "barrel_attempts": attempts,
        "barrel_events": events,
        "dump_truck": [seat in trucked for seat in range(seats)],
        "golden": outcome.golden,
    }
    return Settlement(new_totals, new_bolts, seat_on, attempts, winner, deltas, notes)


def _standing_still(seats: int, bidder: int, barrel_seat: int | None) -> set[int]:
    if barrel_seat is None:
        return set()
    if bidder == barrel_seat:
        return {s for s in range(seats) if s != bidder}
    return {barrel_seat}


def _barrel(
    totals: list[int], seat_on: int | None, attempts: int, events: list[dict[str, Any]]
) -> tuple[int | None, int]:
    """Climbs onto, knock-offs from and drops off the barrel after a deal."""
    climbing = [s for s in range(len(totals)) if s != seat_on and totals[s] >= BARREL]
    if seat_on is not None and totals[seat_on] < BARREL:
        events.append({"seat": seat_on, "event": "fell_off"})
        seat_on, attempts = None, 0
    if climbing:
        if seat_on is not None:
            totals[seat_on] -= BARREL_PENALTY
            events.append({"seat": seat_on, "event": "knocked_off"})
            seat_on, attempts = None, 0
        if len(climbing) == 1:
            totals[climbing[0]] = BARREL
            events.append({"seat": climbing[0], "event": "climbed"})
            return climbing[0], 0
        for seat in climbing:
            totals[seat] = BARREL - BARREL_PENALTY
            events.append({"seat": seat, "event": "rolled_off_together"})
        return None, 0
    if seat_on is not None and attempts >= BARREL_ATTEMPTS:
        totals[seat_on] -= BARREL_PENALTY
        events.append({"seat": seat_on, "event": "attempts_used"})
        return None, 0
    return seat_on, attempts
