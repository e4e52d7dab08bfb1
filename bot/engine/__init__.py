"""Pure game rules: no I/O, no Telegram, deterministic for a given seed."""

from __future__ import annotations

import importlib

from bot.engine.base import Conventions, Game, IllegalAction, JsonDict, ScoreRow, Scoresheet

__all__ = [
    "GAME_NAMES",
    "Conventions",
    "Game",
    "IllegalAction",
    "ScoreRow",
    "Scoresheet",
    "game_class",
    "load_game",
    "new_game",
]

GAME_NAMES: tuple[str, ...] = ("deberts", "thousand")


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass for ``name`` (each game package exports ``GAME``)."""
    if name not in GAME_NAMES:
        raise ValueError(f"unknown game {name!r}")
    module = importlib.import_module(f"bot.engine.{name}")
    cls: type[Game] = module.GAME
    return cls


def new_game(name: str, seats: int, conventions: Conventions | None = None, seed: int = 0) -> Game:
    return game_class(name).new(seats, conventions, seed)


def load_game(data: JsonDict) -> Game:
    return game_class(data["game"]).from_json(data)
