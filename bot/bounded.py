"""Bounded in-memory keeping: the bot runs for months and meets more tables and people
than it should hold at once, so what it keeps (rows, parsed games, languages) is capped.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["keep"]

K = TypeVar("K")
V = TypeVar("V")


def keep(kept: dict[K, V], key: K, value: V, bound: int) -> None:
    """Keep ``value`` as the newest of ``kept``; past ``bound`` the oldest goes (whoever
    needs it again reads it from where it came from)."""
    kept.pop(key, None)
    kept[key] = value
    if len(kept) > bound:
        del kept[next(iter(kept))]
