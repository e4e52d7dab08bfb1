"""``python -m bot``: the bot with the settings from the environment and ``.env``: long
polling, or a webhook server when ``WEBHOOK_URL`` is set."""

from __future__ import annotations

import asyncio
import gc
import logging

from bot.config import Settings, load_settings
from bot.loop import run

log = logging.getLogger("bot")

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
GC_THRESHOLDS = (10_000, 10, 10)
"""Python's default (700, 10, 10) has the collector look for cycles after every few
presses: under load that was about 7% of the bot's CPU, with a full collection of
tens of milliseconds every few seconds. Almost everything a press makes is freed as
soon as it is done with, so looking fourteen times less often holds back little
garbage (about 1 MB more at the peak, with 500 busy tables)."""


async def main(settings: Settings) -> None:
    # aiogram is imported only once the settings are known to be usable
    from bot.ai import pace
    from bot.app import create_app, make_bot

    # before the updates come: a timing wants the CPU to itself
    speeds = await asyncio.to_thread(pace.speeds, settings.bot_speed)
    budgets = pace.budgets_for(speeds)
    log.info("bot players think at speed %s", pace.describe(speeds, budgets))
    bot = make_bot(settings)
    app = await create_app(
        bot,
        settings.database,
        default_locale=settings.default_locale,
        default_timer=settings.turn_timer,
        group_messages_per_minute=settings.group_messages_per_minute,
        budgets=budgets,
        database_options=settings.database_options,
        update_workers=settings.update_workers,
    )
    # What is loaded by now (rules, bot players' tables) lives as long as the process.
    # Frozen, the collector no longer walks it in every full collection: that walk
    # stalled every press in flight for tens of milliseconds.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        if settings.webhook_url and settings.webhook_secret is not None:
            from bot.telegram.webhook import WebhookServer

            server = WebhookServer(
                app.dp,
                bot,
                app.db,
                url=settings.webhook_url,
                secret=settings.webhook_secret.get_secret_value(),
                host=settings.webhook_host,
                port=settings.webhook_port,
            )
            await server.serve()
        else:
            # UPDATE_WORKERS updates are handled at once; the rest wait in Telegram's queue
            await app.dp.start_polling(bot, tasks_concurrency_limit=settings.update_workers)
    finally:
        await app.close()


def start() -> None:
    """The bot as ``python -m bot`` runs it, until it is stopped."""
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level.upper(),
        format=LOG_FORMAT,
    )
    run(main(settings))


if __name__ == "__main__":
    start()
