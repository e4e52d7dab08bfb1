"""Hard's search: deal the hidden cards consistently with what the seat knows, then
search the play (a tree over the sampled layouts, played out by the easy strategy;
the last tricks solved exactly) or play each bid's deal out with the easy strategy.
Once the others have played, the layouts are weighed by how well they explain those
plays, and the plays tell how the others play: the more of them the heuristic
explains, the more often the tree has them reply as it would rather than as a strong
player (:mod:`bot.ai.deberts.inference`). A deal played out is valued against the game:
by the chance to win it that the deal's written points leave (:mod:`bot.ai.deberts.outlook`).

The amount of work is a number of simulated card plays (or solved positions) fixed
by the time budget, never the clock, so a decision depends only on the view and the
seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from bot.ai.deberts.endgame import card_values
from bot.ai.deberts.evaluation import easy_order, resolve_combinations, seat_order
from bot.ai.deberts.heuristics import greedy_card
from bot.ai.deberts.inference import judge, weight
from bot.ai.deberts.knowledge import Knowledge
from bot.ai.deberts.outlook import Values, deal_values, margins, worth
from bot.ai.deberts.sampling import auction_weight, sample_hands
from bot.ai.deberts.table import Table, Worth, beats, play_out
from bot.ai.opponents import PLAIN_PRIOR
from bot.ai.uct import Node, credit, descend, follow
from bot.engine.cards import mask_cards

__all__ = [
    "AUCTION_PLAYS_PER_MS",
    "ENDGAME_NODES_PER_MS",
    "ENDGAME_PLAYS",
    "SCALE",
    "TREE_PLAYS_PER_MS",
    "auction_values",
    "best_card",
    "table_for",
    "tree_search",
]

TREE_PLAYS_PER_MS = 92.0
"""Simulated card plays a millisecond of budget in the tree search, whose play-outs cost
1.6 times those of the one-card-deep search it replaced (150 a millisecond, calibrated with
``python -m bot.bench think`` to use most of the budget): the same time per decision."""
ENDGAME_PLAYS: dict[int, int] = {2: 8, 3: 9}
"""Cards left in all hands, by seats, at which the sampled layouts are solved exactly."""
ENDGAME_NODES_PER_MS = 200.0
"""Positions the exact solves visit per millisecond of budget: at 120, hard's decisions
with 4 cards or fewer in hand took 65 ms of CPU at the median (132 decisions of 4
two-player games), a third of the budget."""
AUCTION_PLAYS_PER_MS = 90.0
"""Simulated card plays a millisecond of budget for a bid, whose every sample deals and
plays a whole deal per option: at 150 its decisions took 206 ms at the median and 410 at
the 95th percentile, above the 250 ms a decision may take."""
_MIN_SAMPLES = 6
_MIN_ITERATIONS = 24
_MAX_SOLVED = 400
SCALE = 200.0
"""Deal points per unit of the tree's reward."""


def table_for(know: Knowledge, hands: list[int]) -> Table:
    """The play-phase table of ``know`` with ``hands`` filled in."""
    table = Table(know.seats, know.trump, know.bidder, know.dealer, hands, know.seat)
    table.gone = know.gone | _face_up(know)
    table.points = list(know.points)
    table.took = list(know.took)
    table.voids = list(know.voids)
    table.trick = [c for _, c in know.trick]
    if table.trick:
        best = 0
        for i in range(1, len(table.trick)):
            if beats(table.trick[i], table.trick[best], know.trump):
                best = i
        table.best = best
        table.best_seat = know.trick[best][0]
    if know.combos_resolved:
        table.combo_seat, table.combo_points = know.combo_seat, know.combo_points
    elif any(hands):
        start = [hands[s] | know.played[s] for s in range(know.seats)]
        table.combo_seat, table.combo_points = resolve_combinations(
            start, know.trump, know.dealer, know.moscow
        )
    return table


def _face_up(know: Knowledge) -> int:
    mask = 0
    if know.open_card >= 0:
        mask |= 1 << know.open_card
    if know.bottom_card >= 0:
        mask |= 1 << know.bottom_card
    return mask


def _weighted_sample(know: Knowledge, rng: random.Random) -> list[int]:
    """A deal of the hidden cards, re-drawn a few times when it fits the auction badly."""
    hands = sample_hands(know, rng)
    for _ in range(3):
        if rng.random() < auction_weight(know, hands, know.played):
            break
        hands = sample_hands(know, rng)
    return hands


def best_card(know: Knowledge, cards: list[int], rng: random.Random, budget_ms: float) -> int:
    """The card to play of ``cards``: by exact solving of sampled layouts once few cards
    are left (:data:`ENDGAME_PLAYS`), else by a tree search over sampled layouts."""
    if len(cards) == 1:
        return cards[0]
    if sum(know.hand_sizes) <= ENDGAME_PLAYS[know.seats]:
        return _solved_card(know, cards, rng, budget_ms)
    return _searched_card(know, rng, budget_ms)


def _searched_card(know: Knowledge, rng: random.Random, budget_ms: float) -> int:
    """Information-set MCTS over the layouts sampled as the auction suggests, played out
    past the tree by the easy strategy, for every seat."""
    plays_left = sum(know.hand_sizes) or 1
    iterations = max(_MIN_ITERATIONS, int(budget_ms * TREE_PLAYS_PER_MS / plays_left))
    iterations, sample, plain = _pooled(know, rng, iterations)
    return tree_search(know, rng, iterations, sample, greedy_card, plain, deal_values(know))


POOL = 128
"""Layouts dealt for a decision's tree search once the others have played: each is
weighed by how well it explains their plays (:mod:`bot.ai.deberts.inference`) and the
auction, and the search's walks deal from this pool by weight."""
POOL_WALKS = 1.15
"""A walk that draws its layout from the pool costs less than one that deals it, the
pool's weighing included: with this many more of them, a decision's CPU over 40
two-player positions with cards played, five runs interleaved with the dealing search
on a loaded machine, was 178 ms on average against 184."""
INFER = True
"""Whether the card search reads the others' plays (off, it searches as it did before:
the baseline the fixed-position comparisons are made against)."""


def _pooled(know: Knowledge, rng: random.Random, walks: int) -> tuple[int, Sampler, float]:
    """The walks the search makes, for ``walks`` that deal their layouts, and where
    their layouts come from: dealt afresh (as the auction suggests) while the others
    have not played yet, else drawn by weight from a pool (:data:`POOL_WALKS` times as
    many walks then). And the chance that the others play by the heuristic
    (:func:`bot.ai.deberts.inference.judge`)."""
    if not INFER:
        return walks, _weighted_sample, 0.0
    plays = [seat for trick in (*know.history, know.trick) for seat, _ in trick]
    if all(seat == know.seat for seat in plays):
        return walks, _weighted_sample, PLAIN_PRIOR
    pool = [sample_hands(know, rng) for _ in range(min(POOL, walks))]
    prior = [auction_weight(know, hands, know.played) for hands in pool]
    weights, plain = judge(know, pool, _face_up(know), prior)
    cumulative = list(itertools.accumulate(weights))
    return (
        int(walks * POOL_WALKS),
        lambda know, rng: list(rng.choices(pool, cum_weights=cumulative)[0]),
        plain,
    )


Sampler = Callable[[Knowledge, random.Random], list[int]]
"""Every seat's hand in one deal consistent with what the seat knows."""
Rollout = Callable[[Table, int], int]
"""The card a seat plays past the tree."""


def tree_search(
    know: Knowledge,
    rng: random.Random,
    iterations: int,
    sample: Sampler,
    rollout: Rollout,
    plain: float = 0.0,
    values: Values = margins,
) -> int:
    """Single-observer information-set MCTS over the card play, shared by hard and the
    reference level (which differ in ``sample`` and ``rollout``): each iteration deals
    the hidden cards once, walks down one tree shared by every deal (:mod:`bot.ai.uct`)
    over the cards legal in that deal, adds one node, plays the deal out with ``rollout``
    and credits each node with the deal's result for the seat that played into it. The
    card visited most at the root. Below the root, another seat plays ``rollout``'s card
    with the chance ``plain`` (a model of players who play that way)."""
    me = know.seat
    root = Node(seat=-1)
    for _ in range(iterations):
        table = table_for(know, sample(know, rng))
        path = [root]
        expanded = False
        while not expanded and table.hands[table.turn]:
            seat = table.turn
            moves = list(mask_cards(table.legal(seat)))
            if seat != me and plain and len(path) > 1 and rng.random() < plain:
                card = rollout(table, seat)
                expanded = follow(path, moves, card, seat)
            else:
                card, expanded = descend(path, moves, seat, rng)
            table.note_play(seat, card)
            table.play(card)
        points = play_out(table, rollout)
        credit(path, [value / SCALE for value in values(points, know.bidder)])
    return root.most_visited()


def _solved_card(know: Knowledge, cards: list[int], rng: random.Random, budget_ms: float) -> int:
    """The card with the best mean exact deal result over sampled layouts: as many as
    :data:`ENDGAME_NODES_PER_MS` positions solved allow."""
    totals = dict.fromkeys(cards, 0.0)
    nodes_left = budget_ms * ENDGAME_NODES_PER_MS
    face_up = _face_up(know)
    settle = worth(know)
    for samples in range(_MAX_SOLVED):
        if samples >= _MIN_SAMPLES and nodes_left <= 0:
            break
        hands = _weighted_sample(know, rng)
        likely = weight(know, hands, face_up) if INFER else 1.0
        values, nodes = card_values(table_for(know, hands), cards, settle)
        for card, value in zip(cards, values, strict=True):
            totals[card] += likely * value
        nodes_left -= nodes
    return max(cards, key=lambda c: (totals[c], -c))


def _deal_out(know: Knowledge, rng: random.Random) -> tuple[list[int], list[int], int]:
    """A deal during the auction: the others' first six cards, everyone's last three, the bottom.

    Redrawn a few times until the easy rule would have made the passes already heard.
    """
    n = know.seats
    seat = know.seat
    unseen = list(mask_cards(((1 << 32) - 1) & ~know.hand & ~(1 << know.open_card)))
    first: list[int] = []
    for _ in range(8):
        rng.shuffle(unseen)
        first = [0] * n
        at = 0
        for s in range(n):
            if s == seat:
                first[s] = know.hand
                continue
            for card in unseen[at : at + 6]:
                first[s] |= 1 << card
            at += 6
        if _fits_auction(know, first):
            break
    extra = [0] * n
    for s in range(n):
        for card in unseen[at : at + 3]:
            extra[s] |= 1 << card
        at += 3
    return first, extra, unseen[-1]


def _fits_auction(know: Knowledge, first: list[int]) -> bool:
    """Would the easy rule have passed wherever another seat passed?"""
    second = False
    for s, action in know.auction:
        passed = s != know.seat and action == "pass"
        if passed and easy_order(first[s], know.open_card, know.seats, second, True) >= 0:
            return False
        if s == know.dealer and action == "pass":
            second = True
    return True


def auction_values(
    know: Knowledge, options: list[int], rng: random.Random, budget_ms: float
) -> dict[int, float]:
    """Mean deal result for the seat for each option: order a suit, or pass (-1).

    After a pass the rest of the auction is played by the easy rule (ours too in
    the second round), then the deal is played out greedily; a redeal is worth 0.
    """
    rollouts = max(1, int(budget_ms * AUCTION_PLAYS_PER_MS / (9 * know.seats)))
    samples = max(_MIN_SAMPLES, rollouts // max(1, len(options)))
    totals = dict.fromkeys(options, 0.0)
    n = know.seats
    seat = know.seat
    order = seat_order(know.dealer, n)
    second_round = any(s == know.dealer and a == "pass" for s, a in know.auction)
    obligatory = bool(know.conventions.get("order_obligatory"))
    settle = worth(know)
    for _ in range(samples):
        first, extra, bottom = _deal_out(know, rng)
        hands = [first[s] | extra[s] for s in range(n)]
        for option in options:
            if option >= 0:
                totals[option] += _play_deal(know, hands, seat, option, bottom, settle)
                continue
            bidder, trump = _after_pass(know, first, order, second_round, obligatory)
            if bidder >= 0:
                totals[option] += _play_deal(know, hands, bidder, trump, bottom, settle)
    return {t: v / samples for t, v in totals.items()}


def _after_pass(
    know: Knowledge, first: list[int], order: list[int], second_round: bool, obligatory: bool
) -> tuple[int, int]:
    """Who orders which suit once the seat has passed, by the easy rule."""
    position = order.index(know.seat)
    if not second_round:
        for s in order[position + 1 :]:
            if easy_order(first[s], know.open_card, know.seats, False, True) >= 0:
                return s, know.open_card >> 3
        position = -1
    for s in order[position + 1 :]:
        may_pass = not (obligatory and s == know.dealer)
        suit = easy_order(first[s], know.open_card, know.seats, True, may_pass)
        if suit >= 0:
            return s, suit
    return -1, -1


def _play_deal(
    know: Knowledge, hands: list[int], bidder: int, trump: int, bottom: int, settle: Worth
) -> float:
    n = know.seats
    dealt = list(hands)
    open_card = know.open_card
    if trump == open_card >> 3 and know.conventions.get("seven_swap", True):
        seven = trump * 8
        for s in range(n):
            if dealt[s] >> seven & 1:
                dealt[s] ^= 1 << seven | 1 << open_card
                open_card = seven
                break
    table = Table(n, trump, bidder, know.dealer, dealt, (know.dealer + 1) % n)
    table.gone = 1 << open_card | 1 << bottom
    table.combo_seat, table.combo_points = resolve_combinations(
        dealt, trump, know.dealer, know.moscow
    )
    return settle(play_out(table, greedy_card), bidder)
