"""Bot players: choose an action for a seat from what that seat may know.

``choose(game, seat, level, seed)`` is the one entry point the bot and the match
runner call. A player reads ``game.view(seat)`` only, never hidden state.
"""

from __future__ import annotations

from bot.ai.players import LEVELS, choose

__all__ = ["LEVELS", "choose"]
