"""What one seat knows in a Deberts deal, read from its view alone.

The view lists the deal's completed tricks (``"played"``) and the trick in
progress; from them come the cards gone, the points taken, and the voids each
seat has shown. Announcements place cards in hands (the swapped open card, the
winning combinations, the other bella card).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine.base import ConventionsJson, PlayedCard
from bot.engine.cards import SUIT_MASKS, codes_to_mask, parse_index
from bot.engine.deberts.rules import BELLA_POINTS, RANKING
from bot.engine.deberts.view import DebertsView

__all__ = ["Knowledge", "read_view"]

SUITS = "SCDH"


@dataclass
class Knowledge:
    seats: int
    seat: int
    dealer: int
    phase: str
    hand: int
    hand_sizes: list[int]
    trump: int = -1
    bidder: int = -1
    open_card: int = -1
    bottom_card: int = -1
    # complete tricks of this deal, each a list of (seat, card) in play order
    history: list[list[tuple[int, int]]] = field(default_factory=list)
    trick: list[tuple[int, int]] = field(default_factory=list)
    gone: int = 0
    voids: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)  # card points, bella, last trick
    took: list[bool] = field(default_factory=list)
    known: list[int] = field(default_factory=list)  # cards known to sit in a seat's hand
    played: list[int] = field(default_factory=list)  # cards each seat has played this deal
    started: int = 0  # seats that have played their first card
    combo_seat: int = -1
    combo_points: int = 0
    combos_resolved: bool = False
    bella_done: int = 0  # seats that have scored bella
    auction: list[tuple[int, str]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    at_stake: int = 0  # the hanging amount the deal's top writer takes with it
    moscow: bool = True
    conventions: ConventionsJson = field(default_factory=dict)

    @property
    def unseen(self) -> int:
        """Cards this seat cannot place: not in its hand, not gone, not shown face up."""
        mask = ((1 << 32) - 1) & ~(self.hand | self.gone)
        if self.open_card >= 0:
            mask &= ~(1 << self.open_card)
        if self.bottom_card >= 0:
            mask &= ~(1 << self.bottom_card)
        return mask


def _trick_pairs(cards: Sequence[PlayedCard]) -> list[tuple[int, int]]:
    """A trick's (seat, card) pairs in the order played."""
    return [(item["seat"], parse_index(item["card"])) for item in cards]


def _record_play(know: Knowledge, pairs: list[tuple[int, int]], seat: int, card: int) -> None:
    """Voids a play shows, given the cards before it in the trick."""
    trump = know.trump
    if not pairs or trump < 0:
        return
    led = pairs[0][1] >> 3
    suit = card >> 3
    if suit != led:
        know.voids[seat] |= SUIT_MASKS[led]
        if suit != trump:
            know.voids[seat] |= SUIT_MASKS[trump]
        return
    if led == trump:
        strength = RANKING.trump_strength
        top = max((c for _, c in pairs if c >> 3 == trump), key=lambda c: strength[c])
        if strength[card] < strength[top]:
            know.voids[seat] |= RANKING.trump_stronger[top]


def read_view(view: DebertsView) -> Knowledge:
    seat = view["seat"]
    if seat is None:
        raise ValueError("a bot player reads the view of its own seat")
    n = view["seats"]
    know = Knowledge(
        seats=n,
        seat=seat,
        dealer=view["dealer"],
        phase=view["phase"],
        hand=codes_to_mask(view["hand"]),
        hand_sizes=list(view["hand_sizes"]),
        voids=[0] * n,
        points=[0] * n,
        took=[False] * n,
        known=[0] * n,
        played=[0] * n,
        totals=list(view["totals"]),
        at_stake=view["hanging"][0] if view["hanging"] else 0,
    )
    know.auction = [(a["seat"], a["action"]) for a in view["auction"]]
    if view["trump"]:
        know.trump = SUITS.index(view["trump"])
    if view["bidder"] is not None:
        know.bidder = view["bidder"]
    if view["open_card"]:
        know.open_card = parse_index(view["open_card"])
    if view["bottom_card"]:
        know.bottom_card = parse_index(view["bottom_card"])
    conventions = view["conventions"]
    know.moscow = conventions.get("trump_in_combination", "moscow") == "moscow"
    know.conventions = dict(conventions)
    if know.phase != "play":
        return know
    know.history = [_trick_pairs(t["cards"]) for t in view["played"]]
    know.trick = _trick_pairs(view["trick"])
    trump = know.trump
    for t in know.history:
        for i, (s, card) in enumerate(t):
            _record_play(know, t[:i], s, card)
            know.gone |= 1 << card
            know.played[s] |= 1 << card
            know.started |= 1 << s
        winner = _winner(t, trump)
        know.points[winner] += sum(RANKING.points(c, trump) for _, c in t)
    for i, (s, card) in enumerate(know.trick):
        _record_play(know, know.trick[:i], s, card)
        know.gone |= 1 << card
        know.played[s] |= 1 << card
        know.started |= 1 << s
    done = view["tricks_taken"]
    for s in range(n):
        know.took[s] = done[s] > 0
    for item in view["announcements"]:
        s = item["seat"]
        cards = codes_to_mask(item["cards"])
        kind = item["kind"]
        if kind == "swap7":
            know.known[s] |= cards
        elif kind == "bella":
            know.points[s] += BELLA_POINTS
            know.bella_done |= 1 << s
            know.known[s] |= cards
        elif kind in ("terz", "berz"):
            know.combo_seat = s
            know.combo_points += item["points"]
            know.known[s] |= cards
    combination_winner = view["combination_winner"]
    if combination_winner is not None or know.combo_seat >= 0:
        know.combos_resolved = True
        if combination_winner is not None:
            know.combo_seat = combination_winner
    elif sum(done):
        know.combos_resolved = True  # everyone has played: nobody holds a combination
    for s in range(n):
        know.known[s] &= ~(know.gone | know.hand)
        if s == seat:
            know.known[s] = 0
    return know


def _winner(trick: list[tuple[int, int]], trump: int) -> int:
    best_seat, best = trick[0]
    for s, card in trick[1:]:
        if card >> 3 == best >> 3:
            if RANKING.strength(card, trump) > RANKING.strength(best, trump):
                best_seat, best = s, card
        elif card >> 3 == trump:
            best_seat, best = s, card
    return best_seat
