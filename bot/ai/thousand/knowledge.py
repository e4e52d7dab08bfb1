"""What one seat knows about a deal, read from its view alone.

The view holds the deal's history as the seat may know it: every completed
trick (``played``), the current one, the marriages declared, the talons shown
and the give-away (the bidder sees all its gifts, a receiver its own card).
:func:`read` derives everything from that one view: no memory of earlier calls,
so a decision depends on the view and the seed only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai.thousand.cards import DECK, NO_TRUMP, mask_of_codes
from bot.engine.base import ConventionsJson, PlayedCard
from bot.engine.cards import parse_index
from bot.engine.thousand.view import Announcement, Marriage, ThousandView

__all__ = ["Knowledge", "note_trick", "opening_trump", "read", "read_trick", "trick_trumps"]

SUITS = "SCDH"

Trick = tuple[tuple[int, int], ...]
"""(seat, card) in play order."""


@dataclass(frozen=True)
class Knowledge:
    """A seat's picture of the deal: certain facts and the constraints on hidden cards."""

    seats: int
    me: int
    phase: str
    hand: int
    bidder: int | None
    bid: int | None
    contract: int | None
    trump: int
    trick: list[tuple[int, int]]
    leader: int
    tricks_done: int
    first_lead_done: bool
    played: int  # cards seen played this deal (earlier tricks and the current one)
    voids: list[int]  # per seat: bit per suit known lacking
    hand_sizes: list[int]
    points: list[int]
    known: list[int]  # per seat: cards known to be in that hand now (own hand included)
    unseen: int  # cards whose place the seat does not know
    talon_seen: int
    given: dict[int, int]  # card -> seat it went to in the give-away, as the seat knows it
    totals: list[int]
    dealer: int
    conventions: ConventionsJson
    legal: list[str]
    auction: list[tuple[int, str]]
    bolts: list[int]
    barrel_seat: int | None
    auto_passed: list[int]
    tricks: list[Trick]  # the completed tricks of the deal, in order
    trick_trumps: list[int]  # the trump in force in each trick (the current one last)
    first_trump: int  # the trump before the deal's first trick

    @property
    def can_declare(self) -> bool:
        """Marriages count from the deal's second lead on."""
        return self.first_lead_done

    @property
    def trick_cards(self) -> list[int]:
        return [c for _, c in self.trick]

    @property
    def hand_before_give(self) -> int:
        """The bidder's hand with its talon, before the give-away (its hand otherwise)."""
        if self.bidder != self.me:
            return self.hand
        out = self.hand
        for card in self.given:
            out |= 1 << card
        return out


def read_trick(entries: Sequence[PlayedCard]) -> Trick:
    """A trick's plays as the view lists them, as ``(seat, card index)`` pairs."""
    return tuple((e["seat"], parse_index(e["card"])) for e in entries)


def opening_trump(announcements: Sequence[Announcement], trump_now: int) -> int:
    """The trump before the deal's first trick: none once a marriage was declared (only a
    marriage makes a trump), else the trump in force now."""
    return NO_TRUMP if any(a["kind"] == "marriage" for a in announcements) else trump_now


def trick_trumps(
    tricks: list[Trick], announcements: Sequence[Announcement], trump_now: int
) -> list[int]:
    """The trump in force during each trick (the completed ones, then the current one).

    A marriage is declared by leading one of its cards: the first trick its
    declarer leads with one of them. Before the first, :func:`opening_trump`.
    """
    marriages: list[Marriage] = [a for a in announcements if a["kind"] == "marriage"]
    trump = opening_trump(announcements, trump_now)
    pending = [(a["seat"], {parse_index(c) for c in a["cards"]}, a["suit"]) for a in marriages]
    out = []
    for cards in tricks:
        if pending and cards:
            seat, pair, suit = pending[0]
            lead_seat, lead = cards[0]
            if lead_seat == seat and lead in pair:
                trump = SUITS.index(suit)
                pending.pop(0)
        out.append(trump)
    return out


def note_trick(cards: Trick, trump: int, voids: list[int]) -> None:
    led = cards[0][1] >> 3
    for seat, c in cards[1:]:
        suit = c >> 3
        if suit != led:
            voids[seat] |= 1 << led
            if trump != NO_TRUMP and suit != trump:
                voids[seat] |= 1 << trump


def read(view: ThousandView) -> Knowledge:
    """Everything the seat may know now, from its view alone."""
    seats = view["seats"]
    me = view["seat"]
    if me is None:
        raise ValueError("a bot player reads the view of its own seat")
    phase = view["phase"]
    hand = mask_of_codes(view["hand"])
    trump_code = view["trump"]
    trump = SUITS.index(trump_code) if trump_code else NO_TRUMP
    trick = list(read_trick(view["trick"]))
    done = [read_trick(t["cards"]) for t in view["played"]]
    announcements = view["announcements"]

    tricks = done + ([tuple(trick)] if trick else [])
    played = 0
    voids = [0] * seats
    trumps = trick_trumps(tricks, announcements, trump)
    for cards, in_force in zip(tricks, trumps, strict=True):
        note_trick(cards, in_force, voids)
        for _, c in cards:
            played |= 1 << c

    known = [0] * seats
    known[me] = hand
    bidder = view["bidder"]
    talon_seen = 0
    for talon in view["talons"]:
        if talon["cards"]:
            talon_seen |= mask_of_codes(talon["cards"])
    given = {parse_index(g["card"]): g["seat"] for g in view["gifts"]}
    # the bidder knows where each of its gifts went
    if bidder == me:
        for card, seat in given.items():
            if seat != me:
                known[seat] |= 1 << card
    # 2 players: the talon stays with the bidder unless given to us
    if bidder is not None and bidder != me and talon_seen and seats == 2:
        known[bidder] |= talon_seen
    # a declared marriage shows its other card in the declarer's hand until played
    for a in announcements:
        if a["kind"] == "marriage" and a["seat"] != me:
            known[a["seat"]] |= mask_of_codes(a["cards"])
    unseen = DECK & ~hand & ~played
    for s in range(seats):
        if s != me:
            known[s] &= unseen
    to_act = view["to_act"]
    leader = trick[0][0] if trick else (to_act if to_act is not None else me)
    return Knowledge(
        seats=seats,
        me=me,
        phase=phase,
        hand=hand,
        bidder=bidder,
        bid=view["bid"],
        contract=view["contract"],
        trump=trump,
        trick=trick,
        leader=int(leader),
        tricks_done=len(done),
        first_lead_done=bool(view["first_lead_done"]),
        played=played,
        voids=voids,
        hand_sizes=list(view["hand_sizes"]),
        points=list(view["points"]),
        known=known,
        unseen=unseen,
        talon_seen=talon_seen,
        given=given,
        totals=list(view["totals"]),
        dealer=view["dealer"],
        conventions=dict(view["conventions"]),
        legal=list(view["legal"]),
        auction=[(e["seat"], e["action"]) for e in view["auction"]],
        bolts=list(view["bolts"]),
        barrel_seat=next((s for s, b in enumerate(view["barrel"]) if b["on"]), None),
        auto_passed=list(view["auto_passed"]),
        tricks=done,
        trick_trumps=trumps,
        first_trump=opening_trump(announcements, trump),
    )
