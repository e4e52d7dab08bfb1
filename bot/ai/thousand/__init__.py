"""Bot players for Thousand: ``easy`` (hand-written rules), ``hard`` (search) and the
reference ``ismcts`` (textbook information-set MCTS, for matches)."""

from __future__ import annotations

from bot.ai.players import Policy
from bot.ai.thousand.easy import easy_policy
from bot.ai.thousand.four import for_four
from bot.ai.thousand.hard import hard_policy
from bot.ai.thousand.ismcts import ismcts_policy
from bot.engine.thousand.view import ThousandView

__all__ = ["POLICIES"]

# With four players the three playing a deal play it as a table of three.
POLICIES: dict[str, Policy[ThousandView]] = {
    "easy": for_four(easy_policy),
    "hard": for_four(hard_policy),
    "ismcts": for_four(ismcts_policy),
}
