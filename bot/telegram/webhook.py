"""Webhook mode: Telegram posts each update to the bot's own HTTP server.

Set ``WEBHOOK_URL`` (the public HTTPS address Telegram posts to, through whatever proxy
or load balancer is in front) and ``WEBHOOK_SECRET``; the bot listens on
``WEBHOOK_HOST``:``WEBHOOK_PORT`` and serves the URL's path with aiogram's aiohttp
handler. Several replicas may serve one webhook behind a load balancer: they share the
database, and start-up of one does not remove the others' webhook.

- Every request must carry the secret in ``X-Telegram-Bot-Api-Secret-Token``; one
  without it is answered 401 and changes nothing.
- An update is answered once it has been handled, not on arrival: Telegram sends an
  update again until it gets a 2xx, so one whose replica died mid-way is not lost.
- ``GET /healthz`` answers 200 while the database answers (503 otherwise), for the
  load balancer's health check.
- On start the webhook is set with the secret and the update types the handlers use;
  on SIGTERM the server stops taking requests, finishes those it has taken (up to
  :data:`STOP_WAIT` seconds), then the bot closes its database.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from contextlib import suppress
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from bot.db import Database

__all__ = ["HEALTH_PATH", "STOP_WAIT", "WebhookServer"]

log = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
STOP_WAIT = 5.0
"""Seconds a stopping server gives the updates it has taken (``docker stop`` sends
SIGKILL 10 s after SIGTERM)."""
HEALTH_TIMEOUT = 2.0
"""Seconds the health check waits for the database."""


class WebhookServer:
    """aiogram's webhook handler and a health check on an aiohttp server."""

    def __init__(
        self,
        dp: Dispatcher,
        bot: Bot,
        db: Database,
        *,
        url: str,
        secret: str,
        host: str = "0.0.0.0",
        port: int = 8080,
    ) -> None:
        self.dp, self.bot, self.db = dp, bot, db
        self.url, self.secret, self.host, self.port = url, secret, host, port
        self.path = urlsplit(url).path or "/"
        # the dispatcher's shutdown then does not confirm updates with getUpdates
        dp["webhook"] = True
        self._runner: web.AppRunner | None = None

    def application(self) -> web.Application:
        app = web.Application()
        handler = SimpleRequestHandler(
            dispatcher=self.dp, bot=self.bot, secret_token=self.secret, handle_in_background=False
        )
        # the route alone: the bot's session is closed by whoever made it, after the
        # dispatcher's shutdown, not as the server stops
        app.router.add_post(self.path, handler.handle)
        app.router.add_get(HEALTH_PATH, self._health)
        # the dispatcher's start-up (resuming tables, timers) and shutdown run with the app's
        setup_application(app, self.dp, bot=self.bot)
        return app

    async def _health(self, request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self.db.ping(), HEALTH_TIMEOUT)
        except Exception:
            log.warning("health check: the database does not answer", exc_info=True)
            return web.json_response({"ok": False}, status=503)
        return web.json_response({"ok": True})

    async def start(self) -> None:
        """Listen, then have Telegram post the updates here."""
        self._runner = web.AppRunner(
            self.application(), access_log=None, shutdown_timeout=STOP_WAIT
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # a free port was asked for: the one taken
            for address in self._runner.addresses:
                if isinstance(address, tuple):
                    self.port = int(address[1])
                    break
        await self.bot.set_webhook(
            self.url,
            secret_token=self.secret,
            allowed_updates=self.dp.resolve_used_update_types(),
            drop_pending_updates=False,
        )
        log.info("webhook %s served on %s:%s", self.path, self.host, self.port)

    async def stop(self) -> None:
        """Stop taking requests and finish those taken; the webhook stays set (other
        replicas, or this one restarted, serve it)."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def serve(self) -> None:
        """Start, then run until SIGTERM or SIGINT."""
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with suppress(NotImplementedError):  # Windows
                loop.add_signal_handler(sig, stopping.set)
        await self.start()
        try:
            await stopping.wait()
        finally:
            log.info("stopping: finishing the updates taken")
            await self.stop()
