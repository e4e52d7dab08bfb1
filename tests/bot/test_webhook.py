"""Webhook mode: Telegram posts updates to the bot's server, with the secret on each."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from aiogram import Bot

from bot.app import create_app
from bot.bench.fake_telegram import FakeTelegram
from bot.bench.fake_telegram.webhook import SECRET_HEADER
from bot.telegram.webhook import HEALTH_PATH, WebhookServer
from tests import fake_telegram_fixtures as fixtures
from tests.bot.test_storage import unreachable
from tests.bot.test_timer import open_table, start

SECRET = "s3cret-Token_1"
fake_bot = fixtures.fake_bot


async def test_updates_come_by_webhook_with_the_secret_checked_on_each(
    fake_telegram: FakeTelegram,
    fake_bot: Bot,
    database_url: str,
    tmp_path: Path,
    unused_tcp_port: int,
) -> None:
    fake = fake_telegram
    app = await create_app(fake_bot, database_url, default_locale="en")
    port = unused_tcp_port
    url = f"http://127.0.0.1:{port}/telegram/updates"
    server = WebhookServer(
        app.dp, fake_bot, app.db, url=url, secret=SECRET, host="127.0.0.1", port=port
    )
    await server.start()
    try:
        # set with the secret and the kinds of update the handlers take
        assert fake.webhook is not None
        assert (fake.webhook["url"], fake.webhook["secret_token"]) == (url, SECRET)
        assert set(fake.webhook["allowed_updates"]) >= {"message", "callback_query"}
        assert set(fake.webhook["allowed_updates"]) == set(app.dp.resolve_used_update_types())

        # whole flows arrive by webhook: a table is opened, joined and started
        group, (ann, _), lobby, table_id = await open_table(fake, "Ann", "Ben")
        await start(fake, lobby, ann)
        record = await app.tables.store.repo.get(table_id)
        assert record is not None and record.state is not None
        assert {status for _, target, status in fake.delivered} == {200}
        assert {target for _, target, _ in fake.delivered} == {url}

        # a request without the secret, or with another one, is refused and changes nothing
        mark = fake.mark()
        update = {
            "update_id": 1,
            "message": {
                "message_id": 1,
                "date": 0,
                "chat": {"id": group.id, "type": "group", "title": "Cards"},
                "from": {"id": ann.id, "is_bot": False, "first_name": "Ann"},
                "text": "/cancel",
            },
        }
        async with aiohttp.ClientSession() as http:
            for headers in ({}, {SECRET_HEADER: "guess"}, {SECRET_HEADER: SECRET + "x"}):
                async with http.post(url, json=update, headers=headers) as response:
                    assert response.status == 401
            async with http.get(f"http://127.0.0.1:{port}{HEALTH_PATH}") as response:
                assert (response.status, await response.json()) == (200, {"ok": True})
            healthy, server.db = server.db, unreachable(tmp_path)
            async with http.get(f"http://127.0.0.1:{port}{HEALTH_PATH}") as response:
                assert response.status == 503
            await server.db.close()
            server.db = healthy
        assert fake.calls(since=mark) == []
        after = await app.tables.store.repo.get(table_id)
        assert after is not None and after.version == record.version
    finally:
        await server.stop()
        await app.close()
    # answered updates are confirmed: stopping asks nothing of getUpdates (refused while
    # a webhook is set)
    assert fake.calls("getUpdates") == []
