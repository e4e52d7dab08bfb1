"""Settling a deal: contract, whistlers, bolts, barrel, dump truck, golden round.

Pure arithmetic over one deal's outcome and the running tallies; the game state
calls :func:`settle` once per scored deal and records what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import sub
from typing import Any, NamedTuple

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

__all__ = ["DealOutcome", "SettledDeal", "Settlement", "settle", "settle_deal", "settle_tallies"]


class DealOutcome(NamedTuple):
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
    return Settlement(
        *settle_deal(*outcome, conventions, totals, bolts, barrel_seat, barrel_attempts)
    )


SettledDeal = tuple[list[int], list[int], int | None, int, int | None, list[int], dict[str, Any]]


def settle_deal(
    bidder: int,
    contract: int,
    conceded: bool,
    points: tuple[int, ...],
    tricks: tuple[int, ...] | list[int],
    golden: bool,
    conventions: ThousandConventions,
    totals: list[int],
    bolts: list[int],
    barrel_seat: int | None,
    barrel_attempts: int,
) -> SettledDeal:
    """:func:`settle` without its two records, for the game's own once-a-deal call."""
    seats = len(totals)
    factor = 2 if golden else 1
    on_barrel_play = barrel_seat is not None and bidder == barrel_seat
    made = not conceded and points[bidder] >= contract
    penalty = conventions.concede_penalty

    # Each seat's column is worked out on its own, so one pass does them all.
    written = [0] * seats
    marks = [""] * seats
    stood_still = [False] * seats
    bolted = [0] * seats
    bolt_penalties = [0] * seats
    new_totals = totals[:]
    new_bolts = bolts[:]
    for seat in range(seats):
        if barrel_seat is not None and (seat != bidder if on_barrel_play else seat == barrel_seat):
            stood_still[seat] = True
            marks[seat] = "stood still"
            continue
        if seat == bidder:
            if conceded:
                value = -contract * factor if penalty else 0
                mark = f"-{contract * factor}" if penalty else "conceded"
            elif made:
                value = contract * factor
                mark = f"+{value}"
            elif on_barrel_play:
                # A failed barrel attempt costs nothing; running out of attempts costs below.
                value = 0
                mark = f"-{contract}"
            else:
                value = -contract * factor
                mark = str(value)
            bolt = not penalty if conceded else not tricks[seat]
        else:
            value = (concede_share(contract) if conceded else round_whistler(points[seat])) * factor
            mark = str(value)
            bolt = not conceded and not tricks[seat]
        written[seat] = value
        marks[seat] = mark
        if bolt:
            bolted[seat] = 1
            count = new_bolts[seat] + 1
            if count >= BOLTS_PER_PENALTY:
                new_bolts[seat] = 0
                new_totals[seat] += value - BOLT_PENALTY
                bolt_penalties[seat] = -BOLT_PENALTY
                continue
            new_bolts[seat] = count
        new_totals[seat] += value

    winner: int | None = None
    events: list[dict[str, Any]] = []
    attempts = barrel_attempts
    seat_on = barrel_seat
    if seat_on is not None:
        attempts += 1
        if on_barrel_play and made:
            winner = seat_on
            events.append({"seat": seat_on, "event": "won"})
    if winner is None and (seat_on is not None or max(new_totals) >= BARREL):
        seat_on, attempts = _barrel(new_totals, seat_on, attempts, events)

    trucked = [False] * seats
    if winner is None and conventions.dump_truck:
        for seat in range(seats):
            if new_totals[seat] in _TRUCK_TOTALS:
                new_totals[seat] = 0
                trucked[seat] = True

    on_barrel = [False] * seats
    if seat_on is not None:
        on_barrel[seat_on] = True
    result = "conceded" if conceded else ("made" if made else "failed")
    notes: dict[str, Any] = {
        "bidder": bidder,
        "contract": contract,
        "result": result,
        "outcome": result,
        "conceded": conceded,
        "points": list(points),
        "written": written,
        "marks": marks,
        "stood_still": stood_still,
        "bolts": bolted,
        "bolt_penalties": bolt_penalties,
        "bolt_counts": new_bolts[:],
        "on_barrel": on_barrel,
        "barrel": {"seat": seat_on, "attempts": attempts},
        "barrel_seat": seat_on,
        "barrel_attempts": attempts,
        "barrel_events": events,
        "dump_truck": trucked,
        "golden": golden,
    }
    deltas = list(map(sub, new_totals, totals))
    return new_totals, new_bolts, seat_on, attempts, winner, deltas, notes


_TRUCK_TOTALS = frozenset((DUMP_TRUCK, -DUMP_TRUCK))


def settle_tallies(
    bidder: int,
    contract: int,
    conceded: bool,
    points: tuple[int, ...],
    tricks: tuple[int, ...] | list[int],
    golden: bool,
    conventions: ThousandConventions,
    totals: list[int],
    bolts: list[int],
    barrel_seat: int | None,
    barrel_attempts: int,
) -> tuple[list[int], list[int], int | None, int, int | None]:
    """Only the tallies :func:`settle_deal` returns (totals, bolts, barrel, winner).

    The next deal needs these at once; the marks and notes of the scoresheet
    row can wait until someone reads them, so the game calls this every deal
    and :func:`settle_deal` (the same rules, written out in full) only later.
    """
    factor = 2 if golden else 1
    on_barrel_play = barrel_seat is not None and bidder == barrel_seat
    made = not conceded and points[bidder] >= contract
    new_totals = totals[:]
    new_bolts = bolts[:]
    for seat in range(len(totals)):
        if barrel_seat is not None and (seat != bidder if on_barrel_play else seat == barrel_seat):
            continue
        if seat == bidder:
            if conceded:
                penalty = conventions.concede_penalty
                value = -contract * factor if penalty else 0
                bolt = not penalty
            else:
                if made:
                    value = contract * factor
                elif on_barrel_play:
                    value = 0
                else:
                    value = -contract * factor
                bolt = not tricks[seat]
        elif conceded:
            value = concede_share(contract) * factor
            bolt = False
        else:
            value = round_whistler(points[seat]) * factor
            bolt = not tricks[seat]
        if bolt:
            count = new_bolts[seat] + 1
            if count >= BOLTS_PER_PENALTY:
                new_bolts[seat] = 0
                new_totals[seat] += value - BOLT_PENALTY
                continue
            new_bolts[seat] = count
        new_totals[seat] += value

    attempts = barrel_attempts
    seat_on = barrel_seat
    if seat_on is not None:
        attempts += 1
        if on_barrel_play and made:
            return new_totals, new_bolts, seat_on, attempts, seat_on
    if seat_on is not None or max(new_totals) >= BARREL:
        seat_on, attempts = _barrel(new_totals, seat_on, attempts, [])
    if conventions.dump_truck and (DUMP_TRUCK in new_totals or -DUMP_TRUCK in new_totals):
        for seat in range(len(totals)):
            if new_totals[seat] in _TRUCK_TOTALS:
                new_totals[seat] = 0
    return new_totals, new_bolts, seat_on, attempts, None


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
