"""What one finished game adds to a player's statistics, from its scoresheet.

Counters are plain integers so the store can add them up per player and game:
``games``, ``wins``, ``deals``, ``points`` (the sum of what the seat wrote, for the
average per deal), ``made`` / ``failed`` (contracts the seat played), Deberts' ``baits``
and ``hangings`` (the seat's contracts that fell, or hung), Thousand's ``barrels``
(times the seat got on the barrel), ``bolts`` and ``dump_trucks``, and ``mars`` (the
seat lost by a Mars).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.engine.base import Scoresheet

__all__ = ["COUNTERS", "add", "seat_counters"]

COUNTERS: tuple[str, ...] = (
    "games",
    "wins",
    "deals",
    "points",
    "made",
    "failed",
    "baits",
    "hangings",
    "barrels",
    "bolts",
    "dump_trucks",
    "mars",
)


def seat_counters(sheet: Scoresheet, seat: int) -> dict[str, int]:
    """The counters one finished game adds for ``seat``."""
    out = dict.fromkeys(COUNTERS, 0)
    out["games"] = 1
    out["wins"] = int(sheet.winner == seat)
    mars = sheet.notes.get("mars") or []
    out["mars"] = int(seat in mars)
    for row in sheet.rows:
        notes = row.notes
        if notes.get("redeal") or "bidder" not in notes:
            continue
        out["deals"] += 1
        out["points"] += row.deltas[seat]
        bidder = notes["bidder"] == seat
        outcome = notes.get("outcome")
        if bidder and outcome == "made":
            out["made"] += 1
        elif bidder and outcome is not None:
            out["failed"] += 1
        if sheet.game == "deberts" and bidder:
            out["baits"] += int(outcome == "bait")
            out["hangings"] += int(outcome == "hanging")
        if sheet.game == "thousand":
            out["bolts"] += int((notes.get("bolts") or [0] * sheet.seats)[seat])
            trucks = notes.get("dump_truck") or [0] * sheet.seats
            out["dump_trucks"] += int(bool(trucks[seat]))
            events = notes.get("barrel_events") or []
            out["barrels"] += sum(
                1 for e in events if e.get("seat") == seat and e.get("event") == "climbed"
            )
    return out


def add(totals: Mapping[str, int], more: Iterable[tuple[str, int]]) -> dict[str, int]:
    out = dict(totals)
    for key, value in more:
        out[key] = out.get(key, 0) + value
    return out
