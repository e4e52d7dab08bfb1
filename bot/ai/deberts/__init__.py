"""Deberts bot players.

``easy`` plays a hand-written strategy: it orders on a hand evaluation, cashes
master cards, draws trumps as the bidder, takes points cheaply and discards low.
``hard`` deals the cards it cannot see consistently with everything its seat
knows; it searches the play with one tree over those layouts, played out by the easy
strategy, and solves the last tricks exactly; a bid's options it plays out with the
easy strategy. It values a deal by the chance to win the game that the deal leaves
(:mod:`bot.ai.deberts.outlook`), not by the deal's points alone.
``ismcts`` is the reference level of matches: textbook information-set MCTS.
"""

from __future__ import annotations

from bot.ai.deberts.ismcts import ismcts_policy
from bot.ai.deberts.policies import easy_policy, hard_policy
from bot.ai.players import Policy
from bot.engine.deberts.view import DebertsView

__all__ = ["POLICIES", "easy_policy", "hard_policy", "ismcts_policy"]

POLICIES: dict[str, Policy[DebertsView]] = {
    "easy": easy_policy,
    "hard": hard_policy,
    "ismcts": ismcts_policy,
}
"""The Deberts players: ``policy(view, rng, budget_ms) -> action code``."""
