"""``python -m bot`` with table seeds counted up from ``first_seed``, so a run repeats
exactly; with ``clock``, its messages paced by that :class:`FastClock`; with
``every_table``, every table is dealt with that one seed, whichever process opens it."""

from __future__ import annotations

from typing import Any

from bot import __main__ as bot_main
from bot import app as app_module
from tests.e2e.clock import FastClock


def run(first_seed: int, clock: FastClock | None = None, *, every_table: bool = False) -> None:
    seeds = iter(range(first_seed, first_seed + 10_000))
    create_app = app_module.create_app

    def seed() -> int:
        return first_seed if every_table else next(seeds)

    async def seeded(*args: Any, **kwargs: Any) -> app_module.App:
        # the random player moves at once: the tests are not about the bots' play
        kwargs.setdefault("bot_level", "random")
        if clock is not None:
            # a message reaches Telegram within a second of the wall's after its slot is
            # taken, however fast the clock runs
            kwargs.update(clock=clock, sleep=clock.sleep, send_margin=clock.speed)
        return await create_app(*args, seed_source=seed, **kwargs)

    app_module.create_app = seeded  # type: ignore[assignment]
    bot_main.start()
