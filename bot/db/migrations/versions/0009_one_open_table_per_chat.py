"""One open table per chat, kept by the database: a unique index on the chat of the
tables in a lobby or in play, so that replicas opening a table in one chat at once
open one. A chat that has more open tables already keeps its newest (the one the bot
shows there); the older are cancelled.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_OPEN = "status IN ('lobby', 'playing')"


def upgrade() -> None:
    op.execute(
        "UPDATE tables SET status = 'cancelled', deadline = NULL, remind_at = NULL"
        f" WHERE {_OPEN} AND EXISTS (SELECT 1 FROM tables AS newer"
        " WHERE newer.chat_id = tables.chat_id AND newer.id > tables.id"
        " AND newer.status IN ('lobby', 'playing'))"
    )
    with op.batch_alter_table("tables") as batch:
        batch.create_index(
            "tables_open_in_chat",
            ["chat_id"],
            unique=True,
            sqlite_where=sa.text(_OPEN),
            postgresql_where=sa.text(_OPEN),
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("tables_open_in_chat")
