"""What the table's chat is told as a game goes on, beside the table message: the
domain says what happened, the publisher says it in the table's language."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Abandoned", "CameBack", "Notice", "TimedOut", "WentAway", "WentBot"]


@dataclass(frozen=True)
class CameBack:
    """The person a bot was playing for is back in their seat."""

    name: str


@dataclass(frozen=True)
class WentBot:
    """The person left the game: a bot plays their seat now."""

    name: str


@dataclass(frozen=True)
class TimedOut:
    """The person's time ran out: a bot made their move."""

    name: str


@dataclass(frozen=True)
class WentAway:
    """The person let ``turns`` turns in a row time out: a bot plays for them until they
    press a button of the table."""

    name: str
    turns: int


@dataclass(frozen=True)
class Abandoned:
    """Nobody plays at the table any more (a bot played the only person's turns): it
    is closed."""


Notice = CameBack | WentBot | TimedOut | WentAway | Abandoned
"""Any of them."""
