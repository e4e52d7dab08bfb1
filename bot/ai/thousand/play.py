"""The play phase on bitmasks: a lean perfect-information state and the card heuristic.

:func:`heuristic_card` is the easy level's card play and the rollout policy of
the hard level. It reads only what a seat may know: its hand, the trick, trump,
the cards still unseen by it and (optionally) the suits each other seat has
shown void in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.ai.thousand.cards import (
    BEATEN_BY,
    MARRIAGE,
    MARRIAGE_MASKS,
    NO_TRUMP,
    PARTNER,
    POINTS,
    QUEEN,
    STRENGTH,
    SUIT,
)
from bot.engine.cards import mask_cards

__all__ = [
    "PlayState",
    "heuristic_card",
    "legal_cards",
    "trick_winner",
]


def legal_cards(hand: int, trick: Sequence[int], trump: int) -> int:
    """Follow suit; else trump if held; else anything."""
    if not trick:
        return hand
    same = hand & SUIT[trick[0] >> 3]
    if same:
        return same
    if trump != NO_TRUMP:
        trumps = hand & SUIT[trump]
        if trumps:
            return trumps
    return hand


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """Position in ``trick`` (0 = leader) of the winning card."""
    best = 0
    best_card = trick[0]
    for pos in range(1, len(trick)):
        card = trick[pos]
        if beats(card, best_card, trump):
            best, best_card = pos, card
    return best


def beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat ``best``, the card now winning the trick?"""
    if card >> 3 == best >> 3:
        return STRENGTH[card] > STRENGTH[best]
    return card >> 3 == trump


def _winners(cards: int, best: int, trump: int) -> int:
    """The cards of ``cards`` that beat ``best``."""
    suit = best >> 3
    mask = cards & BEATEN_BY[best]
    if trump != NO_TRUMP and suit != trump:
        mask |= cards & SUIT[trump]
    return mask


def _lowest(cards: int) -> int:
    """The weakest card of ``cards`` (fewest points, then lowest strength)."""
    best = -1
    key = 99
    for c in mask_cards(cards):
        k = POINTS[c] * 8 + STRENGTH[c]
        if k < key:
            best, key = c, k
    return best


def _is_master(card: int, unseen: int) -> bool:
    return not BEATEN_BY[card] & unseen


def _discard(hand: int, legal: int, trump: int, unseen: int, marriage_open: bool) -> int:
    """The card to throw away when not trying to win: cheap, keeping marriages and masters."""
    best = -1
    key = 1 << 30
    for c in mask_cards(legal):
        suit = c >> 3
        cost = POINTS[c] * 10 + STRENGTH[c]
        mate = PARTNER[c]
        if marriage_open and mate >= 0 and hand >> mate & 1:
            cost += 400 + MARRIAGE[suit]
        if suit == trump:
            cost += 60
        if _is_master(c, unseen):
            cost += 80
        # guarded tens: keep a ten while its suit still hides the ace elsewhere and we
        # hold a small card to cover it
        length = (hand & SUIT[suit]).bit_count()
        cost += length * 3
        if cost < key:
            best, key = c, cost
    return best


def _dump(legal: int, unseen: int, trump: int) -> int:
    """Points onto a friend's winning trick: the richest card that is not a master."""
    best = -1
    key = -(1 << 30)
    for c in mask_cards(legal):
        k = POINTS[c] * 4 - (60 if _is_master(c, unseen) else 0) - (30 if c >> 3 == trump else 0)
        if k > key:
            best, key = c, k
    return best


def _cheapest_winner(wins: int) -> int:
    """Of winning cards, the lowest strength (non-trumps before trumps is handled by caller)."""
    best = -1
    key = 99
    for c in mask_cards(wins):
        k = STRENGTH[c]
        if k < key:
            best, key = c, k
    return best


def heuristic_card(
    hand: int,
    trick: Sequence[int],
    trump: int,
    unseen: int,
    seats: int,
    me: int,
    leader: int,
    bidder: int,
    can_declare: bool,
    voids: Sequence[int] | None = None,
) -> int:
    """The card to play: sound hand-made play for the seat ``me``.

    ``unseen``: cards the seat has not seen (in other hands or out of play).
    ``voids[s]``: bit per suit that seat ``s`` is known to lack (trumps included).
    The rollouts pass the arguments by position (a keyword call costs more there).
    """
    legal = legal_cards(hand, trick, trump)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if not trick:
        return _lead(hand, trump, unseen, seats, me, bidder, can_declare, voids)
    marriage_open = True
    pos = len(trick)
    win_pos = trick_winner(trick, trump)
    best = trick[win_pos]
    winner_seat = (leader + win_pos) % seats
    friend_winning = me != bidder and winner_seat != bidder and winner_seat != me
    last = pos == seats - 1
    wins = _winners(legal, best, trump)
    if last:
        if friend_winning:
            return _dump(legal, unseen, trump)
        if wins:
            plain = wins & ~SUIT[trump] if trump != NO_TRUMP else wins
            return _cheapest_winner(plain or wins)
        return _discard(hand, legal, trump, unseen, marriage_open)
    # second of three: the seat after us still plays
    nxt = (me + 1) % seats
    led = trick[0] >> 3
    nxt_void = voids is not None and bool(voids[nxt] >> led & 1)
    if friend_winning:
        # the bidder is still to play: can the friend's card stand?
        threat = _winners(unseen, best, trump)
        if not threat or (not nxt_void and not (BEATEN_BY[best] & unseen)):
            return _dump(legal, unseen, trump)
    if wins:
        # a winner that the next seat cannot beat on what is unseen
        safe = 0
        for c in mask_cards(wins):
            if c >> 3 == trump or trump == NO_TRUMP:
                if not BEATEN_BY[c] & unseen:
                    safe |= 1 << c
            elif not BEATEN_BY[c] & unseen and not nxt_void:
                safe |= 1 << c
        if safe:
            plain = safe & ~SUIT[trump] if trump != NO_TRUMP else safe
            return _cheapest_winner(plain or safe)
        if legal & SUIT[led] == 0 and trump != NO_TRUMP and legal & SUIT[trump]:
            # must trump anyway: the lowest trump that wins
            return _cheapest_winner(wins)
        if sum(POINTS[c] for c in trick) >= 10:
            return _cheapest_winner(wins)
    return _discard(hand, legal, trump, unseen, marriage_open)


def _lead(
    hand: int,
    trump: int,
    unseen: int,
    seats: int,
    me: int,
    bidder: int,
    can_declare: bool,
    voids: Sequence[int] | None,
) -> int:
    if can_declare:
        # the richest marriage held (marriages are worth more by suit); lead the queen:
        # the king stays the stronger trump
        for suit in (3, 2, 1, 0):
            if hand & MARRIAGE_MASKS[suit] == MARRIAGE_MASKS[suit]:
                return QUEEN[suit]
    opponents_void = 0
    opponents_void_all = 0xF
    if voids is not None:
        for s in range(seats):
            if s != me:
                opponents_void |= voids[s]
                opponents_void_all &= voids[s]
    trumps_out = trump != NO_TRUMP and bool(unseen & SUIT[trump])
    best = -1
    key = -1
    for c in mask_cards(hand):
        suit = c >> 3
        if not _is_master(c, unseen):
            continue
        if suit != trump and trumps_out:
            if not unseen & SUIT[suit]:
                continue  # every other hand is out of the suit: they may trump
            if opponents_void >> suit & 1:
                continue
        k = POINTS[c] + 1
        if suit == trump and me == bidder:
            k += 12  # draw trumps
        mate = PARTNER[c]
        if mate >= 0 and hand >> mate & 1:
            k -= 30  # keep a marriage for later
        if k > key:
            best, key = c, k
    if best >= 0 and key > 0:
        return best
    # no sure winner: lead cheap, from a suit with few points, keeping marriages
    best = -1
    cost_best = 1 << 30
    for c in mask_cards(hand):
        suit = c >> 3
        cost = POINTS[c] * 10 + STRENGTH[c]
        mate = PARTNER[c]
        if mate >= 0 and hand >> mate & 1:
            cost += 500
        if suit == trump:
            cost += 50
        # a ten whose ace is out is safer kept
        if STRENGTH[c] == 5 and not _is_master(c, unseen):
            cost += 120
        if cost < cost_best:
            best, cost_best = c, cost
    return best


@dataclass(slots=True)
class PlayState:
    """A play phase with every hand known: what rollouts and search run on."""

    seats: int
    hands: list[int]
    trump: int
    leader: int
    bidder: int
    trick: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    first_trick: bool = True
    played: int = 0

    def __post_init__(self) -> None:
        if not self.points:
            self.points = [0] * self.seats
        if not self.tricks_won:
            self.tricks_won = [0] * self.seats

    def copy(self) -> PlayState:
        return PlayState(
            self.seats,
            list(self.hands),
            self.trump,
            self.leader,
            self.bidder,
            list(self.trick),
            list(self.points),
            list(self.tricks_won),
            self.first_trick,
            self.played,
        )

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % self.seats

    @property
    def done(self) -> bool:
        return not self.trick and not any(self.hands)

    def legal(self) -> int:
        return legal_cards(self.hands[self.to_act], self.trick, self.trump)

    def play(self, card: int) -> None:
        trick = self.trick
        seats = self.seats
        seat = (self.leader + len(trick)) % seats
        hand = self.hands[seat]
        if not trick and not self.first_trick:
            mate = PARTNER[card]
            if mate >= 0 and hand >> mate & 1:
                suit = card >> 3
                self.trump = suit
                self.points[seat] += MARRIAGE[suit]
        self.hands[seat] = hand & ~(1 << card)
        self.played |= 1 << card
        trick.append(card)
        if len(trick) == seats:
            winner = (self.leader + trick_winner(trick, self.trump)) % seats
            won = 0
            for c in trick:
                won += POINTS[c]
            self.points[winner] += won
            self.tricks_won[winner] += 1
            self.trick = []
            self.leader = winner
            self.first_trick = False

    def heuristic(self, seat: int) -> int:
        """The heuristic card for ``seat`` (to act) seeing every hand as unseen cards."""
        hand = self.hands[seat]
        unseen = 0
        for other in self.hands:
            unseen |= other
        # by position: the rollouts' hot path
        return heuristic_card(
            hand,
            self.trick,
            self.trump,
            unseen & ~hand,
            self.seats,
            seat,
            self.leader,
            self.bidder,
            not self.first_trick,
            None,
        )

    def rollout(self) -> None:
        """Play the deal out with the heuristic for every seat."""
        hands = self.hands
        seats = self.seats
        while self.trick or any(hands):
            self.play(self.heuristic((self.leader + len(self.trick)) % seats))
