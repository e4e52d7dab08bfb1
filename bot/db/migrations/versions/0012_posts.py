"""Results posted: a deal's result or a game's end is claimed in the database by the
process that posts it, so that replicas showing the same change post it once.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "posts",
        sa.Column("table_id", Id, primary_key=True, autoincrement=False),
        sa.Column("row_no", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("claimed_at", sa.Double, nullable=False),
        sa.Column("owner", sa.Text, nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("posts_by_time", "posts", ["claimed_at"])


def downgrade() -> None:
    op.drop_index("posts_by_time", table_name="posts")
    op.drop_table("posts")
