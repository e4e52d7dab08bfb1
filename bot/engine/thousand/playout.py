"""A lean bitmask simulator of Thousand's card play, for bot search and benchmarks.

It knows every hand (bots feed it sampled hands), starts at any trick boundary
and counts each seat's deal points exactly as the engine does: card points in
tricks plus the marriages (and ace marriage) declared on lead. With four seats,
``sitting_out`` is the dealer who holds no cards and is passed over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.cards import SUIT_BYTE_CARDS, SUIT_MASKS, mask_cards
from bot.engine.thousand.rules import ACE_MARRIAGE_POINTS, ACES, CARD_POINTS, MARRIAGE_POINTS

__all__ = ["SimDeal", "random_playout"]

# Order within a suit: 9 < J < Q < K < 10 < A (the ten sits between king and ace).
_STRENGTH: tuple[int, ...] = tuple(
    {2: 0, 4: 1, 5: 2, 6: 3, 3: 4, 7: 5}.get(i & 7, -1) for i in range(32)
)
_PARTNER: tuple[int, ...] = tuple(
    i + 1 if i & 7 == 5 else i - 1 if i & 7 == 6 else -1 for i in range(32)
)


class SimDeal:
    """The play of one deal on bitmasks; ``play`` trusts its caller to pass a legal card."""

    __slots__ = (
        "ace_marriage",
        "best",
        "best_seat",
        "first_lead_done",
        "follow",
        "hands",
        "led",
        "players",
        "points",
        "seats",
        "to_act",
        "trick",
        "trick_len",
        "tricks",
        "trump",
    )

    def __init__(
        self,
        hands: Sequence[int],
        leader: int,
        trump: int = -1,
        *,
        first_lead_done: bool = False,
        ace_marriage: bool = False,
        points: Sequence[int] | None = None,
        tricks: Sequence[int] | None = None,
        sitting_out: int = -1,
    ) -> None:
        self.seats = len(hands)
        self.players = self.seats - (sitting_out >= 0)
        self.follow = _follow(self.seats, sitting_out)
        self.hands = list(hands)
        self.to_act = leader
        self.trump = trump
        self.first_lead_done = first_lead_done
        self.ace_marriage = ace_marriage
        self.points = list(points) if points is not None else [0] * self.seats
        self.tricks = list(tricks) if tricks is not None else [0] * self.seats
        self.trick = 0
        self.trick_len = 0
        self.led = -1
        self.best = -1
        self.best_seat = -1

    @property
    def done(self) -> bool:
        return self.trick_len == 0 and not self.hands[self.to_act]

    def legal(self) -> int:
        """Mask of the cards the seat to act may play."""
        hand = self.hands[self.to_act]
        if not self.trick_len:
            return hand
        follow = hand & SUIT_MASKS[self.led]
        if follow:
            return follow
        if self.trump >= 0:
            trumps = hand & SUIT_MASKS[self.trump]
            if trumps:
                return trumps
        return hand

    def play(self, card: int) -> int:
        """Play ``card`` for the seat to act; the trick's winner when it completes, else -1."""
        seat = self.to_act
        hand = self.hands[seat]
        self.hands[seat] = hand ^ (1 << card)
        suit = card >> 3
        if not self.trick_len:
            if self.first_lead_done:
                partner = _PARTNER[card]
                if partner >= 0 and hand >> partner & 1:
                    self.trump = suit
                    self.points[seat] += MARRIAGE_POINTS[suit]
                elif self.ace_marriage and card & 7 == 7 and hand & ACES == ACES:
                    self.points[seat] += ACE_MARRIAGE_POINTS
            self.first_lead_done = True
            self.led = suit
            self.best = card
            self.best_seat = seat
            self.trick = 1 << card
            self.trick_len = 1
        else:
            best = self.best
            if (suit == best >> 3 and _STRENGTH[card] > _STRENGTH[best]) or (
                suit == self.trump and best >> 3 != suit
            ):
                self.best = card
                self.best_seat = seat
            self.trick |= 1 << card
            self.trick_len += 1
        if self.trick_len < self.players:
            self.to_act = self.follow[seat]
            return -1
        winner = self.best_seat
        won = 0
        for c in mask_cards(self.trick):
            won += CARD_POINTS[c]
        self.points[winner] += won
        self.tricks[winner] += 1
        self.trick = 0
        self.trick_len = 0
        self.to_act = winner
        return winner


def random_playout(
    hands: Sequence[int],
    leader: int,
    draw: Callable[[], float],
    *,
    trump: int = -1,
    ace_marriage: bool = False,
    sitting_out: int = -1,
) -> list[int]:
    """Each seat's deal points after random legal play from the deal's first lead.

    The same rules as :class:`SimDeal`, unrolled into one loop because bot search
    runs it many thousands of times.
    """
    hands = list(hands)
    seats = len(hands)
    points = [0] * seats
    order = _follow(seats, sitting_out)
    followers = []
    for s in range(seats):
        after = [order[s]]
        while len(after) < seats - 1 - (sitting_out >= 0):
            after.append(order[after[-1]])
        followers.append(after)
    suit_masks = SUIT_MASKS
    byte_cards = SUIT_BYTE_CARDS
    strength = _STRENGTH
    card_points = CARD_POINTS
    seat = leader
    first = True
    while hands[seat]:
        hand = hands[seat]
        options = mask_cards(hand)
        card = options[int(draw() * len(options))]
        hands[seat] = hand ^ (1 << card)
        led = card >> 3
        if first:
            first = False
        else:
            partner = _PARTNER[card]
            if partner >= 0 and hand >> partner & 1:
                trump = led
                points[seat] += MARRIAGE_POINTS[led]
            elif ace_marriage and card & 7 == 7 and hand & ACES == ACES:
                points[seat] += ACE_MARRIAGE_POINTS
        best, best_seat, won = card, seat, card_points[card]
        for other in followers[seat]:
            hand = hands[other]
            follow = hand & suit_masks[led]
            if follow:
                options = byte_cards[led][follow >> (led << 3)]
            elif trump >= 0 and hand & suit_masks[trump]:
                options = byte_cards[trump][hand >> (trump << 3) & 0xFF]
            else:
                options = mask_cards(hand)
            card = options[int(draw() * len(options))]
            hands[other] = hand ^ (1 << card)
            won += card_points[card]
            suit = card >> 3
            if suit == best >> 3:
                if strength[card] > strength[best]:
                    best, best_seat = card, other
            elif suit == trump:
                best, best_seat = card, other
        points[best_seat] += won
        seat = best_seat
    return points


def _follow(seats: int, sitting_out: int) -> tuple[int, ...]:
    """Who plays after each seat, passing over the one sitting out (-1: nobody)."""
    out = []
    for seat in range(seats):
        nxt = (seat + 1) % seats
        out.append((nxt + 1) % seats if nxt == sitting_out else nxt)
    return tuple(out)
