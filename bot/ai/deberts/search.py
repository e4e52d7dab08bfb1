"""Determinized Monte Carlo search: deal the hidden cards, play each option out greedily.

The amount of work is a number of rollouts fixed by the time budget
(:data:`ROLLOUTS_PER_MS`), never the clock, so a decision depends only on the
view and the seed.
"""

from __future__ import annotations

import random

from bot.ai.deberts.evaluation import resolve_combinations
from bot.ai.deberts.heuristics import greedy_card
from bot.ai.deberts.knowledge import Knowledge
from bot.ai.deberts.sampling import auction_weight, sample_auction_deal, sample_hands
from bot.ai.deberts.table import Table, beats, deal_result, play_out

__all__ = [
    "ROLLOUTS_PER_MS",
    "auction_values",
    "best_card",
    "table_for",
]

# Rollouts per millisecond of budget, calibrated on this machine so that a
# decision with the default budget stays within it.
ROLLOUTS_PER_MS = 1.0
_MIN_SAMPLES = 6


def table_for(k: Knowledge, hands: list[int]) -> Table:
    """The play-phase table of ``k`` with ``hands`` filled in."""
    table = Table(k.n, k.trump, k.bidder, k.dealer, hands, k.seat)
    table.gone = k.gone | _face_up(k)
    table.points = list(k.points)
    table.took = list(k.took)
    table.voids = list(k.voids)
    table.trick = [c for _, c in k.trick]
    table.trick_seats = [s for s, _ in k.trick]
    if table.trick:
        best = 0
        for i in range(1, len(table.trick)):
            if beats(table.trick[i], table.trick[best], k.trump):
                best = i
        table.best = best
        table.best_seat = table.trick_seats[best]
    if k.combos_resolved:
        table.combo_seat, table.combo_points = k.combo_seat, k.combo_points
    elif any(hands):
        start = [hands[s] | k.played[s] for s in range(k.n)]
        table.combo_seat, table.combo_points = resolve_combinations(
            start, k.trump, k.dealer, k.moscow
        )
    return table


def _face_up(k: Knowledge) -> int:
    mask = 0
    if k.open_card >= 0:
        mask |= 1 << k.open_card
    if k.bottom_card >= 0:
        mask |= 1 << k.bottom_card
    return mask


def _weighted_sample(k: Knowledge, rng: random.Random) -> list[int]:
    """A deal of the hidden cards, re-drawn a few times when it fits the auction badly."""
    hands = sample_hands(k, rng)
    for _ in range(3):
        if rng.random() < auction_weight(k, hands, k.played):
            break
        hands = sample_hands(k, rng)
    return hands


def best_card(k: Knowledge, cards: list[int], rng: random.Random, budget_ms: float) -> int:
    """The card of ``cards`` with the best mean deal result over sampled deals."""
    if len(cards) == 1:
        return cards[0]
    rollouts = max(1, int(budget_ms * ROLLOUTS_PER_MS))
    samples = max(_MIN_SAMPLES, rollouts // len(cards))
    totals = dict.fromkeys(cards, 0.0)
    seat = k.seat
    for _ in range(samples):
        hands = _weighted_sample(k, rng)
        base = table_for(k, hands)
        for card in cards:
            table = base.copy()
            table.note_play(seat, card)
            table.play(card)
            points = play_out(table, greedy_card)
            totals[card] += deal_result(points, k.bidder, seat)
    return max(cards, key=lambda c: (totals[c], -c))


def auction_values(
    k: Knowledge, trumps: list[int], rng: random.Random, budget_ms: float
) -> dict[int, float]:
    """Mean deal result for the seat if it orders each of ``trumps``, over sampled deals."""
    rollouts = max(1, int(budget_ms * ROLLOUTS_PER_MS * 0.5))
    samples = max(_MIN_SAMPLES, rollouts // max(1, len(trumps)))
    totals = dict.fromkeys(trumps, 0.0)
    n = k.n
    seat = k.seat
    open_suit = k.open_card >> 3
    leader = (k.dealer + 1) % n
    for _ in range(samples):
        hands, bottom = sample_auction_deal(k.hand, n, seat, k.open_card, rng)
        for trump in trumps:
            dealt = list(hands)
            open_card = k.open_card
            if trump == open_suit:
                seven = trump * 8
                for s in range(n):
                    if dealt[s] >> seven & 1:
                        dealt[s] ^= 1 << seven | 1 << open_card
                        open_card = seven
                        break
            table = Table(n, trump, seat, k.dealer, dealt, leader)
            table.gone = 1 << open_card | 1 << bottom
            table.combo_seat, table.combo_points = resolve_combinations(
                dealt, trump, k.dealer, k.moscow
            )
            points = play_out(table, greedy_card)
            totals[trump] += deal_result(points, seat, seat)
    return {t: v / samples for t, v in totals.items()}
