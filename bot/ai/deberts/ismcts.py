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

The number of iterations is a fixed amount of work per millisecond of budget,
counted in card plays as the hard level counts its own, chosen so that a decision
takes about as long as the hard level's at every point of the deal; a seed always
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

__all__ = ["ITERATION_PLAYS", "PLAYS_PER_MS", "ismcts_policy", "search"]

PLAYS_PER_MS = 160.0
"""Work per millisecond of budget, in card plays, so that a decision of the card play takes
about as long as the hard level's: ``python -m bot.bench think --game deberts --games 3``,
the card play's decisions, two runs of each level interleaved: CPU p50 165.8 and 173.0 ms
against hard's 177.7 and 162.9 (at a fixed 14 iterations a millisecond it had been about
1.3 times hard's, and 1.7 times at the first trick)."""
ITERATION_PLAYS = 5
"""What an iteration costs besides its card plays, in card plays: dealing the hidden
cards and setting the table out (an iteration of 600 timed at each number of cards
left: 0.054 ms with 4 cards left in all hands, 0.137 ms with 18)."""


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
    plays = sum(know.hand_sizes) + ITERATION_PLAYS
    iterations = max(32, int(budget_ms * PLAYS_PER_MS / plays))
    return "c" + card_code(search(know, rng, iterations))


def search(know: Knowledge, rng: random.Random, iterations: int) -> int:
    """The most visited card at the root."""
    draw = rng.random

    def random_card(table: Table, seat: int) -> int:
        # the rollout: uniformly random legal cards
        moves = list(iter_mask(table.legal(seat)))
        return moves[int(draw() * len(moves))]

    return tree_search(know, rng, iterations, sample_hands, random_card)
