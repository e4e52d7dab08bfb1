"""Exact play of a deal's last tricks with every hand known (double dummy).

A line of play is worth to the bidder its contract, won once its points reach it and
lost otherwise (counted once for each other seat), and its further points less the
marriages the others declare; the other seats play together for the least. A minimax
over the cards left, by alpha-beta within a trick and with every trick boundary's
value remembered (the same cards, leader, trump and points still needed reach the
same value whatever came before). Declared marriages count as the engine counts
them: leading a king or queen whose partner is still in hand makes its suit trump
and scores it, for the bidder or against it, so a defender on lead declares its
own and the bidder keeps the lead from one. The hard level solves each sampled
layout this way once few cards remain, and plays the card that does best over them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from bot.ai.thousand.cards import ACES, MARRIAGE, POINTS, STRENGTH, SUIT, partner
from bot.engine.cards import iter_mask
from bot.engine.thousand.rules import ACE_MARRIAGE_POINTS

__all__ = ["Endgame"]

_INF = 1 << 20


class Endgame:
    """One layout of the cards left, its value under best play on both sides.

    The value of a line is ``contract`` times the other seats, won once the bidder's
    points reach it and lost otherwise, plus the bidder's further points less the
    others' further marriages (no ``contract``: the points alone). :meth:`after` takes
    the points the bidder still ``need``s; ``hands`` are the cards each seat holds now
    (those already in the current trick excluded), ``trick`` the cards played to it so
    far, from ``leader``. Marriages may be declared (the deal's first lead is behind).
    """

    __slots__ = ("_ace_marriage", "_bidder", "_memo", "_seats", "_stake", "nodes")
    nodes: int
    """Cards tried so far: the work done, a measure steadier than time."""

    def __init__(
        self,
        seats: int,
        bidder: int,
        *,
        ace_marriage: bool = False,
        contract: int = 0,
    ) -> None:
        self._seats = seats
        self._bidder = bidder
        self._ace_marriage = ace_marriage
        self._stake = contract * (seats - 1)
        self._memo: dict[tuple[tuple[int, ...], int, int, int], int] = {}
        self.nodes = 0

    def after(
        self,
        hands: Sequence[int],
        leader: int,
        trump: int,
        trick: Sequence[int],
        card: int,
        need: int = 0,
    ) -> int:
        """The value once ``card`` is played (this trick's points included)."""
        seat = (leader + len(trick)) % self._seats
        h = list(hands)
        return self._play(h, leader, trump, list(trick), 0, seat, card, -_INF, _INF, need)

    def _lead_value(self, hands: list[int], leader: int, trump: int, need: int) -> int:
        if not hands[leader]:
            return self._stake if need <= 0 else -self._stake
        key = (tuple(hands), leader, trump, need if need > 0 and self._stake else 0)
        value = self._memo.get(key)
        if value is None:
            value = self._search(hands, leader, trump, [], 0, -_INF, _INF, need)
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
        need: int,
    ) -> int:
        """Best further value with ``trick`` under way (``bonus``: its marriage, if any)."""
        seat = (leader + len(trick)) % self._seats
        maximise = seat == self._bidder
        best = -_INF if maximise else _INF
        for card in _ordered(_legal(hands[seat], trick, trump)):
            value = self._play(hands, leader, trump, trick, bonus, seat, card, alpha, beta, need)
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
        need: int,
    ) -> int:
        self.nodes += 1
        hand = hands[seat]
        if not trick:
            # a trick's one declaration is its lead's: the bidder's adds, another's takes away
            sign = 1 if seat == self._bidder else -1
            mate = partner(card)
            if mate >= 0 and hand >> mate & 1:
                trump = card >> 3
                bonus = sign * MARRIAGE[trump]
            elif self._ace_marriage and card & 7 == 7 and hand & ACES == ACES:
                bonus = sign * ACE_MARRIAGE_POINTS
        hands[seat] = hand & ~(1 << card)
        trick.append(card)
        try:
            if len(trick) < self._seats:
                return self._search(hands, leader, trump, trick, bonus, alpha, beta, need)
            winner = (leader + _winning(trick, trump)) % self._seats
            won = sum(POINTS[c] for c in trick) if winner == self._bidder else 0
            taken = max(bonus, 0) + won
            return bonus + won + self._lead_value(hands, winner, trump, need - taken)
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


@functools.lru_cache(maxsize=40_000)
def _ordered(cards: int) -> tuple[int, ...]:
    """Rich and strong cards first: the likeliest best moves, for earlier cut-offs. Kept
    for the sets met lately: the same ones come up again and again in one solve and in
    the next layout's."""
    return tuple(sorted(iter_mask(cards), key=lambda c: -(POINTS[c] * 8 + STRENGTH[c])))
