"""Thousand (Тысяча, 1000) for 2, 3 or 4 players (with four the dealer sits out)."""

from __future__ import annotations

from bot.engine.thousand.game import ThousandGame
from bot.engine.thousand.position import complete_deal
from bot.engine.thousand.rules import ThousandConventions

__all__ = [
    "GAME",
    "ThousandConventions",
    "ThousandGame",
    "complete_deal",
    "from_hands",
    "from_play",
]

GAME = ThousandGame
from_hands = ThousandGame.from_hands
from_play = ThousandGame.from_play
