"""What a press or a command is answered with."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Reply"]


@dataclass(frozen=True)
class Reply:
    """What to tell the user who acted: a toast, an alert, or a link to open."""

    text: str | None = None
    alert: bool = False
    url: str | None = None
