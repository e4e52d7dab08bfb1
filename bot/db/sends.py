"""A group's minute, kept in the database: Telegram lets a bot send or edit about 20
messages a minute in a group, whichever of the bot's processes makes them.

Each group has one row per message it may get in a minute (its slots), holding when
that slot was last used. Taking a slot is one ``UPDATE`` of the slot used longest ago,
if that was a minute or more before: the row is locked as it is taken, and a slot
another process is taking at that moment is passed over (``SKIP LOCKED``), so however
many processes write to the group, no minute holds more messages than it has slots.
The slots are in the database, so the bot restarted finds the minute as it was.
A group's slots are made as it first needs them: as many as the most messages it
has had in a minute.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from bot.db.database import Database
from bot.db.pruning import Pruner
from bot.db.schema import group_sends

__all__ = ["HELD", "MARGIN", "MINUTE", "GroupMinutes"]

MINUTE = 60.0
MARGIN = 1.0
HELD = MINUTE + MARGIN
"""Seconds a slot stays taken: a minute and a second more. A message reaches Telegram a
moment after its slot is taken, later when the machine is busy: one whose slot was
taken a minute to the millisecond after another's could arrive within the minute
Telegram counts from that one's arrival."""
_ATTEMPTS = 4
_LOOK_AGAIN = 0.1
"""Seconds to wait when every free slot was being taken by another process."""

_S = group_sends.c
_FREE_SLOT = (
    sa.select(_S.slot)
    .where(
        _S.chat_id == sa.bindparam("key_chat"),
        _S.slot < sa.bindparam("limit"),
        _S.sent_at <= sa.bindparam("before"),
    )
    .order_by(_S.sent_at, _S.slot)
    .limit(1)
    .with_for_update(skip_locked=True)
    .scalar_subquery()
)
_TAKE = (
    sa.update(group_sends)
    # the slot's time looked at again: another process may have taken it meanwhile
    .where(
        _S.chat_id == sa.bindparam("key_chat"),
        _S.slot == _FREE_SLOT,
        _S.sent_at <= sa.bindparam("before"),
    )
    .values(sent_at=sa.bindparam("now"))
)
_SLOTS = sa.select(sa.func.count(), sa.func.min(_S.sent_at)).where(
    _S.chat_id == sa.bindparam("key_chat"), _S.slot < sa.bindparam("limit")
)
# ON CONFLICT … DO NOTHING reads the same in SQLite and PostgreSQL
_MAKE = sa.text(
    "INSERT INTO group_sends (chat_id, slot, sent_at) VALUES (:chat_id, :slot, :sent_at)"
    " ON CONFLICT (chat_id, slot) DO NOTHING"
)
_PRUNE = sa.delete(group_sends).where(
    _S.chat_id.in_(
        sa.select(_S.chat_id)
        .group_by(_S.chat_id)
        .having(sa.func.max(_S.sent_at) < sa.bindparam("before"))
    )
)


class GroupMinutes:
    """The groups' minutes in the database (see the module)."""

    def __init__(self, db: Database, *, margin: Callable[[], float] | None = None) -> None:
        """``margin``: the seconds past the minute a slot stays taken (:data:`MARGIN`
        unless given), by the clock the times are given in."""
        self.db = db
        self.margin = margin
        # a group's slots are kept a day after its last message
        self._pruner = Pruner(_PRUNE)

    async def take(self, chat_id: int, now: float, limit: int) -> float:
        """Take one of the group's ``limit`` messages of the minute up to ``now``:
        ``0.0``; or, when the minute has had them all, the seconds until one is free
        again, and nothing is taken. One statement while the group has a free slot."""
        held = MINUTE + (MARGIN if self.margin is None else self.margin())
        params: dict[str, Any] = {
            "key_chat": chat_id,
            "limit": limit,
            "now": now,
            "before": now - held,
        }
        for _ in range(_ATTEMPTS):
            async with self.db.connect() as conn:
                if (await conn.execute(_TAKE, params)).rowcount:
                    await self._pruner.wrote(conn, now)
                    return 0.0
                made, oldest = (await conn.execute(_SLOTS, params)).one()
                if made < limit:
                    # a group that has had fewer messages a minute so far: one more slot
                    new = {"chat_id": chat_id, "slot": made, "sent_at": now}
                    if (await conn.execute(_MAKE, new)).rowcount:
                        return 0.0
                    continue  # another process made it meanwhile
            wait = float(oldest) + held - now
            if wait > 0:
                return wait
            # a slot is free, and another process is taking it: look again
        return _LOOK_AGAIN
