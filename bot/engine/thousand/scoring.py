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

__all__ = [
    "ATTEMPT_FAILED",
    "TALON_MARK",
    "DealOutcome",
    "SettledDeal",
    "Settlement",
    "settle",
    "settle_deal",
    "settle_tallies",
]

ATTEMPT_FAILED = "attempt failed"
"""The mark of a barrel contract missed: it costs nothing, so the mark says why."""

TALON_MARK = "talon"
"""The mark of the dealer sitting out (four players): they write the talon's points."""


class DealOutcome(NamedTuple):
    """What happened at the table in one deal, before any bookkeeping."""

    bidder: int
    contract: int
    conceded: bool
    points: tuple[int, ...]
    """Card points in tricks plus declared marriages, per seat."""
    tricks: tuple[int, ...]
    golden: bool
    sitting_out: int = -1
    """With four players, the dealer sitting the deal out (-1: nobody)."""
    talon: int = 0
    """The talon's card points as dealt plus a marriage in it: the sitting-out dealer's."""
    raised: bool = False
    """The bidder on the barrel raised their bid above 121 (barrel trading)."""


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
    o = outcome
    return Settlement(
        *settle_deal(
            o.bidder,
            o.contract,
            o.conceded,
            o.points,
            o.tricks,
            o.golden,
            conventions,
            totals,
            bolts,
            barrel_seat,
            barrel_attempts,
            sitting_out=o.sitting_out,
            talon=o.talon,
            raised=o.raised,
        )
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
    *,
    sitting_out: int = -1,
    talon: int = 0,
    raised: bool = False,
) -> SettledDeal:
    """:func:`settle` without its two records, for the game's own once-a-deal call."""
    seats = len(totals)
    factor = 2 if golden else 1
    on_barrel_play = barrel_seat is not None and bidder == barrel_seat
    made = not conceded and points[bidder] >= contract
    penalty = conventions.concede_penalty
    raised_failed = on_barrel_play and raised and not made

    written = [0] * seats
    marks = [""] * seats
    stood_still = [False] * seats
    bolted = [0] * seats
    bolt_penalties = [0] * seats
    new_totals = totals[:]
    new_bolts = bolts[:]
    attempt = on_barrel_play and not raised
    for seat in range(seats):
        scored = _seat_score(
            seat,
            bidder,
            contract,
            conceded,
            made,
            on_barrel_play,
            attempt,
            barrel_seat,
            sitting_out,
            talon,
            points,
            tricks,
            factor,
            penalty,
        )
        if scored is None:
            stood_still[seat] = True
            marks[seat] = "stood still"
            continue
        value, bolt = scored
        written[seat] = value
        if seat == sitting_out:
            marks[seat] = TALON_MARK
        elif seat != bidder or made:
            marks[seat] = f"+{value}" if seat == bidder else str(value)
        elif conceded:
            marks[seat] = f"-{contract * factor}" if penalty else "conceded"
        else:
            # a failed barrel attempt writes nothing: the mark must not read as -121
            marks[seat] = ATTEMPT_FAILED if attempt else str(value)
        bolted[seat] = int(bolt)
        if _write(seat, value, bolt, new_totals, new_bolts):
            bolt_penalties[seat] = -BOLT_PENALTY

    events: list[dict[str, Any]] = []
    seat_on, attempts, winner, trucked = _after_deal(
        new_totals,
        barrel_seat,
        barrel_attempts,
        on_barrel_play and made,
        raised_failed,
        sitting_out,
        conventions,
        events,
    )
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
        "sitting_out": sitting_out if sitting_out >= 0 else None,
        "talon_points": talon if sitting_out >= 0 else None,
    }
    deltas = list(map(sub, new_totals, totals))
    return new_totals, new_bolts, seat_on, attempts, winner, deltas, notes


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
    *,
    sitting_out: int = -1,
    talon: int = 0,
    raised: bool = False,
) -> tuple[list[int], list[int], int | None, int, int | None]:
    """Only the tallies :func:`settle_deal` returns (totals, bolts, barrel, winner).

    The next deal needs these at once; the marks and notes of the scoresheet
    row can wait until someone reads them, so the game calls this every deal
    and :func:`settle_deal` only later.
    """
    factor = 2 if golden else 1
    on_barrel_play = barrel_seat is not None and bidder == barrel_seat
    made = not conceded and points[bidder] >= contract
    penalty = conventions.concede_penalty
    new_totals = totals[:]
    new_bolts = bolts[:]
    attempt = on_barrel_play and not raised
    for seat in range(len(totals)):
        scored = _seat_score(
            seat,
            bidder,
            contract,
            conceded,
            made,
            on_barrel_play,
            attempt,
            barrel_seat,
            sitting_out,
            talon,
            points,
            tricks,
            factor,
            penalty,
        )
        if scored is not None:
            _write(seat, *scored, new_totals, new_bolts)
    seat_on, attempts, winner, _ = _after_deal(
        new_totals,
        barrel_seat,
        barrel_attempts,
        on_barrel_play and made,
        on_barrel_play and raised and not made,
        sitting_out,
        conventions,
        None,
    )
    return new_totals, new_bolts, seat_on, attempts, winner


_TRUCK_TOTALS = frozenset((DUMP_TRUCK, -DUMP_TRUCK))


def _stands_still(seat: int, bidder: int, barrel_seat: int | None, on_barrel_play: bool) -> bool:
    """On the barrel only its bidder scores; off it, the seat on the barrel does not."""
    if barrel_seat is None:
        return False
    return seat != bidder if on_barrel_play else seat == barrel_seat


def _seat_score(
    seat: int,
    bidder: int,
    contract: int,
    conceded: bool,
    made: bool,
    on_barrel_play: bool,
    attempt: bool,
    barrel_seat: int | None,
    sitting_out: int,
    talon: int,
    points: tuple[int, ...],
    tricks: tuple[int, ...] | list[int],
    factor: int,
    penalty: bool,
) -> tuple[int, bool] | None:
    """What ``seat`` writes for the deal and whether it bolted; ``None``: it stands still.

    The sitting-out dealer writes the talon and never bolts; a seat on the barrel
    collects no bolts. ``attempt``: the bidder plays a barrel attempt at no cost.
    """
    if _stands_still(seat, bidder, barrel_seat, on_barrel_play):
        return None
    if seat == sitting_out:
        return round_whistler(talon) * factor, False
    value, bolt = _seat_value(
        seat, bidder, contract, conceded, made, attempt, points, tricks, factor, penalty
    )
    return value, bolt and seat != barrel_seat


def _seat_value(
    seat: int,
    bidder: int,
    contract: int,
    conceded: bool,
    made: bool,
    on_barrel_play: bool,
    points: tuple[int, ...],
    tricks: tuple[int, ...] | list[int],
    factor: int,
    penalty: bool,
) -> tuple[int, bool]:
    """What ``seat`` writes for the deal, before any bolt penalty, and whether it bolted."""
    if seat == bidder:
        if conceded:
            return (-contract * factor if penalty else 0), not penalty
        if made:
            return contract * factor, not tricks[seat]
        # a failed barrel attempt costs nothing; running out of attempts costs later
        return (0 if on_barrel_play else -contract * factor), not tricks[seat]
    if conceded:
        return concede_share(contract) * factor, False
    return round_whistler(points[seat]) * factor, not tricks[seat]


def _write(seat: int, value: int, bolt: bool, totals: list[int], bolts: list[int]) -> bool:
    """Adds ``value`` and a bolt to the seat's tallies; ``True`` when that bolt cost the penalty."""
    if bolt:
        count = bolts[seat] + 1
        if count >= BOLTS_PER_PENALTY:
            bolts[seat] = 0
            totals[seat] += value - BOLT_PENALTY
            return True
        bolts[seat] = count
    totals[seat] += value
    return False


def _after_deal(
    totals: list[int],
    barrel_seat: int | None,
    barrel_attempts: int,
    barrel_made: bool,
    raised_failed: bool,
    sitting_out: int,
    conventions: ThousandConventions,
    events: list[dict[str, Any]] | None,
) -> tuple[int | None, int, int | None, list[int]]:
    """The barrel and the dump truck once ``totals`` hold the deal: the seat on the barrel,
    its attempts, the winner and, per seat, the total trucked back to zero (555 or −555;
    0 for none). ``events`` (if given) gets what happened on the barrel."""
    trucked = [0] * len(totals)
    seat_on, attempts = barrel_seat, barrel_attempts
    # a dealer sitting out on the barrel makes no attempt that deal
    if seat_on is not None and seat_on != sitting_out:
        attempts += 1
        if barrel_made:
            if events is not None:
                events.append({"seat": seat_on, "event": "won"})
            return seat_on, attempts, seat_on, trucked
        if raised_failed:
            # raised above 121 and failed: the contract is lost, and the barrel with it
            if events is not None:
                events.append({"seat": seat_on, "event": "raised_failed"})
            seat_on, attempts = None, 0
    if seat_on is not None or max(totals) >= BARREL:
        seat_on, attempts = _barrel(totals, seat_on, attempts, [] if events is None else events)
    if conventions.dump_truck and (DUMP_TRUCK in totals or -DUMP_TRUCK in totals):
        for seat, total in enumerate(totals):
            if total in _TRUCK_TOTALS:
                totals[seat] = 0
                trucked[seat] = total
    return seat_on, attempts, None, trucked


def _barrel(
    totals: list[int], seat_on: int | None, attempts: int, events: list[dict[str, Any]]
) -> tuple[int | None, int]:
    """Climbs onto, knock-offs from and drops off the barrel after a deal."""
    climbing = [s for s in range(len(totals)) if s != seat_on and totals[s] >= BARREL]
    if seat_on is not None and totals[seat_on] < BARREL:
        # a player on the barrel writes nothing and collects no bolts, so nothing takes
        # them below 880 here; kept so a total set from outside is still settled soundly
        events.append({"seat": seat_on, "event": "fell_off"})
        if attempts >= BARREL_ATTEMPTS:
            # a bolt penalty took them off on their last attempt, which costs all the same
            totals[seat_on] -= BARREL_PENALTY
            events.append({"seat": seat_on, "event": "attempts_used"})
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
