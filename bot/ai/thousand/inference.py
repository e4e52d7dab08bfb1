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
from bot.ai.thousand.cards import DECK, NO_TRUMP
from bot.ai.thousand.knowledge import Knowledge, Trick, note_trick, read_trick
from bot.ai.thousand.play import PlayState, heuristic_card, legal_cards
from bot.engine.thousand.view import ThousandView

__all__ = [
    "SEARCH_MATCH",
    "Seen",
    "earlier",
    "judge",
    "misses",
    "observed",
    "plain_before",
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
    return _plays(tricks, know.trick_trumps, know.first_trump, know.me, know.seats)


def _plays(
    tricks: list[Trick], trumps: list[int], first_trump: int, me: int, seats: int
) -> list[Seen]:
    """The plays of ``tricks`` by seats other than ``me``, each with what its player
    knew; ``trumps``: the trump in force in each trick, ``first_trump`` before them."""
    deal = [0] * seats  # each seat's cards played this deal
    for cards in tricks:
        for seat, card in cards:
            deal[seat] |= 1 << card
    seen: list[Seen] = []
    voids = [0] * seats
    played = 0
    before = first_trump
    for cards, trump in zip(tricks, trumps, strict=True):
        leader = cards[0][0]
        for pos, (seat, card) in enumerate(cards):
            if seat != me:
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
    bidder = know.bidder if know.bidder is not None else -1
    return _tally(seen, hands, know.seats, bidder)


def _tally(seen: list[Seen], hands: list[int], n: int, bidder: int) -> tuple[int, int]:
    count = choices = 0
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


def earlier(view: ThousandView) -> tuple[int, int]:
    """Of the other seats' plays in the last deal played out (the view's
    ``played_out``: the last deal, or the one before it was conceded or dealt again),
    where each had a choice: how many the heuristic would not have made, and how many
    there were.

    Every card of that deal was played, so each seat held then exactly the cards it
    played from that trick on; replaying them (:class:`~bot.ai.thousand.play.PlayState`)
    declares the marriages as the deal did, and so gives each trick's trump.
    """
    out = view["played_out"]
    me = view["seat"]
    if out is None or me is None or not out["tricks"]:
        return 0, 0
    seats = view["seats"]
    tricks = [read_trick(trick["cards"]) for trick in out["tricks"]]
    start = [0] * seats
    for cards in tricks:
        for seat, card in cards:
            start[seat] |= 1 << card
    replay = PlayState(seats, start, NO_TRUMP, tricks[0][0][0], out["bidder"])
    trumps = []
    for cards in tricks:
        for pos, (_, card) in enumerate(cards):
            replay.play(card)
            if not pos:
                trumps.append(replay.trump)  # in force once the lead has declared
    seen = _plays(tricks, trumps, NO_TRUMP, me, seats)
    return _tally(seen, [0] * seats, seats, out["bidder"])


def misses(seen: list[Seen], hands: list[int], know: Knowledge) -> int:
    """The plays of ``seen`` that the heuristic, holding the layout's ``hands``, would
    not have made."""
    return tally(seen, hands, know)[0]


def weight(seen: list[Seen], hands: list[int], know: Knowledge) -> float:
    """The layout's likelihood, relative to one the heuristic explains entirely."""
    return LIKELIHOOD ** misses(seen, hands, know)


def plain_before(view: ThousandView) -> float:
    """The chance that the others play by the heuristic, judged from their plays in the
    last deal played out (:func:`earlier`); a half before one was."""
    return opponents.chance(*earlier(view), SEARCH_MATCH)


def judge(seen: list[Seen], pool: list[list[int]], know: Knowledge) -> tuple[list[float], float]:
    """Each layout of ``pool``'s weight, and the chance that the others play by the
    heuristic (:func:`bot.ai.opponents.judge`). The layouts are weighed by
    ``LIKELIHOOD`` a miss, as measured: in two-player Thousand they differ only in the
    two cards out of play, and weighing them changed nothing measurable."""
    tallies = ((1.0, *tally(seen, hands, know)) for hands in pool)
    return opponents.judge(tallies, SEARCH_MATCH, mixed=False)
