"""A reference level: textbook single-observer information-set MCTS.

The method of Cowling, Powley and Whitehouse (2012), kept plain so that the
other levels can be measured against it: each iteration deals the hidden cards
once (consistently with what the seat has seen: voids, the cards known to sit in
a hand), walks down one tree shared by every deal with UCB1 over the cards legal
in that deal (a child's count of availability stands in for its parent's
visits), adds one node, finishes the deal with uniformly random legal cards and
credits each node with the deal's result for the seat that moved into it. It
searches the card play; the auction, the seven swap and the four sevens follow
the easy level's rules.

The number of iterations is a fixed amount per millisecond of budget, chosen
so that a decision takes about as long as the hard level's; a seed always
gives the same decision.
"""

from __future__ import annotations

import random

from bot.ai.deberts.knowledge import Knowledge, read_view
from bot.ai.deberts.policies import card_code, easy_policy, extra_action
from bot.ai.deberts.sampling import sample_hands
from bot.ai.deberts.search import tree_search
from bot.ai.deberts.table import Table
from bot.engine.cards import iter_mask
from bot.engine.deberts.view import DebertsView

__all__ = ["ITERATIONS_PER_MS", "ismcts_policy", "search"]

ITERATIONS_PER_MS = 14.0
"""Iterations per millisecond of budget: about the hard level's time per decision (see
the closing figures of ``python -m bot.sim --game deberts --levels hard,ismcts``)."""


def ismcts_policy(view: DebertsView, rng: random.Random, budget_ms: float) -> str:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if view["phase"] != "play":
        return easy_policy(view, rng, budget_ms)  # the auction as easy bids
    know = read_view(view)
    extra = extra_action(know, legal)
    if extra is not None:
        return extra  # the seven swap and the four sevens as easy takes them
    iterations = max(32, int(budget_ms * ITERATIONS_PER_MS))
    return "c" + card_code(search(know, rng, iterations))


def search(know: Knowledge, rng: random.Random, iterations: int) -> int:
    """The most visited card at the root."""
    draw = rng.random

    def random_card(table: Table, seat: int) -> int:
        # the rollout: uniformly random legal cards
        moves = list(iter_mask(table.legal(seat)))
        return moves[int(draw() * len(moves))]

    return tree_search(know, rng, iterations, sample_hands, random_card)
