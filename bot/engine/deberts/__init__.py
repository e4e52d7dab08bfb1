"""Deberts (Деберц) for 2 and 3 players, as ``RULINGS.md`` reads the seed rules."""

from __future__ import annotations

from bot.engine.deberts.deck import stacked_deck
from bot.engine.deberts.state import Deberts, DebertsConventions, Phase

__all__ = [
    "GAME",
    "Deberts",
    "DebertsConventions",
    "Phase",
    "from_decks",
    "from_position",
    "stacked_deck",
]

GAME = Deberts
from_position = Deberts.from_position
from_decks = Deberts.from_decks
