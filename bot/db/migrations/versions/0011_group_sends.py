"""A group's minute in the database: when each of the last messages the bot sent or
edited in a group went, so that every process writing to the group (replicas, or the
bot after a restart) keeps within its 20 messages a minute together.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "group_sends",
        sa.Column("chat_id", Id, primary_key=True, autoincrement=False),
        sa.Column("slot", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("sent_at", sa.Double, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("group_sends")
