"""``python -m bot`` with table seeds counted up from ``argv[1]``, so a run repeats exactly."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

from bot import app as app_module
from bot.__main__ import main
from bot.config import load_settings


def run(first_seed: int) -> None:
    seeds = iter(range(first_seed, first_seed + 10_000))
    create_app = app_module.create_app

    async def seeded(*args: Any, **kwargs: Any) -> app_module.App:
        # the random player moves at once: the tests are not about the bots' play
        kwargs.setdefault("bot_level", "random")
        return await create_app(*args, seed_source=lambda: next(seeds), **kwargs)

    app_module.create_app = seeded  # type: ignore[assignment]
    settings = load_settings()
    logging.basicConfig(level=settings.log_level.upper())
    asyncio.run(main(settings))


if __name__ == "__main__":
    run(int(sys.argv[1]))
