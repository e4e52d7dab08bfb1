"""Runs the bot's event loop: uvloop where it is installed, asyncio's own loop elsewhere.

The bot spends most of its CPU in the event loop's networking (polling Telegram,
a request per message it sends or edits); uvloop does that part in C and so leaves
more of the one core for the presses themselves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run"]

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    try:
        import uvloop
    except ImportError:  # not built for this platform (Windows): the standard loop
        return asyncio.run(main)
    return uvloop.run(main)
