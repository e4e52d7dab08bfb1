"""Who acts on a table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

__all__ = ["Person"]


@dataclass(frozen=True)
class Person:
    """The user acting; ``is_admin`` asks whether they run the chat the press came from."""

    id: int
    name: str
    is_admin: Callable[[], Awaitable[bool]] | None = field(default=None, compare=False)
