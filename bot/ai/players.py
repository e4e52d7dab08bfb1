"""The registry of bot-player levels."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine.base import Game, JsonDict

__all__ = ["LEVELS", "Policy", "choose", "random_policy"]

Policy = Callable[[str, JsonDict, random.Random], str]
"""``policy(game_name, view, rng) -> action code``; the view is the seat's own."""


def random_policy(game_name: str, view: JsonDict, rng: random.Random) -> str:
    """A uniformly random legal action: the baseline the other levels must beat."""
    legal: list[str] = view["legal"]
    return legal[rng.randrange(len(legal))]


LEVELS: dict[str, Policy] = {"random": random_policy}


def choose(game: Game, seat: int, level: str, seed: int) -> str:
    """The action ``level`` takes for ``seat`` now, deterministic for ``seed``."""
    policy = LEVELS.get(level)
    if policy is None:
        raise ValueError(f"unknown bot level {level!r}")
    view = game.view(seat)
    if not view["legal"]:
        raise ValueError(f"seat {seat} has nothing to do now")
    return policy(type(game).name, view, random.Random(seed))
