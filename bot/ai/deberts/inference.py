"""What the others' plays so far say about the cards they hold.

A layout of the hidden cards fits what a seat has seen (voids, announcements) but
not yet *how* the others played: a player who let a trick go while holding the
card that took it most likely did not hold that card. :func:`misses` replays the
deal with the hands a layout gives (each seat's cards now and those it has played)
and counts the plays of the other seats that the heuristic card play
(:func:`~bot.ai.deberts.heuristics.greedy_card`) would not have made;
:mod:`bot.ai.opponents` weighs the layouts by it and judges how the others play.
"""

from __future__ import annotations

from bot.ai import opponents
from bot.ai.deberts.heuristics import greedy_card
from bot.ai.deberts.knowledge import Knowledge
from bot.ai.deberts.table import Table
from bot.ai.opponents import LIKELIHOOD

__all__ = [
    "SEARCH_MATCH",
    "judge",
    "misses",
    "tally",
    "weight",
]

SEARCH_MATCH = 0.5
"""How often a player who searches makes the heuristic's choice: the reference ISMCTS
did in 52 % of its plays with a choice, hard in 49 % (65 and 69 plays, 2 players)."""


def tally(know: Knowledge, hands: list[int], face_up: int) -> tuple[int, int]:
    """Of the other seats' plays this deal where the seat had a choice, holding what
    ``hands`` gives it: how many the heuristic would not have made, and how many
    there were. ``face_up``: the cards shown face up (gone from the start)."""
    plays = [play for trick in know.history for play in trick] + know.trick
    if not plays:
        return 0, 0
    start = [hands[s] | know.played[s] for s in range(know.seats)]
    table = Table(know.seats, know.trump, know.bidder, know.dealer, start, plays[0][0])
    table.gone = face_up
    count = choices = 0
    me = know.seat
    for seat, card in plays:
        if seat != me and table.legal(seat) & ~(1 << card):
            choices += 1
            if greedy_card(table, seat) != card:
                count += 1
        table.note_play(seat, card)
        table.play(card)
    return count, choices


def misses(know: Knowledge, hands: list[int], face_up: int) -> int:
    """The other seats' plays this deal that the heuristic, holding what ``hands`` gives
    them, would not have made."""
    return tally(know, hands, face_up)[0]


def weight(know: Knowledge, hands: list[int], face_up: int) -> float:
    """The layout's likelihood, relative to one the heuristic explains entirely."""
    return LIKELIHOOD ** misses(know, hands, face_up)


def judge(
    know: Knowledge, pool: list[list[int]], face_up: int, prior: list[float]
) -> tuple[list[float], float]:
    """Each layout of ``pool``'s weight (from its ``prior`` weight, as the auction
    gives it), and the chance that the others play by the heuristic
    (:func:`bot.ai.opponents.judge`). A layout is weighed by how likely the plays are
    under it for either kind of player: weighed by the heuristic's misses alone, the
    layouts misled the search against the reference ISMCTS (-3.15 points a deal, se
    2.01, over 250 deals; -> +1.12, se 2.17, mixed)."""
    tallies = (
        (before, *tally(know, hands, face_up)) for hands, before in zip(pool, prior, strict=True)
    )
    return opponents.judge(tallies, SEARCH_MATCH, mixed=True)
