"""Exact play of a deal's last tricks with every hand known (double dummy).

The bidder plays for the most deal points, the other seats together for the
fewest: a minimax over the cards left, by alpha-beta within a trick and with
every trick boundary's value remembered (the same cards, leader and trump
reach the same value whatever came before). Declared marriages count as the
engine counts them: leading a king or queen whose partner is still in hand
makes its suit trump and scores it. The hard level solves each sampled layout
this way once few cards remain, and plays the card that does best over them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.thousand.cards import ACES, MARRIAGE, POINTS, STRENGTH, SUIT, partner
from bot.engine.cards import iter_mask
from bot.engine.thousand.rules import ACE_MARRIAGE_POINTS

__all__ = ["Endgame"]

_INF = 1 << 20


class Endgame:
    """One layout of the cards left: the bidder's further deal points under best play.

    ``hands`` are the cards each seat holds now (those already in the current
    trick excluded); ``trick`` the cards played to it so far, from ``leader``.
    Marriages may be declared (the deal's first lead is behind).
    """

    __slots__ = ("_ace_marriage", "_bidder", "_memo", "_seats", "nodes")
    nodes: int
    """Cards tried so far: the work done, a measure steadier than time."""

    def __init__(self, seats: int, bidder: int, *, ace_marriage: bool = False) -> None:
        self._seats = seats
        self._bidder = bidder
        self._ace_marriage = ace_marriage
        self._memo: dict[tuple[tuple[int, ...], int, int], int] = {}
        self.nodes = 0

    def after(
        self, hands: Sequence[int], leader: int, trump: int, trick: Sequence[int], card: int
    ) -> int:
        """The bidder's further points (this trick's included) once ``card`` is played."""
        seat = (leader + len(trick)) % self._seats
        h = list(hands)
        return self._play(h, leader, trump, list(trick), 0, seat, card, -_INF, _INF)

    def _lead_value(self, hands: list[int], leader: int, trump: int) -> int:
        if not hands[leader]:
            return 0
        key = (tuple(hands), leader, trump)
        value = self._memo.get(key)
        if value is None:
            value = self._search(hands, leader, trump, [], 0, -_INF, _INF)
            self._memo[key] = value
        return value

    def _search(
        self,
        hands: list[int],
        leader: int,
        trump: int,
        trick: list[int],
        bonus: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Best further points of the bidder with ``trick`` under way (``bonus`` in it)."""
        seat = (leader + len(trick)) % self._seats
        maximise = seat == self._bidder
        best = -_INF if maximise else _INF
        for card in _ordered(_legal(hands[seat], trick, trump)):
            value = self._play(hands, leader, trump, trick, bonus, seat, card, alpha, beta)
            if maximise:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def _play(
        self,
        hands: list[int],
        leader: int,
        trump: int,
        trick: list[int],
        bonus: int,
        seat: int,
        card: int,
        alpha: int,
        beta: int,
    ) -> int:
        self.nodes += 1
        hand = hands[seat]
        if not trick:
            mate = partner(card)
            if mate >= 0 and hand >> mate & 1:
                trump = card >> 3
                if seat == self._bidder:
                    bonus += MARRIAGE[trump]
            elif (
                seat == self._bidder
                and self._ace_marriage
                and card & 7 == 7
                and hand & ACES == ACES
            ):
                bonus += ACE_MARRIAGE_POINTS
        hands[seat] = hand & ~(1 << card)
        trick.append(card)
        try:
            if len(trick) < self._seats:
                return self._search(hands, leader, trump, trick, bonus, alpha, beta)
            winner = (leader + _winning(trick, trump)) % self._seats
            won = sum(POINTS[c] for c in trick) if winner == self._bidder else 0
            return bonus + won + self._lead_value(hands, winner, trump)
        finally:
            trick.pop()
            hands[seat] = hand


def _legal(hand: int, trick: Sequence[int], trump: int) -> int:
    if not trick:
        return hand
    same = hand & SUIT[trick[0] >> 3]
    if same:
        return same
    if trump >= 0:
        trumps = hand & SUIT[trump]
        if trumps:
            return trumps
    return hand


def _winning(trick: Sequence[int], trump: int) -> int:
    best = 0
    top = trick[0]
    for pos in range(1, len(trick)):
        card = trick[pos]
        if card >> 3 == top >> 3:
            if STRENGTH[card] > STRENGTH[top]:
                best, top = pos, card
        elif card >> 3 == trump:
            best, top = pos, card
    return best


def _ordered(cards: int) -> list[int]:
    """Rich and strong cards first: the likeliest best moves, for earlier cut-offs."""
    return sorted(iter_mask(cards), key=lambda c: -(POINTS[c] * 8 + STRENGTH[c]))
