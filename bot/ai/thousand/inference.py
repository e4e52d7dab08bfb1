"""What the others' plays so far say about the cards they hold.

A layout of the hidden cards fits what a seat has seen (voids, marriages, gifts)
but not yet *how* the others played: a defender who threw a low club when a king
would have won the trick most likely held no king. :func:`observed` lists every
card the other seats played this deal with what their player could see then; for
a layout, :func:`misses` counts the plays where the seat, holding the cards the
layout gives it (and those it has played since), would have played otherwise by
the heuristic card play; :mod:`bot.ai.opponents` weighs the layouts by it and judges
how the others play.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai import opponents
from bot.ai.opponents import LIKELIHOOD
from bot.ai.thousand.cards import DECK
from bot.ai.thousand.knowledge import Knowledge, note_trick
from bot.ai.thousand.play import heuristic_card, legal_cards

__all__ = [
    "SEARCH_MATCH",
    "Seen",
    "judge",
    "misses",
    "observed",
    "tally",
    "weight",
]

SEARCH_MATCH = 0.45
"""How often a player who searches makes the heuristic's choice: the reference ISMCTS
did in 42 % of its plays with a choice, hard in 49 % (89 and 70 plays, 2 players)."""


@dataclass(frozen=True, slots=True)
class Seen:
    """One card another seat played this deal, and what that seat knew then."""

    seat: int
    card: int
    trick: tuple[int, ...]  # the cards before it in its trick
    leader: int
    trump: int
    played: int  # the cards played before it this deal
    voids: tuple[int, ...]  # the voids shown before it
    can_declare: bool
    later: int  # the cards that seat played from this one on (this one included)


def observed(know: Knowledge) -> list[Seen]:
    """The other seats' plays this deal, in order, each with what its player knew."""
    tricks = [*know.tricks, tuple(know.trick)] if know.trick else list(know.tricks)
    deal = [0] * know.seats  # each seat's cards played this deal
    for cards in tricks:
        for seat, card in cards:
            deal[seat] |= 1 << card
    seen: list[Seen] = []
    voids = [0] * know.seats
    played = 0
    before = know.first_trump
    for cards, trump in zip(tricks, know.trick_trumps, strict=True):
        leader = cards[0][0]
        for pos, (seat, card) in enumerate(cards):
            if seat != know.me:
                prefix = tuple(c for _, c in cards[:pos])
                in_force = trump if pos else before
                later = deal[seat] & ~played
                seen.append(
                    Seen(
                        seat,
                        card,
                        prefix,
                        leader,
                        in_force,
                        played,
                        tuple(voids),
                        played != 0,
                        later,
                    )
                )
            played |= 1 << card
            if pos:
                note_trick(cards[: pos + 1], trump, voids)
        before = trump
    return seen


def tally(seen: list[Seen], hands: list[int], know: Knowledge) -> tuple[int, int]:
    """Of the plays of ``seen`` where the seat had a choice, holding the layout's
    ``hands``: how many the heuristic would not have made, and how many there were."""
    count = choices = 0
    n = know.seats
    bidder = know.bidder if know.bidder is not None else -1
    for s in seen:
        hand = hands[s.seat] | s.later
        if legal_cards(hand, s.trick, s.trump) & ~(1 << s.card) == 0:
            continue  # it had no other card
        choices += 1
        unseen = DECK & ~hand & ~s.played
        card = heuristic_card(
            hand, s.trick, s.trump, unseen, n, s.seat, s.leader, bidder, s.can_declare, s.voids
        )
        if card != s.card:
            count += 1
    return count, choices


def misses(seen: list[Seen], hands: list[int], know: Knowledge) -> int:
    """The plays of ``seen`` that the heuristic, holding the layout's ``hands``, would
    not have made."""
    return tally(seen, hands, know)[0]


def weight(seen: list[Seen], hands: list[int], know: Knowledge) -> float:
    """The layout's likelihood, relative to one the heuristic explains entirely."""
    return LIKELIHOOD ** misses(seen, hands, know)


def judge(seen: list[Seen], pool: list[list[int]], know: Knowledge) -> tuple[list[float], float]:
    """Each layout of ``pool``'s weight, and the chance that the others play by the
    heuristic (:func:`bot.ai.opponents.judge`). The layouts are weighed by
    ``LIKELIHOOD`` a miss, as measured: in two-player Thousand they differ only in the
    two cards out of play, and weighing them changed nothing measurable."""
    tallies = ((1.0, *tally(seen, hands, know)) for hands in pool)
    return opponents.judge(tallies, SEARCH_MATCH, mixed=False)
