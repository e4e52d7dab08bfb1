"""A lean Deberts play-phase table on bitmasks, for heuristics and rollouts.

:class:`Table` holds what a rollout needs: every seat's hand (only the acting
seat's is real when built from a view), the cards gone this deal, the current
trick, the points taken, the voids shown in play and the combinations that
will count. :func:`play_out` finishes a deal with a given play policy and
:func:`deal_result` settles it the way rule 8 does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.cards import SUIT_MASKS
from bot.engine.deberts.rules import BELLA_POINTS, LAST_TRICK_POINTS, RANKING, legal_mask

__all__ = [
    "BEATERS",
    "FULL",
    "ORDER",
    "POINTS",
    "STRENGTH",
    "TRUMPS",
    "Table",
    "Worth",
    "beats",
    "deal_result",
    "lead",
    "play_out",
    "top_unplayed",
]

FULL = (1 << 32) - 1
TRUMPS = (0, 1, 2, 3, -1)
"""The trumps the tables below are made for, in their order: the four suits, then none
(before the order), so that a table's index -1 is "no trump"."""

# POINTS[trump][card], STRENGTH[trump][card]: card points and in-suit strength with
# that trump.
POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANKING.points(c, t) for c in range(32)) for t in TRUMPS
)
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANKING.strength(c, t) for c in range(32)) for t in TRUMPS
)


# ORDER[trump][suit]: the cards of the suit, strongest first.
def _strongest_first(suit: int, trump: int) -> tuple[int, ...]:
    strength = STRENGTH[trump]
    return tuple(sorted(range(suit * 8, suit * 8 + 8), key=lambda c: -strength[c]))


ORDER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_strongest_first(s, t) for s in range(4)) for t in TRUMPS
)


def _beaters(best: int, trump: int) -> int:
    """The cards that beat ``best`` when it is winning the trick."""
    strength = STRENGTH[trump]
    mask = 0
    for card in range(32):
        if card >> 3 == best >> 3:
            if strength[card] > strength[best]:
                mask |= 1 << card
        elif card >> 3 == trump:
            mask |= 1 << card
    return mask


# BEATERS[trump][best]: the cards that beat ``best`` when it is winning the trick.
BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_beaters(best, t) for best in range(32)) for t in TRUMPS
)


def beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat ``best``, the card now winning the trick?"""
    return bool(BEATERS[trump][best] >> card & 1)


def _top(suit: int, trump: int, left: int) -> int:
    """The strongest card of ``suit`` among ``left`` (rank bits), or -1."""
    for card in ORDER[trump][suit]:
        if left >> (card & 7) & 1:
            return card
    return -1


# TOPS[trump][suit][left]: the strongest card of ``suit`` among ``left``, the suit's
# cards not gone as a byte (rank bits), or -1.
TOPS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_top(s, t, left) for left in range(256)) for s in range(4)) for t in TRUMPS
)


def top_unplayed(suit: int, gone: int, trump: int) -> int:
    """The strongest card of ``suit`` not yet gone, or -1."""
    return TOPS[trump][suit][~gone >> (suit * 8) & 0xFF]


class Table:
    """The play phase of one deal, as seen by search (all hands filled) or by one seat."""

    __slots__ = (
        "best",
        "best_seat",
        "bidder",
        "combo_points",
        "combo_seat",
        "dealer",
        "gone",
        "hands",
        "last_winner",
        "n",
        "points",
        "took",
        "trick",
        "trump",
        "turn",
        "voids",
    )

    def __init__(
        self,
        n: int,
        trump: int,
        bidder: int,
        dealer: int,
        hands: list[int],
        turn: int,
    ) -> None:
        self.n = n
        self.trump = trump
        self.bidder = bidder
        self.dealer = dealer
        self.hands = hands
        self.turn = turn
        self.gone = 0  # cards played this deal, the current trick's included
        self.trick: list[int] = []
        self.best = -1  # index in the trick of the card winning it so far
        self.best_seat = -1
        self.points = [0] * n  # card points and bella taken so far
        self.took = [False] * n
        self.voids = [0] * n  # suit masks each seat is known to lack
        self.combo_seat = -1  # the seat whose terz/berz count (if it takes a trick)
        self.combo_points = 0
        self.last_winner = -1

    def copy(self) -> Table:
        other = Table.__new__(Table)
        other.n = self.n
        other.trump = self.trump
        other.bidder = self.bidder
        other.dealer = self.dealer
        other.hands = list(self.hands)
        other.turn = self.turn
        other.gone = self.gone
        other.trick = list(self.trick)
        other.best = self.best
        other.best_seat = self.best_seat
        other.points = list(self.points)
        other.took = list(self.took)
        other.voids = list(self.voids)
        other.combo_seat = self.combo_seat
        other.combo_points = self.combo_points
        other.last_winner = self.last_winner
        return other

    def legal(self, seat: int) -> int:
        return legal_mask(self.hands[seat], self.trick, self.trump)

    def note_play(self, seat: int, card: int) -> None:
        """Record the voids a play shows (call before :meth:`play` moves the card)."""
        if not self.trick:
            return
        trump = self.trump
        led = self.trick[0] >> 3
        suit = card >> 3
        if suit != led:
            self.voids[seat] |= SUIT_MASKS[led]
            if suit != trump and trump >= 0:
                self.voids[seat] |= SUIT_MASKS[trump]
        elif led == trump:
            top = self.trick[self.best]
            if top >> 3 == trump and STRENGTH[trump][card] < STRENGTH[trump][top]:
                # Could not overtrump: no trump above the table's top one left in hand.
                self.voids[seat] |= RANKING.trump_stronger[top]

    def play(self, card: int) -> None:
        seat = self.turn
        hand = self.hands[seat]
        trump = self.trump
        if card >> 3 == trump and 5 <= card & 7 <= 6 and hand >> (card ^ 3) & 1:
            self.points[seat] += BELLA_POINTS  # queen or king played, holding the other
        self.hands[seat] = hand & ~(1 << card)
        self.gone |= 1 << card
        trick = self.trick
        if not trick:
            self.best = 0
            self.best_seat = seat
        elif BEATERS[trump][trick[self.best]] >> card & 1:
            self.best = len(trick)
            self.best_seat = seat
        trick.append(card)
        if len(trick) == self.n:
            winner = self.best_seat
            pts = POINTS[trump]
            total = 0
            for c in trick:
                total += pts[c]
            self.points[winner] += total
            self.took[winner] = True
            self.trick = []
            self.turn = winner
            if not self.hands[winner]:
                self.points[winner] += LAST_TRICK_POINTS
                self.last_winner = winner
        else:
            self.turn = (seat + 1) % self.n

    def deal_points(self) -> list[int]:
        """Each seat's deal points: cards, last trick, bella and counted combinations."""
        points = list(self.points)
        if self.combo_seat >= 0 and self.took[self.combo_seat]:
            points[self.combo_seat] += self.combo_points
        return points


PlayPolicy = Callable[[Table, int], int]


def play_out(table: Table, policy: PlayPolicy) -> list[int]:
    """Finish the deal with every seat playing ``policy``; the final deal points."""
    hands, note_play, play = table.hands, table.note_play, table.play  # hands: changed in place
    while hands[table.turn]:
        seat = table.turn
        card = policy(table, seat)
        note_play(seat, card)
        play(card)
    return table.deal_points()


def deal_result(points: list[int], bidder: int, seat: int) -> float:
    """What ``seat`` gains on the others this deal: its written points minus their mean.

    Rule 8 without the winner-takes-all option; a hanging deal's amount is left out.
    """
    n = len(points)
    b = points[bidder]
    w = sum(points) - b
    if b > w:
        written = points
    elif b < w:
        if n == 2:
            written = [0, 0]
            written[1 - bidder] = b + w
        else:
            written = [p + (b + 1) // 2 for p in points]
            written[bidder] = 0
    else:
        written = list(points)
        written[bidder] = 0
    return lead(written, seat)


def lead(written: Sequence[int], seat: int) -> float:
    """What ``seat`` wrote more than the others' mean."""
    mine = written[seat]
    return mine - (sum(written) - mine) / (len(written) - 1)


Worth = Callable[[list[int], int], float]
"""One seat's value of a deal's points, the bidder given."""
