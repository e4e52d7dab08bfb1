"""What one seat knows about a deal, read from its view.

The view shows the current and the last trick only, so the seat remembers what it
has been shown before (the earlier tricks, its hand before the give-away, the
cards it gave): a :class:`DealMemory` per deal, kept by :class:`Memory` and
filled from the views alone. A memory that does not fit the view (another game,
or a deal replayed) is dropped and rebuilt from what the view shows; the bot then
plays on with less history, never with wrong history.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.ai.thousand.cards import DECK, NO_TRUMP, SUIT, mask_of_codes, partner
from bot.engine.base import JsonDict
from bot.engine.cards import parse_index

__all__ = ["DealMemory", "Knowledge", "Memory", "read"]

SUITS = "SCDH"


@dataclass
class DealMemory:
    """What a seat saw earlier in one deal."""

    key: tuple[Any, ...]
    first_hand: int = 0  # the hand dealt, before any talon or give-away
    pre_give: int = 0  # the bidder's hand after taking the talon
    given: dict[int, int] = field(default_factory=dict)  # card -> seat it was given to
    tricks: dict[int, tuple[tuple[tuple[int, int], ...], int]] = field(default_factory=dict)
    """Trick number -> ((seat, card) in play order, trump in force)."""
    last_hand: int = 0


class Memory:
    """A small bounded store of :class:`DealMemory`, by deal fingerprint."""

    def __init__(self, size: int = 256) -> None:
        self._store: OrderedDict[tuple[Any, ...], DealMemory] = OrderedDict()
        self._size = size

    def get(self, key: tuple[Any, ...]) -> DealMemory | None:
        found = self._store.get(key)
        if found is not None:
            self._store.move_to_end(key)
        return found

    def put(self, memory: DealMemory) -> None:
        self._store[memory.key] = memory
        self._store.move_to_end(memory.key)
        while len(self._store) > self._size:
            self._store.popitem(last=False)

    def clear(self) -> None:
        self._store.clear()


MEMORY = Memory()


@dataclass
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
    played: int  # cards seen played this deal (earlier tricks and the current one)
    voids: list[int]  # per seat: bit per suit known lacking
    hand_sizes: list[int]
    points: list[int]
    known: list[int]  # per seat: cards known to be in that hand now (own hand included)
    unseen: int  # cards whose place the seat does not know
    talon_seen: int
    totals: list[int]
    dealer: int
    history_complete: bool
    conventions: JsonDict
    legal: list[str]
    auction: list[tuple[int, str]]

    @property
    def can_declare(self) -> bool:
        """Marriages count from the deal's second lead on."""
        full = 11 if self.seats == 2 else 8
        return self.tricks_done > 0 or max(self.hand_sizes) < full

    @property
    def trick_cards(self) -> list[int]:
        return [c for _, c in self.trick]


def _key(view: JsonDict) -> tuple[Any, ...]:
    return (
        view["seats"],
        view["seat"],
        view["deal_no"],
        view["dealer"],
        tuple(view["totals"]),
        tuple(view.get("bolts") or ()),
    )


def _trump_of(view: JsonDict) -> int:
    trump = view.get("trump")
    return SUITS.index(trump) if trump else NO_TRUMP


def _fits(mem: DealMemory, view: JsonDict, hand: int, tricks_done: int) -> bool:
    """Could ``mem`` be this seat's memory of the deal the view shows?"""
    phase = view["phase"]
    if phase == "auction":
        return mem.first_hand == hand and not (mem.tricks or mem.pre_give or mem.given)
    if phase == "play":
        if mem.last_hand and hand & ~mem.last_hand:
            return False
        if any(k >= tricks_done for k in mem.tricks):
            return False
        last = view.get("last_trick")
        if tricks_done and tricks_done - 1 in mem.tricks and last is not None:
            seen = tuple((e["seat"], parse_index(e["card"])) for e in last["cards"])
            if mem.tricks[tricks_done - 1][0] != seen:
                return False
        for cards, _ in mem.tricks.values():
            for _, c in cards:
                if hand >> c & 1:
                    return False
        return True
    # talon, give, redeal, contract: the hand grows by the talon or a given card only
    if phase == "talon":
        return mem.first_hand in (0, hand) and not mem.tricks
    extra = hand & ~mem.first_hand if mem.first_hand else 0
    return extra.bit_count() <= 3 and not mem.tricks


def read(view: JsonDict, memory: Memory | None = MEMORY) -> Knowledge:
    """Everything the seat may know now, updating its memory of the deal."""
    seats: int = view["seats"]
    me: int = view["seat"]
    phase: str = view["phase"]
    hand = mask_of_codes(view["hand"])
    trump = _trump_of(view)
    trick = [(e["seat"], parse_index(e["card"])) for e in view["trick"]]
    tricks_done = sum(view["tricks_taken"])
    key = _key(view)
    mem = memory.get(key) if memory is not None else None
    if mem is None or not _fits(mem, view, hand, tricks_done):
        mem = DealMemory(key)
        if phase in ("auction", "talon"):
            mem.first_hand = hand
        if memory is not None:
            memory.put(mem)
    if phase == "give" and view.get("bidder") == me and not mem.pre_give:
        # the first give-away decision: the hand is the dealt one plus the talon
        mem.pre_give = hand
    if phase == "play":
        last = view.get("last_trick")
        if tricks_done and last is not None and tricks_done - 1 not in mem.tricks:
            cards = tuple((e["seat"], parse_index(e["card"])) for e in last["cards"])
            mem.tricks[tricks_done - 1] = (cards, _trump_during_last(view, trick, trump))
        mem.last_hand = hand

    played = 0
    voids = [0] * seats
    for cards, t in mem.tricks.values():
        _note_trick(cards, t, voids)
        for _, c in cards:
            played |= 1 << c
    if trick:
        _note_trick(tuple(trick), trump, voids)
        for _, c in trick:
            played |= 1 << c
    history_complete = len(mem.tricks) == tricks_done

    known = [0] * seats
    known[me] = hand
    bidder = view.get("bidder")
    talon_seen = 0
    for talon in view.get("talons") or ():
        if talon.get("cards"):
            talon_seen |= mask_of_codes(talon["cards"])
    # cards given away by this seat
    if bidder == me and mem.pre_give:
        for card, seat in mem.given.items():
            if not played >> card & 1:
                known[seat] |= 1 << card
    # 2 players: the talon stays with the bidder unless given to us
    if bidder is not None and bidder != me and talon_seen and seats == 2:
        known[bidder] |= talon_seen & ~played & ~hand
    # a declared marriage shows its other card in the declarer's hand until played
    for a in view.get("announcements") or ():
        if a.get("kind") != "marriage":
            continue
        s = a["seat"]
        for code in a["cards"]:
            c = parse_index(code)
            if not played >> c & 1 and s != me:
                known[s] |= 1 << c
    unseen = DECK & ~hand & ~played
    sizes = view["hand_sizes"]
    for s in range(seats):
        if s != me:
            known[s] &= unseen
            if known[s].bit_count() > sizes[s]:
                known[s] = 0  # stale: some of these were played while we were not looking
    to_act = view.get("to_act")
    leader = trick[0][0] if trick else (to_act if to_act is not None else me)
    return Knowledge(
        seats=seats,
        me=me,
        phase=phase,
        hand=hand,
        bidder=bidder,
        bid=view.get("bid"),
        contract=view.get("contract"),
        trump=trump,
        trick=trick,
        leader=int(leader),
        tricks_done=tricks_done,
        played=played,
        voids=voids,
        hand_sizes=list(view["hand_sizes"]),
        points=list(view.get("points") or [0] * seats),
        known=known,
        unseen=unseen,
        talon_seen=talon_seen,
        totals=list(view["totals"]),
        dealer=view["dealer"],
        history_complete=history_complete,
        conventions=dict(view.get("conventions") or {}),
        legal=list(view["legal"]),
        auction=[(e["seat"], e["action"]) for e in view["auction"]],
    )


def remember_give(view: JsonDict, action: str, memory: Memory | None = MEMORY) -> None:
    """Note a give-away this seat decided (``"gTH2"``), so later views can place the card."""
    if memory is None:
        return
    mem = memory.get(_key(view))
    if mem is not None and action.startswith("g") and len(action) == 4:
        mem.given[parse_index(action[1:3])] = int(action[3])


def _trump_during_last(view: JsonDict, trick: list[tuple[int, int]], trump: int) -> int:
    """The trump in force during the last trick: now's, unless this trick's lead declared."""
    if not trick:
        return trump
    lead_seat, lead = trick[0]
    marriages = [a for a in view.get("announcements") or () if a.get("kind") == "marriage"]
    if marriages and partner(lead) >= 0:
        last = marriages[-1]
        codes = {parse_index(c) for c in last["cards"]}
        if last["seat"] == lead_seat and lead in codes:
            if len(marriages) >= 2:
                return SUITS.index(marriages[-2]["suit"])
            return NO_TRUMP
    return trump


def _note_trick(cards: tuple[tuple[int, int], ...], trump: int, voids: list[int]) -> None:
    led = cards[0][1] >> 3
    for seat, c in cards[1:]:
        suit = c >> 3
        if suit != led:
            voids[seat] |= 1 << led
            if trump != NO_TRUMP and suit != trump:
                voids[seat] |= 1 << trump


def suit_count(mask: int, suit: int) -> int:
    return (mask & SUIT[suit]).bit_count()
