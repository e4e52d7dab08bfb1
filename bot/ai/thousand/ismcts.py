"""A reference level: textbook single-observer information-set MCTS.

The method of Cowling, Powley and Whitehouse (2012), kept plain so that the
other levels can be measured against it: each iteration deals the hidden cards
once (consistently with what the seat knows), walks down one tree shared by
every deal with UCB1 over the moves legal in that deal (a child's count of
availability stands in for its parent's visits), adds one node, finishes the
deal with uniformly random legal cards and credits each node with the result
for the seat that moved into it. It searches the card play and the contract
(the contract at the root, then the play beneath it); the auction, the talon,
the give-away and the redeal follow the easy level's rules.

The number of iterations is a fixed amount per millisecond of budget, chosen
so that a decision takes about as long as the hard level's; a seed always
gives the same decision.
"""

from __future__ import annotations

import random

from bot.ai.thousand.cards import card_code
from bot.ai.thousand.easy import easy_policy, numbers
from bot.ai.thousand.hard import concede_share
from bot.ai.thousand.knowledge import Knowledge, read
from bot.ai.thousand.sampling import sample_hands
from bot.ai.uct import Node, credit, descend
from bot.engine.cards import iter_mask
from bot.engine.thousand.playout import SimDeal
from bot.engine.thousand.rules import round_whistler
from bot.engine.thousand.view import ThousandView

__all__ = ["ITERATIONS_PER_MS", "ismcts_policy"]

ITERATIONS_PER_MS = 8.0
"""Iterations per millisecond of budget: about the hard level's time per decision. By
``python -m bot.bench think --game thousand`` at 200 ms, decisions with a choice took
129 ms of CPU at the median, 250 at the 95th percentile (hard: 135 and 230)."""
SCALE = 250.0
"""Deal points per unit of reward."""
CONCEDE = -1
"""The root move that concedes the deal (contract phase)."""


def ismcts_policy(view: ThousandView, rng: random.Random, budget_ms: float) -> str:
    legal: list[str] = view["legal"]
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase not in ("play", "contract"):
        return easy_policy(view, rng, budget_ms)
    know = read(view)
    iterations = max(32, int(budget_ms * ITERATIONS_PER_MS))
    move = search(know, rng, iterations)
    if phase == "contract":
        return "concede" if move == CONCEDE else f"k{move}"
    return "c" + card_code(move)


def _deal_values(points: list[int], bidder: int, contract: int) -> list[float]:
    """Each seat's deal result against the others' mean, in reward units."""
    n = len(points)
    written = [
        float(contract if points[s] >= contract else -contract)
        if s == bidder
        else float(round_whistler(points[s]))
        for s in range(n)
    ]
    total = sum(written)
    return [(written[s] - (total - written[s]) / (n - 1)) / SCALE for s in range(n)]


def _conceded_values(seats: int, bidder: int, contract: int) -> list[float]:
    share = float(concede_share(contract))
    written = [share] * seats
    written[bidder] = 0.0
    total = sum(written)
    return [(written[s] - (total - written[s]) / (seats - 1)) / SCALE for s in range(seats)]


def _start(know: Knowledge, hands: list[int]) -> SimDeal:
    """The deal as it stands in one dealing of the hidden cards."""
    bidder = know.bidder if know.bidder is not None else know.me
    if know.phase == "contract":
        return SimDeal(hands, bidder)
    for seat, card in know.trick:
        hands[seat] |= 1 << card
    leader = know.trick[0][0] if know.trick else know.leader
    sim = SimDeal(
        hands,
        leader,
        know.trump,
        first_lead_done=know.first_lead_done and not know.trick,
        ace_marriage=bool(know.conventions.get("ace_marriage")),
        points=know.points,
    )
    for _, card in know.trick:
        sim.play(card)
    return sim


def search(know: Knowledge, rng: random.Random, iterations: int) -> int:
    """The most visited root move: a card, a contract, or :data:`CONCEDE`."""
    me = know.me
    n = know.seats
    bidder = know.bidder if know.bidder is not None else me
    contracts: list[int] = []
    if know.phase == "contract":
        contracts = numbers(know.legal, "k")
        if "concede" in know.legal:
            contracts.append(CONCEDE)
    contract = know.contract or know.bid or 100
    root = Node(seat=-1)
    draw = rng.random
    for _ in range(iterations):
        hands = sample_hands(know, rng)
        sim = _start(know, hands)
        path = [root]
        values: list[float] | None = None
        expanded = False
        target = contract
        if contracts:
            # the contract: every option is legal in every dealing
            pick, expanded = descend(path, contracts, me, rng)
            if pick == CONCEDE:
                values = _conceded_values(n, bidder, contracts[0])
            else:
                target = pick
        while values is None and not sim.done:
            moves = list(iter_mask(sim.legal()))
            if expanded:
                # the rollout: uniformly random legal cards
                sim.play(moves[int(draw() * len(moves))])
                continue
            pick, expanded = descend(path, moves, sim.to_act, rng)
            sim.play(pick)
        if values is None:
            values = _deal_values(sim.points, bidder, target)
        credit(path, values)
    return root.most_visited()
