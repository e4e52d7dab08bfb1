"""Bot players for Thousand: ``easy`` (hand-written rules) and ``hard`` (search)."""

from __future__ import annotations

from bot.ai.players import Policy
from bot.ai.thousand.easy import easy_policy
from bot.ai.thousand.hard import hard_policy
from bot.engine.thousand.view import ThousandView

__all__ = ["POLICIES"]

POLICIES: dict[str, Policy[ThousandView]] = {"easy": easy_policy, "hard": hard_policy}
