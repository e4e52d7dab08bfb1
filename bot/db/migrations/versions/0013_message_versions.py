"""Which state of its table each table or hand message shows: replicas leave out an
edit that would take a message back to an older state than one already shown.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "message_versions",
        sa.Column("chat_id", Id, primary_key=True, autoincrement=False),
        sa.Column("message_id", Id, primary_key=True, autoincrement=False),
        sa.Column("table_id", Id, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("shown_at", sa.Double, nullable=False),
    )
    op.create_index("message_versions_by_time", "message_versions", ["shown_at"])


def downgrade() -> None:
    op.drop_index("message_versions_by_time", table_name="message_versions")
    op.drop_table("message_versions")
