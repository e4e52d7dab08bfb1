"""Bot players for Thousand: ``easy`` (hand-written rules), ``hard`` (search) and the
reference ``ismcts`` (textbook information-set MCTS, for matches)."""

from __future__ import annotations

from bot.ai.players import Policy
from bot.ai.thousand.easy import easy_policy
from bot.ai.thousand.hard import hard_policy
from bot.ai.thousand.ismcts import ismcts_policy
from bot.engine.thousand.view import ThousandView

__all__ = ["POLICIES"]

POLICIES: dict[str, Policy[ThousandView]] = {
    "easy": easy_policy,
    "hard": hard_policy,
    "ismcts": ismcts_policy,
}
