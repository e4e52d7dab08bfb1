"""Results, game ends and where a deal's table message goes are decided once, whichever
of the processes sharing the database shows them."""

from __future__ import annotations

from bot.db import open_database
from bot.db.posts import Posts


async def test_one_process_decides_where_each_deals_table_message_goes(
    database_url: str,
) -> None:
    one, two = await open_database(database_url), await open_database(database_url)
    try:
        first, second = Posts(one), Posts(two)
        assert await second.deal_table(7, 1)
        assert not await first.deal_table(7, 1)
        assert not await second.deal_table(7, 1)  # decided: even its own maker is told so
        assert await first.deal_table(7, 2)  # the next deal, and another table's deal
        assert await first.deal_table(8, 1)
        # a deal's result is claimed apart from where its table message goes
        assert await first.claim(7, 0) and await first.claim(7, 1)
        await first.done(7, 1)
        assert not await second.claim(7, 1)
    finally:
        await one.close()
        await two.close()
