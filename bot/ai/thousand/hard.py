"""The hard level: Monte Carlo search over the cards the seat cannot see.

Each decision deals the hidden cards many times (consistently with the seat's
knowledge, see :mod:`bot.ai.thousand.sampling`). A card is chosen by
information-set MCTS over those layouts, played out past the tree with the easy
level's card play for all seats, or, once few cards are left, by solving each
layout exactly. Once the others have played, the layouts are weighed by how well
they explain those plays, and the plays tell how the others play: the more of them
the heuristic explains, the more often the tree has them reply as it would rather
than as a strong player (:mod:`bot.ai.thousand.inference`). The auction, the
give-away and the contract play each layout out with look ahead and value the
contracts against the game, each seat's points weighed by what they do to the race to
the target (:func:`race`); once the others' plays in the last deal played out have
shown that they play by the heuristic, as the easy level does, the layouts are played
out by it (:data:`PLAIN_BIDDING`). The amount of work is a fixed number of simulated card
plays (or play-outs, or cards tried) per millisecond of budget, never the clock, so
a seed always gives the same decision; ``python -m bot.bench think`` measures the
time it takes.
"""

from __future__ import annotations

import itertools
import random
import statistics
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from statistics import NormalDist

from bot.ai.opponents import PLAIN_PRIOR
from bot.ai.players import DEFAULT_BUDGET_MS
from bot.ai.thousand.cards import DECK, POINTS, card_code, partner
from bot.ai.thousand.easy import _redeal, easy_policy, numbers
from bot.ai.thousand.evaluate import bid_value, give_card
from bot.ai.thousand.inference import judge, observed, plain_before, weight
from bot.ai.thousand.knowledge import Knowledge, read
from bot.ai.thousand.play import PlayState
from bot.ai.thousand.sampling import sample_hands
from bot.ai.thousand.solver import Endgame
from bot.ai.uct import Node, credit, descend, follow
from bot.engine.cards import iter_mask, mask_cards, parse_index
from bot.engine.thousand.rules import (
    BARREL,
    BOLT_PENALTY,
    BOLTS_PER_PENALTY,
    DUMP_TRUCK,
    TARGET,
)
from bot.engine.thousand.view import ThousandView

__all__ = ["PLAYOUTS_PER_MS", "PLAYS_PER_MS", "hard_policy"]

PLAYOUTS_PER_MS = 0.8
"""Whole-deal playouts (with their sampling) per millisecond of budget: the redeal."""
PLAYS_PER_MS = 175.0
"""Card plays simulated per millisecond of budget when choosing a card: each iteration
of the tree search plays the deal out (the cards left in all hands) and deals its
layout (``SAMPLE_PLAYS`` more). A card play costs about 3.2 us, dealing a layout 37 us
(fitted over 182 decisions), and the tree's walk adds a fifth: at 215 the searched
cards took 173 ms of CPU at the median and 255 at the 95th percentile (130 decisions
of 3 two-player games); calibrated with ``python -m bot.bench think``."""
SAMPLE_PLAYS = 12
"""Dealing one layout of the hidden cards, in card plays: with it counted, a decision's
time no longer grows where few cards are left and many layouts are dealt."""
TREE_SCALE = 250.0
"""Deal points per unit of the tree's reward (UCB1's exploration suits about [-1, 1])."""
MIN_ITERATIONS = 24


def _playouts(budget_ms: float) -> int:
    return max(16, int(budget_ms * PLAYOUTS_PER_MS))


def _round(points: int) -> int:
    return (points + 2) // 5 * 5


def lead(deltas: Sequence[float], me: int, weights: Sequence[float] | None = None) -> float:
    """``me``'s score change over the others' mean, each seat's weighted as ``weights``
    has it (:func:`race`; all alike when ``None``)."""
    n = len(deltas)
    w = weights or [1.0] * n
    return w[me] * deltas[me] - sum(w[s] * deltas[s] for s in range(n) if s != me) / (n - 1)


def race(totals: Sequence[int], me: int) -> list[float]:
    """What a point each seat writes is worth to ``me``'s chance of winning the game, as
    a share of what it is worth at even totals.

    Two players race to the target as random walks of the same drift and spread: the
    one with ``d`` points left finishes after about ``d / mu`` deals, give or take
    ``sqrt(d) * sigma / mu ** 1.5``, so the first of ``d1`` and ``d2`` left wins with
    chance ``Phi(c * (d2 - d1) / sqrt(d1 + d2))``. A point of one's own moves that by
    ``1 + t`` to the other's ``1 - t``, ``t = (d2 - d1) / (2 * (d1 + d2))``, whatever the
    drift and spread: the leader's own points bring the end nearer, the trailer's
    points kept from the leader hold it off. From the barrel the game is one contract
    away (taken as its ``TARGET - BARREL`` points). With more players, each other seat
    is raced on its own and ``me``'s weight is the mean of those races.
    """
    n = len(totals)
    left = [TARGET - min(t, BARREL) for t in totals]
    weights = [0.0] * n
    for s in range(n):
        if s != me:
            tilt = (left[s] - left[me]) / (2 * (left[s] + left[me]))
            weights[me] += (1 + tilt) / (n - 1)
            weights[s] = 1 - tilt
    return weights


def outcome(
    points: list[int], bidder: int, contract: int, me: int, weights: Sequence[float] | None = None
) -> float:
    """What the deal is worth to ``me``: my score change against the others' mean."""
    deltas = [
        float(contract if points[s] >= contract else -contract)
        if s == bidder
        else _round(points[s])
        for s in range(len(points))
    ]
    return lead(deltas, me, weights) + 0.05 * points[me]


BOLT_COST = 40.0
"""A bolt's share of the 120 that every third one costs."""


def conceded(
    seats: int, bidder: int, contract: int, me: int, weights: Sequence[float] | None = None
) -> float:
    """What a conceded deal is worth to ``me``."""
    deltas = [float(concede_share(contract))] * seats
    deltas[bidder] = -BOLT_COST
    return lead(deltas, me, weights)


def hard_policy(view: ThousandView, rng: random.Random, budget_ms: float) -> str:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase == "play":
        know = read(view)
        return "c" + card_code(_search_card(know, rng, budget_ms))
    if phase == "redeal":
        return _redeal_hard(read(view), rng, _playouts(budget_ms))
    if phase not in ("auction", "give", "contract"):
        return easy_policy(view, rng, budget_ms)
    # whether the others play by the heuristic, judged from the last deal played out
    plain = INFER and plain_before(view) >= PLAIN_BIDDING
    if phase == "auction":
        return _bid(read(view), legal, budget_ms, plain)
    if phase == "give":
        return _give(read(view), legal, rng, budget_ms, plain)
    return _contract(read(view), legal, rng, budget_ms, plain)


# ------------------------------------------------------------------------ play


def _state(know: Knowledge, hands: list[int]) -> PlayState:
    leader = know.trick[0][0] if know.trick else know.me
    return PlayState(
        seats=know.seats,
        hands=hands,
        trump=know.trump,
        leader=leader,
        bidder=know.bidder if know.bidder is not None else 0,
        trick=know.trick_cards,
        points=list(know.points),
        tricks_won=[0] * know.seats,
        first_trick=not know.first_lead_done,
        played=know.played,
    )


SOLVE_CARDS = {2: 6, 3: 4}
"""By seats: with this many cards or fewer in hand, each sampled layout is solved exactly.
Two players' six-card endgame over 48 layouts took 93 ms of CPU at the median and 227
at the 95th percentile, seven cards 576 and 1,355."""
SOLVES_PER_MS = 1.0
"""Layouts dealt for an exact solve per millisecond of budget, at most (200 at the
default; the same layout dealt twice is solved once)..."""
SOLVE_NODES_PER_MS = 250.0
"""...and no more once the solves have tried this many cards per millisecond of budget
(``Endgame.nodes``), after ``SOLVE_LEAST`` layouts: a solve's time grows steeply with the
cards left and varies from layout to layout, its cards tried per millisecond much less
(about 490). At 300, two players' six-card endgames took 88 ms of CPU at the median, 170
at the 95th percentile; at 400, 61 and 151 on a machine where the card search's
decisions took about 62 (6 games against easy), the slowest of the card play but the
first lead; at 250, 54 and 107, the card search 63-71 and 96-109."""
SOLVE_LEAST = 8


def _search_card(know: Knowledge, rng: random.Random, budget_ms: float) -> int:
    legal = _legal_mask(know)
    cards = list(iter_mask(legal))
    if len(cards) == 1:
        return cards[0]
    bidder = know.bidder if know.bidder is not None else 0
    contract = know.contract or know.bid or 100
    if know.hand.bit_count() <= SOLVE_CARDS.get(know.seats, 0) and know.first_lead_done:
        samples = max(SOLVE_LEAST, int(budget_ms * SOLVES_PER_MS))
        nodes = int(budget_ms * SOLVE_NODES_PER_MS)
        return _solve_card(know, rng, cards, bidder, contract, samples, nodes)
    return _tree_card(know, rng, budget_ms, cards, bidder, contract)


def _tree_card(
    know: Knowledge,
    rng: random.Random,
    budget_ms: float,
    cards: list[int],
    bidder: int,
    contract: int,
) -> int:
    """Single-observer information-set MCTS (:mod:`bot.ai.uct`): each iteration deals
    the hidden cards once, walks down the one tree over the cards legal in that
    layout, adds a node, plays the deal out with the heuristic for every seat and
    credits each node with the outcome for the seat that played into it. The card
    visited most at the root, which offers only ``cards`` (those the view allows).

    Against the one-card-deep search it replaced (every card tried in every layout,
    both at 215 plays a millisecond, the tree taking a quarter longer), it won 52 of
    80 duplicate two-player games, 65.0 % [54.1-74.6], by 11.9 points a deal (seeds
    72000-72039)."""
    n = know.seats
    plays_left = sum(know.hand_sizes) or 1
    iterations, deal, plain = _dealer(know, rng, budget_ms * PLAYS_PER_MS, plays_left)
    me = know.me
    root = Node(seat=-1)
    for _ in range(iterations):
        st = _state(know, deal())
        path = [root]
        while not st.done:
            seat = st.to_act
            if len(path) == 1:
                card, added = descend(path, cards, seat, rng)
            else:
                moves = list(mask_cards(st.legal()))
                if seat != me and plain and rng.random() < plain:
                    card = st.heuristic(seat)
                    added = follow(path, moves, card, seat)
                else:
                    card, added = descend(path, moves, seat, rng)
            st.play(card)
            if added:
                break
        st.rollout()
        credit(path, [outcome(st.points, bidder, contract, s) / TREE_SCALE for s in range(n)])
    return root.most_visited()


POOL = 256
"""Layouts dealt for a decision's tree search once the others have played: each is
weighed by how well it explains their plays (:mod:`bot.ai.thousand.inference`), and
the search's walks deal from this pool by weight."""
TALLY_PLAYS = 11
"""Weighing a layout by the others' plays, in card plays (about 34 us)."""
DEAL_PLAYS = 24
"""A walk that deals its layout afresh (the others have not played yet: the bidder's
first lead), in card plays besides those it plays out: twice :data:`SAMPLE_PLAYS`. At
12, the first lead's walks took 92 us of CPU at the median against 67 for the walks
from a pool with as many cards left (2.7 us a card play counted against 2.0), and the
first lead was the slowest of the card play: p50 208 and p95 313 ms at a budget of 426
ms, against 155-162 and 212-224 with 7 to 10 cards (6 games against easy); at 24, 142
and 173 at a budget of 422, against 125-140 and 148-190."""
INFER = True
"""Whether the card search reads the others' plays (off, it searches as it did before:
the baseline the fixed-position comparisons are made against)."""


def _dealer(
    know: Knowledge, rng: random.Random, plays: float, plays_left: int
) -> tuple[int, Callable[[], list[int]], float]:
    """The walks the search makes for ``plays`` card plays of work and where their
    layouts come from: dealt afresh for each walk while the others have not played
    yet (:data:`DEAL_PLAYS` more a walk), else drawn by weight from a pool of
    :data:`POOL`, whose weighing costs ``TALLY_PLAYS`` a layout. And
    the chance that the others play by the heuristic
    (:func:`~bot.ai.thousand.inference.judge`)."""
    seen = observed(know) if INFER else []
    if not seen:
        walks = max(MIN_ITERATIONS, int(plays / (plays_left + DEAL_PLAYS)))
        return walks, (lambda: sample_hands(know, rng)), PLAIN_PRIOR if INFER else 0.0
    walks = max(MIN_ITERATIONS, int(plays / (plays_left + SAMPLE_PLAYS)))
    pool = [sample_hands(know, rng) for _ in range(min(POOL, walks))]
    weights, plain = judge(seen, pool, know)
    cumulative = list(itertools.accumulate(weights))
    left = plays - len(pool) * TALLY_PLAYS
    walks = max(MIN_ITERATIONS, int(left / (plays_left + SAMPLE_PLAYS)))
    return walks, (lambda: list(rng.choices(pool, cum_weights=cumulative)[0])), plain


def _solve_card(
    know: Knowledge,
    rng: random.Random,
    cards: list[int],
    bidder: int,
    contract: int,
    samples: int,
    nodes: int,
) -> int:
    """The card that does best over sampled layouts, each played out exactly.

    Up to ``samples`` layouts are dealt; dealing stops early once ``SOLVE_LEAST``
    have been and the solves have tried ``nodes`` cards.
    """
    leader = know.trick[0][0] if know.trick else know.me
    trick = know.trick_cards
    ace_marriage = bool(know.conventions.get("ace_marriage"))
    totals = dict.fromkeys(cards, 0.0)
    solved: dict[tuple[int, ...], tuple[list[int], float]] = {}
    sign = 1 if know.me == bidder else -1
    need = contract - know.points[bidder]
    searched = 0
    seen = observed(know) if INFER else []
    for dealt in range(samples):
        if dealt >= SOLVE_LEAST and searched >= nodes:
            break
        hands = sample_hands(know, rng)
        key = tuple(hands)
        found = solved.get(key)
        if found is None:
            endgame = Endgame(know.seats, bidder, ace_marriage=ace_marriage, contract=contract)
            further = [endgame.after(hands, leader, know.trump, trick, c, need) for c in cards]
            found = solved[key] = further, sign * weight(seen, hands, know)
            searched += endgame.nodes
        further, likely = found
        for c, value in zip(cards, further, strict=True):
            totals[c] += likely * value
    return max(cards, key=lambda c: (totals[c], -POINTS[c], -c))


def _legal_mask(know: Knowledge) -> int:
    mask = 0
    for code in know.legal:
        if code.startswith("c"):
            mask |= 1 << parse_index(code[1:])
    return mask


# --------------------------------------------------------------- before play


def _deal_out(know: Knowledge, rng: random.Random) -> tuple[list[int], int]:
    """Hidden hands as now, and the cards left over (the talon(s) when bidding)."""
    hands = sample_hands(know, rng)
    rest = DECK & ~_union(hands)
    return hands, rest


def _union(hands: list[int]) -> int:
    out = 0
    for h in hands:
        out |= h
    return out


def _play_out(hands: list[int], seats: int, bidder: int) -> list[int]:
    """Play a whole deal from the bidder's first lead with the heuristic; deal points."""
    st = PlayState(seats=seats, hands=hands, trump=-1, leader=bidder, bidder=bidder)
    st.rollout()
    return st.points


def _give_away(hands: list[int], bidder: int, seats: int) -> None:
    """The bidder's give-away by the easy rule, in place."""
    for s in range(seats):
        if s != bidder:
            card = give_card(hands[bidder], seats)
            hands[bidder] &= ~(1 << card)
            hands[s] |= 1 << card


def _bid(know: Knowledge, legal: list[str], budget_ms: float, plain: bool) -> str:
    """Bid on (the lowest bid allowed) or pass, whichever the play-outs favour.

    The hand is valued as the contract will be: play-outs whose defenders look
    ahead (or play by the heuristic if the others do: :func:`_valuing`), the
    calibrated chance of making each contract, the contract of best expected value
    named. Passing is valued alike, with the likely bidder naming
    its best contract from the high bid, or conceding. The layouts and their
    play-outs depend only on the hand, so they are dealt once and serve every
    decision of the auction; bids the others make since only narrow which count.
    """
    bids = numbers(legal, "b")
    if not bids:
        return "pass"
    if "pass" not in legal:
        return f"b{bids[0]}"
    deals = _auction_deals(know, _layouts(budget_ms, plain, AUCTION_SHARE))
    chosen = _consistent(know, deals, bids[0])
    other = _likely_bidder(know)
    me = know.me
    mine = _bidding_value(know, [d.bidding(me, plain) for d in chosen], bids[0], plain)
    theirs = _passing_value(know, [d.bidding(other, plain) for d in chosen], other, know.bid or 100)
    return f"b{bids[0]}" if mine > theirs else "pass"


class AuctionDeal:
    """One layout of the cards hidden during the auction, and its play-outs by bidder."""

    def __init__(self, hands: list[int], talon: int, seats: int) -> None:
        self.hands = hands
        self.talon = talon
        self.seats = seats
        self._points: dict[tuple[int, bool], list[int]] = {}

    def bidding(self, bidder: int, plain: bool) -> list[int]:
        """Deal points per seat when ``bidder`` takes the talon, gives away and plays
        (played out as :func:`_valuing` says for ``plain``)."""
        points = self._points.get((bidder, plain))
        if points is None:
            hands = list(self.hands)
            hands[bidder] |= self.talon
            _give_away(hands, bidder, self.seats)
            points = _valuing(plain)(hands, self.seats, bidder)
            self._points[bidder, plain] = points
        return points


AUCTION_CACHE = 16
"""Hands whose auction layouts are kept (a few tables' auctions at once)."""
_auction_cache: OrderedDict[tuple[int, int, int, tuple[int, ...]], list[AuctionDeal]] = (
    OrderedDict()
)
_auction_lock = threading.Lock()
"""Bots at several tables think in worker threads at once: one at a time in the cache."""


def _auction_deals(know: Knowledge, count: int) -> list[AuctionDeal]:
    """The auction's layouts for this hand: a pure function of the hand and the table.

    They are dealt from a generator seeded by the hand itself, so a decision is
    the same whether they were dealt now or kept from an earlier decision.
    """
    key = (know.hand, know.seats, know.me, tuple(know.hand_sizes))
    with _auction_lock:
        deals = _auction_cache.get(key)
        if deals is not None and len(deals) >= count:
            _auction_cache.move_to_end(key)
            return deals[:count]
    rng = random.Random(f"auction/{know.hand}/{know.seats}/{know.me}/{know.hand_sizes}")
    take = 3 if know.seats == 3 else 2
    deals = []
    for _ in range(count):
        hands, rest = _deal_out(know, rng)
        talon = list(iter_mask(rest))
        rng.shuffle(talon)
        deals.append(AuctionDeal(hands, sum(1 << c for c in talon[:take]), know.seats))
    with _auction_lock:
        _auction_cache[key] = deals
        while len(_auction_cache) > AUCTION_CACHE:
            _auction_cache.popitem(last=False)
    return deals


AUCTION_KEEP = 8
"""At least this many layouts are valued, however few fit the others' bids."""


def _consistent(know: Knowledge, deals: list[AuctionDeal], bid: int) -> list[AuctionDeal]:
    """The layouts where each other seat's hand is worth about its highest free bid."""
    shown = _shown_bids(know)
    if not shown:
        return deals
    n = know.seats

    def shortfall(deal: AuctionDeal) -> float:
        return max(
            (b - BID_SLACK - bid_value(deal.hands[s], n) for s, b in shown.items()),
            default=0.0,
        )

    fitting = [d for d in deals if shortfall(d) <= 0]
    if len(fitting) >= min(AUCTION_KEEP, len(deals)):
        return fitting
    return sorted(deals, key=shortfall)[:AUCTION_KEEP]


CONTRACT_STEPS = 30
"""Contracts tried above the bid when valuing a hand in the auction (by fives)."""


def _bidding_value(know: Knowledge, results: list[list[int]], bid: int, plain: bool) -> float:
    """This seat's gain over the others' mean from playing at ``bid`` or above.

    The contract is the one of best expected value, as the contract decision names
    it (there with the talon seen), from play-outs valued as ``plain`` says
    (:func:`_calibration`). Bidding only to concede is not counted on.
    """
    me, n = know.me, know.seats
    mine = [r[me] for r in results]
    deltas = [statistics.fmean(_round(r[s]) for r in results) for s in range(n)]
    deltas[me] = max(
        contract_value(know, k, contract_odds(mine, k, _calibration(plain)))
        for k in range(bid, bid + 5 * CONTRACT_STEPS, 5)
    )
    return lead(deltas, me, race(know.totals, me))


def _passing_value(know: Knowledge, results: list[list[int]], bidder: int, high: int) -> float:
    """This seat's gain over the others' mean when ``bidder`` plays at ``high`` or above.

    The bidder names the contract of best expected value to it, or concedes when
    that is worth more to it than playing.
    """
    me, n = know.me, know.seats
    theirs = [r[bidder] for r in results]
    deltas = [statistics.fmean(_round(r[s]) for r in results) for s in range(n)]
    deltas[bidder] = max(
        (2.0 * contract_odds(theirs, k) - 1.0) * k
        for k in range(high, high + 5 * CONTRACT_STEPS, 5)
    )
    weights = race(know.totals, me)
    if conceded(n, bidder, high, bidder) > lead(deltas, bidder):
        return conceded(n, bidder, high, me, weights)
    return lead(deltas, me, weights)


BID_SLACK = 15.0
"""How far below its bid a hand the others bid on may value, when dealt for them."""


def _shown_bids(know: Knowledge) -> dict[int, int]:
    """Each other seat's highest free bid (the first hand's forced 100 shows nothing)."""
    out: dict[int, int] = {}
    first = True
    for seat, action in know.auction:
        if action.startswith("b"):
            amount = int(action[1:])
            forced = first and amount == 100
            first = False
            if seat != know.me and not forced:
                out[seat] = max(out.get(seat, 0), amount)
    return out


def concede_share(contract: int) -> int:
    return (contract + 9) // 10 * 5


def _likely_bidder(know: Knowledge) -> int:
    """Who plays if this seat passes: the high bidder, else the next seat."""
    if know.bidder is not None and know.bidder != know.me:
        return know.bidder
    return (know.me + 1) % know.seats


GIVE_OPTIONS = 4
"""Cards weighed for a give-away: the cheapest by the easy rule..."""
PLAIN_GIVE_OPTIONS = 6
"""...or, valued by the heuristic's play-outs (which cost little), this many, halves of
marriages among them (:func:`may_wed`). Deal trials against easy after a deal it played
in every seat (``python -m bot.sim --game thousand --deals 300 --seats 2 --compare ...
--against easy --after 1``), against four and no such half, 600 deals each, all of the
gain as bidder: seeds from 101600 +2.13 a deal (se 1.49); from 101000 +5.47 (se 1.41),
a variant that also weighed six with look ahead where the others were not judged so
(a half at the worse of the two play-outs). Weighing so with look ahead showed nothing:
the first deal against easy +0.23 (se 1.16, 600), against ismcts after a deal -2.55
(se 1.88, 200)."""


def _give(
    know: Knowledge, legal: list[str], rng: random.Random, budget_ms: float, plain: bool
) -> str:
    """The card to give, valued as the contract will be.

    Each of the cheapest cards is given in the same layouts (dealt to fit the
    auction), the deal is played out as :func:`_valuing` says, and the card is kept
    whose play-outs make the best contract of the game's expected value.
    """
    me, n = know.me, know.seats
    bid = know.bid or 100
    target = min(int(a[3]) for a in legal)
    order = _give_order(know.hand, n)
    if plain:
        options = order[:PLAIN_GIVE_OPTIONS]
    else:
        safe = [c for c in order if not may_wed(know, c, target)]
        options = (safe or order)[:GIVE_OPTIONS]
    layouts = _fitting_layouts(
        know, rng, max(2, _layouts(budget_ms, plain, GIVE_SHARE) // len(options))
    )
    play_out = _valuing(plain)
    best_card = options[0]
    best = -1e9
    for card in options:
        results = [play_out(_given(hands, card, me, target), n, me) for hands in layouts]
        value = _bidding_value(know, results, bid, plain)
        if value > best:
            best_card, best = card, value
    code = f"g{card_code(best_card)}{target}"
    return code if code in legal else legal[0]


def may_wed(know: Knowledge, card: int, target: int) -> bool:
    """Whether giving ``card`` may hand ``target`` both halves of a marriage: a king
    or queen whose partner is neither in this hand, nor played, nor known elsewhere.

    The look-ahead play-outs let a defender declare only when it wins a lead, which
    a bidder who sees every card rarely allows; players do allow it, so such a card
    is given only when every other would be worse to give. The heuristic's play-outs
    have a defender declare whenever it leads with both halves, as easy does.
    """
    mate = partner(card)
    if mate < 0 or not know.unseen >> mate & 1:
        return False
    return not any(know.known[s] >> mate & 1 for s in range(know.seats) if s != target)


def _given(hands: list[int], card: int, me: int, target: int) -> list[int]:
    """``hands`` once ``me`` has given ``card`` to ``target`` and the rest as easy would."""
    given = list(hands)
    given[me] &= ~(1 << card)
    given[target] |= 1 << card
    return _finish_give(given, me, len(hands), target)


def _finish_give(hands: list[int], me: int, n: int, first_target: int) -> list[int]:
    for s in range(n):
        if s != me and s != first_target and hands[s].bit_count() < hands[first_target].bit_count():
            card = give_card(hands[me], n)
            hands[me] &= ~(1 << card)
            hands[s] |= 1 << card
    return hands


def _give_order(hand: int, seats: int) -> list[int]:
    out: list[int] = []
    rest = hand
    while rest:
        c = give_card(rest, seats)
        out.append(c)
        rest &= ~(1 << c)
    return out


def _outcomes_now(know: Knowledge, rng: random.Random, playouts: int) -> list[list[int]]:
    me, n = know.me, know.seats
    bidder = know.bidder if know.bidder is not None else me
    results = []
    for _ in range(max(16, playouts)):
        hands = sample_hands(know, rng)
        results.append(_play_out(hands, n, bidder))
    return results


def searched_play_out(hands: list[int], seats: int, bidder: int) -> list[int]:
    """A whole deal from the bidder's first lead, each card chosen by a look ahead.

    Every seat with a choice tries each card it may play and finishes the deal with
    the heuristic for all: the bidder keeps the card that leaves it the most points,
    the others the one that leaves it the fewest. Defenders who see a marriage
    coming keep the lead instead of handing it over, as plain rollouts do not.
    """
    st = PlayState(seats=seats, hands=list(hands), trump=-1, leader=bidder, bidder=bidder)
    # The points of the heuristic's own play-out from ``st``, once a trial has made it:
    # after the card kept, every seat playing the heuristic's card is that trial.
    ahead: list[int] | None = None
    while not st.done:
        seat = st.to_act
        legal = st.legal()
        if not legal & (legal - 1):
            st.play(legal.bit_length() - 1)
            continue
        sign = 1 if seat == bidder else -1
        own = st.heuristic(seat) if ahead is not None else -1
        best_card = -1
        best = 0
        best_points: list[int] = []
        for card in mask_cards(legal):
            if card == own and ahead is not None:
                points = ahead
            else:
                trial = st.copy()
                trial.play(card)
                trial.rollout()
                points = trial.points
            value = sign * points[bidder]
            if best_card < 0 or value > best:
                best_card, best, best_points = card, value, points
        st.play(best_card)
        ahead = best_points
    return st.points


LAYOUTS_PER_MS = 0.16
"""Layouts played out with look ahead per millisecond of budget, to value the contracts
(32 at the default budget; the give-away shares :data:`GIVE_SHARE` times as many among
its cards). At 40 the contract and the give-away, a twelfth of hard's decisions with a
choice, took 170 and 168 ms at the median and 295 and 257 at the 95th percentile
(bot.bench think, 3 games)."""
AUCTION_SHARE = 0.9
"""The auction's share of that (28 layouts): it plays each layout out twice (bidding and
passing). At 0.5 its decisions took 43 ms of CPU at the median and 72 at the 95th
percentile where the card search's took about 62 and 105 (6 games against easy); at 0.75,
53 and 105; at 0.9 (and a budget of 416 ms), 141 and 226 against the card search's 129-147
and 180-199."""
GIVE_SHARE = 1.5
"""The give-away's share (48 layouts among its cards): at 1.0 its decisions took 74 ms of
CPU at the median, half the card search's time; at 1.5, 113 (budget 416)."""


PLAIN_BIDDING = 0.75
"""How sure hard must be that the others play by the heuristic, as the easy level does
(judged from their plays in the last deal played out, which a deal conceded or dealt
again does not replace), to value the auction, the give-away and the contract by the
heuristic's play-outs, as they will play, rather than with every seat looking ahead.
Judged from the last deal only, against easy, 60 games of 2 players (seeds
85000-85029, both rotations): contracts made 75.1 % -> 82.5 %, points written a deal
70.1 -> 77.4 (paired by game +4.41, se 2.39); valued so in every deal, the first
included, 86.3 % and 80.2. Judged from the last deal played out and with
:data:`PLAIN_LAYOUTS`, against judged from the last deal with twice the layouts, 400
games (seeds 99100-99299): 76.25 -> 76.86 a deal (paired by game +0.46, se 0.56).
Against the reference ismcts no last deal was judged so (16 of them)."""
PLAIN_LAYOUTS = 16.0
"""As many more layouts when they are played out by the heuristic, which costs about a
25th of a look ahead, so the bidding still uses its budget: with twice as many, the
auction, the give-away and the contract took 8 to 9 ms of CPU at the median; with this
many 65, 80 and 112 ms, against 99, 119 and 119 with look ahead (``python -m bot.bench
think --game thousand --games 3``, hard against easy, in the same minutes)."""


def _layouts(budget_ms: float, plain: bool, share: float = 1.0) -> int:
    more = PLAIN_LAYOUTS if plain else 1.0
    return max(8, int(budget_ms * LAYOUTS_PER_MS * share * more))


def _valuing(plain: bool) -> Callable[[list[int], int, int], list[int]]:
    """How a layout is played out to value the bidding: by the heuristic for every
    seat if the others play by it (``plain``), else with every seat looking ahead
    (:func:`searched_play_out`)."""
    return _play_out if plain else searched_play_out


def _searched_outcomes(know: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
    me, n = know.me, know.seats
    bidder = know.bidder if know.bidder is not None else me
    return [searched_play_out(sample_hands(know, rng), n, bidder) for _ in range(count)]


CALIBRATION = (0.0, 1.0, 12.0)
"""``(a, b, sigma)``: a bidder who takes ``p`` points in a look-ahead play-out of a
layout takes about ``a + b * p`` in play (as hard, against as strong a defence), give
or take a normal spread ``sigma``. Checked on 65 of hard's contracts in played deals
(hard against hard and against the reference ismcts, seeds 8000-8119): a line fitted
to the outcomes came out at 6 + 0.99 p, so the play-outs are taken as they are, and
of spreads 10, 15, 20 and 30 points, 10 to 15 predicted the contracts made best."""
BARREL_BONUS = 80.0
"""What sitting on the barrel is worth beyond its 880 points."""


PLAIN_CALIBRATION = (5.0, 1.0, 3.0)
""":data:`CALIBRATION` for play-outs by the heuristic (:data:`PLAIN_BIDDING`): hard plays
its contracts better than the heuristic it plays them out by, so it takes more than
they say, and it plays to make what it names, so a layout its play-out makes is one it
makes. The shift: fitted to 160 of hard's contracts against easy (seeds 70000-70019, both
rotations), the likeliest was 5 points (of 0, 5, 10, 15, 20); checked on 990 more
(seeds 61000-61119) by the Brier score of the chance of making the contract named, the
bid, and 10 and 20 above it: unshifted 0.047, 0.045, 0.058, 0.067; shifted 5 0.040,
0.038, 0.055, 0.061. The spread: with the 12 points of :data:`CALIBRATION`, the odds
between 10 % and 90 % said 0.64 of the contracts named would be made, and 0.76 were.
Deal trials against easy, after a deal it played in every seat (``python -m bot.sim
--game thousand --deals N --seats 2 --compare ... --against easy --after 1``), gain a
deal on the spread of 12, with its standard error: seeds 95000-95299 (600 deals, the
contract only), spread 20 -2.04 (0.36), 6 +2.31 (0.34), a step (0.5, unshifted) +2.73
(0.47); seeds 95300-95499 (400 deals, auction and contract), 6 +2.09 (0.79), 3 +2.85
(0.86), the step +3.51 (1.48). In whole games it shows less: against easy, 400 games
from seed 99100, with a spread of 12 and 3: points a deal 78.04 -> 79.00, margin 72.57
-> 72.47 a deal, bids made 70.5 -> 69.9 %, contracts made 81.0 -> 80.6 %, raising
+89.39 -> +90.67 a game, won 99.2 -> 98.2 %."""


def _calibration(plain: bool) -> tuple[float, float, float]:
    """How hard's own play-outs of a layout map to what it takes (see ``plain``)."""
    return PLAIN_CALIBRATION if plain else CALIBRATION


def contract_odds(
    layouts: Sequence[int], contract: int, calibration: tuple[float, float, float] = CALIBRATION
) -> float:
    """The chance of taking at least ``contract`` points, from the layouts' play-outs."""
    a, b, sigma = calibration
    return statistics.fmean(
        1.0 - NormalDist(a + b * points, sigma).cdf(contract - 0.5) for points in layouts
    )


def standing(total: int, dump_truck: bool) -> float:
    """What a running total is worth: the barrel caps it, the dump truck empties it."""
    if total >= BARREL:
        return BARREL + BARREL_BONUS
    if dump_truck and total in (DUMP_TRUCK, -DUMP_TRUCK):
        return 0.0
    return float(total)


def contract_value(know: Knowledge, contract: int, odds: float) -> float:
    """The expected change in the bidder's standing for naming ``contract``."""
    me = know.me
    total = know.totals[me]
    if total >= BARREL:
        # on the barrel: a made contract wins, whatever its size; a miss costs an attempt
        return odds * 1000.0
    truck = bool(know.conventions.get("dump_truck", True))
    now = standing(total, truck)
    gain = standing(total + contract, truck) - now
    loss = now - standing(total - contract, truck)
    return odds * gain - (1.0 - odds) * loss


def _contract(
    know: Knowledge, legal: list[str], rng: random.Random, budget_ms: float, plain: bool
) -> str:
    me = know.me
    layouts = _layouts(min(budget_ms, CONTRACT_BUDGET_MS), plain)
    results = _contract_outcomes(know, rng, layouts, plain)
    mine = [r[me] for r in results]
    weights = race(know.totals, me)
    others = statistics.fmean(_others_gain(know, r, weights) for r in results)
    contracts = numbers(legal, "k")
    best = contracts[0]
    best_value = -1e9
    for k in contracts:
        value = contract_value(know, k, contract_odds(mine, k, _calibration(plain)))
        if value > best_value:
            best, best_value = k, value
    conceding = concede_value(know, contracts[0], weights)
    if "concede" in legal and conceding > weights[me] * best_value - others:
        return "concede"
    return f"k{best}"


def _others_gain(know: Knowledge, points: list[int], weights: Sequence[float]) -> float:
    """The others' mean gain in standing when they write ``points`` rounded (or ``share``),
    each weighted as ``weights`` has it (:func:`race`)."""
    me, n = know.me, know.seats
    truck = bool(know.conventions.get("dump_truck", True))
    gains = []
    for s in range(n):
        if s == me:
            continue
        if s == know.barrel_seat:
            gains.append(0.0)  # outbid on the barrel, it stands still
            continue
        total = know.totals[s]
        gain = standing(total + _round(points[s]), truck) - standing(total, truck)
        gains.append(weights[s] * gain)
    return statistics.fmean(gains)


def concede_value(know: Knowledge, contract: int, weights: Sequence[float]) -> float:
    """What conceding ``contract`` is worth to the bidder against the game.

    The change in its standing (a bolt, the third of which costs 120 at once, or
    minus the contract where conceding is penalised) less the others' mean gain
    from writing half the contract each (which may seat one on the barrel), each
    weighted as ``weights`` has it (:func:`race`).
    """
    me = know.me
    truck = bool(know.conventions.get("dump_truck", True))
    total = know.totals[me]
    if know.conventions.get("concede_penalty", False):
        mine = standing(total - contract, truck) - standing(total, truck)
    elif know.bolts[me] + 1 >= BOLTS_PER_PENALTY:
        mine = standing(total - BOLT_PENALTY, truck) - standing(total, truck)
    else:
        mine = -BOLT_COST
    share = [concede_share(contract)] * know.seats
    return weights[me] * mine - _others_gain(know, share, weights)


CONTRACT_BUDGET_MS = 1.5 * DEFAULT_BUDGET_MS
"""The contract's layouts grow with the budget up to this one's: they take longest of all
hard's decisions (its play-outs look ahead, and it deals several layouts for each one
it keeps). Uncapped, at the default budget and a speed of 1.4 (:mod:`bot.ai.pace`), the
contract was the slowest tenth of the decisions with a choice: 108 ms at the median and
261 at the 95th percentile, against 162 for every decision with a choice; capped at the
default budget, at a speed of 2.1, 53 and 128, half the card search's time; capped here,
at a speed of about 2.05, 93-110 and 228-262, against 105-110 and 188-206 for every
decision with a choice (``python -m bot.bench think``, 6 games)."""
CONTRACT_TRIES = 4
"""Layouts dealt per layout kept, looking for ones that fit the auction."""


def _contract_outcomes(
    know: Knowledge, rng: random.Random, count: int, plain: bool
) -> list[list[int]]:
    """Play-outs (:func:`_valuing`) of layouts that fit how the others bid and passed.

    A seat that passed holds a hand worth little more than the bid it declined,
    one that bid a hand worth about its bid (the first hand's forced 100 and the
    passes made for it show nothing). Layouts are dealt until ``count`` fit, or
    the best fitting of a few times as many are taken.
    """
    n = know.seats
    bidder = know.bidder if know.bidder is not None else know.me
    play_out = _valuing(plain)
    return [play_out(hands, n, bidder) for hands in _fitting_layouts(know, rng, count)]


def _fitting_layouts(know: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
    """``count`` layouts of the hidden cards that fit the auction, or the best fitting."""
    bounds = _auction_bounds(know)
    layouts: list[tuple[float, list[int]]] = []
    for _ in range(count * CONTRACT_TRIES):
        hands = sample_hands(know, rng)
        layouts.append((_misfit(know, hands, bounds), hands))
        if sum(1 for miss, _ in layouts if miss <= 0) >= count:
            break
    layouts.sort(key=lambda item: item[0])  # stable: fitting layouts in the order dealt
    return [hands for _, hands in layouts[:count]]


def _auction_bounds(know: Knowledge) -> dict[int, tuple[float, float]]:
    """Per other seat: the least and most its hand (as dealt) is worth, by the auction."""
    bounds: dict[int, tuple[float, float]] = {}
    high: int | None = None
    first = True
    for seat, action in know.auction:
        low, top = bounds.get(seat, (-1e9, 1e9))
        if action.startswith("b"):
            amount = int(action[1:])
            if not (first and amount == 100):
                low = max(low, amount - BID_SLACK)
            first = False
            high = amount
        elif action == "pass" and seat not in know.auto_passed:
            top = min(top, (high + 5 if high is not None else 100) + BID_SLACK)
        if seat != know.me:
            bounds[seat] = (low, top)
    return bounds


def _misfit(know: Knowledge, hands: list[int], bounds: dict[int, tuple[float, float]]) -> float:
    """How far the layout's hands (less the cards given them) fall outside the bounds."""
    worst = 0.0
    for seat, (low, top) in bounds.items():
        dealt = hands[seat]
        for card, to in know.given.items():
            if to == seat:
                dealt &= ~(1 << card)
        value = bid_value(dealt, know.seats)
        worst = max(worst, low - value, value - top)
    return worst


def _redeal_hard(know: Knowledge, rng: random.Random, playouts: int) -> str:
    me = know.me
    if know.bidder != me:
        return _redeal(know)
    results = _outcomes_now(know, rng, playouts)
    bid = know.bid or 100
    weights = race(know.totals, me)
    value = max(
        sum(outcome(r, me, bid, me, weights) for r in results) / len(results),
        conceded(know.seats, me, bid, me, weights),
    )
    return "keep" if value >= 0 else "redeal"
