"""Each deal's result and each game's end posted once, whichever process shows it.

Replicas sharing the database may show the same change of a table at once (a press
on one, its table's timer on another, or two starting up), and each would post the
results it finds unposted. Before posting one, a process claims it: one ``INSERT`` of
the table and the scoresheet row (one past the last for the end of the game), which
only the first to claim it makes; once posted, the claim is marked done. A post that
fails gives its claim back, so that a later attempt posts it.

A claim not done belongs to a process that may have died while posting. The bot alone
on its database (SQLite) knows that a claim made before it started is such a one, and
takes it over; replicas take over a claim left undone for :data:`LEASE` seconds. A
result is thus posted again only when its poster died after Telegram had it but
before marking it done. Claims are kept :data:`KEEP` seconds.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import sqlalchemy as sa

from bot.db.database import Database
from bot.db.pruning import DAY, Pruner
from bot.db.schema import posts

__all__ = ["KEEP", "LEASE", "Posts"]

KEEP = DAY
LEASE = 120.0
"""Seconds a replica's claim not done is its own: a post waits out Telegram's retries."""

# ON CONFLICT … DO UPDATE reads the same in SQLite and PostgreSQL
_CLAIM = sa.text(
    "INSERT INTO posts (table_id, row_no, claimed_at, owner, done)"
    " VALUES (:table_id, :row_no, :now, :owner, 0)"
    " ON CONFLICT (table_id, row_no) DO UPDATE"
    " SET claimed_at = excluded.claimed_at, owner = excluded.owner"
    " WHERE posts.done = 0 AND posts.owner <> excluded.owner"
    " AND (CAST(:alone AS INTEGER) = 1 OR posts.claimed_at < :stale)"
)
# the same, made done at once: nothing is posted that could fail
_DECIDE = sa.text(
    "INSERT INTO posts (table_id, row_no, claimed_at, owner, done)"
    " VALUES (:table_id, :row_no, :now, :owner, 1)"
    " ON CONFLICT (table_id, row_no) DO NOTHING"
)
_MINE = (posts.c.table_id == sa.bindparam("key_table"), posts.c.row_no == sa.bindparam("key_row"))
_DONE = sa.update(posts).where(*_MINE, posts.c.owner == sa.bindparam("me")).values(done=1)
_GIVE_BACK = sa.delete(posts).where(*_MINE, posts.c.owner == sa.bindparam("me"))
_PRUNE = sa.delete(posts).where(posts.c.claimed_at < sa.bindparam("before"))


class Posts:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self.owner = uuid.uuid4().hex
        """This process, in its claims."""
        self._pruner = Pruner(_PRUNE, keep=KEEP)

    async def claim(self, table_id: int, row_no: int) -> bool:
        """Whether this process is the one to post the table's scoresheet row ``row_no``
        (0 the first; the number of rows: the end of the game)."""
        now = self.clock()
        params = {
            "table_id": table_id,
            "row_no": row_no,
            "now": now,
            "owner": self.owner,
            "alone": int(self.db.only_writer),
            "stale": now - LEASE,
        }
        async with self.db.connect() as conn:
            claimed = bool((await conn.execute(_CLAIM, params)).rowcount)
            await self._pruner.wrote(conn, now)
        return claimed

    async def deal_table(self, table_id: int, deal_no: int) -> bool:
        """Whether this process is the one to decide where the table message of the
        table's deal ``deal_no`` goes as the deal starts (sent anew below what came
        since, or left where it is): each replica showing the deal for the first time
        would otherwise send it anew. Claimed as row ``-1 - deal_no``, which no
        scoresheet row is, and done at once."""
        now = self.clock()
        params = {"table_id": table_id, "row_no": -1 - deal_no, "now": now, "owner": self.owner}
        async with self.db.connect() as conn:
            decided = bool((await conn.execute(_DECIDE, params)).rowcount)
            await self._pruner.wrote(conn, now)
        return decided

    async def done(self, table_id: int, row_no: int) -> None:
        """It is posted."""
        async with self.db.connect() as conn:
            await conn.execute(_DONE, {"key_table": table_id, "key_row": row_no, "me": self.owner})

    async def give_back(self, table_id: int, row_no: int) -> None:
        """Posting it failed: it is to be posted again."""
        async with self.db.connect() as conn:
            params = {"key_table": table_id, "key_row": row_no, "me": self.owner}
            await conn.execute(_GIVE_BACK, params)
