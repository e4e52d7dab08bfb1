"""The HTTP client's tests run on asyncio's loop and on uvloop, which the bot runs on
where it is installed: its transports are its own classes, not asyncio's."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

import pytest


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    factories: dict[str, Callable[[], asyncio.AbstractEventLoop]] = {
        "asyncio": asyncio.new_event_loop
    }
    try:
        import uvloop
    except ImportError:  # not built for this platform
        return factories
    factories["uvloop"] = uvloop.new_event_loop
    return factories
