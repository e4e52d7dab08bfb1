"""The table's own rules, beside the games': seats, time to start, turn timers."""

from __future__ import annotations

__all__ = [
    "AWAY_AFTER",
    "BOT_LEVELS",
    "LOBBY_MINUTES",
    "LOBBY_TTL",
    "MIN_SEATS",
    "TURN_TIMERS",
]

MIN_SEATS = 2
"""The fewest players a table starts with; the most is the game's ``max_seats``."""
LOBBY_MINUTES = 30
"""Minutes an unstarted lobby stays open."""
LOBBY_TTL = LOBBY_MINUTES * 60
"""The same in seconds."""
TURN_TIMERS: tuple[int, ...] = (0, 30, 60, 90, 120, 300)
"""The turn timers a table may have, in seconds (0: none)."""
AWAY_AFTER = 3
"""Turns timed out in a row after which a bot keeps the seat until its person returns."""
BOT_LEVELS: tuple[str, ...] = ("easy", "hard")
"""The bot players people may choose, weakest first. The random player is for tests and
benchmarks: it throws points away."""
