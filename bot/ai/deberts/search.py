"""Determinized Monte Carlo search: deal the hidden cards, play each option out greedily.

The amount of work is a number of simulated card plays fixed by the time
budget (:data:`PLAYS_PER_MS`), never the clock, so a decision depends only on the
view and the seed.
"""

from __future__ import annotations

import random

from bot.ai.deberts.evaluation import easy_order, resolve_combinations, seat_order
from bot.ai.deberts.heuristics import greedy_card
from bot.ai.deberts.knowledge import Knowledge
from bot.ai.deberts.sampling import auction_weight, sample_hands
from bot.ai.deberts.table import Table, beats, deal_result, play_out

__all__ = [
    "PLAYS_PER_MS",
    "auction_values",
    "best_card",
    "table_for",
]

# Simulated card plays per millisecond of budget, calibrated on this machine so
# that a decision with the default budget stays within it under load.
PLAYS_PER_MS = 20.0
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
    plays_left = sum(k.hand_sizes) or 1
    rollouts = max(1, int(budget_ms * PLAYS_PER_MS / plays_left))
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


def _deal_out(k: Knowledge, rng: random.Random) -> tuple[list[int], list[int], int]:
    """A deal during the auction: the others' first six cards, everyone's last three, the bottom.

    Redrawn a few times until the easy rule would have made the passes already heard.
    """
    n = k.n
    seat = k.seat
    unseen = _bits(((1 << 32) - 1) & ~k.hand & ~(1 << k.open_card))
    first: list[int] = []
    for _ in range(8):
        rng.shuffle(unseen)
        first = [0] * n
        at = 0
        for s in range(n):
            if s == seat:
                first[s] = k.hand
                continue
            for card in unseen[at : at + 6]:
                first[s] |= 1 << card
            at += 6
        if _fits_auction(k, first):
            break
    extra = [0] * n
    for s in range(n):
        for card in unseen[at : at + 3]:
            extra[s] |= 1 << card
        at += 3
    return first, extra, unseen[-1]


def _fits_auction(k: Knowledge, first: list[int]) -> bool:
    """Would the easy rule have passed wherever another seat passed?"""
    second = False
    for s, action in k.auction:
        passed = s != k.seat and action == "pass"
        if passed and easy_order(first[s], k.open_card, k.n, second, True) >= 0:
            return False
        if s == k.dealer and action == "pass":
            second = True
    return True


def auction_values(
    k: Knowledge, options: list[int], rng: random.Random, budget_ms: float
) -> dict[int, float]:
    """Mean deal result for the seat for each option: order a suit, or pass (-1).

    After a pass the rest of the auction is played by the easy rule (ours too in
    the second round), then the deal is played out greedily; a redeal is worth 0.
    """
    rollouts = max(1, int(budget_ms * PLAYS_PER_MS / (9 * k.n)))
    samples = max(_MIN_SAMPLES, rollouts // max(1, len(options)))
    totals = dict.fromkeys(options, 0.0)
    n = k.n
    seat = k.seat
    order = seat_order(k.dealer, n)
    second_round = any(s == k.dealer and a == "pass" for s, a in k.auction)
    obligatory = bool(k.conventions.get("order_obligatory"))
    for _ in range(samples):
        first, extra, bottom = _deal_out(k, rng)
        hands = [first[s] | extra[s] for s in range(n)]
        for option in options:
            if option >= 0:
                totals[option] += _play_deal(k, hands, seat, option, bottom)
                continue
            bidder, trump = _after_pass(k, first, order, second_round, obligatory)
            if bidder >= 0:
                totals[option] += _play_deal(k, hands, bidder, trump, bottom)
    return {t: v / samples for t, v in totals.items()}


def _after_pass(
    k: Knowledge, first: list[int], order: list[int], second_round: bool, obligatory: bool
) -> tuple[int, int]:
    """Who orders which suit once the seat has passed, by the easy rule."""
    position = order.index(k.seat)
    if not second_round:
        for s in order[position + 1 :]:
            if easy_order(first[s], k.open_card, k.n, False, True) >= 0:
                return s, k.open_card >> 3
        position = -1
    for s in order[position + 1 :]:
        may_pass = not (obligatory and s == k.dealer)
        suit = easy_order(first[s], k.open_card, k.n, True, may_pass)
        if suit >= 0:
            return s, suit
    return -1, -1


def _play_deal(k: Knowledge, hands: list[int], bidder: int, trump: int, bottom: int) -> float:
    n = k.n
    dealt = list(hands)
    open_card = k.open_card
    if trump == open_card >> 3 and k.conventions.get("seven_swap", True):
        seven = trump * 8
        for s in range(n):
            if dealt[s] >> seven & 1:
                dealt[s] ^= 1 << seven | 1 << open_card
                open_card = seven
                break
    table = Table(n, trump, bidder, k.dealer, dealt, (k.dealer + 1) % n)
    table.gone = 1 << open_card | 1 << bottom
    table.combo_seat, table.combo_points = resolve_combinations(dealt, trump, k.dealer, k.moscow)
    points = play_out(table, greedy_card)
    return deal_result(points, bidder, k.seat)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
