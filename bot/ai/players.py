"""The registry of bot-player levels.

Each game has a module ``bot.ai.<game>`` exporting ``POLICIES``: a dict from
level name to a :data:`Policy`. The ``random`` level is shared by every game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

from bot.engine.base import Game, JsonDict

__all__ = ["DEFAULT_BUDGET_MS", "LEVELS", "Policy", "choose", "policy_for", "random_policy"]

Policy = Callable[[JsonDict, random.Random, float], str]
"""``policy(view, rng, budget_ms) -> action code``; the view is the acting seat's own."""

LEVELS: tuple[str, ...] = ("random", "easy", "hard")
DEFAULT_BUDGET_MS = 200.0


def random_policy(view: JsonDict, rng: random.Random, budget_ms: float) -> str:
    """A uniformly random legal action: the baseline the other levels must beat."""
    legal: list[str] = view["legal"]
    return legal[rng.randrange(len(legal))]


def policy_for(game_name: str, level: str) -> Policy:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if level == "random":
        return random_policy
    module = importlib.import_module(f"bot.ai.{game_name}")
    policies: dict[str, Policy] = module.POLICIES
    return policies[level]


def choose(
    game: Game, seat: int, level: str, seed: int, budget_ms: float = DEFAULT_BUDGET_MS
) -> str:
    """The action ``level`` takes for ``seat`` now, deterministic for ``seed``.

    Only ``game.view(seat)`` reaches the policy: a bot player never sees hidden cards.
    """
    policy = policy_for(type(game).name, level)
    view = game.view(seat)
    if not view["legal"]:
        raise ValueError(f"seat {seat} has nothing to do now")
    return policy(view, random.Random(seed), budget_ms)
