"""Webhook delivery, as Telegram does it once ``setWebhook`` names a URL.

Each queued update is POSTed as JSON to the URL with the secret in the
``X-Telegram-Bot-Api-Secret-Token`` header, up to ``max_connections`` (40 unless the
bot asked for another number) at once; one answered with a status other than 2xx, or
not answered, is sent again a moment later. While a webhook is set ``getUpdates`` is
refused, as Telegram refuses it. ``deleteWebhook`` (or ``setWebhook`` with an empty
URL) stops the delivery; updates not delivered stay queued.

Tests may spread the deliveries over several URLs (:attr:`webhook_targets`: one after
another in turn, as a load balancer in front of replicas would) and have an update
delivered twice (:attr:`deliver_twice`), as Telegram does when an answer is lost.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

import aiohttp

from .models import ApiError
from .protocol import DEFAULT_UPDATE_TYPES, Params, update_kind

__all__ = ["SECRET_HEADER", "WEBHOOK_CONFLICT", "WebhookDelivery"]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
RETRY_AFTER = 0.2
"""Seconds before an update whose delivery failed is sent again (Telegram waits longer)."""


class WebhookDelivery:
    """Mixed into :class:`~.server.FakeTelegram`."""

    _updates: list[dict[str, Any]]
    _allowed_updates: frozenset[str]
    _changed: asyncio.Event
    _closing: bool

    webhook: dict[str, Any] | None = None
    """``setWebhook``'s parameters while a webhook is set."""
    webhook_targets: list[str] | None = None
    """Where to deliver instead of the webhook's URL, in turn (``None``: its URL)."""
    deliver_twice: Callable[[dict[str, Any]], bool] | None = None
    """Updates it is true for are delivered a second time once the first was answered."""
    delivered: list[tuple[int, str, int]]
    """Every delivery: update id, URL, HTTP status (0: no answer)."""

    if TYPE_CHECKING:

        def _notify(self) -> None: ...

    def _init_webhook(self) -> None:
        self.webhook = None
        self.delivered = []
        self._delivering: set[int] = set()
        self._twice_done: set[int] = set()
        self._delivery: asyncio.Task[None] | None = None
        self._turn = itertools.count()

    async def api_setWebhook(self, params: Params) -> bool:
        url = params.get("url", "")
        if not isinstance(url, str):
            raise ApiError(400, "Bad Request: bad webhook: URL must be a string")
        if not url:
            await self._stop_webhook()
            return True
        if not url.startswith(("https://", "http://")):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided")
        secret = params.get("secret_token")
        if secret is not None and not (isinstance(secret, str) and 1 <= len(secret) <= 256):
            raise ApiError(400, "Bad Request: bad webhook: secret token is invalid")
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(allowed) or DEFAULT_UPDATE_TYPES
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook = dict(params)
        if self._delivery is None or self._delivery.done():
            self._delivery = asyncio.create_task(self._deliver())
        self._notify()
        return True

    async def api_deleteWebhook(self, params: Params) -> bool:
        if params.get("drop_pending_updates"):
            self._updates.clear()
        await self._stop_webhook()
        return True

    async def api_getWebhookInfo(self, params: Params) -> dict[str, Any]:
        url = self.webhook["url"] if self.webhook else ""
        return {"url": url, "has_custom_certificate": False, "pending_update_count": 0}

    def _refuse_polling_under_webhook(self) -> None:
        if self.webhook is not None:
            raise ApiError(409, WEBHOOK_CONFLICT)

    async def _stop_webhook(self) -> None:
        self.webhook = None
        task, self._delivery = self._delivery, None
        if task is not None:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        self._notify()

    def _target(self) -> str:
        assert self.webhook is not None
        targets = self.webhook_targets or [self.webhook["url"]]
        return targets[next(self._turn) % len(targets)]

    async def _deliver(self) -> None:
        posts: set[asyncio.Task[None]] = set()
        timeout = aiohttp.ClientTimeout(total=60)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            try:
                while self.webhook is not None and not self._closing:
                    most = self.webhook.get("max_connections") or 40
                    allowed = self._allowed_updates
                    self._updates = [u for u in self._updates if update_kind(u) in allowed]
                    for update in self._updates:
                        if len(self._delivering) >= most:
                            break
                        if update["update_id"] not in self._delivering:
                            self._delivering.add(update["update_id"])
                            post = asyncio.create_task(self._post(session, update))
                            posts.add(post)
                            post.add_done_callback(posts.discard)
                    changed = self._changed
                    with suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait(), RETRY_AFTER)
            finally:
                for post in posts:
                    post.cancel()
                await asyncio.gather(*posts, return_exceptions=True)

    async def _post(self, session: aiohttp.ClientSession, update: dict[str, Any]) -> None:
        assert self.webhook is not None
        headers = {}
        if self.webhook.get("secret_token"):
            headers[SECRET_HEADER] = self.webhook["secret_token"]
        url = self._target()
        status = 0
        try:
            async with session.post(url, json=update, headers=headers) as response:
                await response.read()
                status = response.status
        except (aiohttp.ClientError, TimeoutError):
            pass
        self.delivered.append((update["update_id"], url, status))
        if 200 <= status < 300:
            again = self.deliver_twice is not None and self.deliver_twice(update)
            if again and update["update_id"] not in self._twice_done:
                self._twice_done.add(update["update_id"])  # stays queued: sent once more
            else:
                self._updates = [u for u in self._updates if u is not update]
        else:
            await asyncio.sleep(RETRY_AFTER)
        self._delivering.discard(update["update_id"])
        self._notify()
