"""What a finished Deberts deal leaves: its scoresheet row and the last deal's summary.

A deal ends on the hot path of whole-game simulations, so it leaves a flat tuple,
made into a row or a summary only when someone reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, cast

from bot.engine.base import JsonDict, PlayedCard, ScoreRow, Trick
from bot.engine.deberts import scoring
from bot.engine.deberts.rules import (
    BELLA_POINTS,
    CARD_CODES,
    LAST_TRICK_POINTS,
    SUIT_CODES,
    card_codes,
)

if TYPE_CHECKING:
    from bot.engine.deberts.view import Announcement, DealSummary, Declaration, SevenSwap

__all__ = [
    "DealRecord",
    "announcement",
    "marks",
    "row_of",
    "summary_of",
    "swap_record",
    "trick_cards",
    "trick_json",
    "with_given",
]


def announcement(
    seat: int, kind: Literal["terz", "berz", "bella"], mask: int, points: int
) -> Declaration:
    return {"seat": seat, "kind": kind, "cards": card_codes(mask), "points": points}


def swap_record(seat: int, taken: int, given: int) -> SevenSwap:
    """The seven swap, listed with the announcements: worth nothing, its ``cards`` the
    open card taken (what the others now know ``seat`` holds), ``given`` the seven."""
    return {
        "seat": seat,
        "kind": "swap7",
        "cards": [CARD_CODES[taken]],
        "points": 0,
        "given": CARD_CODES[given],
    }


def with_given(record: JsonDict) -> Announcement:
    """``record`` with the seven a swap gave, for swaps saved before it was recorded:
    the given seven is the trump seven, of the taken card's suit."""
    if record["kind"] == "swap7" and "given" not in record:
        record["given"] = "7" + record["cards"][0][-1]
    return cast("Announcement", record)


def trick_cards(n: int, leader: int, cards: Sequence[int]) -> list[PlayedCard]:
    """The cards of a trick of an ``n``-seat table led by ``leader``, in the order played."""
    return [{"seat": (leader + i) % n, "card": CARD_CODES[c]} for i, c in enumerate(cards)]


def trick_json(n: int, leader: int, cards: Sequence[int], winner: int) -> Trick:
    """A trick of an ``n``-seat table led by ``leader``, taken by ``winner``."""
    return {"cards": trick_cards(n, leader, cards), "winner": winner}


# What a finished deal leaves for its scoresheet row and the last deal's summary:
# deal_no, dealer, bidder, trump, outcome, points, card_points, combination award,
# bella flags, tricks_taken, written, mark, hanging paid, combination winner,
# announcements, last trick (leader first), last trick winner, totals, hanging left.
DealRecord = tuple[
    int,
    int,
    int,
    int,
    str,
    list[int],
    list[int],
    int,
    list[bool],
    list[int],
    tuple[int, ...],
    str | None,
    tuple[int, ...],
    int,
    list["Announcement"],
    list[int],
    int,
    list[int],
    tuple[int, ...],
]


def marks(record: DealRecord) -> list[str]:
    marks = [str(total) for total in record[17]]
    mark = record[11]
    if mark:
        marks[record[2]] = mark
    return marks


def row_of(record: DealRecord, winner_takes_all: bool) -> ScoreRow:
    outcome = record[4]
    notes: JsonDict = {
        "bidder": record[2],
        "trump": SUIT_CODES[record[3]],
        "outcome": outcome,
        "bait": outcome == scoring.BAIT,
        # the whistlers write 0 whatever their points: the result must say why
        "takes_all": winner_takes_all and outcome == scoring.MADE,
        "hanging": outcome == scoring.HANGING,
        "points": record[5],
        # what the deal points hold beyond the cards, so a result can say it
        "combination_points": _combination_points(record),
        "bella_points": _bella_points(record),
        "hanging_paid": list(record[12]),
        "hanging_left": list(record[18]),
        "dealer": record[1],
    }
    totals = record[17]
    return ScoreRow(record[0], tuple(marks(record)), tuple(totals), record[10], notes)


def _combination_points(record: DealRecord) -> list[int]:
    combos = [0] * len(record[5])
    if record[7]:
        combos[record[13]] = record[7]
    return combos


def _bella_points(record: DealRecord) -> list[int]:
    return [BELLA_POINTS if b else 0 for b in record[8]]


def summary_of(record: DealRecord) -> DealSummary:
    """The last deal's summary, as a finished deal left it."""
    (
        deal_no,
        dealer,
        bidder,
        trump,
        outcome,
        points,
        card_points,
        _award,
        _bella,
        tricks_taken,
        written,
        _mark,
        paid,
        combination_winner,
        announcements,
        last,
        last_winner,
        totals,
        _,
    ) = record
    n = len(points)
    return {
        "deal_no": deal_no,
        "dealer": dealer,
        "bidder": bidder,
        "trump": SUIT_CODES[trump],
        "outcome": outcome,
        "points": points,
        "card_points": list(card_points),
        "last_trick_points": LAST_TRICK_POINTS,
        "combination_points": _combination_points(record),
        "bella_points": _bella_points(record),
        "tricks_taken": list(tricks_taken),
        "written": list(written),
        "marks": marks(record),
        "hanging_paid": list(paid),
        "combination_winner": None if combination_winner < 0 else combination_winner,
        "announcements": list(announcements),
        "last_trick": trick_json(n, last[0], last[1:], last_winner),
        "totals": list(totals),
    }
