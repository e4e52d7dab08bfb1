"""The registry of bot-player levels.

Each game has a module ``bot.ai.<game>`` exporting ``POLICIES``: a dict from
level name to a :data:`Policy`. The ``random`` level is shared by every game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bot.engine.base import Game
from bot.engine.views import View

__all__ = [
    "DEFAULT_BUDGET_MS",
    "LEVELS",
    "REFERENCE_LEVELS",
    "Budgets",
    "Policy",
    "choose",
    "policy_for",
    "random_policy",
]

ViewType = TypeVar("ViewType", bound=View)

Policy = Callable[[ViewType, random.Random, float], str]
"""``policy(view, rng, budget_ms) -> action code``; the view is the acting seat's own,
of the game the policy plays (``Policy[DebertsView]``...)."""

LEVELS: tuple[str, ...] = ("random", "easy", "hard")
REFERENCE_LEVELS: tuple[str, ...] = ("ismcts",)
"""Levels kept to measure the others against in matches (not offered at the tables);
a game's module lists the ones it has in its ``POLICIES``."""
DEFAULT_BUDGET_MS = 200.0
Budgets = Mapping[str, float]
"""What a bot decision is given to think (ms), by game name (:mod:`bot.ai.pace`)."""


def random_policy(view: View, rng: random.Random, budget_ms: float) -> str:
    """A uniformly random legal action: the baseline the other levels must beat."""
    legal = view["legal"]
    return legal[rng.randrange(len(legal))]


def policy_for(game_name: str, level: str) -> Policy[Any]:
    """The policy of ``level`` for the game named ``game_name``: it takes that game's
    views only (``Any`` here, as the game is known by its name)."""
    if level not in LEVELS and level not in REFERENCE_LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if level == "random":
        return random_policy
    module = importlib.import_module(f"bot.ai.{game_name}")
    policies: dict[str, Policy[Any]] = module.POLICIES
    if level not in policies:
        raise ValueError(f"{game_name} has no {level!r} level")
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
