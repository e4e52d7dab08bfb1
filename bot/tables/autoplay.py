"""Forced last cards: when the seat to act has one card left and may play it, the table
plays it for them after a moment (a table setting, on by default)."""

from __future__ import annotations

from bot.db.models import TableRecord
from bot.engine.base import Game

__all__ = ["AUTOPLAY_AFTER", "forced_card"]

AUTOPLAY_AFTER = 1.5
"""Seconds a forced card waits before it is played: long enough to see whose it is."""


def forced_card(record: TableRecord, game: Game) -> str | None:
    """The card the table plays for the person to act, if it plays one: the table plays
    them, a person (not a bot) is to act in the last trick, and the one card they hold is
    the one move they have."""
    seat = game.current_seat()
    if not record.autoplay or seat is None or record.seats[seat].is_bot:
        return None
    legal = game.legal_actions(seat)
    if len(legal) != 1 or not legal[0].startswith("c"):
        return None
    view = game.view(seat, brief=True)
    if view["phase"] != "play" or len(view["hand"]) != 1:
        return None
    return legal[0]
